/**
 * Creating a workspace: `/workspaces/new` lists the templates to choose from (`GET /templates`),
 * and `/templates/:template/workspace` (the described system's CreateWorkspacePage; the template
 * by name or id) is the form: the name, a preset (`GET /templateversions/{id}/presets`, filling
 * its values), the active version's parameters as the service evaluates them on each change (the
 * dynamic parameters' WebSocket, dynamicParameters.ts; `GET /templateversions/{id}/rich-parameters`
 * when the template asks for the classic form or the socket fails) checked as they are typed
 * (parameters.ts) with the service's diagnostics under each field, and the quota when the deployment gives one
 * (`GET /workspace-quota/me`). `POST /users/me/workspaces`, then the new workspace's page; the
 * service's validations are shown on their fields.
 */
import { useMutation, useQuery } from "@tanstack/react-query"
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from "react"
import { Link, useNavigate, useParams } from "react-router"
import { ApiError } from "../api/client.ts"
import { defaultOrganizationQuery, templatesQuery } from "../templates/api.ts"
import { useTemplatePath } from "../templates/paths.ts"
import { ErrorMessage } from "../ui/Form.tsx"
import "./styles.css"
import { type Parameter, type Preset, type Template, workspacesApi as api } from "./api.ts"
import { answeredValues, diagnosticText, toParameter, useDynamicParameters } from "./dynamicParameters.ts"
import { workspacePath } from "./hooks.ts"
import { ParameterFields } from "./ParameterFields.tsx"
import {
  applyPreset,
  type Errors,
  initialValues,
  serverErrors,
  toRequest,
  validateAll,
  validateName,
  type Values
} from "./parameters.ts"

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
  // The service's dynamic parameters unless the template asks for the classic form; the classic
  // parameters when it does, or when the socket fails.
  const dynamic = useDynamicParameters(template.use_classic_parameter_flow ? undefined : version)
  const classic = template.use_classic_parameter_flow || dynamic.failed
  const parameters = useQuery({
    queryKey: ["rich-parameters", version],
    queryFn: () => api.parameters(version),
    enabled: classic
  })
  const presets = useQuery({ queryKey: ["presets", version], queryFn: () => api.presets(version) })
  const quota = useQuery({ queryKey: ["quota", "me"], queryFn: () => api.quota("me"), retry: false })
  const evaluated = useMemo(() => dynamic.response?.parameters.map(toParameter), [dynamic.response])
  const loading = presets.isPending || (classic ? parameters.isPending : dynamic.response === undefined)
  if (loading && !presets.isError && !parameters.isError) {
    return <p role="status">Loading the template's parameters…</p>
  }
  if ((classic && parameters.isError) || presets.isError) {
    return (
      <>
        <h1>New workspace</h1>
        <ErrorMessage error={parameters.error ?? presets.error} />
      </>
    )
  }
  return (
    <ParametersForm
      template={template}
      parameters={classic ? parameters.data ?? [] : evaluated ?? []}
      dynamic={classic ? undefined : dynamic}
      presets={presets.data ?? []}
      quota={quota.data}
    />
  )
}

const ParametersForm = ({ template, parameters, dynamic, presets, quota }: {
  template: Template
  parameters: ReadonlyArray<Parameter>
  /** The dynamic parameters' socket, when the form follows it. */
  dynamic: ReturnType<typeof useDynamicParameters> | undefined
  presets: ReadonlyArray<Preset>
  quota: { budget: number; credits_consumed: number } | undefined
}) => {
  const navigate = useNavigate()
  const nameId = useId()
  const presetId = useId()
  const defaultPreset = presets.find((p) => p.Default)
  const [name, setName] = useState("")
  const [presetChosen, setPreset] = useState<string>(defaultPreset?.ID ?? "")
  // The values the person changed; the others are the service's evaluated values (dynamic) or
  // the defaults (classic).
  const [typed, setTyped] = useState<Values>({})
  // Which fields show their error: those left once, and all after a submit.
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set())
  const [submitted, setSubmitted] = useState(false)
  const [fromServer, setFromServer] = useState<Errors>({})
  const preset = presets.find((p) => p.ID === presetChosen)
  const response = dynamic?.response
  const base = useMemo(
    () => (response !== undefined ? answeredValues(response) : initialValues(parameters)),
    [response, parameters]
  )
  const { values, fixed } = useMemo(() => applyPreset({ ...base, ...typed }, preset), [base, typed, preset])
  // What the service evaluates with: the values changed by hand, and the preset's.
  const inputs = useMemo(() => applyPreset(typed, preset).values, [typed, preset])
  const send = dynamic?.send
  const lastSent = useRef("{}")
  useEffect(() => {
    const json = JSON.stringify(inputs)
    if (send === undefined || json === lastSent.current) return
    lastSent.current = json
    send(inputs)
  }, [inputs, send])
  const shown = (field: string) => submitted || touched.has(field)
  // The service's diagnostics of each parameter (a missing value only once the field was left).
  const diagnostics = useMemo(() => {
    const errors: Record<string, string> = {}
    const warnings: Record<string, string> = {}
    for (const p of response?.parameters ?? []) {
      const of = (severity: string) =>
        p.diagnostics.filter((d) => d.severity === severity && (d.extra.code !== "required" || shown(p.name)))
          .map(diagnosticText).join(" ")
      if (of("error") !== "") errors[p.name] = of("error")
      if (of("warning") !== "") warnings[p.name] = of("warning")
    }
    return { errors, warnings }
  }, [response, touched, submitted])
  const checked = validateAll(parameters, values)
  const errors: Errors = { ...checked, ...fromServer }
  const nameError = fromServer["name"] ?? validateName(name)
  // A field's message: the form's own check once the field was left, else the service's diagnostics.
  const visible: Errors = {
    ...diagnostics.errors,
    ...Object.fromEntries(Object.entries(errors).filter(([k]) => shown(k)))
  }
  // Diagnostics block a submit only when they answer the latest values.
  const blocking = dynamic?.current === true ? diagnostics.errors : {}

  const create = useMutation({
    mutationFn: () =>
      api.create({
        name,
        template_id: template.id,
        rich_parameter_values: toRequest(parameters, values),
        ...(preset !== undefined ? { template_version_preset_id: preset.ID } : {})
      }),
    onSuccess: (w) => navigate(workspacePath(w.owner_name, w.name)),
    onError: (e) => {
      if (e instanceof ApiError) {
        setFromServer(serverErrors(e.validations, ["name", ...parameters.map((p) => p.name)]).errors)
      }
    }
  })
  const touch = (field: string) => setTouched((t) => new Set(t).add(field))

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    setSubmitted(true)
    const form = e.currentTarget
    if (nameError !== undefined || Object.keys(errors).length > 0 || Object.keys(blocking).length > 0) {
      // Focus the first bad field, so its message is read.
      queueMicrotask(() => form.querySelector<HTMLElement>("[aria-invalid=true]")?.focus())
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
      {quota !== undefined && quota.budget > 0
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
              setFromServer(({ name: _, ...rest }) => rest)
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
            </div>
          )
          : null}
        {parameters.length > 0 ? <h2>Parameters</h2> : null}
        <ParameterFields
          parameters={parameters}
          values={values}
          errors={visible}
          warnings={diagnostics.warnings}
          fixed={fixed}
          onChange={(field, value) => {
            setTyped((v) => ({ ...v, [field]: value }))
            setFromServer(({ [field]: _, ...rest }) => rest)
          }}
          onBlur={touch}
        />
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
