/**
 * What the agent's terminal and SSH sessions share: the `stream_open` message that asks for a
 * stream, the environment and directory a session starts in, the user's login shell, and the
 * connection reports (`POST /workspaceagents/me/connections`).
 */
import { statSync } from "node:fs"
import { homedir, userInfo } from "node:os"

/** The service's `stream_open` notification (docs/agents.md, "What travels on the agent connection"). */
export interface StreamOpen {
  readonly stream_id: string
  readonly path: string
  readonly kind: string
  readonly reconnect: string
  readonly width: number
  readonly height: number
  readonly command: string
  readonly container: string
  readonly container_user: string
  readonly port: number
  readonly remote_address: string
  readonly user: string
}

const str = (v: unknown): string => (typeof v === "string" ? v : "")
const int = (v: unknown, fallback: number): number => (typeof v === "number" && Number.isInteger(v) ? v : fallback)

/** The `stream_open` in `message`, or undefined when it is another message. */
export const parseStreamOpen = (message: Record<string, unknown>): StreamOpen | undefined => {
  if (message.type !== "stream_open" || typeof message.stream_id !== "string" || typeof message.path !== "string") {
    return undefined
  }
  return {
    stream_id: message.stream_id,
    path: message.path,
    kind: str(message.kind),
    reconnect: str(message.reconnect),
    width: int(message.width, 80),
    height: int(message.height, 24),
    command: str(message.command),
    container: str(message.container),
    container_user: str(message.container_user),
    port: int(message.port, 0),
    remote_address: str(message.remote_address),
    user: str(message.user)
  }
}

/** Where a session starts and what it adds to the agent's environment (the manifest's). */
export interface SessionEnvironment {
  /** The manifest's expanded directory. */
  readonly directory: string
  readonly env: Readonly<Record<string, string>>
}

/** One connection report, as `POST /workspaceagents/me/connections` takes it in `connection`. */
export interface ConnectionReport {
  readonly id: string
  readonly action: "connect" | "disconnect"
  readonly type: "ssh" | "reconnecting_pty"
  readonly timestamp: string
  readonly ip?: string
  readonly status_code?: number
  readonly reason?: string
}

/** A report of `open`'s stream (its id, its client's address). */
export const connectionReport = (
  open: StreamOpen,
  type: ConnectionReport["type"],
  end?: { readonly code: number; readonly reason: string }
): ConnectionReport => ({
  id: open.stream_id,
  action: end === undefined ? "connect" : "disconnect",
  type,
  timestamp: new Date().toISOString(),
  ...(open.remote_address === "" ? {} : { ip: open.remote_address.slice(0, 64) }),
  ...(end === undefined ? {} : { status_code: end.code, reason: end.reason.slice(0, 1024) })
})

/** The user's login shell: the password database's, else $SHELL, else /bin/sh. */
export const loginShell = (): string => {
  try {
    const shell = userInfo().shell
    if (shell !== null && shell !== "") return shell
  } catch {
    // No entry for this user (a container's arbitrary uid): $SHELL or sh.
  }
  return process.env.SHELL !== undefined && process.env.SHELL !== "" ? process.env.SHELL : "/bin/sh"
}

/** The directory a session starts in: the manifest's expanded one when it exists, else home. */
export const sessionDirectory = (environment: SessionEnvironment): string => {
  try {
    if (environment.directory !== "" && statSync(environment.directory).isDirectory()) return environment.directory
  } catch {
    // Not there (yet): home.
  }
  return homedir()
}

/**
 * A session's variables: the agent's (without its token: a user's shell has no use for the
 * agent's credential), the manifest's on top, then `extra` (a client's).
 */
export const sessionEnv = (
  environment: SessionEnvironment,
  extra: Readonly<Record<string, string>> = {}
): Record<string, string> => {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "WORKBAY_AGENT_TOKEN") env[k] = v
  return { ...env, ...environment.env, ...extra }
}
