/**
 * Creating a workspace: `/workspaces/new` lists the templates to choose from (`GET /templates`),
 * and `/templates/:template/workspace` (the described system's CreateWorkspacePage; the template
 * by name or id) is the form: the name, a preset (`GET /templateversions/{id}/presets`, filling
 * its values), the active version's parameters as the service evaluates them on each change
 * (parameterForm.ts, shared with a workspace's parameter dialogs: the dynamic parameters'
 * WebSocket, or `GET /templateversions/{id}/rich-parameters` when the template asks for the
 * classic form or the socket fails) checked as they are typed (parameters.ts) with the service's
 * diagnostics under each field (a preset keeping prebuilt workspaces says that one may be ready),
 * and the quota when one applies in the template's organization
 * (`GET /organizations/{org}/members/me/workspace-quota`: a budget above 0; with a budget of 0,
 * when a group of the organization has an allowance, `GET /organizations/{org}/paginated-groups`),
 * asked again each time the form opens. `POST /users/me/workspaces`, then the new workspace's
 * page; the service's validations are shown on their fields.
 */
import { useMutation, useQuery } from "@tanstack/react-query"
import { type FormEvent, useId, useState } from "react"
import { Link, useNavigate, useParams } from "react-router"
import { ApiError } from "../api/client.ts"
import { useTemplatePath } from "../templates/paths.ts"
import { defaultOrganizationQuery, presetsQuery, templatesQuery } from "../templates/queries.ts"
import { ErrorMessage } from "../ui/Form.tsx"
import "./styles.css"
import { type Preset, type Template, workspacesApi as api } from "./api.ts"
import { workspacePath } from "./hooks.ts"
import { ParameterFields } from "./ParameterFields.tsx"
import { useParameterForm } from "./parameterForm.ts"
import { validateName } from "./parameters.ts"
import { quotaQuery } from "./queries.ts"

const titleOf = (t: Template) => (t.display_name !== "" ? t.display_name : t.name)

// Asked again each time the picker opens (a template made meanwhile, elsewhere, is offered at once).
const useTemplates = () => useQuery({ ...templatesQuery, refetchOnMount: "always" })

/** `/workspaces/new`: the templates one may create a workspace from. */
export const NewWorkspacePage = () => {
  const templates = useTemplates()
  const pathOf = useTemplatePath()
  return (
    <>
      <p>
        <Link to="/workspaces">All workspaces</Link>
      </p>
      <h1>New workspace</h1>
      <ErrorMessage error={templates.error} />
      {templates.isPending
        ? <p role="status">Loading templates…</p>
        : templates.data === undefined
        ? null
        : templates.data.length === 0
        ? <p className="empty">No templates yet: a template administrator makes them.</p>
        : (
          <ul className="templates">
            {templates.data.filter((t) => !t.deprecated).map((t) => (
              <li key={t.id}>
                <Link to={`${pathOf(t)}/workspace`}>{titleOf(t)}</Link>
                {t.description !== "" ? <p className="hint">{t.description}</p> : null}
              </li>
            ))}
          </ul>
        )}
    </>
  )
}

/**
 * `/templates/:template/workspace` (a template of the default organization, by name or id), and
 * `/templates/:organization/:template/workspace`.
 */
export const CreateWorkspacePage = () => {
  const { template: ref = "", organization } = useParams()
  const templates = useTemplates()
  const defaultOrganization = useQuery(defaultOrganizationQuery).data?.name
  const template = templates.data?.find((t) =>
    (t.name === ref || t.id === ref) &&
    (organization !== undefined
      ? t.organization_name === organization
      : t.id === ref || defaultOrganization === undefined || t.organization_name === defaultOrganization)
  )
  if (templates.isPending) return <p role="status">Loading the template…</p>
  if (template === undefined) {
    return (
      <>
        <h1>New workspace</h1>
        <ErrorMessage error={templates.error} />
        {templates.isError ? null : <p role="alert">No template named “{ref}”.</p>}
        <p>
          <Link to="/workspaces/new">Choose a template</Link>
        </p>
      </>
    )
  }
  return <CreateWorkspaceForm template={template} />
}

const CreateWorkspaceForm = ({ template }: { template: Template }) => {
  const version = template.active_version_id
  const presets = useQuery(presetsQuery(version))
  const organization = template.organization_id
  const quota = useQuery(quotaQuery(organization))
  if (presets.isPending) return <p role="status">Loading the template's parameters…</p>
  if (presets.isError) {
    return (
      <>
        <h1>New workspace</h1>
        <ErrorMessage error={presets.error} />
      </>
    )
  }
  return <ParametersForm template={template} presets={presets.data} quota={quota.data ?? null} />
}

const ParametersForm = ({ template, presets, quota }: {
  template: Template
  presets: ReadonlyArray<Preset>
  /** The owner's quota in the template's organization; null while none applies there (or unread). */
  quota: { budget: number; credits_consumed: number } | null
}) => {
  const navigate = useNavigate()
  const nameId = useId()
  const presetId = useId()
  const defaultPreset = presets.find((p) => p.Default)
  const [name, setName] = useState("")
  const [presetChosen, setPreset] = useState<string>(defaultPreset?.ID ?? "")
  const preset = presets.find((p) => p.ID === presetChosen)
  // The active version's parameters, as the service evaluates them for the signed-in user.
  const form = useParameterForm({
    version: template.active_version_id,
    classic: template.use_classic_parameter_flow,
    preset,
    otherFields: ["name"]
  })
  const nameError = form.fromServer["name"] ?? validateName(name)

  const create = useMutation({
    mutationFn: () =>
      api.create({
        name,
        template_id: template.id,
        rich_parameter_values: form.request(),
        ...(preset !== undefined ? { template_version_preset_id: preset.ID } : {})
      }),
    onSuccess: (w) => navigate(workspacePath(w.owner_name, w.name)),
    onError: (e) => {
      if (e instanceof ApiError) form.refused(e)
    }
  })
  if (form.loading) return <p role="status">Loading the template's parameters…</p>
  if (form.error !== null) {
    return (
      <>
        <h1>New workspace</h1>
        <ErrorMessage error={form.error} />
      </>
    )
  }
  const { parameters, shown, touch } = form

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const element = e.currentTarget
    if (!form.submit() || nameError !== undefined) {
      // Focus the first bad field, so its message is read.
      queueMicrotask(() => element.querySelector<HTMLElement>("[aria-invalid=true]")?.focus())
      return
    }
    create.mutate()
  }

  return (
    <>
      <p>
        <Link to="/workspaces/new">Choose another template</Link>
      </p>
      <h1>New workspace</h1>
      <p className="lead">
        From the template <strong>{titleOf(template)}</strong>
        {template.description !== "" ? `: ${template.description}` : ""}
      </p>
      {quota !== null
        ? (
          <p role="status" aria-label="Quota" className="quota">
            Quota: {quota.credits_consumed} of {quota.budget} credits used
          </p>
        )
        : null}
      <form className="create-workspace" noValidate onSubmit={submit}>
        <div className="field">
          <label htmlFor={nameId}>Workspace name</label>
          <input
            id={nameId}
            name="name"
            value={name}
            autoComplete="off"
            aria-invalid={shown("name") && nameError !== undefined ? true : undefined}
            aria-describedby={`${nameId}-hint${shown("name") && nameError !== undefined ? ` ${nameId}-error` : ""}`}
            onChange={(e) => {
              setName(e.currentTarget.value)
              form.clearServerError("name")
            }}
            onBlur={() => touch("name")}
          />
          <p id={`${nameId}-hint`} className="hint">Letters and digits, with single dashes between; at most 32.</p>
          {shown("name") && nameError !== undefined
            ? <p id={`${nameId}-error`} role="alert" className="error field-error">{nameError}</p>
            : null}
        </div>
        {presets.length > 0
          ? (
            <div className="field">
              <label htmlFor={presetId}>Preset</label>
              <select id={presetId} value={presetChosen} onChange={(e) => setPreset(e.currentTarget.value)}>
                <option value="">None</option>
                {presets.map((p) => <option key={p.ID} value={p.ID}>{p.Name}</option>)}
              </select>
              <p className="hint">A preset sets some of the parameters below.</p>
              {/* Always in the document, so a screen reader announces the text when a preset brings it. */}
              <p className="hint" role="status" aria-label="Prebuilt workspaces">
                {(preset?.DesiredPrebuildInstances ?? 0) > 0
                  ? "A prebuilt workspace may be ready for this preset: the new workspace takes it over instead of building from nothing."
                  : null}
              </p>
            </div>
          )
          : null}
        {parameters.length > 0 ? <h2>Parameters</h2> : null}
        <ParameterFields {...form.fields} />
        <ErrorMessage error={create.error} />
        <div className="actions">
          <button type="submit" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create workspace"}
          </button>
          <Link to="/workspaces">Cancel</Link>
        </div>
      </form>
    </>
  )
}
