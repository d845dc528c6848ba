/**
 * The values of a docker template that reach the Engine API, each with its rule (Names.ts):
 * checked at import where the template writes them as they are, and at build once references are
 * substituted, before any call to the daemon, so a parameter can make neither a request path nor
 * a request the daemon is not meant to get (docs/docker.md, "Names the daemon is given").
 */
import {
  formatPath,
  referencesIn,
  substitute,
  type Substitutions,
  type TemplateIssue,
  type TemplateSpec
} from "@workbay/core"
import {
  absolutePath,
  containerName,
  hostname,
  imageReference,
  labelKey,
  labelValue,
  mountTarget,
  type NameRule,
  networkName,
  showValue,
  userName,
  volumeName
} from "./Names.js"

type Resource = NonNullable<TemplateSpec["resources"]>[number]
export type ContainerSpec = NonNullable<Resource["container"]>
export type VolumeSpec = NonNullable<Resource["volume"]>

type Path = ReadonlyArray<PropertyKey>

/** One value the Engine is given: its key under the resource, the value, and its rule. */
interface Checked {
  readonly path: Path
  readonly value: string
  readonly rule: NameRule
  /** A label's key: the template's own text, never substituted. */
  readonly isKey?: true
}

const labelValues = (at: string, labels: Readonly<Record<string, string>> | undefined): Array<Checked> =>
  Object.entries(labels ?? {}).flatMap(([key, value]) => [
    { path: [at, "labels", key], value: key, rule: labelKey, isKey: true as const },
    { path: [at, "labels", key], value, rule: labelValue }
  ])

/** A container spec's values that the Engine API is given (`name: ""` is the default name, checked as built). */
const containerValues = (spec: ContainerSpec): Array<Checked> => {
  const values: Array<Checked> = [{ path: ["container", "image"], value: spec.image, rule: imageReference }]
  const optional = (key: keyof ContainerSpec, value: string | undefined, rule: NameRule) => {
    if (value !== undefined && value !== "") values.push({ path: ["container", key], value, rule })
  }
  optional("name", spec.name, containerName)
  optional("hostname", spec.hostname, hostname)
  optional("network", spec.network, networkName)
  optional("user", spec.user, userName)
  optional("working_dir", spec.working_dir, absolutePath)
  values.push(...labelValues("container", spec.labels))
  spec.mounts?.forEach((m, j) => {
    values.push({ path: ["container", "mounts", j, "target"], value: m.target, rule: mountTarget })
    // A volume mount's source names a docker_volume resource (core's rule); the volume's name is checked there.
    if (m.type === "bind" && m.source !== undefined) {
      values.push({ path: ["container", "mounts", j, "source"], value: m.source, rule: absolutePath })
    }
  })
  return values
}

const volumeValues = (spec: VolumeSpec): Array<Checked> => [
  ...(spec.name === undefined || spec.name === ""
    ? []
    : [{ path: ["volume", "name"], value: spec.name, rule: volumeName }]),
  ...labelValues("volume", spec.labels)
]

const NOTHING: Substitutions = { param: new Map(), var: new Map(), workspace: { id: "", name: "", owner: "" } }

/**
 * The import's problems: each value the template writes without references (label keys always:
 * they are never substituted) against its rule, at its key.
 */
export const literalIssues = (template: TemplateSpec): Array<TemplateIssue> =>
  (template.resources ?? []).flatMap((r, i) => {
    const values = [
      ...(r.container === undefined ? [] : containerValues(r.container)),
      ...(r.volume === undefined ? [] : volumeValues(r.volume))
    ]
    return values.flatMap(({ isKey, path, rule, value }) => {
      if (isKey !== true && referencesIn(value).length > 0) return []
      // Without references, substituting only turns `$${` into `${`: the value as a build gives it.
      const problem = rule(isKey === true ? value : substitute(value, NOTHING))
      return problem === undefined ? [] : [{ path: ["resources", i, ...path], message: problem }]
    })
  })

/** What made a value: `parameter "vol"`, `variable "image"`, `${workspace.name}`. */
const madeBy = (written: string | undefined): string => {
  const refs = referencesIn(written ?? "").map((ref) =>
    ref.startsWith("param.")
      ? `parameter "${ref.slice("param.".length)}"`
      : ref.startsWith("var.")
      ? `variable "${ref.slice("var.".length)}"`
      : `\${${ref}}`
  )
  return refs.length === 0 ? "" : ` (from ${[...new Set(refs)].join(", ")})`
}

const valueAt = (root: unknown, path: Path): string | undefined => {
  let node = root
  for (const key of path) {
    if (node === null || typeof node !== "object") return undefined
    node = (node as Record<PropertyKey, unknown>)[key]
  }
  return typeof node === "string" ? node : undefined
}

/**
 * A build's problems, one message each: the values of `built` (a resource's container or volume
 * spec with references substituted, and the names the build gives by default) against their
 * rules, naming the resource, the key, the value (cut short) and the parameters that made it.
 */
export const builtProblems = (
  resource: string,
  built: { readonly container?: ContainerSpec; readonly volume?: VolumeSpec },
  written: { readonly container?: ContainerSpec | undefined; readonly volume?: VolumeSpec | undefined }
): Array<string> => {
  const values = [
    ...(built.container === undefined ? [] : containerValues(built.container)),
    ...(built.volume === undefined ? [] : volumeValues(built.volume))
  ]
  return values.flatMap(({ isKey, path, rule, value }) => {
    const problem = rule(value)
    if (problem === undefined) return []
    const from = isKey === true ? "" : madeBy(valueAt(written, path))
    return [`Resource ${resource}, key ${formatPath(path)}${from}: ${showValue(value)} ${problem}.`]
  })
}
