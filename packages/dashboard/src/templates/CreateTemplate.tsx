/**
 * Creating a template (`/templates/new`): a version from a starter template
 * (`GET /organizations/{org}/templates/examples`, created with `example_id`) or from an uploaded
 * archive (`POST /files`, then the version with `file_id`), its import followed live (and its
 * required template variables asked for when it lacks them); then its template variables
 * (`GET /templateversions/{id}/variables`), the defaults filled in, the version imported again
 * when the person changes them; then the template's name, display name and description
 * (`POST /organizations/{org}/templates`), and its page.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { type FormEvent, Fragment, useId, useState } from "react"
import { Link, useNavigate } from "react-router"
import { ErrorMessage, formValues } from "../ui/Form.tsx"
import {
  fieldError,
  templatesApi as api,
  type TemplateVariable,
  type TemplateVersion,
  type VariableValue
} from "./api.ts"
import { TextField } from "./Fields.tsx"
import { ImportProgress, useImport } from "./ImportVersion.tsx"
import { examplesQuery, provisionerTypesQuery, templateKeys, variablesQuery } from "./queries.ts"
import { changesValues, VariablesForm, withKeptSecrets } from "./VariablesForm.tsx"
import "./styles.css"

export const CreateTemplatePage = () => {
  const run = useImport()
  // Whether the person went through the variables step (or gave the values a failed import asked for).
  const [chosen, setChosen] = useState(false)
  const retry = (values: ReadonlyArray<VariableValue>) => {
    setChosen(true)
    run.retry(values)
  }
  return (
    <div className="templates">
      <p>
        <Link to="/templates">All templates</Link>
      </p>
      <h1>Create a template</h1>
      {run.created === undefined
        ? (
          <Sources
            busy={run.pending}
            onExample={(exampleId) => {
              setChosen(false)
              run.start({ exampleId })
            }}
            onFile={(source) => {
              setChosen(false)
              run.start(source)
            }}
          />
        )
        : (
          <>
            <p>
              <button type="button" className="secondary" onClick={run.reset}>Start over</button>
            </p>
            <ImportProgress created={run.created} given={run.given} busy={run.pending} onRetry={retry}>
              {(version) => (
                <Imported
                  key={version.id}
                  version={version}
                  given={run.given}
                  busy={run.pending}
                  chosen={chosen}
                  onChosen={(values, changed) => (changed ? retry(values) : setChosen(true))}
                  onChange={() => setChosen(false)}
                />
              )}
            </ImportProgress>
          </>
        )}
      <ErrorMessage error={run.error} />
    </div>
  )
}

/** The starter templates, and the upload of an archive. */
export const Sources = (props: {
  readonly busy: boolean
  readonly onExample: (id: string) => void
  readonly onFile: (source: { fileId: string; provisioner: string }) => void
}) => {
  const examples = useQuery(examplesQuery)
  return (
    <>
      <section aria-labelledby="starters">
        <h2 id="starters">From a starter template</h2>
        <ErrorMessage error={examples.error} />
        {examples.isPending
          ? <p role="status">Loading the starter templates…</p>
          : (
            <ul className="examples">
              {(examples.data ?? []).map((e) => (
                <li key={e.id}>
                  <h3>{e.name}</h3>
                  <p>{e.description}</p>
                  {e.tags.length > 0 ? <p className="hint">{e.tags.join(", ")}</p> : null}
                  <button
                    type="button"
                    disabled={props.busy}
                    onClick={() => props.onExample(e.id)}
                  >
                    Use {e.name}
                  </button>
                </li>
              ))}
            </ul>
          )}
      </section>
      <UploadArchive busy={props.busy} action="Upload and import" onFile={props.onFile} />
    </>
  )
}

/** A file input for a template archive (tar or zip) and its provisioner; uploads it on submit. */
export const UploadArchive = (props: {
  readonly busy: boolean
  readonly action: string
  readonly onFile: (source: { fileId: string; provisioner: string }) => void
}) => {
  const provisioners = useQuery(provisionerTypesQuery)
  const upload = useMutation({ mutationFn: api.upload })
  const id = useId()
  const types = provisioners.data === undefined || provisioners.data.length === 0 ? ["workbay"] : provisioners.data
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const file = form.get("archive")
    if (!(file instanceof File) || file.size === 0) return
    const provisioner = String(form.get("provisioner") ?? "workbay")
    upload.mutate(file, { onSuccess: (fileId) => props.onFile({ fileId, provisioner }) })
  }
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>From an archive</h2>
      <form onSubmit={submit} className="upload">
        <div className="field">
          <label htmlFor={`${id}-archive`}>Template archive</label>
          <input
            id={`${id}-archive`}
            name="archive"
            type="file"
            accept=".tar,.zip,application/x-tar,application/zip"
            required
            aria-describedby={`${id}-hint`}
          />
          <p id={`${id}-hint`} className="hint">
            A .tar or .zip file with template.yaml at its root (and a README.md, shown on the template's page).
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${id}-provisioner`}>Provisioner</label>
          <select
            id={`${id}-provisioner`}
            name="provisioner"
            defaultValue={types.includes("workbay") ? "workbay" : types[0]}
          >
            {types.map((t) => <option key={t} value={t}>{t}</option>)}
          </select>
        </div>
        <button type="submit" disabled={props.busy || upload.isPending}>{props.action}</button>
      </form>
      <ErrorMessage error={upload.error} />
    </section>
  )
}

/**
 * After a successful import: the variables step while the person has not gone through it (when
 * the version has variables), then the template's form.
 */
const Imported = (props: {
  readonly version: TemplateVersion
  readonly given: ReadonlyArray<VariableValue>
  readonly busy: boolean
  readonly chosen: boolean
  /** The step's values: imported again with them when `changed`. */
  readonly onChosen: (values: ReadonlyArray<VariableValue>, changed: boolean) => void
  readonly onChange: () => void
}) => {
  const id = props.version.id
  const variables = useQuery(variablesQuery(id))
  if (variables.isPending) return <p role="status">Loading the template variables…</p>
  if (variables.isError) return <ErrorMessage error={variables.error} />
  const list = variables.data
  if (!props.chosen && list.length > 0) {
    return (
      <VariablesForm
        variables={list}
        given={props.given}
        busy={props.busy}
        intro="Template variables customize the template without changing its files. The defaults are filled in; what you change is imported again before the template is made."
        action="Use these values"
        sensitiveNote="Sensitive: left empty, it keeps its default (or the value you gave)."
        keepSecrets
        onSubmit={(chosen) => {
          const values = withKeptSecrets(list, chosen, props.given)
          props.onChosen(values, changesValues(list, props.given, values))
        }}
      />
    )
  }
  return (
    <>
      {list.length > 0 ? <ChosenVariables variables={list} onChange={props.onChange} /> : null}
      <TemplateForm version={props.version} />
    </>
  )
}

/** The variables the version was imported with (secrets hidden), and the way back to the step. */
const ChosenVariables = (
  props: { readonly variables: ReadonlyArray<TemplateVariable>; readonly onChange: () => void }
) => (
  <section aria-labelledby="chosen-variables">
    <h2 id="chosen-variables">Template variables</h2>
    <dl className="facts">
      {props.variables.map((v) => (
        <Fragment key={v.name}>
          <dt>{v.name}</dt>
          <dd>{v.value === "" ? "(empty)" : v.sensitive ? "(sensitive, hidden)" : v.value}</dd>
        </Fragment>
      ))}
    </dl>
    <button type="button" className="secondary" onClick={props.onChange}>Change the variables</button>
  </section>
)

/** The new template's name, display name and description, made from the imported `version`. */
const TemplateForm = ({ version }: { version: TemplateVersion }) => {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const create = useMutation({
    mutationFn: api.createTemplate,
    onSuccess: (template) => {
      void queryClient.invalidateQueries({ queryKey: templateKeys.list })
      navigate(`/templates/${encodeURIComponent(template.name)}`)
    }
  })
  return (
    <form
      aria-labelledby="template-details"
      onSubmit={(e) => {
        e.preventDefault()
        const v = formValues(e.currentTarget)
        create.mutate({
          name: (v.name ?? "").trim(),
          display_name: (v.display_name ?? "").trim(),
          description: (v.description ?? "").trim(),
          template_version_id: version.id
        })
      }}
    >
      <h2 id="template-details">The template</h2>
      <TextField
        label="Name"
        name="name"
        required
        hint="Letters, digits and single dashes between them; at most 32."
        error={fieldError(create.error, "name")}
      />
      <TextField label="Display name" name="display_name" error={fieldError(create.error, "display_name")} />
      <TextField label="Description" name="description" multiline error={fieldError(create.error, "description")} />
      <ErrorMessage error={create.error} />
      <button type="submit" disabled={create.isPending}>Create template</button>
    </form>
  )
}
