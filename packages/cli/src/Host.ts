/**
 * The host names `workbay ssh` takes: `<workspace>`, `<owner>/<workspace>`, `<workspace>.<agent>`,
 * and config-ssh's `workbay.<workspace>[.<agent>]` (the described system's `coder.<workspace>`),
 * whose prefix is stripped.
 */
export const HOST_PREFIX = "workbay."

export interface HostName {
  /** `[owner/]workspace` */
  readonly workspace: string
  readonly agent: string | undefined
}

export const parseHost = (host: string, prefix = HOST_PREFIX): HostName => {
  let rest = host.trim()
  if (rest.toLowerCase().startsWith(prefix)) rest = rest.slice(prefix.length)
  const i = rest.indexOf(".")
  if (i < 0) return { workspace: rest, agent: undefined }
  return { workspace: rest.slice(0, i), agent: rest.slice(i + 1) }
}
