/** Handlers of the agent log and agent report groups. */
import {
  AgentConnections,
  AgentLogs,
  type AgentLogsQuery,
  AppStatuses,
  lazily,
  toAgentLog,
  WorkspaceAgentLog,
  WorkspaceAgentLogSource
} from "@workbay/core"
import { Chunk, Effect, Schema, Stream } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { RequestContext } from "../RequestContext.js"
import { asksForWebSocket, streamSession, upgradeWebSocket } from "../WebSocket.js"

const encodeLog = lazily(() => Schema.encodeSync(WorkspaceAgentLog))

/**
 * `GET .../logs`, and its old name `.../startup-logs`: the lines, or a WebSocket following them.
 * A WebSocket handshake follows unless `follow=false`: the described system's dashboards send a
 * bare `follow` (`?follow&after=<id>`), which the query rules read as not given. Each message is
 * a JSON array of lines (every read of the follow: the stored lines, then each new batch), as the
 * described system sends them and its client reads them (`WorkspaceAgentLog[]`).
 */
const agentLogs = (agentRef: string, urlParams: typeof AgentLogsQuery.Type) =>
  Effect.gen(function*() {
    const logs = yield* AgentLogs
    const ctx = yield* RequestContext
    const handshake = asksForWebSocket({ upgrade: ctx.header("upgrade"), connection: ctx.header("connection") })
    if (!(urlParams.follow ?? handshake)) return yield* logs.list(agentRef, urlParams)
    const lines = yield* logs.follow(agentRef, urlParams.after ?? 0)
    const batches = lines.pipe(
      Stream.chunks,
      Stream.filter((chunk) => Chunk.isNonEmpty(chunk)),
      Stream.map((chunk) => JSON.stringify(Chunk.toReadonlyArray(chunk).map((l) => encodeLog(toAgentLog(l)))))
    )
    return yield* upgradeWebSocket(streamSession(batches))
  })

export const AgentLogsHttp = implement(WorkbayApi, "agentLogs", {
  logs: ({ path, urlParams }) => agentLogs(path.workspaceagent, urlParams),
  startupLogs: ({ path, urlParams }) => agentLogs(path.workspaceagent, urlParams)
})

export const AgentReportsHttp = implement(WorkbayApi, "agentReports", {
  logSource: ({ payload }) =>
    Effect.flatMap(
      AgentLogs,
      (logs) => Effect.map(logs.addLogSource(payload), (s) => new WorkspaceAgentLogSource(s, true))
    ),
  logs: ({ payload }) => Effect.flatMap(AgentLogs, (logs) => logs.append(payload)),
  appStatus: ({ payload }) => Effect.flatMap(AppStatuses, (s) => s.report(payload)),
  connection: ({ payload }) => Effect.flatMap(AgentConnections, (c) => c.report(payload.connection))
})
