/**
 * A workspace's parameters after it was made, as the described system's dashboard has them:
 * - `WorkspaceParameters`: the latest build's values, and "Change parameters", a dialog with the
 *   version's parameter form (immutable ones locked, monotonic ones checked against their value)
 *   that starts a new build with the changed values;
 * - `UpdateButton`: an update to the active version builds at once when the latest build's values
 *   suit it; when the new version has a required parameter the workspace has no value for, or a
 *   value its rules no longer accept, the dialog asks for those first.
 * The service checks the same rules again (its validations land on the fields).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useId, useRef, useState } from "react"
import { ApiError, client, unwrap } from "../api/client.ts"
import { ErrorMessage } from "../ui/Form.tsx"
import { type NameValue, type Parameter, type Workspace, workspacesApi as api } from "./api.ts"
import { ParameterFields } from "./ParameterFields.tsx"
import {
  type Errors,
  initialValues,
  labelOf,
  serverErrors,
  toRequest,
  unanswered,
  validateAll,
  type Values
} from "./parameters.ts"

const buildParameters = (workspacebuild: string) =>
  unwrap(client.GET("/api/v2/workspacebuilds/{workspacebuild}/parameters", { params: { path: { workspacebuild } } }))

const parametersQuery = (version: string) => ({
  queryKey: ["rich-parameters", version],
  queryFn: () => api.parameters(version)
})
const buildParametersQuery = (build: string) => ({
  queryKey: ["build-parameters", build],
  queryFn: () => buildParameters(build)
})

/** The modal form of `parameters` that starts a build of `version` with their values. */
const ParametersDialog = ({ workspace: w, version, parameters, previous, title, intro, submit, open, onClose }: {
  workspace: Workspace
  version: string
  parameters: ReadonlyArray<Parameter>
  previous: ReadonlyArray<NameValue>
  title: string
  intro: string
  submit: string
  open: boolean
  onClose: () => void
}) => {
  const titleId = useId()
  const [values, setValues] = useState<Values>(() => initialValues(parameters, previous))
  const [submitted, setSubmitted] = useState(false)
  const [fromServer, setFromServer] = useState<Errors>({})
  const errors: Errors = { ...validateAll(parameters, values, previous), ...fromServer }
  const build = useMutation({
    mutationFn: () =>
      api.build(w.id, "start", { template_version_id: version, rich_parameter_values: toRequest(parameters, values) }),
    onSuccess: onClose,
    onError: (e) => {
      if (e instanceof ApiError) setFromServer(serverErrors(e.validations, parameters.map((p) => p.name)).errors)
    }
  })
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    setSubmitted(true)
    const form = e.currentTarget
    if (Object.keys(errors).length > 0) {
      queueMicrotask(() => form.querySelector<HTMLElement>("[aria-invalid=true]")?.focus())
      return
    }
    build.mutate()
  }
  const dialog = useRef<HTMLDialogElement>(null)
  return (
    <dialog
      ref={(node) => {
        dialog.current = node
        if (node !== null && open && !node.open) node.showModal()
      }}
      aria-labelledby={titleId}
      className="confirm"
      onClose={onClose}
    >
      <h2 id={titleId}>{title}</h2>
      <p>{intro}</p>
      <form noValidate onSubmit={onSubmit}>
        <ParameterFields
          parameters={parameters}
          values={values}
          errors={submitted ? errors : fromServer}
          existing
          onChange={(name, value) => {
            setValues((v) => ({ ...v, [name]: value }))
            setFromServer(({ [name]: _, ...rest }) => rest)
          }}
        />
        <ErrorMessage error={build.error} />
        <div className="actions">
          <button type="button" className="secondary" onClick={() => dialog.current?.close()}>Cancel</button>
          <button type="submit" disabled={build.isPending}>{build.isPending ? "Building…" : submit}</button>
        </div>
      </form>
    </dialog>
  )
}

/** The latest build's parameter values, and the dialog that changes them with a new build. */
export const WorkspaceParameters = ({ workspace: w, disabled }: { workspace: Workspace; disabled: boolean }) => {
  const version = w.latest_build.template_version_id
  const parameters = useQuery(parametersQuery(version))
  const values = useQuery(buildParametersQuery(w.latest_build.id))
  const [editing, setEditing] = useState(false)
  if (parameters.isError) return <ErrorMessage error={parameters.error} />
  if (values.isError) return <ErrorMessage error={values.error} />
  if (parameters.data === undefined || values.data === undefined || parameters.data.length === 0) return null
  const byName = new Map(values.data.map((v) => [v.name, v.value]))
  return (
    <section aria-labelledby="parameters-heading">
      <h2 id="parameters-heading">Parameters</h2>
      <dl className="facts">
        {parameters.data.map((p) => (
          <div key={p.name} className="contents">
            <dt>{labelOf(p)}</dt>
            <dd>{p.ephemeral ? "(ephemeral)" : byName.get(p.name) || "—"}</dd>
          </div>
        ))}
      </dl>
      <button type="button" disabled={disabled} onClick={() => setEditing(true)}>Change parameters</button>
      {editing
        ? (
          <ParametersDialog
            workspace={w}
            version={version}
            parameters={parameters.data}
            previous={values.data}
            title={`Parameters of ${w.name}`}
            intro="Saving starts the workspace with these values. Parameters that cannot change once the workspace exists are locked."
            submit="Save and start"
            open
            onClose={() => setEditing(false)}
          />
        )
        : null}
    </section>
  )
}

/** "Update": a build of the active version, asking first for the parameters the workspace cannot answer. */
export const UpdateButton = ({ workspace: w, disabled, onError }: {
  workspace: Workspace
  disabled: boolean
  onError: (error: Error | null) => void
}) => {
  const queryClient = useQueryClient()
  const version = w.template_active_version_id
  const [asking, setAsking] = useState<
    { parameters: ReadonlyArray<Parameter>; previous: ReadonlyArray<NameValue> } | undefined
  >()
  const update = useMutation({
    mutationFn: async () => {
      const [parameters, previous] = await Promise.all([
        queryClient.fetchQuery(parametersQuery(version)),
        queryClient.fetchQuery(buildParametersQuery(w.latest_build.id))
      ])
      const missing = unanswered(parameters, previous)
      if (missing.length > 0) return setAsking({ parameters: missing, previous })
      await api.build(w.id, "start", { template_version_id: version })
    },
    onMutate: () => onError(null),
    onError
  })
  return (
    <>
      <button type="button" disabled={disabled || update.isPending} onClick={() => update.mutate()}>Update</button>
      {asking === undefined ? null : (
        <ParametersDialog
          workspace={w}
          version={version}
          parameters={asking.parameters}
          previous={asking.previous}
          title={`Update ${w.name}`}
          intro="The template's new version needs these parameters."
          submit="Update"
          open
          onClose={() => setAsking(undefined)}
        />
      )}
    </>
  )
}
