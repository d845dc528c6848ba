/**
 * Template versions on the wire (`codersdk.TemplateVersion` and what its routes answer:
 * resources with their not-yet-built agents, rich parameters, variables, external auth,
 * presets) and the conversions from the stored records. Fields the described system tags
 * `omitempty` are left out when empty.
 */
import { Schema } from "effect"
import { type RichParameter, type TemplateVariable, workspaceTransitions } from "../provisioners/Provisioner.js"
import { MatchedProvisioners } from "../provisioners/ProvisionerDaemon.js"
import { ProvisionerJob } from "../provisioners/ProvisionerJob.js"
import { MinimalUser } from "../users/User.js"
import { omitEmpty, putNonEmpty, wireMaker, type WireProps } from "../Wire.js"
import type { ImportedAgent, ImportedApp, ImportedPreset, ImportedResource } from "./TemplateVersion.js"

export const templateVersionWarnings = ["UNSUPPORTED_WORKSPACES"] as const

export class TemplateVersion extends Schema.Class<TemplateVersion>("TemplateVersion")({
  id: Schema.UUID,
  /** The nil UUID when the version belongs to no template, as the described system answers. */
  template_id: Schema.UUID,
  organization_id: Schema.UUID,
  created_at: Schema.Date,
  updated_at: Schema.Date,
  name: Schema.String,
  message: Schema.String,
  job: ProvisionerJob,
  readme: Schema.String,
  created_by: MinimalUser,
  archived: Schema.Boolean,
  warnings: omitEmpty(Schema.Array(Schema.Literal(...templateVersionWarnings))),
  matched_provisioners: omitEmpty(MatchedProvisioners),
  has_external_agent: Schema.Boolean,
  /** Whether the version declares an AI task app (its workspaces can run AI tasks). */
  has_ai_task: Schema.Boolean
}) {}

// Resources and their agents.

export class WorkspaceResourceMetadata extends Schema.Class<WorkspaceResourceMetadata>("WorkspaceResourceMetadata")({
  key: Schema.String,
  value: Schema.String,
  sensitive: Schema.Boolean
}) {}

export class Healthcheck extends Schema.Class<Healthcheck>("Healthcheck")({
  url: Schema.String,
  interval: Schema.Int,
  threshold: Schema.Int
}) {}

/** The states an agent reports for one of its apps (codersdk `WorkspaceAppStatusState`). */
export const appStatusStates = ["working", "idle", "complete", "failure"] as const
export type AppStatusState = (typeof appStatusStates)[number]

/** A status an agent reported for one of its apps (`PATCH /workspaceagents/me/app-status`). */
export class WorkspaceAppStatus extends Schema.Class<WorkspaceAppStatus>("WorkspaceAppStatus")({
  id: Schema.UUID,
  created_at: Schema.Date,
  workspace_id: Schema.UUID,
  agent_id: Schema.UUID,
  app_id: Schema.UUID,
  state: Schema.Literal(...appStatusStates),
  message: Schema.String,
  uri: Schema.String,
  icon: Schema.String,
  needs_user_attention: Schema.Boolean
}) {}

export class WorkspaceApp extends Schema.Class<WorkspaceApp>("WorkspaceApp")({
  id: Schema.UUID,
  url: omitEmpty(Schema.String),
  external: Schema.Boolean,
  slug: Schema.String,
  display_name: omitEmpty(Schema.String),
  command: omitEmpty(Schema.String),
  icon: omitEmpty(Schema.String),
  subdomain: Schema.Boolean,
  subdomain_name: omitEmpty(Schema.String),
  sharing_level: Schema.Literal("owner", "authenticated", "organization", "public"),
  healthcheck: Healthcheck,
  health: Schema.Literal("disabled", "initializing", "healthy", "unhealthy"),
  group: omitEmpty(Schema.String),
  hidden: Schema.Boolean,
  open_in: Schema.Literal("slim-window", "tab"),
  tooltip: omitEmpty(Schema.String),
  /** Newest first. */
  statuses: Schema.Array(WorkspaceAppStatus)
}) {}

export class WorkspaceAgentLogSource extends Schema.Class<WorkspaceAgentLogSource>("WorkspaceAgentLogSource")({
  workspace_agent_id: Schema.UUID,
  id: Schema.UUID,
  created_at: Schema.Date,
  display_name: Schema.String,
  icon: Schema.String
}) {}

export class WorkspaceAgentScript extends Schema.Class<WorkspaceAgentScript>("WorkspaceAgentScript")({
  id: Schema.UUID,
  log_source_id: Schema.UUID,
  log_path: Schema.String,
  script: Schema.String,
  cron: Schema.String,
  run_on_start: Schema.Boolean,
  run_on_stop: Schema.Boolean,
  start_blocks_login: Schema.Boolean,
  /** Nanoseconds, as the described system's Go duration. */
  timeout: Schema.Number,
  display_name: Schema.String,
  /** How the script's last run ended, as its agent reported it; absent until then (Workbay's). */
  status: omitEmpty(Schema.Literal("ok", "exit_failure", "timed_out", "pipes_left_open")),
  /** The exit code of the script's last run; absent until then (Workbay's). */
  exit_code: omitEmpty(Schema.Int)
}) {}

export class WorkspaceAgentHealth extends Schema.Class<WorkspaceAgentHealth>("WorkspaceAgentHealth")({
  healthy: Schema.Boolean,
  reason: omitEmpty(Schema.String)
}) {}

export const displayAppNames = [
  "vscode",
  "vscode_insiders",
  "web_terminal",
  "port_forwarding_helper",
  "ssh_helper"
] as const

/** An agent as a template version shows it: declared, never connected. */
export class WorkspaceAgent extends Schema.Class<WorkspaceAgent>("WorkspaceAgent")({
  id: Schema.UUID,
  parent_id: Schema.NullOr(Schema.UUID),
  created_at: Schema.Date,
  updated_at: Schema.Date,
  status: Schema.Literal("connecting", "connected", "disconnected", "timeout"),
  lifecycle_state: Schema.Literal(
    "created",
    "starting",
    "start_timeout",
    "start_error",
    "ready",
    "shutting_down",
    "shutdown_timeout",
    "shutdown_error",
    "off"
  ),
  name: Schema.String,
  resource_id: Schema.UUID,
  instance_id: omitEmpty(Schema.String),
  architecture: Schema.String,
  environment_variables: Schema.Record({ key: Schema.String, value: Schema.String }),
  operating_system: Schema.String,
  logs_length: Schema.Int,
  logs_overflowed: Schema.Boolean,
  directory: omitEmpty(Schema.String),
  expanded_directory: omitEmpty(Schema.String),
  first_connected_at: omitEmpty(Schema.Date),
  last_connected_at: omitEmpty(Schema.Date),
  disconnected_at: omitEmpty(Schema.Date),
  started_at: omitEmpty(Schema.Date),
  ready_at: omitEmpty(Schema.Date),
  version: Schema.String,
  api_version: Schema.String,
  apps: Schema.Array(WorkspaceApp),
  connection_timeout_seconds: Schema.Int,
  troubleshooting_url: Schema.String,
  subsystems: Schema.Array(Schema.String),
  health: WorkspaceAgentHealth,
  /**
   * The agent's latency by relay region (the described system's `DERPLatency`): Workbay's one region
   * is the embedded relay, and the latency the round trip of the agent's connection to the replica
   * holding it. Absent while the agent is not connected or not yet measured.
   */
  latency: omitEmpty(Schema.Record({
    key: Schema.String,
    value: Schema.Struct({ preferred: Schema.Boolean, latency_ms: Schema.Number })
  })),
  display_apps: Schema.Array(Schema.Literal(...displayAppNames)),
  log_sources: Schema.Array(WorkspaceAgentLogSource),
  scripts: Schema.Array(WorkspaceAgentScript),
  startup_script_behavior: Schema.Literal("blocking", "non-blocking")
}) {}

export class WorkspaceResource extends Schema.Class<WorkspaceResource>("WorkspaceResource")({
  id: Schema.UUID,
  created_at: Schema.Date,
  job_id: Schema.UUID,
  workspace_transition: Schema.Literal(...workspaceTransitions),
  type: Schema.String,
  name: Schema.String,
  hide: Schema.Boolean,
  icon: Schema.String,
  agents: omitEmpty(Schema.Array(WorkspaceAgent)),
  metadata: omitEmpty(Schema.Array(WorkspaceResourceMetadata)),
  daily_cost: Schema.Int
}) {}

const NANOS_PER_SECOND = 1_000_000_000

const makeHealthcheck = wireMaker(Healthcheck)
const makeApp = wireMaker(WorkspaceApp)
const makeScript = wireMaker(WorkspaceAgentScript)
const makeLogSource = wireMaker(WorkspaceAgentLogSource)
const makeAgentHealth = wireMaker(WorkspaceAgentHealth)
const makeAgent = wireMaker(WorkspaceAgent)
const makeResourceMetadata = wireMaker(WorkspaceResourceMetadata)
const makeResource = wireMaker(WorkspaceResource)
const notConnected = { healthy: false, reason: "agent is not connected" } as const

const toApp = (app: ImportedApp): WorkspaceApp => {
  const props: WireProps<typeof WorkspaceApp> = {
    id: app.id,
    external: app.external,
    slug: app.slug,
    subdomain: app.subdomain,
    sharing_level: app.sharing_level,
    healthcheck: makeHealthcheck({
      url: app.healthcheck?.url ?? "",
      interval: app.healthcheck?.interval ?? 0,
      threshold: app.healthcheck?.threshold ?? 0
    }),
    // An app with a health check starts initializing; one without has health checks disabled.
    health: app.healthcheck !== undefined && app.healthcheck.url !== "" ? "initializing" : "disabled",
    hidden: app.hidden,
    open_in: app.open_in,
    statuses: []
  }
  putNonEmpty(props, "url", app.url)
  putNonEmpty(props, "display_name", app.display_name)
  putNonEmpty(props, "command", app.command)
  putNonEmpty(props, "icon", app.icon)
  putNonEmpty(props, "group", app.group)
  putNonEmpty(props, "tooltip", app.tooltip)
  return makeApp(props)
}

/** The wire fields of an agent an import or a dry run found (not connected yet). */
export const agentProps = (agent: ImportedAgent, resource: ImportedResource): WireProps<typeof WorkspaceAgent> => {
  // One log source per script, named after it (the id is derived from the script's own).
  const scripts = agent.scripts.map((s) =>
    makeScript({
      id: s.id,
      log_source_id: s.id,
      log_path: s.log_path,
      script: s.script,
      cron: s.cron,
      run_on_start: s.run_on_start,
      run_on_stop: s.run_on_stop,
      start_blocks_login: s.start_blocks_login,
      timeout: s.timeout_seconds * NANOS_PER_SECOND,
      display_name: s.display_name
    })
  )
  const props: WireProps<typeof WorkspaceAgent> = {
    id: agent.id,
    parent_id: null,
    created_at: resource.created_at,
    updated_at: resource.created_at,
    status: "connecting",
    lifecycle_state: "created",
    name: agent.name,
    resource_id: resource.id,
    architecture: agent.architecture,
    environment_variables: agent.env,
    operating_system: agent.operating_system,
    logs_length: 0,
    logs_overflowed: false,
    version: "",
    api_version: "",
    apps: agent.apps.map(toApp),
    connection_timeout_seconds: agent.connection_timeout_seconds,
    troubleshooting_url: agent.troubleshooting_url,
    subsystems: [],
    health: makeAgentHealth(notConnected),
    display_apps: displayAppNames.filter((name) => agent.display_apps[name]),
    log_sources: agent.scripts.map((s) =>
      makeLogSource({
        workspace_agent_id: agent.id,
        id: s.id,
        created_at: resource.created_at,
        display_name: s.display_name,
        icon: ""
      })
    ),
    scripts,
    startup_script_behavior: agent.startup_script_behavior
  }
  putNonEmpty(props, "directory", agent.directory)
  // Stored imports made before instance ids existed have none.
  putNonEmpty(props, "instance_id", agent.instance_id)
  return props
}

const toAgent = (agent: ImportedAgent, resource: ImportedResource): WorkspaceAgent =>
  makeAgent(agentProps(agent, resource))

/** The wire form of a resource an import or a dry run found. */
export const toWorkspaceResource = (resource: ImportedResource): WorkspaceResource =>
  toWorkspaceResourceWith(resource, toAgent)

/** {@link toWorkspaceResource} with its agents made by `agentOf` (a build's, with their connection). */
export const toWorkspaceResourceWith = (
  resource: ImportedResource,
  agentOf: (agent: ImportedAgent, resource: ImportedResource) => WorkspaceAgent
): WorkspaceResource => {
  const props: WireProps<typeof WorkspaceResource> = {
    id: resource.id,
    created_at: resource.created_at,
    job_id: resource.job_id,
    workspace_transition: resource.transition,
    type: resource.type,
    name: resource.name,
    hide: resource.hide,
    icon: resource.icon,
    daily_cost: resource.daily_cost
  }
  putNonEmpty(props, "agents", resource.agents.map((a) => agentOf(a, resource)))
  putNonEmpty(props, "metadata", resource.metadata.map((m) => makeResourceMetadata(m)))
  return makeResource(props)
}

// Parameters, variables, external auth, presets.

export class TemplateVersionParameterOption
  extends Schema.Class<TemplateVersionParameterOption>("TemplateVersionParameterOption")({
    name: Schema.String,
    description: Schema.String,
    value: Schema.String,
    icon: Schema.String
  })
{}

export const parameterFormTypes = [
  "",
  "radio",
  "slider",
  "input",
  "dropdown",
  "checkbox",
  "switch",
  "multi-select",
  "tag-select",
  "textarea",
  "error"
] as const

export class TemplateVersionParameter extends Schema.Class<TemplateVersionParameter>("TemplateVersionParameter")({
  name: Schema.String,
  display_name: omitEmpty(Schema.String),
  description: Schema.String,
  description_plaintext: Schema.String,
  type: Schema.Literal("string", "number", "bool", "list(string)"),
  form_type: Schema.Literal(...parameterFormTypes),
  mutable: Schema.Boolean,
  default_value: Schema.String,
  icon: Schema.String,
  options: Schema.Array(TemplateVersionParameterOption),
  validation_error: omitEmpty(Schema.String),
  validation_regex: omitEmpty(Schema.String),
  validation_min: omitEmpty(Schema.Number),
  validation_max: omitEmpty(Schema.Number),
  validation_monotonic: omitEmpty(Schema.Literal("increasing", "decreasing")),
  required: Schema.Boolean,
  ephemeral: Schema.Boolean
}) {}

/**
 * The form control a parameter gets when its template names none, as the described system's
 * provider picks it: options give radio buttons (a multi-select for lists), lists a tag
 * input, a bool a radio pair, anything else an input.
 */
export const defaultFormType = (p: Pick<RichParameter, "type" | "options">): typeof parameterFormTypes[number] => {
  if (p.type === "list(string)") return p.options.length > 0 ? "multi-select" : "tag-select"
  if (p.options.length > 0) return "radio"
  if (p.type === "bool") return "radio"
  return "input"
}

/** Markdown reduced to its text (emphasis, code marks, headings, links and images dropped), for `description_plaintext`. */
export const markdownToPlaintext = (md: string): string =>
  md
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/^\s{0,3}#{1,6}\s+/gm, "")
    .replace(/^\s{0,3}>\s?/gm, "")
    .replace(/(\*\*|__)(.*?)\1/g, "$2")
    .replace(/(\*|_)(.*?)\1/g, "$2")
    .replace(/`{1,3}([^`]*)`{1,3}/g, "$1")
    .trim()

export const toTemplateVersionParameter = (p: RichParameter): TemplateVersionParameter => {
  const props: WireProps<typeof TemplateVersionParameter> = {
    name: p.name,
    description: p.description,
    description_plaintext: markdownToPlaintext(p.description),
    type: p.type,
    form_type: p.form_type !== undefined && p.form_type !== "" &&
        (parameterFormTypes as ReadonlyArray<string>).includes(p.form_type)
      ? p.form_type as typeof parameterFormTypes[number]
      : defaultFormType(p),
    mutable: p.mutable,
    default_value: p.default_value,
    icon: p.icon,
    options: p.options.map((o) => new TemplateVersionParameterOption(o, true)),
    required: p.required,
    ephemeral: p.ephemeral
  }
  putNonEmpty(props, "display_name", p.display_name)
  putNonEmpty(props, "validation_error", p.validation_error)
  putNonEmpty(props, "validation_regex", p.validation_regex)
  // The described system sends a bound that is set, even 0.
  if (p.validation_min !== undefined) props.validation_min = p.validation_min
  if (p.validation_max !== undefined) props.validation_max = p.validation_max
  putNonEmpty(props, "validation_monotonic", p.validation_monotonic === "" ? undefined : p.validation_monotonic)
  return new TemplateVersionParameter(props, true)
}

export class TemplateVersionVariable extends Schema.Class<TemplateVersionVariable>("TemplateVersionVariable")({
  name: Schema.String,
  description: Schema.String,
  type: Schema.Literal("string", "number", "bool"),
  value: Schema.String,
  default_value: Schema.String,
  required: Schema.Boolean,
  sensitive: Schema.Boolean
}) {}

/** What a sensitive variable's value and default read as, as in the described system. */
export const REDACTED = "*redacted*"

export const toTemplateVersionVariable = (v: TemplateVariable): TemplateVersionVariable =>
  new TemplateVersionVariable({
    name: v.name,
    description: v.description,
    type: v.type,
    value: v.sensitive && v.value !== "" ? REDACTED : v.value,
    default_value: v.sensitive && v.default_value !== "" ? REDACTED : v.default_value,
    required: v.required,
    sensitive: v.sensitive
  }, true)

export class TemplateVersionExternalAuth
  extends Schema.Class<TemplateVersionExternalAuth>("TemplateVersionExternalAuth")({
    id: Schema.String,
    type: Schema.String,
    display_name: Schema.String,
    display_icon: Schema.String,
    authenticate_url: Schema.String,
    authenticated: Schema.Boolean,
    optional: omitEmpty(Schema.Boolean)
  })
{}

export class PresetParameter extends Schema.Class<PresetParameter>("PresetParameter")({
  Name: Schema.String,
  Value: Schema.String
}) {}

/** A preset, with the described system's capitalized field names (its Go type has no JSON tags). */
export class VersionPreset extends Schema.Class<VersionPreset>("Preset")({
  ID: Schema.UUID,
  Name: Schema.String,
  Parameters: Schema.Array(PresetParameter),
  Default: Schema.Boolean,
  DesiredPrebuildInstances: Schema.NullOr(Schema.Int),
  Description: Schema.String,
  Icon: Schema.String
}) {}

export const toPreset = (p: ImportedPreset): VersionPreset =>
  new VersionPreset({
    ID: p.id,
    Name: p.name,
    Parameters: p.parameters.map((x) => new PresetParameter({ Name: x.name, Value: x.value }, true)),
    Default: p.default,
    DesiredPrebuildInstances: p.prebuild?.instances ?? null,
    Description: "",
    Icon: ""
  }, true)

export class ArchiveTemplateVersionsResponse
  extends Schema.Class<ArchiveTemplateVersionsResponse>("ArchiveTemplateVersionsResponse")({
    template_id: Schema.UUID,
    archived_ids: Schema.Array(Schema.UUID)
  })
{}
