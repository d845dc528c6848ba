/**
 * The Docker Engine's grammar of the names and references a template gives it: each rule answers
 * what the value must be, or `undefined` when it is one. A value that reaches the Engine API is
 * checked here first (at import when the template writes it, at build after references are
 * substituted), because dockerode puts names into request paths as they are: a volume named
 * `../../host:port/x` or an image `a?b` would change the request the daemon gets, and the
 * daemon's answer to a path it cleans is a redirect (docs/docker.md, "Names the daemon is given").
 *
 * Sources: moby's `daemon/names` (restricted names, for containers and volumes),
 * `distribution/reference` (image references), RFC 1123 (host names).
 */

/** What a value must be, or `undefined` when it is one. */
export type NameRule = (value: string) => string | undefined

/** Control characters (C0, DEL, C1) and the Unicode line and paragraph separators. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/
const WHITESPACE = /\s/

const longerThan = (max: number) => `longer than ${max.toLocaleString("en-US")} characters`

/** moby's `RestrictedNamePattern`: a letter or digit, then at least one of letters, digits, `_`, `.`, `-`. */
const RESTRICTED = /^[a-zA-Z0-9][a-zA-Z0-9_.-]+$/
const restrictedChars = "letters, digits, \"_\", \".\" and \"-\", starting with a letter or digit"

/** Container names: Docker's restricted names; at most 128 characters (Workbay's bound, the Engine has none). */
export const MAX_CONTAINER_NAME = 128
/** Volume names: Docker's restricted names; the local driver makes a folder of that name, so at most 255. */
export const MAX_VOLUME_NAME = 255

const restricted = (what: string, max: number): NameRule => (value) => {
  const rule = `must be a ${what} of 2 to ${max} ${restrictedChars}`
  if (value.length > max) return `${rule} (it is ${longerThan(max)})`
  return RESTRICTED.test(value) ? undefined : rule
}

/** A container's name (moby `daemon/names`). */
export const containerName: NameRule = restricted("container name", MAX_CONTAINER_NAME)

/** A volume's name (moby `daemon/names`, as the local volume driver checks it). */
export const volumeName: NameRule = restricted("volume name", MAX_VOLUME_NAME)

// distribution/reference's grammar (regexp.go), as the Engine parses an image reference:
//   reference := name [ ":" tag ] [ "@" digest ];  name := [domain "/"] path-component ["/" path-component]*
const alphanumeric = "[a-z0-9]+"
const separator = "(?:[._]|__|[-]+)"
const pathComponent = `${alphanumeric}(?:${separator}${alphanumeric})*`
const domainComponent = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])"
const domainName = `${domainComponent}(?:\\.${domainComponent})*`
const ipv6 = "\\[[a-fA-F0-9:]+\\]"
const domainAndPort = `(?:${domainName}|${ipv6})(?::[0-9]+)?`
const tag = "[\\w][\\w.-]{0,127}"
const digest = "[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}"
const REFERENCE = new RegExp(
  `^(?:(${domainAndPort})/)?(${pathComponent}(?:/${pathComponent})*)(?::${tag})?(?:@${digest})?$`
)
/** An image id: 64 hex digits, bare or as `sha256:<hex>`. */
const IMAGE_ID = /^(?:sha256:)?[a-f0-9]{64}$/
/** distribution/reference's `RepositoryNameTotalLengthMax`, for the path (the name without its domain). */
export const MAX_REPOSITORY_PATH = 255
/** The longest reference looked at: far above any real one (domain, 255 of path, 128 of tag, a sha512 digest). */
export const MAX_IMAGE_REFERENCE = 1024

/**
 * An image reference as the Engine takes it (distribution/reference): `ubuntu:24.04`,
 * `ghcr.io/coder/coder:v2.1.0`, `localhost:5000/a/b@sha256:<hex>`, or an image id.
 */
export const imageReference: NameRule = (value) => {
  const rule =
    "must be an image reference such as ubuntu:24.04 or registry.example.com:5000/team/image:tag (lowercase path components of letters, digits and separators, an optional tag and @digest) or an image id"
  if (value.length > MAX_IMAGE_REFERENCE) return `${rule} (it is ${longerThan(MAX_IMAGE_REFERENCE)})`
  if (IMAGE_ID.test(value)) return undefined
  const m = REFERENCE.exec(value)
  if (m === null) return rule
  if (m[2]!.length > MAX_REPOSITORY_PATH) {
    return `${rule} (its repository path is ${longerThan(MAX_REPOSITORY_PATH)})`
  }
  return undefined
}

/** A container's network: `bridge`, `host`, `none`, `container:<name or id>`, or a network's name or id. */
export const networkName: NameRule = (value) => {
  const rule =
    `must be bridge, host, none, container:<name> or a network name of 2 to ${MAX_CONTAINER_NAME} ${restrictedChars}`
  const name = value.startsWith("container:") ? value.slice("container:".length) : value
  if (name.length > MAX_CONTAINER_NAME) return `${rule} (it is ${longerThan(MAX_CONTAINER_NAME)})`
  return RESTRICTED.test(name) ? undefined : rule
}

/** The longest label key and value Workbay passes on. */
export const MAX_LABEL_KEY = 255
export const MAX_LABEL_VALUE = 4096

/** A label's key: not empty, no whitespace, control characters or "=" (a label filter is `key=value`). */
export const labelKey: NameRule = (key) => {
  const rule = `must be a label key of 1 to ${MAX_LABEL_KEY} characters without whitespace, control characters or "="`
  if (key.length > MAX_LABEL_KEY) return `${rule} (it is ${longerThan(MAX_LABEL_KEY)})`
  return key === "" || key.includes("=") || WHITESPACE.test(key) || CONTROL.test(key) ? rule : undefined
}

/** A label's value: any text without control characters, at most 4,096 characters. */
export const labelValue: NameRule = (value) => {
  const rule = `must be a label value of at most ${
    MAX_LABEL_VALUE.toLocaleString("en-US")
  } characters without control characters`
  if (value.length > MAX_LABEL_VALUE) return `${rule} (it is ${longerThan(MAX_LABEL_VALUE)})`
  return CONTROL.test(value) ? rule : undefined
}

/** Linux's `PATH_MAX`. */
export const MAX_PATH = 4096

/** An absolute path (a mount's target or host source, a working directory): `/` first, no control characters. */
export const absolutePath: NameRule = (value) => {
  const rule = `must be an absolute path of at most ${
    MAX_PATH.toLocaleString("en-US")
  } characters without control characters`
  if (value.length > MAX_PATH) return `${rule} (it is ${longerThan(MAX_PATH)})`
  return value.startsWith("/") && !CONTROL.test(value) ? undefined : rule
}

/** A mount's target: an absolute path other than the container's root. */
export const mountTarget: NameRule = (value) =>
  absolutePath(value) ?? (/^\/+$/.test(value) ? "must be a folder of the container other than \"/\"" : undefined)

/** Linux's host names are at most 64 bytes; a label of RFC 1123 at most 63 characters. */
export const MAX_HOSTNAME = 63
const HOSTNAME = /^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/

/** A container's host name (RFC 1123, as the Engine checks it). */
export const hostname: NameRule = (value) => {
  const rule =
    `must be a host name of at most ${MAX_HOSTNAME} characters: labels of letters, digits and "-" separated by "."`
  if (value.length > MAX_HOSTNAME) return `${rule} (it is ${longerThan(MAX_HOSTNAME)})`
  return HOSTNAME.test(value) ? undefined : rule
}

const ACCOUNT = "[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,31}"
const USER = new RegExp(`^${ACCOUNT}(?::${ACCOUNT})?$`)

/** A container's user: `name`, `uid`, `name:group` or `uid:gid`. */
export const userName: NameRule = (value) =>
  USER.test(value)
    ? undefined
    : "must be a user such as dev, 1000, dev:dev or 1000:1000 (each part at most 32 letters, digits, \"_\", \".\" and \"-\")"

/** The longest part of a value a message shows. */
const SHOWN = 60

/**
 * A value as a message shows it: quoted, control characters escaped, cut to 60 characters with
 * its length said (a 10 KB parameter does not make a 10 KB job error).
 */
export const showValue = (value: string): string =>
  value.length <= SHOWN
    ? JSON.stringify(value)
    : `${JSON.stringify(value.slice(0, SHOWN)).slice(0, -1)}…" (${value.length.toLocaleString("en-US")} characters)`
