/**
 * The `workbay` provisioner's template language: `template.yaml` (YAML 1.2, so JSON too), its
 * schema, and a reader that answers either the checked template or messages naming the file,
 * line and key (`template.yaml:12: key resources[0].agents[0].apps[1].slug: must be ...`).
 */
import { Either, ParseResult, Schema } from "effect"
import * as YAML from "yaml"
import { compilePattern } from "../Pattern.js"
import { compileExpression } from "./Expressions.js"

// Base schemas with plain messages, so a type mistake reads "must be a string".
const str = Schema.String.annotations({ message: () => "must be a string" })
const bool = Schema.Boolean.annotations({ message: () => "must be true or false" })
const num = Schema.Number.annotations({ message: () => "must be a number" })
const count = Schema.Int.pipe(Schema.greaterThanOrEqualTo(0)).annotations({
  message: () => ({ message: "must be a whole number, 0 or more", override: true })
})
const scalar = Schema.Union(Schema.String, Schema.Number, Schema.Boolean).annotations({
  message: () => ({ message: "must be a string, a number or a boolean", override: true })
})
const scalarOrList = Schema.Union(Schema.String, Schema.Number, Schema.Boolean, Schema.Array(Schema.String))
  .annotations(
    { message: () => ({ message: "must be a string, a number, a boolean or a list of strings", override: true }) }
  )
const list = <A, I>(item: Schema.Schema<A, I>) => Schema.Array(item).annotations({ message: () => "must be a list" })
const map = <F extends Schema.Struct.Fields>(fields: F) =>
  Schema.Struct(fields).annotations({ message: () => "must be a map of keys to values" })
const oneOf = <const L extends ReadonlyArray<string>>(...values: L) =>
  Schema.Literal(...values).annotations({ message: () => `must be one of ${values.map((v) => `"${v}"`).join(", ")}` })
const named = (pattern: RegExp, what: string) =>
  Schema.String.pipe(Schema.pattern(pattern)).annotations({
    message: () => ({ message: `must be ${what}`, override: true })
  })
const opt = <S extends Schema.Schema.Any>(schema: S) => Schema.optionalWith(schema, { exact: true })

/** Names of variables, parameters, resources and agents: letters, digits, `_` and `-`. */
const name = named(
  /^[A-Za-z_][A-Za-z0-9_-]*$/,
  "a name of letters, digits, \"_\" and \"-\", starting with a letter or \"_\""
)
/** App slugs, as the described system checks them. */
const slug = named(/^[a-z0-9](-?[a-z0-9])*$/, "a slug of lowercase letters, digits and single \"-\" between them")
const transition = oneOf("start", "stop", "delete")

const Variable = map({
  name,
  description: opt(str),
  type: opt(oneOf("string", "number", "bool")),
  default: opt(scalar),
  required: opt(bool),
  sensitive: opt(bool)
})

/** The form controls a parameter may name (the described system's `form_type`). */
const formTypes = [
  "radio",
  "slider",
  "input",
  "dropdown",
  "checkbox",
  "switch",
  "multi-select",
  "tag-select",
  "textarea"
] as const

const Parameter = map({
  name,
  display_name: opt(str),
  description: opt(str),
  type: opt(oneOf("string", "number", "bool", "list(string)")),
  default: opt(scalarOrList),
  mutable: opt(bool),
  ephemeral: opt(bool),
  icon: opt(str),
  order: opt(Schema.Int.annotations({ message: () => ({ message: "must be a whole number", override: true }) })),
  options: opt(list(map({ name: str, value: scalar, description: opt(str), icon: opt(str) }))),
  validation: opt(map({
    regex: opt(str),
    error: opt(str),
    min: opt(num),
    max: opt(num),
    monotonic: opt(oneOf("increasing", "decreasing"))
  })),
  form_type: opt(oneOf(...formTypes)),
  /** Expressions (CEL) computing properties from parameters above and the owner (docs/templates.md#dynamic-parameters). */
  dynamic: opt(map({
    options: opt(str),
    default: opt(str),
    visible: opt(str),
    form_type: opt(str),
    min: opt(str),
    max: opt(str),
    regex: opt(str),
    error: opt(str)
  }))
})

const Preset = map({
  name: str,
  default: opt(bool),
  parameters: opt(
    Schema.Record({ key: Schema.String, value: scalarOrList }).annotations({
      message: () => "must be a map of parameter names to values"
    })
  ),
  prebuilds: opt(map({ instances: count }))
})

const App = map({
  slug,
  display_name: opt(str),
  icon: opt(str),
  url: opt(str),
  command: opt(str),
  subdomain: opt(bool),
  sharing_level: opt(oneOf("owner", "authenticated", "organization", "public")),
  external: opt(bool),
  hidden: opt(bool),
  open_in: opt(oneOf("slim-window", "tab")),
  group: opt(str),
  tooltip: opt(str),
  healthcheck: opt(map({ url: str, interval: opt(count), threshold: opt(count) }))
})

const Script = map({
  display_name: str,
  script: str,
  cron: opt(str),
  run_on_start: opt(bool),
  run_on_stop: opt(bool),
  start_blocks_login: opt(bool),
  timeout: opt(count),
  log_path: opt(str)
})

const Metadata = map({
  key: str,
  display_name: opt(str),
  script: str,
  interval: opt(count),
  timeout: opt(count)
})

const Agent = map({
  name,
  external: opt(bool),
  instance_id: opt(str),
  operating_system: opt(oneOf("linux", "darwin", "windows")),
  architecture: opt(oneOf("amd64", "arm64", "armv7", "386")),
  directory: opt(str),
  env: opt(
    Schema.Record({ key: Schema.String, value: scalar }).annotations({
      message: () => "must be a map of names to values"
    })
  ),
  connection_timeout_seconds: opt(count),
  troubleshooting_url: opt(str),
  startup_script_behavior: opt(oneOf("blocking", "non-blocking")),
  display_apps: opt(map({
    vscode: opt(bool),
    vscode_insiders: opt(bool),
    web_terminal: opt(bool),
    ssh_helper: opt(bool),
    port_forwarding_helper: opt(bool)
  })),
  apps: opt(list(App)),
  scripts: opt(list(Script)),
  metadata: opt(list(Metadata))
})

/**
 * A Docker container (a resource of type `docker_container`, applied by the `docker` provisioner;
 * docs/docker.md). String values take references like every resource string, and
 * `${agent.NAME.token}` and `${agent.NAME.init_script}` besides: the token and init script of an
 * agent of the same resource.
 */
const stringList = list(str)
const stringMap = Schema.Record({ key: Schema.String, value: scalar }).annotations({
  message: () => "must be a map of names to values"
})
const memoryFigure = Schema.Union(Schema.String, Schema.Number).annotations({
  message: () => ({ message: "must be a memory size such as 512m or 2g", override: true })
})
const Mount = map({
  type: oneOf("volume", "tmpfs", "bind"),
  /** A `docker_volume` resource's name (volume), a host path (bind); none for tmpfs. */
  source: opt(str),
  target: str,
  read_only: opt(bool)
})
const Container = map({
  image: str,
  name: opt(str),
  hostname: opt(str),
  entrypoint: opt(stringList),
  command: opt(stringList),
  env: opt(stringMap),
  labels: opt(
    Schema.Record({ key: Schema.String, value: str }).annotations({
      message: () => "must be a map of names to strings"
    })
  ),
  memory: opt(memoryFigure),
  cpus: opt(memoryFigure.annotations({ message: () => ({ message: "must be a number of CPUs", override: true }) })),
  network: opt(str),
  mounts: opt(list(Mount)),
  user: opt(str),
  working_dir: opt(str),
  privileged: opt(bool),
  pid_mode: opt(oneOf("host", "")),
  /** Docker's init process as PID 1, which passes signals on and reaps zombies (default true). */
  init: opt(bool),
  stop_timeout_seconds: opt(count)
})
const Volume = map({
  name: opt(str),
  labels: opt(
    Schema.Record({ key: Schema.String, value: str }).annotations({
      message: () => "must be a map of names to strings"
    })
  )
})

const Resource = map({
  name,
  type: str,
  container: opt(Container),
  volume: opt(Volume),
  daily_cost: opt(count),
  hide: opt(bool),
  icon: opt(str),
  transitions: opt(list(transition)),
  metadata: opt(list(map({ key: str, value: scalar, sensitive: opt(bool) }))),
  agents: opt(list(Agent))
})

/** The most a build may wait per step: ten minutes. */
export const MAX_DELAY_MS = 600_000

/** The whole `template.yaml`. Every key is optional; unknown keys are refused. */
export const TemplateSpec = map({
  variables: opt(list(Variable)),
  parameters: opt(list(Parameter)),
  presets: opt(list(Preset)),
  resources: opt(list(Resource)),
  external_auth: opt(list(map({ id: str, optional: opt(bool) }))),
  ai_task: opt(map({ app: str })),
  build: opt(map({
    logs: opt(list(str)),
    delay_ms: opt(
      Schema.Int.pipe(Schema.between(0, MAX_DELAY_MS)).annotations({
        message: () => ({ message: `must be a whole number of milliseconds from 0 to ${MAX_DELAY_MS}`, override: true })
      })
    ),
    // The import's own wait, when it should differ from the builds' (default: `delay_ms`).
    import_delay_ms: opt(
      Schema.Int.pipe(Schema.between(0, MAX_DELAY_MS)).annotations({
        message: () => ({ message: `must be a whole number of milliseconds from 0 to ${MAX_DELAY_MS}`, override: true })
      })
    ),
    fail: opt(map({ transition: opt(oneOf("start", "stop", "delete", "import")), message: opt(str) }))
  }))
})
export type TemplateSpec = typeof TemplateSpec.Type
export type TemplateParameter = NonNullable<TemplateSpec["parameters"]>[number]
export type TemplateResource = NonNullable<TemplateSpec["resources"]>[number]

type Path = ReadonlyArray<PropertyKey>
/** A problem of a template: the key it is at (`["resources", 0, "container", "memory"]`) and what is wrong. */
export interface TemplateIssue {
  readonly path: Path
  readonly message: string
}
type Issue = TemplateIssue

/** `resources[0].agents[1].apps[0].slug` */
export const formatPath = (path: Path) =>
  path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("")

/** A value as the wire carries it: strings as they are, lists as JSON. */
export const stringValue = (v: string | number | boolean | ReadonlyArray<string>): string =>
  typeof v === "string" ? v : Array.isArray(v) ? JSON.stringify(v) : String(v)

/** `${param.NAME}`, `${var.NAME}`, `${workspace.name|owner|id}`, `${task.id|prompt}`; `$${` writes a literal `${`. */
const reference = /\$(\$?)\{([^}]*)\}/g

export interface Substitutions {
  readonly param: ReadonlyMap<string, string>
  readonly var: ReadonlyMap<string, string>
  readonly workspace: { readonly id: string; readonly name: string; readonly owner: string }
  /** The AI task the workspace runs (its id and prompt); `""` for both when none. */
  readonly task?: { readonly id: string; readonly prompt: string } | undefined
  /**
   * The agents a container starts, by name (`${agent.NAME.token}`, `${agent.NAME.init_script}`):
   * given only where a container's spec is substituted.
   */
  readonly agents?: ReadonlyMap<string, { readonly token: string; readonly init_script: string }> | undefined
}

export const substitute = (text: string, subs: Substitutions): string =>
  text.replace(reference, (whole, escaped: string, ref: string) => {
    if (escaped !== "") return whole.slice(1)
    const dot = ref.indexOf(".")
    const scope = ref.slice(0, dot)
    const key = ref.slice(dot + 1)
    if (scope === "workspace" && (key === "name" || key === "owner" || key === "id")) return subs.workspace[key]
    if (scope === "task" && (key === "id" || key === "prompt")) return subs.task?.[key] ?? ""
    if (scope === "param" || scope === "var") return subs[scope].get(key) ?? whole
    if (scope === "agent" && subs.agents !== undefined) {
      const [agent, field] = splitAgentKey(key)
      const found = subs.agents.get(agent)
      if (found !== undefined && (field === "token" || field === "init_script")) return found[field]
    }
    return whole
  })

/** `main.token` → [`main`, `token`]; agent names have no dots. */
const splitAgentKey = (key: string): [string, string] => {
  const dot = key.lastIndexOf(".")
  return dot < 0 ? [key, ""] : [key.slice(0, dot), key.slice(dot + 1)]
}

const badReference = (
  text: string,
  params: ReadonlySet<string>,
  vars: ReadonlySet<string>,
  agents: ReadonlySet<string> = new Set()
): string | undefined => {
  for (const m of text.matchAll(reference)) {
    if (m[1] !== "") continue
    const ref = m[2]!
    const dot = ref.indexOf(".")
    const scope = ref.slice(0, dot)
    const key = ref.slice(dot + 1)
    const known = scope === "workspace"
      ? key === "name" || key === "owner" || key === "id"
      : scope === "task"
      ? key === "id" || key === "prompt"
      : scope === "param"
      ? params.has(key)
      : scope === "var"
      ? vars.has(key)
      : scope === "agent"
      ? agents.has(splitAgentKey(key)[0]) && ["token", "init_script"].includes(splitAgentKey(key)[1])
      : false
    if (!known) {
      return scope === "agent"
        ? `refers to \${${ref}}: a container may name only its own agents' token and init_script`
        : `refers to \${${ref}}, which is not a parameter, a variable, a workspace or a task field`
    }
  }
  return undefined
}

const isNumeric = (v: unknown) =>
  typeof v === "number" ? Number.isFinite(v) : typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))
const isBool = (v: unknown) => typeof v === "boolean" || v === "true" || v === "false"

/** Whether `value` fits a parameter or variable type. */
export const fitsType = (type: string, value: unknown): boolean => {
  switch (type) {
    case "number":
      return isNumeric(value)
    case "bool":
      return isBool(value)
    case "list(string)": {
      if (Array.isArray(value)) return true
      if (typeof value !== "string") return false
      try {
        const parsed: unknown = JSON.parse(value)
        return Array.isArray(parsed) && parsed.every((x) => typeof x === "string")
      } catch {
        return false
      }
    }
    default:
      return typeof value !== "object"
  }
}

/** The parameters an expression names (`param.NAME`, `param["NAME"]`), string literals aside. */
const referencedParameters = (text: string): ReadonlyArray<string> => {
  const code = text.replace(
    /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g,
    (lit, offset: number) => text.slice(Math.max(0, offset - 6), offset).endsWith("param[") ? lit : "\"\""
  )
  const names: Array<string> = []
  for (const m of code.matchAll(/\bparam\s*(?:\.\s*([A-Za-z_][A-Za-z0-9_]*)|\[\s*(?:"([^"]*)"|'([^']*)')\s*\])/g)) {
    names.push(m[1] ?? m[2] ?? m[3]!)
  }
  return names
}

/** Rules the schema cannot say: unique names, defaults of the right type, references that exist. */
const checkRules = (t: TemplateSpec): Array<Issue> => {
  const issues: Array<Issue> = []
  const add = (path: Path, message: string) => issues.push({ path, message })
  const unique = <A>(
    items: ReadonlyArray<A> | undefined,
    key: (a: A) => string,
    path: (i: number) => Path,
    what: string
  ) => {
    const seen = new Set<string>()
    items?.forEach((item, i) => {
      const k = key(item)
      if (seen.has(k)) add(path(i), `${what} "${k}" is used twice`)
      seen.add(k)
    })
  }
  unique(t.variables, (v) => v.name, (i) => ["variables", i, "name"], "the variable name")
  unique(t.parameters, (p) => p.name, (i) => ["parameters", i, "name"], "the parameter name")
  unique(t.presets, (p) => p.name, (i) => ["presets", i, "name"], "the preset name")
  unique(t.resources, (r) => `${r.type}.${r.name}`, (i) => ["resources", i, "name"], "the resource")
  unique(t.external_auth, (e) => e.id, (i) => ["external_auth", i, "id"], "the external auth id")

  t.variables?.forEach((v, i) => {
    if (v.default !== undefined && !fitsType(v.type ?? "string", v.default)) {
      add(["variables", i, "default"], `must be a ${v.type}`)
    }
  })

  const earlier = new Set<string>()
  t.parameters?.forEach((p, i) => {
    const type = p.type ?? "string"
    const at = (...rest: Path): Path => ["parameters", i, ...rest]
    if (p.default !== undefined && !fitsType(type, p.default)) add(at("default"), `must be a ${type}`)
    p.options?.forEach((o, j) => {
      if (type === "list(string)" ? typeof o.value !== "string" : !fitsType(type, o.value)) {
        add(at("options", j, "value"), `must be a ${type === "list(string)" ? "string" : type}`)
      }
    })
    unique(p.options, (o) => stringValue(o.value), (j) => at("options", j, "value"), "the option value")
    if (p.options !== undefined && p.options.length > 0 && p.default !== undefined) {
      const values = new Set(p.options.map((o) => stringValue(o.value)))
      const chosen = type === "list(string)" && Array.isArray(p.default) ? p.default : [stringValue(p.default)]
      for (const c of chosen) if (!values.has(c)) add(at("default"), `"${c}" is not one of the options`)
    }
    const v = p.validation
    if (v !== undefined) {
      if (v.regex !== undefined) {
        if (type !== "string") add(at("validation", "regex"), "applies only to string parameters")
        else {
          const re = compilePattern(v.regex)
          if (re === undefined) add(at("validation", "regex"), "is not a valid regular expression (RE2 syntax)")
          else if (p.default !== undefined && !re.test(stringValue(p.default))) {
            add(at("default"), v.error ?? `does not match ${v.regex}`)
          }
        }
      }
      for (const k of ["min", "max", "monotonic"] as const) {
        if (v[k] !== undefined && type !== "number") add(at("validation", k), "applies only to number parameters")
      }
      if (v.min !== undefined && v.max !== undefined && v.min > v.max) {
        add(at("validation", "max"), "must not be less than min")
      }
      if (type === "number" && p.default !== undefined && isNumeric(p.default)) {
        const n = Number(p.default)
        if ((v.min !== undefined && n < v.min) || (v.max !== undefined && n > v.max)) {
          add(at("default"), `must be between ${v.min ?? "-∞"} and ${v.max ?? "∞"}`)
        }
      }
    }
    // Expressions: valid, within bounds, naming only parameters declared above.
    for (const [key, text] of Object.entries(p.dynamic ?? {})) {
      if (text === undefined) continue
      const compiled = compileExpression(text)
      if (compiled._tag === "Left") add(at("dynamic", key), compiled.left)
      else {
        const later = referencedParameters(text).find((n) => !earlier.has(n))
        if (later !== undefined) {
          add(at("dynamic", key), `refers to param.${later}, which is not a parameter declared above`)
        }
      }
    }
    earlier.add(p.name)
    if (p.ephemeral === true && p.mutable !== true) add(at("ephemeral"), "needs the parameter to be mutable")
    if (p.ephemeral === true && p.default === undefined) add(at("ephemeral"), "needs the parameter to have a default")
  })

  const params = new Map((t.parameters ?? []).map((p) => [p.name, p]))
  const defaults = t.presets?.filter((p) => p.default === true) ?? []
  if (defaults.length > 1) {
    add(
      ["presets", t.presets!.lastIndexOf(defaults[defaults.length - 1]!), "default"],
      "only one preset may be the default"
    )
  }
  t.presets?.forEach((preset, i) => {
    for (const [key, value] of Object.entries(preset.parameters ?? {})) {
      const p = params.get(key)
      if (p === undefined) add(["presets", i, "parameters", key], "is not a parameter of this template")
      else if (!fitsType(p.type ?? "string", value)) {
        add(["presets", i, "parameters", key], `must be a ${p.type ?? "string"}`)
      }
    }
  })

  const agentNames = new Set<string>()
  const slugs = new Set<string>()
  t.resources?.forEach((r, i) => {
    r.agents?.forEach((a, j) => {
      if (agentNames.has(a.name)) add(["resources", i, "agents", j, "name"], `the agent name "${a.name}" is used twice`)
      agentNames.add(a.name)
      unique(a.apps, (app) => app.slug, (k) => ["resources", i, "agents", j, "apps", k, "slug"], "the app slug")
      unique(a.metadata, (m) => m.key, (k) => ["resources", i, "agents", j, "metadata", k, "key"], "the metadata key")
      a.apps?.forEach((app) => slugs.add(app.slug))
      a.scripts?.forEach((s, k) => {
        if (s.run_on_start !== true && s.run_on_stop !== true && (s.cron ?? "") === "") {
          add(["resources", i, "agents", j, "scripts", k], "must set run_on_start, run_on_stop or cron")
        }
      })
    })
  })
  if (t.ai_task !== undefined && !slugs.has(t.ai_task.app)) {
    add(["ai_task", "app"], `"${t.ai_task.app}" is not the slug of an app of this template`)
  }

  // References in strings that a build substitutes.
  const paramNames = new Set(params.keys())
  const varNames = new Set((t.variables ?? []).map((v) => v.name))
  const walk = (value: unknown, path: Path, agents?: ReadonlySet<string>) => {
    if (typeof value === "string") {
      const bad = badReference(value, paramNames, varNames, agents)
      if (bad !== undefined) add(path, bad)
    } else if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i], agents))
    else if (value !== null && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) walk(v, [...path, k], agents)
    }
  }
  t.resources?.forEach((r, i) => {
    const { container, ...rest } = r
    walk(rest, ["resources", i])
    // A container names its own agents' token and init script.
    if (container !== undefined) walk(container, ["resources", i, "container"], new Set(r.agents?.map((a) => a.name)))
  })
  walk(t.build, ["build"])
  checkDocker(t, add)
  return issues
}

/** The resource types the `docker` provisioner applies. */
export const DOCKER_CONTAINER = "docker_container"
export const DOCKER_VOLUME = "docker_volume"
/** Label keys Workbay sets on what it makes; templates may not set them. */
export const RESERVED_LABEL_PREFIX = "com.workbay."

const MEBIBYTE = 1024 * 1024
/** Docker's smallest memory limit. */
export const MIN_CONTAINER_MEMORY = 6 * MEBIBYTE
const memoryUnits: Record<string, number> = { "": 1, b: 1, k: 1024, m: MEBIBYTE, g: 1024 * MEBIBYTE, t: 1024 ** 4 }

/**
 * A memory figure in bytes, as Docker reads one (`512m`, `2g`, `1.5g`, `1073741824`; units b, k,
 * m, g, t, with an optional `b`/`ib`): undefined when it is not one, or below Docker's 6 MiB floor
 * or above 1 PiB.
 */
export const parseMemory = (value: string | number): number | undefined => {
  const text = String(value).trim().toLowerCase()
  const m = /^(\d+(?:\.\d+)?)\s*([bkmgt]?)(?:i?b)?$/.exec(text)
  if (m === null) return undefined
  const bytes = Math.floor(Number(m[1]) * memoryUnits[m[2]!]!)
  return Number.isFinite(bytes) && bytes >= MIN_CONTAINER_MEMORY && bytes <= 1024 ** 5 ? bytes : undefined
}

/** A CPU figure (`0.5`, `2`): undefined unless a number above 0 and at most 1,024. */
export const parseCpus = (value: string | number): number | undefined => {
  const n = typeof value === "number" ? value : /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : Number.NaN
  return Number.isFinite(n) && n > 0 && n <= 1024 ? n : undefined
}

/**
 * The references a string makes, as written inside `${...}` (`param.vol`, `var.image`,
 * `workspace.name`); escaped ones (`$${...}`) are text, not references.
 */
export const referencesIn = (text: string): ReadonlyArray<string> =>
  Array.from(text.matchAll(reference)).filter((m) => m[1] === "").map((m) => m[2]!)

const hasReference = (text: string) => referencesIn(text).length > 0

/**
 * The rules of `container` and `volume` that the schema cannot say (docs/docker.md). The Engine's
 * grammar of the names and references it is given (images, container and volume names, networks,
 * labels, paths) is the docker provisioner's own rule (@workbay/docker, `Names.ts`).
 */
const checkDocker = (t: TemplateSpec, add: (path: Path, message: string) => void) => {
  const volumes = new Set(t.resources?.filter((r) => r.type === DOCKER_VOLUME).map((r) => r.name))
  t.resources?.forEach((r, i) => {
    const at = (...rest: Path): Path => ["resources", i, ...rest]
    if (r.container !== undefined && r.type !== DOCKER_CONTAINER) {
      add(at("container"), `belongs only to resources of type ${DOCKER_CONTAINER}`)
    }
    if (r.volume !== undefined && r.type !== DOCKER_VOLUME) {
      add(at("volume"), `belongs only to resources of type ${DOCKER_VOLUME}`)
    }
    if (r.type === DOCKER_CONTAINER && r.container === undefined) add(at("type"), "needs a container")
    for (const [key, labels] of [["container", r.container?.labels], ["volume", r.volume?.labels]] as const) {
      for (const label of Object.keys(labels ?? {})) {
        if (label.startsWith(RESERVED_LABEL_PREFIX)) {
          add(at(key, "labels", label), `labels under ${RESERVED_LABEL_PREFIX} are set by Workbay`)
        }
      }
    }
    const c = r.container
    if (c === undefined) return
    if (c.memory !== undefined && !hasReference(String(c.memory)) && parseMemory(c.memory) === undefined) {
      add(at("container", "memory"), "must be a memory size such as 512m or 2g, at least 6m")
    }
    if (c.cpus !== undefined && !hasReference(String(c.cpus)) && parseCpus(c.cpus) === undefined) {
      add(at("container", "cpus"), "must be a number of CPUs above 0, such as 0.5 or 2")
    }
    for (const key of Object.keys(c.env ?? {})) {
      if (key === "" || key.includes("=") || key.includes("\0")) {
        add(at("container", "env", key), "must be an environment variable name without \"=\"")
      }
    }
    const targets = new Set<string>()
    c.mounts?.forEach((m, j) => {
      const mat = (...rest: Path) => at("container", "mounts", j, ...rest)
      if (!m.target.startsWith("/")) add(mat("target"), "must be an absolute path")
      else if (targets.has(m.target)) add(mat("target"), `"${m.target}" is mounted twice`)
      targets.add(m.target)
      if (m.type === "tmpfs" && m.source !== undefined) add(mat("source"), "a tmpfs mount has no source")
      if (m.type === "volume") {
        if (m.source === undefined) add(mat("source"), `must name a ${DOCKER_VOLUME} resource of this template`)
        else if (!volumes.has(m.source)) {
          add(mat("source"), `"${m.source}" is not a ${DOCKER_VOLUME} resource of this template`)
        }
      }
      if (m.type === "bind" && (m.source === undefined || (!hasReference(m.source) && !m.source.startsWith("/")))) {
        add(mat("source"), "must be an absolute path on the Docker host")
      }
    })
  })
}

/** The line of the key (or list item) at `path`, or of the nearest enclosing one that exists. */
const lineOf = (doc: YAML.Document, counter: YAML.LineCounter, path: Path): number => {
  let node: unknown = doc.contents
  let offset = (doc.contents as YAML.Node | null)?.range?.[0] ?? 0
  for (const key of path) {
    if (YAML.isMap(node)) {
      const pair = node.items.find((p) => (YAML.isScalar(p.key) ? p.key.value : p.key) === key)
      if (pair === undefined) break
      offset = (pair.key as YAML.Node | null)?.range?.[0] ?? offset
      node = pair.value
    } else if (YAML.isSeq(node) && typeof key === "number") {
      const item = node.items[key]
      if (item === undefined) break
      offset = (item as YAML.Node).range?.[0] ?? offset
      node = item
    } else break
  }
  return counter.linePos(offset).line
}

const MAX_MESSAGES = 10
const MAX_MESSAGE_LENGTH = 400
const clip = (m: string) => (m.length > MAX_MESSAGE_LENGTH ? `${m.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : m)

/** The largest template file: 256 KiB, far above any real template. */
export const MAX_TEMPLATE_BYTES = 256 * 1024
const MAX_DEPTH = 64
const MAX_INDENT = 256

/**
 * Cheap bounds checked before parsing, because the YAML parser's cost grows faster than the
 * text on deep nesting (and a few thousand levels exhaust its memory): size, indentation,
 * compact sequence nesting (`- - - x`) and flow nesting (`[[[`), counted naively.
 */
const checkShape = (file: string, text: string): string | undefined => {
  if (text.length > MAX_TEMPLATE_BYTES) return `${file}: the file is larger than ${MAX_TEMPLATE_BYTES} bytes.`
  let depth = 0
  const lines = text.split("\n")
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const indent = /^[ \t]*/.exec(line)![0].length
    if (indent > MAX_INDENT) return `${file}:${i + 1}: the line is indented more than ${MAX_INDENT} columns.`
    const compact = /^(?:[ \t]*-(?:[ \t]|$))*/.exec(line)![0].split("-").length - 1
    if (compact > MAX_DEPTH) return `${file}:${i + 1}: lists nest deeper than ${MAX_DEPTH} levels.`
    for (const c of line) {
      if (c === "[" || c === "{") depth++
      else if ((c === "]" || c === "}") && depth > 0) depth--
      if (depth > MAX_DEPTH) return `${file}:${i + 1}: brackets nest deeper than ${MAX_DEPTH} levels.`
    }
  }
  return undefined
}

/**
 * Reads `text` (the file `file`) into a checked template, or answers one message per problem
 * (at most ten), each naming the file, the line and the key.
 */
export const parseTemplate = (
  file: string,
  text: string,
  /** More rules, a provisioner's own (the `docker` one's allowances): problems with the key they are at. */
  extraRules?: (template: TemplateSpec) => ReadonlyArray<TemplateIssue>
): Either.Either<TemplateSpec, ReadonlyArray<string>> => {
  const shape = checkShape(file, text)
  if (shape !== undefined) return Either.left([shape])
  const counter = new YAML.LineCounter()
  const doc = YAML.parseDocument(text, { lineCounter: counter, prettyErrors: true, uniqueKeys: true })
  if (doc.errors.length > 0) {
    return Either.left(
      doc.errors.slice(0, MAX_MESSAGES).map((e) => {
        const first = e.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "")
        return clip(`${file}:${e.linePos?.[0].line ?? 1}: ${first}`)
      })
    )
  }
  let value: unknown
  try {
    value = doc.toJS({ maxAliasCount: 100 })
  } catch (e) {
    return Either.left([`${file}: ${e instanceof Error ? e.message : String(e)}`])
  }
  if (value === null || value === undefined) return Either.left([`${file}: the template is empty.`])
  const decoded = Schema.decodeUnknownEither(TemplateSpec, { errors: "all", onExcessProperty: "error" })(value)
  const issues: Array<Issue> = Either.isLeft(decoded)
    ? ParseResult.ArrayFormatter.formatErrorSync(decoded.left).map((i) => ({
      path: i.path,
      message: i._tag === "Missing" ? "is required" : i._tag === "Unexpected" ? "is not a known key" : i.message
    }))
    : [...checkRules(decoded.right), ...(extraRules?.(decoded.right) ?? [])]
  if (issues.length === 0 && Either.isRight(decoded)) return Either.right(decoded.right)
  const located = issues.map((issue) => ({ ...issue, line: lineOf(doc, counter, issue.path) }))
  located.sort((a, b) => a.line - b.line)
  const messages: Array<string> = []
  const seenPaths = new Set<string>()
  for (const issue of located) {
    // One message per key: a union reports each member's mismatch otherwise.
    const key = formatPath(issue.path)
    if (seenPaths.has(key)) continue
    seenPaths.add(key)
    messages.push(`${file}:${issue.line}: ${issue.path.length === 0 ? "the template" : `key ${key}`}: ${issue.message}`)
  }
  return Either.left(messages.slice(0, MAX_MESSAGES).map(clip))
}
