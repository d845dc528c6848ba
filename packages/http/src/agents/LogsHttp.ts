/** Handlers of the agent log and agent report groups. */
import { AgentConnections, AgentLogs, AppStatuses, toAgentLog, WorkspaceAgentLog, WorkspaceAgentLogSource } from "@workbay/core"
import { Effect, Schema, Stream } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { streamSession, upgradeWebSocket } from "../WebSocket.js"

const encodeLog = Schema.encodeSync(WorkspaceAgentLog)

export const AgentLogsHttp = implement(WorkbayApi, "agentLogs", {
  logs: ({ path, urlParams }) =>
    Effect.gen(function*() {
      const logs = yield* AgentLogs
      if (urlParams.follow !== true) return yield* logs.list(path.workspaceagent, urlParams)
      const lines = yield* logs.follow(path.workspaceagent, urlParams.after ?? 0)
      return yield* upgradeWebSocket(streamSession(lines.pipe(Stream.map((l) => JSON.stringify(encodeLog(toAgentLog(l)))))))
    })
})

export const AgentReportsHttp = implement(WorkbayApi, "agentReports", {
  logSource: ({ payload }) =>
    Effect.flatMap(AgentLogs, (logs) => Effect.map(logs.addLogSource(payload), (s) => new WorkspaceAgentLogSource(s, true))),
  logs: ({ payload }) => Effect.flatMap(AgentLogs, (logs) => logs.append(payload)),
  appStatus: ({ payload }) => Effect.flatMap(AppStatuses, (s) => s.report(payload)),
  connection: ({ payload }) => Effect.flatMap(AgentConnections, (c) => c.report(payload.connection))
})
