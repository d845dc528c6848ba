/**
 * Connections to workspace agents, as the agents area reports them: sessions (SSH, VS Code,
 * JetBrains, reconnecting PTY) opening and closing, and web requests served (workspace apps,
 * forwarded ports). They go to the `ConnectionLogSink` port, which the audit area gives (its
 * connection log, audit/AuditLogs.ts `connectionLogSinkLayer`), through the assembly.
 */
import { Context, type Effect } from "effect"
import type { BadRequest } from "../Errors.js"

/** Connection types of the described system. */
export const connectionTypes = [
  "ssh",
  "vscode",
  "jetbrains",
  "reconnecting_pty",
  "workspace_app",
  "port_forwarding"
] as const
export type ConnectionType = (typeof connectionTypes)[number]

/** The connection types an agent reports. */
export const agentConnectionTypes = ["ssh", "vscode", "jetbrains", "reconnecting_pty", "port_forwarding"] as const
export type AgentConnectionType = (typeof agentConnectionTypes)[number]

/** Types of web connections: one request each, with a status code and maybe a user; no disconnect. */
export const webConnectionTypes: ReadonlyArray<ConnectionType> = ["workspace_app", "port_forwarding"]
export const isWebConnection = (type: string) => type === "workspace_app" || type === "port_forwarding"

/** What an agent reports when a session opens or a web request is served. */
export interface ConnectionEvent {
  /** Default: the clock's now. */
  readonly time?: Date | undefined
  readonly organizationId: string
  readonly workspaceOwnerId: string
  readonly workspaceId: string
  readonly workspaceName: string
  readonly agentName: string
  readonly type: ConnectionType
  readonly ip?: string | undefined
  /** Required on session types (ssh, vscode, jetbrains, reconnecting_pty). */
  readonly connectionId?: string | undefined
  /** Web connections: the app slug or port, the HTTP status, the user (absent when anonymous), the user agent. */
  readonly slugOrPort?: string | undefined
  readonly statusCode?: number | undefined
  readonly userId?: string | undefined
  readonly userAgent?: string | undefined
}

/** What an agent reports when a session closes. */
export interface DisconnectEvent extends ConnectionEvent {
  readonly connectionId: string
  readonly reason?: string | undefined
  /** The session's exit code, when known. */
  readonly exitCode?: number | undefined
}

/** Where the agents area records connections (the audit area's connection log). */
export class ConnectionLogSink extends Context.Tag("@workbay/core/ConnectionLogSink")<ConnectionLogSink, {
  /** A session opened or a web request was served; refused (400) when the event is not valid. */
  readonly connect: (event: ConnectionEvent) => Effect.Effect<void, BadRequest>
  /** A session closed. */
  readonly disconnect: (event: DisconnectEvent) => Effect.Effect<void, BadRequest>
}>() {}
