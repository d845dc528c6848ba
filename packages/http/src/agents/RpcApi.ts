/**
 * The agent's own connection (docs/agents.md, "The agent connection"): `GET /workspaceagents/me/rpc`
 * upgrades to a WebSocket that carries JSON messages (where the described system speaks dRPC), and
 * `GET /workspaceagents/me/manifest` answers the manifest as plain JSON, and
 * `GET /workspaceagents/me/reinit` streams the reinitialization events. All take an agent's token
 * only; it is checked before the upgrade.
 */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { AgentManifest } from "@workbay/core"
import { Schema } from "effect"
import { Audited } from "../Audit.js"
import { BadRequest, Forbidden, NotFound, uuid } from "../Common.js"
import { AgentAuthentication, Authentication } from "../Security.js"
import { EventStreamSchema } from "../ServerSentEvents.js"
import { WebSocketUpgradeSchema } from "../WebSocket.js"

export class AgentRpcApi extends HttpApiGroup.make("agentRpc")
  .add(
    // Not audited: what an agent reports about itself (connection, lifecycle, stats) is not a user's action.
    HttpApiEndpoint.get("rpc", "/workspaceagents/me/rpc").annotate(Audited, false).addSuccess(WebSocketUpgradeSchema)
  )
  .add(HttpApiEndpoint.get("manifest", "/workspaceagents/me/manifest").addSuccess(AgentManifest))
  // Server-sent events telling the agent to reinitialize (a claimed prebuilt workspace, docs/prebuilds.md).
  .add(HttpApiEndpoint.get("reinit", "/workspaceagents/me/reinit").addSuccess(EventStreamSchema))
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(AgentAuthentication)
  .prefix("/api/v2")
{}

const AgentPath = Schema.Struct({ workspaceagent: uuid("Workspace agent id") })

/**
 * Watching an agent's metadata values (users, with `read` on the workspace): server-sent events
 * (`event: data`, the list as `data`) or a WebSocket (each message `{type: "data", data: [...]}`).
 */
export class AgentMetadataApi extends HttpApiGroup.make("agentMetadata")
  .add(
    HttpApiEndpoint.get("watchMetadata", "/workspaceagents/:workspaceagent/watch-metadata").setPath(AgentPath)
      .addSuccess(EventStreamSchema)
  )
  .add(
    HttpApiEndpoint.get("watchMetadataWs", "/workspaceagents/:workspaceagent/watch-metadata-ws").setPath(AgentPath)
      .addSuccess(WebSocketUpgradeSchema)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
