/**
 * The built-in `workbay` provisioner: its template is the archive's `template.yaml` (see
 * docs/templates.md), and its "infrastructure" is the record of what the template declares, so
 * the standalone server creates real templates and workspaces with no other software.
 */
import { Clock, Duration, Effect, Either } from "effect"
import {
  type BuildInput,
  type ImportResult,
  type NameValue,
  type ProvisionedAgent,
  type ProvisionedResource,
  type Provisioner,
  ProvisionerFailure,
  type ProvisionerLog,
  type ProvisionerLogLevel,
  type ProvisionerLogSink,
  REQUIRED_TEMPLATE_VARIABLES,
  type RichParameter,
  type TemplateVariable,
  type WorkspaceTransition
} from "../provisioners/Provisioner.js"
import { type ArchiveFiles, type ArchiveLimits, defaultArchiveLimits, readArchive } from "./Archive.js"
import {
  DOCKER_CONTAINER,
  DOCKER_VOLUME,
  fitsType,
  parseCpus,
  parseMemory,
  parseTemplate,
  stringValue,
  substitute,
  type Substitutions,
  type TemplateIssue,
  type TemplateResource,
  type TemplateSpec
} from "./TemplateFile.js"

/** The type name of the built-in provisioner. */
export const WORKBAY_PROVISIONER = "workbay"

/** The names the template file may have, in the order they are looked for. */
export const templateFileNames: ReadonlyArray<string> = ["template.yaml", "template.yml", "template.json"]

/** The state a build of a template provisioner answers (JSON), given back to the next build. */
export interface WorkbayState {
  readonly format: "workbay/1"
  readonly build_number: number
  readonly transition: WorkspaceTransition
  readonly resources: ReadonlyArray<{ readonly type: string; readonly name: string }>
  /** The driver's own state (the `docker` provisioner's containers and volumes); absent for records. */
  readonly driver?: unknown
}

/** What a template driver gets to apply a transition. */
export interface TemplateApply {
  readonly input: BuildInput
  readonly template: TemplateSpec
  /** The references' values (parameters, variables, workspace, task). */
  readonly subs: Substitutions
  /** The resources the transition leaves in place, references substituted, as the build's record shows them. */
  readonly resources: ReadonlyArray<ProvisionedResource>
  /** The driver state the previous build answered; undefined for a first build. */
  readonly previous: unknown
  /** The job log stage of the transition (`Starting workspace`, ...), which build timings read. */
  readonly stage: string
  readonly log: (level: ProvisionerLogLevel, stage: string, output: string) => Effect.Effect<void>
  readonly fail: (stage: string, message: string) => Effect.Effect<never, ProvisionerFailure>
}

/**
 * What makes a template provisioner's resources real: the built-in `workbay` provisioner has
 * none (its resources are records); the `docker` provisioner (@workbay/docker) applies
 * `docker_container` and `docker_volume` resources.
 */
export interface TemplateDriver {
  /** More rules for a template this provisioner imports and builds (problems at their keys). */
  readonly rules?: (template: TemplateSpec) => ReadonlyArray<TemplateIssue>
  /** Applies the transition after the quota is committed: the resources as built, and the driver's state. */
  readonly apply?: (
    ctx: TemplateApply
  ) => Effect.Effect<
    { readonly resources: ReadonlyArray<ProvisionedResource>; readonly state?: unknown },
    ProvisionerFailure
  >
}

const decoder = new TextDecoder("utf-8", { fatal: true })

/** The template file at the archive's root, or at the root of its single top-level folder. */
const findTemplate = (files: ArchiveFiles): { path: string; data: Uint8Array } | undefined => {
  for (const name of templateFileNames) {
    const data = files.get(name)
    if (data !== undefined) return { path: name, data }
  }
  const tops = new Set([...files.keys()].map((p) => p.split("/")[0]))
  if (tops.size !== 1) return undefined
  const [top] = tops
  for (const name of templateFileNames) {
    const data = files.get(`${top}/${name}`)
    if (data !== undefined) return { path: `${top}/${name}`, data }
  }
  return undefined
}

/** Collects logs, passes each to the sink, and fails with them. */
const makeLogger = (onLog: ProvisionerLogSink | undefined) => {
  const logs: Array<ProvisionerLog> = []
  const log = (level: ProvisionerLogLevel, stage: string, output: string) =>
    Effect.gen(function*() {
      const entry: ProvisionerLog = { created_at: new Date(yield* Clock.currentTimeMillis), level, stage, output }
      logs.push(entry)
      if (onLog !== undefined) yield* onLog(entry)
    })
  const fail = (
    stage: string,
    message: string,
    error_code?: string,
    variables?: ReadonlyArray<TemplateVariable>
  ) =>
    Effect.zipRight(
      log("error", stage, message),
      Effect.fail(
        new ProvisionerFailure({
          message,
          logs,
          ...(error_code === undefined ? {} : { error_code }),
          ...(variables === undefined ? {} : { variables })
        })
      )
    )
  return { logs, log, fail }
}
type Logger = ReturnType<typeof makeLogger>

const SETUP = "Setting up"

/** Reads the archive and the template, logging each step; fails with a message naming file, line and key. */
const loadTemplate = (
  archive: Uint8Array,
  contentType: string,
  limits: ArchiveLimits,
  logger: Logger,
  extraRules?: (template: TemplateSpec) => ReadonlyArray<TemplateIssue>
) =>
  Effect.gen(function*() {
    yield* logger.log("info", SETUP, "Reading the template archive.")
    const files = yield* readArchive(archive, contentType, limits).pipe(
      Effect.catchTag("ArchiveError", (e) => logger.fail(SETUP, e.message))
    )
    const found = findTemplate(files)
    if (found === undefined) {
      return yield* logger.fail(
        SETUP,
        "The archive has no template.yaml (nor template.yml or template.json) at its root."
      )
    }
    let text: string
    try {
      text = decoder.decode(found.data)
    } catch {
      return yield* logger.fail(SETUP, `${found.path}: the file is not UTF-8 text.`)
    }
    let parsed: ReturnType<typeof parseTemplate>
    try {
      parsed = parseTemplate(found.path, text, extraRules)
    } catch (e) {
      // A template the parser cannot hold (nesting past the stack, say) is the author's mistake, not ours.
      return yield* logger.fail(SETUP, `${found.path}: ${e instanceof Error ? e.message : String(e)}`)
    }
    if (Either.isLeft(parsed)) return yield* logger.fail(SETUP, parsed.left.join("\n"))
    yield* logger.log("info", SETUP, `Read ${found.path}.`)
    return parsed.right
  })

/** The variables with their values; fails with `REQUIRED_TEMPLATE_VARIABLES` when a required one has none. */
const resolveVariables = (template: TemplateSpec, given: ReadonlyArray<NameValue>, logger: Logger, stage: string) =>
  Effect.gen(function*() {
    const values = new Map(given.map((v) => [v.name, v.value]))
    const variables: Array<TemplateVariable> = []
    const missing: Array<string> = []
    for (const v of template.variables ?? []) {
      const type = v.type ?? "string"
      const required = v.required ?? v.default === undefined
      const default_value = v.default === undefined ? "" : stringValue(v.default)
      const value = values.get(v.name) ?? default_value
      if (required && !values.has(v.name) && v.default === undefined) missing.push(v.name)
      else if (values.has(v.name) && !fitsType(type, value)) {
        return yield* logger.fail(stage, `The value of template variable "${v.name}" must be a ${type}.`)
      }
      variables.push({
        name: v.name,
        description: v.description ?? "",
        type,
        value,
        default_value,
        required,
        sensitive: v.sensitive ?? false
      })
    }
    if (missing.length > 0) {
      return yield* logger.fail(
        stage,
        `Required template variables need values: ${missing.join(", ")}.`,
        REQUIRED_TEMPLATE_VARIABLES,
        variables
      )
    }
    return variables
  })

const toParameter = (p: NonNullable<TemplateSpec["parameters"]>[number]): RichParameter => ({
  name: p.name,
  display_name: p.display_name ?? "",
  description: p.description ?? "",
  type: p.type ?? "string",
  mutable: p.mutable ?? false,
  ephemeral: p.ephemeral ?? false,
  default_value: p.default === undefined ? "" : stringValue(p.default),
  icon: p.icon ?? "",
  order: p.order ?? 0,
  options: (p.options ?? []).map((o) => ({
    name: o.name,
    description: o.description ?? "",
    value: stringValue(o.value),
    icon: o.icon ?? ""
  })),
  validation_regex: p.validation?.regex ?? "",
  validation_error: p.validation?.error ?? "",
  validation_min: p.validation?.min,
  validation_max: p.validation?.max,
  validation_monotonic: p.validation?.monotonic ?? "",
  // A default computed by an expression makes the parameter optional, as a written one does.
  required: p.default === undefined && p.dynamic?.default === undefined,
  ...(p.form_type !== undefined ? { form_type: p.form_type } : {}),
  ...(p.dynamic !== undefined && Object.keys(p.dynamic).length > 0 ? { dynamic: p.dynamic } : {})
})

const inTransition = (r: TemplateResource, transition: WorkspaceTransition) =>
  (r.transitions ?? ["start"]).includes(transition)

/** The resources `transition` leaves in place, with references substituted (names, types and slugs stay as written). */
const resourcesFor = (
  template: TemplateSpec,
  transition: WorkspaceTransition,
  subs: Substitutions
): ReadonlyArray<ProvisionedResource> => {
  const s = (text: string | undefined) => substitute(text ?? "", subs)
  return (template.resources ?? []).filter((r) => inTransition(r, transition)).map((r) => ({
    name: r.name,
    type: r.type,
    hide: r.hide ?? false,
    icon: s(r.icon),
    daily_cost: r.daily_cost ?? 0,
    metadata: (r.metadata ?? []).map((m) => ({
      key: s(m.key),
      value: s(stringValue(m.value)),
      sensitive: m.sensitive ?? false
    })),
    agents: (r.agents ?? []).map((a): ProvisionedAgent => ({
      name: a.name,
      external: a.external ?? false,
      instance_id: s(a.instance_id),
      operating_system: a.operating_system ?? "linux",
      architecture: a.architecture ?? "amd64",
      directory: s(a.directory),
      env: Object.fromEntries(Object.entries(a.env ?? {}).map(([k, v]) => [k, s(stringValue(v))])),
      connection_timeout_seconds: a.connection_timeout_seconds ?? 120,
      troubleshooting_url: s(a.troubleshooting_url),
      startup_script_behavior: a.startup_script_behavior ?? "non-blocking",
      display_apps: {
        vscode: a.display_apps?.vscode ?? true,
        vscode_insiders: a.display_apps?.vscode_insiders ?? false,
        web_terminal: a.display_apps?.web_terminal ?? true,
        ssh_helper: a.display_apps?.ssh_helper ?? true,
        port_forwarding_helper: a.display_apps?.port_forwarding_helper ?? true
      },
      apps: (a.apps ?? []).map((app, order) => ({
        slug: app.slug,
        display_name: app.display_name === undefined ? app.slug : s(app.display_name),
        icon: s(app.icon),
        url: s(app.url),
        command: s(app.command),
        subdomain: app.subdomain ?? false,
        sharing_level: app.sharing_level ?? "owner",
        external: app.external ?? false,
        hidden: app.hidden ?? false,
        open_in: app.open_in ?? "slim-window",
        group: s(app.group),
        tooltip: s(app.tooltip),
        healthcheck: app.healthcheck === undefined ? undefined : {
          url: s(app.healthcheck.url),
          interval: app.healthcheck.interval ?? 0,
          threshold: app.healthcheck.threshold ?? 0
        },
        order
      })),
      scripts: (a.scripts ?? []).map((sc) => ({
        display_name: s(sc.display_name),
        script: s(sc.script),
        cron: sc.cron ?? "",
        run_on_start: sc.run_on_start ?? false,
        run_on_stop: sc.run_on_stop ?? false,
        start_blocks_login: sc.start_blocks_login ?? false,
        timeout_seconds: sc.timeout ?? 0,
        log_path: s(sc.log_path)
      })),
      metadata: (a.metadata ?? []).map((m) => ({
        key: m.key,
        display_name: m.display_name === undefined ? m.key : s(m.display_name),
        script: s(m.script),
        interval: m.interval ?? 10,
        timeout: m.timeout ?? 5
      }))
    }))
  }))
}

/** The resource with each of its agents marked `kept` (the previous build's agent runs on as it). */
export const keptAgents = (r: ProvisionedResource): ProvisionedResource => ({
  ...r,
  agents: r.agents.map((a) => ({ ...a, kept: true }))
})

const hasApp = (resources: ReadonlyArray<ProvisionedResource>, slug: string | undefined) =>
  slug !== undefined && resources.some((r) => r.agents.some((a) => a.apps.some((app) => app.slug === slug)))
const hasExternalAgent = (resources: ReadonlyArray<ProvisionedResource>) =>
  resources.some((r) => r.agents.some((a) => a.external))

const encoder = new TextEncoder()

/** The previous build's state, when it is one of ours. */
const previousState = (state: Uint8Array): Partial<WorkbayState> => {
  if (state.length === 0) return {}
  try {
    const parsed = JSON.parse(new TextDecoder().decode(state)) as Partial<WorkbayState>
    return parsed !== null && typeof parsed === "object" && parsed.format === "workbay/1" ? parsed : {}
  } catch {
    return {}
  }
}

const stageOf: Record<WorkspaceTransition, string> = {
  start: "Starting workspace",
  stop: "Stopping workspace",
  delete: "Destroying workspace"
}

export interface WorkbayProvisionerOptions {
  /** Bounds on the archives it reads (default: 4,096 files, 64 MiB expanded). */
  readonly archiveLimits?: ArchiveLimits
}

export interface TemplateProvisionerOptions extends WorkbayProvisionerOptions {
  /** The provisioner type jobs name. */
  readonly type: string
  readonly driver?: TemplateDriver
}

/** A wait of `ms` (on Effect's Clock), taken before each log line and once more. */
const waitOf = (ms: number | undefined) => {
  const delay = Duration.millis(ms ?? 0)
  return Duration.toMillis(delay) > 0 ? Effect.sleep(delay) : Effect.void
}

/**
 * A provisioner of `template.yaml` (docs/templates.md): the built-in `workbay` one, and others
 * that make its resources real with a driver (the `docker` provisioner).
 */
export const makeTemplateProvisioner = (options: TemplateProvisionerOptions): Provisioner => {
  const limits = options.archiveLimits ?? defaultArchiveLimits
  const rules = options.driver?.rules

  const importTemplate: Provisioner["import"] = (input) =>
    Effect.gen(function*() {
      const logger = makeLogger(input.onLog)
      const template = yield* loadTemplate(input.archive, input.content_type, limits, logger, rules)
      const PARSING = "Parsing template parameters"
      const variables = yield* resolveVariables(template, input.variable_values, logger, PARSING)
      const parameters = (template.parameters ?? []).map(toParameter)
      yield* logger.log("info", PARSING, `Found ${parameters.length} parameters and ${variables.length} variables.`)

      const DETECTING = "Detecting persistent resources"
      // The import waits as a build does, so its job can be watched and canceled while it runs.
      const wait = waitOf(template.build?.import_delay_ms ?? template.build?.delay_ms)
      for (const line of template.build?.logs ?? []) {
        yield* wait
        yield* logger.log("info", DETECTING, line)
      }
      yield* wait
      if (template.build?.fail?.transition === "import") {
        return yield* logger.fail(DETECTING, template.build.fail.message ?? "The template import failed.")
      }
      // A template version shows its resources before any workspace exists: parameters take
      // their defaults and workspace fields are empty.
      const subs: Substitutions = {
        param: new Map(parameters.map((p) => [p.name, p.default_value])),
        var: new Map(variables.map((v) => [v.name, v.value])),
        workspace: { id: "", name: "", owner: "" }
      }
      const start = resourcesFor(template, "start", subs)
      const stop = resourcesFor(template, "stop", subs)
      yield* logger.log(
        "info",
        DETECTING,
        `Found ${start.length} resources when started and ${stop.length} when stopped.`
      )
      const result: ImportResult = {
        parameters,
        variables,
        resources: [{ transition: "start", resources: start }, { transition: "stop", resources: stop }],
        external_auth_providers: (template.external_auth ?? []).map((e) => ({
          id: e.id,
          optional: e.optional ?? false
        })),
        presets: (template.presets ?? []).map((p) => ({
          name: p.name,
          default: p.default ?? false,
          parameters: Object.entries(p.parameters ?? {}).map(([name, value]) => ({ name, value: stringValue(value) })),
          prebuild: p.prebuilds === undefined ? undefined : { instances: p.prebuilds.instances }
        })),
        has_ai_task: template.ai_task !== undefined,
        ai_task_app_slug: template.ai_task?.app,
        has_external_agent: hasExternalAgent(start),
        logs: logger.logs
      }
      yield* logger.log("info", "Cleaning Up", "The template is ready.")
      return result
    }).pipe(Effect.withSpan("WorkbayProvisioner.import"))

  const build: Provisioner["build"] = (input) =>
    Effect.gen(function*() {
      const logger = makeLogger(input.onLog)
      const template = yield* loadTemplate(input.archive, input.content_type, limits, logger, rules)
      const PLANNING = "Planning infrastructure"
      const variables = yield* resolveVariables(template, input.variable_values, logger, PLANNING)
      const given = new Map(input.parameter_values.map((p) => [p.name, p.value]))
      const params = new Map<string, string>()
      for (const p of template.parameters ?? []) {
        const value = given.get(p.name) ?? (p.default === undefined ? undefined : stringValue(p.default))
        if (value === undefined) {
          return yield* logger.fail(PLANNING, `Parameter "${p.name}" is required and has no value.`)
        }
        params.set(p.name, value)
      }
      const subs: Substitutions = {
        param: params,
        var: new Map(variables.map((v) => [v.name, v.value])),
        workspace: input.workspace,
        task: input.task
      }
      const stage = stageOf[input.transition]
      // A dry run names no workspace unless its request gave one.
      const what = input.workspace.name === "" ? "a workspace" : `workspace "${input.workspace.name}"`
      yield* logger.log("info", PLANNING, `Planning the ${input.transition} of ${what}.`)

      const wait = waitOf(template.build?.delay_ms)
      for (const line of template.build?.logs ?? []) {
        yield* wait
        yield* logger.log("info", stage, substitute(line, subs))
      }
      yield* wait
      const fail = template.build?.fail
      if (fail !== undefined && (fail.transition ?? "start") === input.transition) {
        return yield* logger.fail(stage, substitute(fail.message ?? `The workspace ${input.transition} failed.`, subs))
      }

      const planned = resourcesFor(template, input.transition, subs)
      const dailyCost = planned.reduce((sum, r) => sum + r.daily_cost, 0)
      // The quota is committed before anything is made, as the described system commits it between plan and apply.
      if (input.commitQuota !== undefined) {
        yield* input.commitQuota(dailyCost).pipe(
          Effect.tapError((e) => logger.log("error", "Committing quota", e.message)),
          Effect.mapError((e) => new ProvisionerFailure({ message: e.message, logs: logger.logs }))
        )
      }
      const previous = previousState(input.previous_state)
      // Records have no machine to replace: a claimed prebuilt workspace's agents run on as they are.
      const applied = options.driver?.apply === undefined
        ? {
          resources: input.metadata?.prebuilt_workspace_build_stage === "claim" ? planned.map(keptAgents) : planned,
          state: undefined
        }
        : yield* options.driver.apply({
          input,
          template,
          subs,
          resources: planned,
          previous: previous.driver,
          stage,
          log: logger.log,
          fail: (stage, message) => logger.fail(stage, message)
        })
      const resources = applied.resources
      const state: WorkbayState = {
        format: "workbay/1",
        build_number: (typeof previous.build_number === "number" ? previous.build_number : 0) + 1,
        transition: input.transition,
        resources: resources.map((r) => ({ type: r.type, name: r.name })),
        ...(applied.state === undefined ? {} : { driver: applied.state })
      }
      yield* logger.log("info", "Cleaning Up", `Applied: ${resources.length} resources.`)
      return {
        resources,
        state: encoder.encode(JSON.stringify(state)),
        daily_cost: resources.reduce((sum, r) => sum + r.daily_cost, 0),
        has_ai_task: hasApp(resources, template.ai_task?.app),
        has_external_agent: hasExternalAgent(resources),
        logs: logger.logs
      }
    }).pipe(Effect.withSpan("WorkbayProvisioner.build"))

  return { type: options.type, import: importTemplate, build }
}

/** What a workspace's start asks of its host: the sum of its containers' memory and CPU limits. */
export interface TemplateDemand {
  readonly memory_bytes: number
  readonly cpus: number
}

/**
 * What a start of this template with these values asks of the host it runs on (placement,
 * docs/provisioner-daemons.md): the memory and CPU limits of its `docker_container` resources,
 * references substituted as the build substitutes them (a container without a limit asks none).
 * `undefined` when the archive holds no template file or its values do not resolve: the build
 * itself then fails with the reason, on whichever host takes it.
 */
export const templateDemand = (
  input: Pick<BuildInput, "archive" | "content_type" | "variable_values" | "parameter_values" | "workspace">,
  limits: ArchiveLimits = defaultArchiveLimits
): Effect.Effect<TemplateDemand | undefined> =>
  Effect.gen(function*() {
    const logger = makeLogger(undefined)
    const template = yield* loadTemplate(input.archive, input.content_type, limits, logger)
    const variables = yield* resolveVariables(template, input.variable_values, logger, "Placement")
    const given = new Map(input.parameter_values.map((p) => [p.name, p.value]))
    const subs: Substitutions = {
      param: new Map(
        (template.parameters ?? []).map((p) => [
          p.name,
          given.get(p.name) ?? (p.default === undefined ? "" : stringValue(p.default))
        ])
      ),
      var: new Map(variables.map((v) => [v.name, v.value])),
      workspace: input.workspace
    }
    let memory_bytes = 0
    let cpus = 0
    for (const r of template.resources ?? []) {
      if (r.type !== DOCKER_CONTAINER || r.container === undefined || !inTransition(r, "start")) continue
      const figure = (v: string | number | undefined) => v === undefined ? undefined : substitute(String(v), subs)
      const memory = figure(r.container.memory)
      const cpu = figure(r.container.cpus)
      memory_bytes += memory === undefined ? 0 : parseMemory(memory) ?? 0
      cpus += cpu === undefined ? 0 : parseCpus(cpu) ?? 0
    }
    return { memory_bytes, cpus }
  }).pipe(Effect.catchAll(() => Effect.succeed(undefined)))

/** Docker's resource types belong to the `docker` provisioner: the records-only one refuses them. */
const refuseDocker = (template: TemplateSpec): ReadonlyArray<TemplateIssue> =>
  (template.resources ?? []).flatMap((r, i) =>
    r.type === DOCKER_CONTAINER || r.type === DOCKER_VOLUME
      ? [{
        path: ["resources", i, "type"],
        message:
          `${r.type} resources are made by the docker provisioner: import this template with provisioner "docker"`
      }]
      : []
  )

/** Builds the `workbay` provisioner. */
export const makeWorkbayProvisioner = (options: WorkbayProvisionerOptions = {}): Provisioner =>
  makeTemplateProvisioner({ ...options, type: WORKBAY_PROVISIONER, driver: { rules: refuseDocker } })

/** The `workbay` provisioner with default bounds. */
export const workbayProvisioner: Provisioner = makeWorkbayProvisioner()
