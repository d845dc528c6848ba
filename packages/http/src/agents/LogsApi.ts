/**
 * Agent reports (logs, log sources, app statuses, connections) and the agent log routes users
 * read. See docs/agents.md. Agent reports are not user actions: they declare no audit.
 */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  AgentLogsQuery,
  AppStatusRequest,
  ConnectionReportRequest,
  LogSourceRequest,
  PatchLogsRequest,
  ResponseBody,
  WorkspaceAgentLog,
  WorkspaceAgentLogSource
} from "@workbay/core"
import { Schema } from "effect"
import { Audited } from "../Audit.js"
import { BadRequest, Forbidden, NotFound, PayloadTooLarge, uuid } from "../Common.js"
import { AgentAuthentication, Authentication } from "../Security.js"
import { WebSocketUpgradeSchema } from "../WebSocket.js"

const AgentPath = Schema.Struct({ workspaceagent: uuid("Workspace agent id") })

/** The agent log routes users call. */
export class AgentLogsApi extends HttpApiGroup.make("agentLogs")
  .add(
    HttpApiEndpoint.get("logs", "/workspaceagents/:workspaceagent/logs")
      .setPath(AgentPath)
      .setUrlParams(AgentLogsQuery)
      .addSuccess(Schema.Array(WorkspaceAgentLog))
      .addSuccess(WebSocketUpgradeSchema)
  )
  .add(
    // Removed from the described system's documentation, still answered there by the logs handler.
    HttpApiEndpoint.get("startupLogs", "/workspaceagents/:workspaceagent/startup-logs")
      .setPath(AgentPath)
      .setUrlParams(AgentLogsQuery)
      .addSuccess(Schema.Array(WorkspaceAgentLog))
      .addSuccess(WebSocketUpgradeSchema)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}

/** The reports an agent sends with its own token. Not audited: an agent's report is no user's action. */
export class AgentReportsApi extends HttpApiGroup.make("agentReports")
  .add(
    HttpApiEndpoint.post("logSource", "/workspaceagents/me/log-source")
      .annotate(Audited, false)
      .setPayload(LogSourceRequest)
      .addSuccess(WorkspaceAgentLogSource)
  )
  .add(
    HttpApiEndpoint.patch("logs", "/workspaceagents/me/logs")
      .annotate(Audited, false)
      .setPayload(PatchLogsRequest)
      .addSuccess(ResponseBody)
      .addError(PayloadTooLarge)
  )
  .add(
    HttpApiEndpoint.patch("appStatus", "/workspaceagents/me/app-status")
      .annotate(Audited, false)
      .setPayload(AppStatusRequest)
      .addSuccess(ResponseBody)
  )
  .add(
    HttpApiEndpoint.post("connection", "/workspaceagents/me/connections")
      .annotate(Audited, false)
      .setPayload(ConnectionReportRequest)
      .addSuccess(ResponseBody)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(AgentAuthentication)
  .prefix("/api/v2")
{}
