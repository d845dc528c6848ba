/**
 * The connection routes (status 101, real WebSockets; see docs/agents.md): the relay map stream
 * (`GET /derp-map`), the user-scoped coordination connection (`GET /tailnet`), the agent's side of
 * coordination (`GET /workspaceagents/me/coordinate`), and watching one agent until it connects
 * (`GET /workspaces/{workspace}/agent-connection-watch`). Authentication, decoding and the
 * route's own checks happen before the upgrade, as HTTP answers.
 */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { AgentConnectionWatchQuery } from "@workbay/core"
import { Schema } from "effect"
import { BadRequest, Forbidden, NotFound, uuid } from "../Common.js"
import { AgentAuthentication, Authentication } from "../Security.js"
import { WebSocketUpgradeSchema } from "../WebSocket.js"

const WatchPath = Schema.Struct({ workspace: uuid("Workspace id") })

/** The connection routes users call. */
export class TailnetApi extends HttpApiGroup.make("tailnet")
  .add(HttpApiEndpoint.get("derpMap", "/derp-map").addSuccess(WebSocketUpgradeSchema))
  .add(HttpApiEndpoint.get("coordinate", "/tailnet").addSuccess(WebSocketUpgradeSchema))
  .add(
    HttpApiEndpoint.get("agentCoordinate", "/workspaceagents/:workspaceagent/coordinate")
      .setPath(Schema.Struct({ workspaceagent: uuid("Workspace agent id") }))
      .setUrlParams(Schema.Struct({ version: Schema.optional(Schema.String.pipe(Schema.maxLength(64))) }))
      .addSuccess(WebSocketUpgradeSchema)
  )
  .add(
    HttpApiEndpoint.get("agentConnectionWatch", "/workspaces/:workspace/agent-connection-watch")
      .setPath(WatchPath)
      .setUrlParams(AgentConnectionWatchQuery)
      .addSuccess(WebSocketUpgradeSchema)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}

/** The agent's side of coordination, with its own token. */
export class TailnetAgentApi extends HttpApiGroup.make("tailnetAgent")
  .add(HttpApiEndpoint.get("coordinate", "/workspaceagents/me/coordinate").addSuccess(WebSocketUpgradeSchema))
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(AgentAuthentication)
  .prefix("/api/v2")
{}
