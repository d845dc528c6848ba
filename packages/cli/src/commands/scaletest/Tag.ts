/**
 * How a scaletest marks what it makes, so that `cleanup` deletes that and nothing else
 * (docs/scaletest.md). A run has an id of six lower-case letters and digits. Its users are named
 * `scaletest-<run>-<n>` with the email `scaletest-<run>-<n>@scaletest.invalid` (`.invalid` is a
 * top-level domain no mailbox can have, RFC 2606, so no person's account matches) and sign in by no
 * method (`login_type: none`); its workspaces are named `scaletest-<run>-<n>`. Cleanup takes users
 * that match both the name and the email, with their workspaces, and, with `--use-host-login`,
 * the caller's own workspaces that match the name.
 */
import { randomBytes } from "node:crypto"

export const EMAIL_DOMAIN = "scaletest.invalid"

const NAME = /^scaletest-([a-z0-9]{6})-(\d+)$/

/** A new run's id. */
export const newRunId = (): string =>
  [...randomBytes(6)].map((b) => "abcdefghijklmnopqrstuvwxyz0123456789"[b % 36]).join("")

/** The name of a run's `n`th user and workspace. */
export const nameOf = (run: string, n: number): string => `scaletest-${run}-${n}`

/** The `n` of a scaletest's name (`scaletest-<run>-<n>`); undefined for another name. */
export const numberOf = (name: string): number | undefined => {
  const m = NAME.exec(name)
  return m === null ? undefined : Number(m[2])
}

/** Whether `name` is a scaletest's (of `run`, when given). */
export const isScaletestName = (name: string, run?: string): boolean => {
  const m = NAME.exec(name)
  return m !== null && (run === undefined || m[1] === run)
}

/** Whether the user is a scaletest's: its name and its email both say so. */
export const isScaletestUser = (user: { readonly username: string; readonly email: string }, run?: string) =>
  isScaletestName(user.username, run) && user.email === `${user.username}@${EMAIL_DOMAIN}`
