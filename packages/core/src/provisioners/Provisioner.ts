/**
 * The provisioner port: what turns a template archive into parameters, variables and resources
 * (import), and applies a workspace transition (build). A provisioner is a plain value keyed by
 * its type name; embedders register theirs (a Docker or Kubernetes driver, say) beside the
 * built-in `workbay` one with `Provisioners.layer`. Field names follow the described system's
 * provisioner SDK and wire types, so converting to the API is a copy.
 */
import { Context, Data, Effect, Layer, Option } from "effect"

/** The three workspace transitions. */
export type WorkspaceTransition = "start" | "stop" | "delete"
export const workspaceTransitions: ReadonlyArray<WorkspaceTransition> = ["start", "stop", "delete"]

/** Log levels, as the described system's provisioner job logs name them. */
export type ProvisionerLogLevel = "trace" | "debug" | "info" | "warn" | "error"

/** One log line of an import or a build. */
export interface ProvisionerLog {
  readonly created_at: Date
  readonly level: ProvisionerLogLevel
  /** The step the provisioner was in ("Setting up", "Parsing template parameters", ...). */
  readonly stage: string
  readonly output: string
}

/** Receives log lines as they happen, so a job can show progress before it ends. */
export type ProvisionerLogSink = (log: ProvisionerLog) => Effect.Effect<void>

/** A name and a value, for variable values, parameter values and preset parameters. */
export interface NameValue {
  readonly name: string
  readonly value: string
}

/** A template variable (set by the template's author when importing a version). */
export interface TemplateVariable {
  readonly name: string
  readonly description: string
  readonly type: "string" | "number" | "bool"
  /** The value the import used: the given one, else the default. */
  readonly value: string
  readonly default_value: string
  readonly required: boolean
  readonly sensitive: boolean
}

export interface RichParameterOption {
  readonly name: string
  readonly description: string
  readonly value: string
  readonly icon: string
}

/** A workspace parameter (set by the workspace's owner when building). */
export interface RichParameter {
  readonly name: string
  readonly display_name: string
  readonly description: string
  readonly type: "string" | "number" | "bool" | "list(string)"
  readonly mutable: boolean
  readonly ephemeral: boolean
  /** The default, as a string (a JSON array for `list(string)`); `""` when there is none. */
  readonly default_value: string
  readonly icon: string
  readonly order: number
  readonly options: ReadonlyArray<RichParameterOption>
  readonly validation_regex: string
  readonly validation_error: string
  readonly validation_min: number | undefined
  readonly validation_max: number | undefined
  readonly validation_monotonic: "" | "increasing" | "decreasing"
  /** True when the parameter has no default. */
  readonly required: boolean
  /** The form control the template names; absent: chosen from the type and the options. */
  readonly form_type?: string | undefined
  /**
   * Expressions (CEL) that make the parameter depend on parameters above it and on the workspace
   * owner (docs/templates.md#dynamic-parameters); absent for a static parameter.
   */
  readonly dynamic?: DynamicExpressions | undefined
}

/** A dynamic parameter's expressions, each optional, by the property it computes. */
export interface DynamicExpressions {
  readonly options?: string | undefined
  readonly default?: string | undefined
  readonly visible?: string | undefined
  readonly form_type?: string | undefined
  readonly min?: string | undefined
  readonly max?: string | undefined
  readonly regex?: string | undefined
  readonly error?: string | undefined
}

export interface ResourceMetadata {
  readonly key: string
  readonly value: string
  readonly sensitive: boolean
}

export interface AppHealthcheck {
  readonly url: string
  readonly interval: number
  readonly threshold: number
}

export type AppSharingLevel = "owner" | "authenticated" | "organization" | "public"
export type AppOpenIn = "slim-window" | "tab"

export interface AgentApp {
  readonly slug: string
  readonly display_name: string
  readonly icon: string
  readonly url: string
  readonly command: string
  readonly subdomain: boolean
  readonly sharing_level: AppSharingLevel
  readonly external: boolean
  readonly hidden: boolean
  readonly open_in: AppOpenIn
  readonly group: string
  readonly tooltip: string
  readonly healthcheck: AppHealthcheck | undefined
  /** The app's position in its agent, from 0. */
  readonly order: number
}

export interface AgentScript {
  readonly display_name: string
  readonly script: string
  readonly cron: string
  readonly run_on_start: boolean
  readonly run_on_stop: boolean
  readonly start_blocks_login: boolean
  readonly timeout_seconds: number
  readonly log_path: string
}

/** A metadata item the agent collects by running `script` every `interval` seconds (the described system's `coder_agent.metadata`). */
export interface AgentMetadataItem {
  readonly key: string
  readonly display_name: string
  readonly script: string
  readonly interval: number
  readonly timeout: number
}

/** Which built-in apps the dashboard offers for an agent. */
export interface DisplayApps {
  readonly vscode: boolean
  readonly vscode_insiders: boolean
  readonly web_terminal: boolean
  readonly ssh_helper: boolean
  readonly port_forwarding_helper: boolean
}

export interface ProvisionedAgent {
  readonly name: string
  /** The agent runs outside the provisioner's infrastructure; its owner starts it with its token. */
  readonly external: boolean
  /**
   * The cloud instance the agent runs on (an EC2 instance id, an Azure VM id, a Compute Engine
   * instance id), for the instance identity routes; "" when none.
   */
  readonly instance_id: string
  readonly operating_system: string
  readonly architecture: string
  readonly directory: string
  readonly env: Readonly<Record<string, string>>
  readonly connection_timeout_seconds: number
  readonly troubleshooting_url: string
  readonly startup_script_behavior: "blocking" | "non-blocking"
  readonly display_apps: DisplayApps
  readonly apps: ReadonlyArray<AgentApp>
  readonly scripts: ReadonlyArray<AgentScript>
  /** What the agent collects and reports as metadata; none when left out. */
  readonly metadata?: ReadonlyArray<AgentMetadataItem> | undefined
  /**
   * The previous build's agent of this name runs on, unchanged (a claimed prebuilt workspace
   * whose machine the provisioner kept): this build's agent takes over its token instead of a
   * new one, and the running agent reinitializes as it (docs/prebuilds.md, "Claiming").
   */
  readonly kept?: boolean | undefined
}

export interface ProvisionedResource {
  readonly name: string
  readonly type: string
  readonly hide: boolean
  readonly icon: string
  readonly daily_cost: number
  readonly metadata: ReadonlyArray<ResourceMetadata>
  readonly agents: ReadonlyArray<ProvisionedAgent>
}

/** The resources one transition leaves in place. */
export interface TransitionResources {
  readonly transition: WorkspaceTransition
  readonly resources: ReadonlyArray<ProvisionedResource>
}

export interface ExternalAuthProvider {
  readonly id: string
  readonly optional: boolean
}

export interface Preset {
  readonly name: string
  readonly default: boolean
  readonly parameters: ReadonlyArray<NameValue>
  /** Prebuilt workspaces to keep ready; `undefined` when the preset has none. */
  readonly prebuild: { readonly instances: number } | undefined
}

/** What an import reads: the archive and the author's variable values. */
export interface ImportInput {
  readonly archive: Uint8Array
  /** The archive's content type (`application/x-tar` or `application/zip`). */
  readonly content_type: string
  readonly variable_values: ReadonlyArray<NameValue>
  readonly onLog?: ProvisionerLogSink
}

/** What an import answers: everything a template version shows before any workspace exists. */
export interface ImportResult {
  readonly parameters: ReadonlyArray<RichParameter>
  readonly variables: ReadonlyArray<TemplateVariable>
  /** The resources of the `start` and of the `stop` transition, as the described system imports them. */
  readonly resources: ReadonlyArray<TransitionResources>
  readonly external_auth_providers: ReadonlyArray<ExternalAuthProvider>
  readonly presets: ReadonlyArray<Preset>
  readonly has_ai_task: boolean
  /** The slug of the app that runs AI tasks, when `has_ai_task`. */
  readonly ai_task_app_slug: string | undefined
  readonly has_external_agent: boolean
  /** Every line the import logged (the same ones `onLog` received). */
  readonly logs: ReadonlyArray<ProvisionerLog>
}

/** The workspace a build is for, as templates may name it. */
export interface BuildWorkspace {
  readonly id: string
  readonly name: string
  /** The owner's username. */
  readonly owner: string
}

/**
 * Facts about a build beyond its workspace, as the described system's provisioner metadata
 * carries them (`CODER_WORKSPACE_BUILD_ID`, ...): a driver labels what it makes with them.
 */
export interface BuildMetadata {
  readonly deployment_id: string
  /** The deployment's access URL, as its own users reach it. */
  readonly access_url: string
  readonly workspace_build_id: string
  readonly build_number: number
  readonly workspace_owner_id: string
  readonly template_id: string
  readonly template_name: string
  readonly template_version_id: string
  /**
   * `claim` when the build claims a prebuilt workspace for its new owner (the described system's
   * `prebuilt_workspace_build_stage`): a provisioner keeps the running machine (and says so with
   * `kept` on its agents), whose agent then reinitializes as the new owner's.
   */
  readonly prebuilt_workspace_build_stage?: "claim" | undefined
}

/** A build whose cost would take its owner past their quota: the build fails with `message`. */
export class QuotaExceeded extends Data.TaggedError("QuotaExceeded")<{ readonly message: string }> {}

/** What a build applies: a transition of one workspace, with its parameter values and previous state. */
export interface BuildInput {
  readonly archive: Uint8Array
  readonly content_type: string
  readonly transition: WorkspaceTransition
  readonly variable_values: ReadonlyArray<NameValue>
  readonly parameter_values: ReadonlyArray<NameValue>
  /** The state the previous build answered; empty for a workspace's first build. */
  readonly previous_state: Uint8Array
  readonly workspace: BuildWorkspace
  /**
   * The AI task the workspace runs, when it runs one: its id and its prompt (the AI agent's
   * input), which the provisioner hands the agent (the built-in one as `${task.prompt}`).
   */
  readonly task?: { readonly id: string; readonly prompt: string } | undefined
  /**
   * The token of this build's agent named `name` (the same token for every call with that name):
   * what the provisioner hands the agent it starts, say as an environment variable. The service
   * keeps only its hash; agents the provisioner does not ask for get a token nobody holds (an
   * external agent's owner gets a new one from the credentials route). An effect, because a
   * provisioner on another machine (a provisioner daemon) asks the service for it.
   */
  readonly agentToken: (name: string) => Effect.Effect<string>
  readonly onLog?: ProvisionerLogSink
  readonly metadata?: BuildMetadata | undefined
  /**
   * Checks the planned daily cost against the owner's quota, before anything is made (the
   * described system's CommitQuota between plan and apply). A provisioner that makes real
   * things calls it first; for one that does not, the cost is checked once the build answers.
   */
  readonly commitQuota?: ((dailyCost: number) => Effect.Effect<void, QuotaExceeded>) | undefined
  /**
   * The init script of an agent for `os` and `arch` that reaches the service at `accessUrl`
   * (docs/agents.md, "The init script"): what a container runs as its entrypoint. Undefined for
   * an operating system without one.
   */
  readonly agentInitScript?: ((os: string, arch: string, accessUrl: string) => string | undefined) | undefined
}

export interface BuildResult {
  readonly resources: ReadonlyArray<ProvisionedResource>
  /** Opaque to everyone but the provisioner; given back as the next build's `previous_state`. */
  readonly state: Uint8Array
  /** The sum of the resources' daily costs. */
  readonly daily_cost: number
  readonly has_ai_task: boolean
  readonly has_external_agent: boolean
  readonly logs: ReadonlyArray<ProvisionerLog>
}

/**
 * An import or a build that failed: the job fails with `message` (and `error_code`, such as
 * `REQUIRED_TEMPLATE_VARIABLES`); `logs` are the lines logged before the failure. An import that
 * failed for want of variable values names the template's `variables` (as the described system's
 * parse step does), so the version lists them and a client can ask for the missing ones.
 */
export class ProvisionerFailure extends Data.TaggedError("ProvisionerFailure")<{
  readonly message: string
  readonly error_code?: string
  readonly logs: ReadonlyArray<ProvisionerLog>
  readonly variables?: ReadonlyArray<TemplateVariable>
}> {}

/** The error code of an import whose required template variables have no value. */
export { REQUIRED_TEMPLATE_VARIABLES } from "./ProvisionerJob.js"

/**
 * A byte link between the two hosts of a move (docs/provisioner-daemons.md, "Moving a
 * workspace"): the daemon's WebSocket to the service, joined there with the other host's. Frames
 * pass as they are sent: bytes stay bytes, text stays text.
 */
export interface MoveLink {
  /** Sends one frame; resolves once the link can take more (a slow reader slows the sender). Rejects once closed. */
  readonly send: (data: Uint8Array | string) => Promise<void>
  /** The next frame; `undefined` once the other side closed normally; rejects when the link broke (with the reason). */
  readonly next: () => Promise<Uint8Array | string | undefined>
  /** Closes the link (1000, or the code given with a reason). */
  readonly close: (code?: number, reason?: string) => void
}

/** Which end of a move a host is: `export` reads its volumes, `import` writes them, `cleanup` removes the old ones. */
export type VolumeMoveSide = "export" | "import" | "cleanup"

/** What one host does in a move of a stopped workspace's volumes. */
export interface VolumeMoveInput {
  readonly side: VolumeMoveSide
  readonly deployment_id: string
  readonly workspace_id: string
  /**
   * The images the workspace's containers ran: the target must hold each (checked before a byte
   * is copied); the helper containers that reach the volumes are made of the first.
   */
  readonly images: ReadonlyArray<string>
  /** The service's path of the link, and the one-time token that opens it (export and import). */
  readonly stream: { readonly path: string; readonly token: string }
  /**
   * Opens the link `stream` names (a daemon's WebSocket to the service). Absent on the service's
   * side, whose remote provisioner hands `stream` to the daemon, which opens it.
   */
  readonly openLink?: ((stream: VolumeMoveInput["stream"]) => Effect.Effect<MoveLink, ProvisionerFailure>) | undefined
  readonly onLog?: ProvisionerLogSink
}

/** One volume as a move copied it: what arrived matches what left (the target re-read it). */
export interface MovedVolume {
  readonly name: string
  readonly bytes: number
  /** SHA-256 of the volume's archive, hex. */
  readonly sha256: string
}

export interface VolumeMoveResult {
  readonly volumes: ReadonlyArray<MovedVolume>
}

/** A provisioner: a type name and the two operations. Neither may die on bad input. */
export interface Provisioner {
  readonly type: string
  readonly import: (input: ImportInput) => Effect.Effect<ImportResult, ProvisionerFailure>
  readonly build: (input: BuildInput) => Effect.Effect<BuildResult, ProvisionerFailure>
  /**
   * Moves a stopped workspace's volumes between two hosts (one side per call): a provisioner
   * whose workspaces keep data on their host (the Docker driver) gives it; others cannot be moved.
   */
  readonly moveVolumes?: ((input: VolumeMoveInput) => Effect.Effect<VolumeMoveResult, ProvisionerFailure>) | undefined
}

/** The provisioners this deployment knows, by type name. */
export interface ProvisionerRegistry {
  /** `None` for a type nobody registered: jobs for it stay pending. */
  readonly get: (type: string) => Option.Option<Provisioner>
  readonly types: ReadonlyArray<string>
}

/** Builds a registry; a later provisioner with the same type replaces an earlier one. */
export const makeProvisioners = (provisioners: Iterable<Provisioner>): ProvisionerRegistry => {
  const byType = new Map<string, Provisioner>()
  for (const p of provisioners) byType.set(p.type, p)
  return { get: (type) => Option.fromNullable(byType.get(type)), types: [...byType.keys()] }
}

/**
 * The registry service. `Provisioners.layer([workbay, docker])` registers several;
 * `Provisioners.layerEffect` builds them with services of the embedder's own layer.
 */
export class Provisioners extends Context.Tag("@workbay/core/Provisioners")<Provisioners, ProvisionerRegistry>() {
  static readonly layer = (provisioners: Iterable<Provisioner>): Layer.Layer<Provisioners> =>
    Layer.succeed(Provisioners, makeProvisioners(provisioners))

  static readonly layerEffect = <E, R>(
    provisioners: Effect.Effect<Iterable<Provisioner>, E, R>
  ): Layer.Layer<Provisioners, E, R> => Layer.effect(Provisioners, Effect.map(provisioners, makeProvisioners))
}
