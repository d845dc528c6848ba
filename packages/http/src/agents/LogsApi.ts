/**
 * Agent reports (logs, log sources, app statuses, connections) and the agent log routes users
 * read. See docs/agents.md. Agent reports are not user actions: they declare no audit.
 */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  agentConnectionTypes,
  agentLogLevels,
  appStatusStates,
  ResponseBody,
  WorkspaceAgentLog,
  WorkspaceAgentLogSource
} from "@workbay/core"
import { Schema } from "effect"
import { Audited } from "../Audit.js"
import {
  BadRequest,
  BooleanParam,
  Forbidden,
  IntParam,
  NotFound,
  optionalParam,
  PayloadTooLarge,
  uuid
} from "../Common.js"
import { AgentAuthentication, Authentication } from "../Security.js"
import { WebSocketUpgradeSchema } from "../WebSocket.js"

const AgentPath = Schema.Struct({ workspaceagent: uuid("Workspace agent id") })

const text = (max: number) => Schema.String.pipe(Schema.maxLength(max, { message: () => `At most ${max} characters.` }))
const DateTime = Schema.Date.annotations({
  message: () => ({ message: "Must be an RFC 3339 date-time.", override: true })
})

/** The query of `GET /workspaceagents/{agent}/logs`. */
export const AgentLogsQuery = Schema.Struct({
  after: optionalParam(IntParam),
  before: optionalParam(IntParam),
  follow: optionalParam(BooleanParam),
  /** Accepted for the described system's clients; messages are never compressed. */
  no_compression: optionalParam(BooleanParam),
  format: optionalParam(
    Schema.Literal("json").annotations({ message: () => ({ message: "Only json is served.", override: true }) })
  )
})

export class LogSourceRequest extends Schema.Class<LogSourceRequest>("PostWorkspaceAgentLogSourceRequest")({
  id: uuid("Log source id"),
  display_name: text(128).pipe(Schema.minLength(1, { message: () => "Display name is required." })),
  icon: Schema.optionalWith(text(2048), { default: () => "" })
}) {}

export class PatchLogsRequest extends Schema.Class<PatchLogsRequest>("PatchWorkspaceAgentLogsRequest")({
  log_source_id: uuid("Log source id"),
  logs: Schema.Array(Schema.Struct({
    created_at: DateTime,
    level: Schema.Literal(...agentLogLevels).annotations({
      message: () => ({ message: `Level must be one of ${agentLogLevels.join(", ")}.`, override: true })
    }),
    output: Schema.String
  }))
}) {}

export class AppStatusRequest extends Schema.Class<AppStatusRequest>("PatchAppStatus")({
  app_slug: Schema.String,
  state: Schema.Literal(...appStatusStates).annotations({
    message: () => ({ message: `State must be one of ${appStatusStates.join(", ")}.`, override: true })
  }),
  message: Schema.optionalWith(Schema.String, { default: () => "" }),
  uri: Schema.optionalWith(text(2048), { default: () => "" }),
  icon: Schema.optionalWith(text(2048), { default: () => "" }),
  needs_user_attention: Schema.optionalWith(Schema.Boolean, { default: () => false })
}) {}

/** Workbay's JSON form of the described system's agent `ReportConnectionRequest`. */
export class ConnectionReportRequest extends Schema.Class<ConnectionReportRequest>("ReportConnectionRequest")({
  connection: Schema.Struct({
    id: uuid("Connection id"),
    action: Schema.Literal("connect", "disconnect").annotations({
      message: () => ({ message: "Action must be connect or disconnect.", override: true })
    }),
    type: Schema.Literal(...agentConnectionTypes).annotations({
      message: () => ({ message: `Type must be one of ${agentConnectionTypes.join(", ")}.`, override: true })
    }),
    timestamp: Schema.optional(DateTime),
    ip: Schema.optional(text(64)),
    status_code: Schema.optional(
      Schema.Int.annotations({ message: () => ({ message: "Must be an integer.", override: true }) })
    ),
    reason: Schema.optional(text(1024)),
    slug_or_port: Schema.optional(text(256))
  })
}) {}

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
