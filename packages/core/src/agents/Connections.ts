/**
 * Connection reports: an agent tells the service when a session to it opens or closes (SSH,
 * VS Code, JetBrains, reconnecting PTY), or when it served a forwarded port. Workbay's JSON
 * form of the described system's `ReportConnection` (a dRPC call there). Each report goes
 * through the connection log (`ConnectionLogSink`, the audit area's `AuditLogs.connect` / `disconnect`), which pairs a session's
 * connect and disconnect by connection id; `GET /connectionlog` shows them.
 */
import { Clock, Effect } from "effect"
import { BadRequest, ResponseBody, Validation } from "../Errors.js"
import { span } from "../Tracing.js"
import { CurrentAgent } from "./AgentAuth.js"
import { type ConnectionEvent, ConnectionLogSink, isWebConnection } from "./ConnectionEvents.js"
import type { ConnectionReportRequest } from "./Requests.js"

export class AgentConnections extends Effect.Service<AgentConnections>()("@workbay/core/AgentConnections", {
  effect: Effect.gen(function*() {
    const audit = yield* ConnectionLogSink

    /** Records a report of the calling agent in the connection log. */
    const report = (c: (typeof ConnectionReportRequest.Type)["connection"]) =>
      Effect.gen(function*() {
        const { agent, workspace } = yield* CurrentAgent
        const web = isWebConnection(c.type)
        const problems: Array<Validation> = []
        if (web && c.action === "disconnect") {
          problems.push(
            new Validation({
              field: "connection.action",
              detail: "A forwarded port is reported once, with action connect."
            })
          )
        }
        if (web && c.status_code === undefined) {
          problems.push(
            new Validation({
              field: "connection.status_code",
              detail: "A forwarded port needs the HTTP status it served."
            })
          )
        }
        if (problems.length > 0) {
          return yield* new BadRequest({ message: "Invalid connection report.", validations: problems })
        }
        const event: ConnectionEvent = {
          time: c.timestamp ?? new Date(yield* Clock.currentTimeMillis),
          organizationId: workspace.organization_id,
          workspaceOwnerId: workspace.owner_id,
          workspaceId: workspace.id,
          workspaceName: workspace.name,
          agentName: agent.name,
          type: c.type,
          ip: c.ip,
          ...(web ? { statusCode: c.status_code, slugOrPort: c.slug_or_port } : { connectionId: c.id })
        }
        if (c.action === "connect") {
          yield* audit.connect(event)
        } else yield* audit.disconnect({ ...event, connectionId: c.id, reason: c.reason, exitCode: c.status_code })
        return new ResponseBody({ message: "Connection reported." }, true)
      }).pipe(span("AgentConnections.report"))

    return { report } as const
  })
}) {}
