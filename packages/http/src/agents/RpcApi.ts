/**
 * The agent's own connection (docs/agents.md, "The agent connection"): `GET /workspaceagents/me/rpc`
 * upgrades to a WebSocket that carries JSON messages (where the described system speaks dRPC), and
 * `GET /workspaceagents/me/manifest` answers the manifest as plain JSON. Both take an agent's token
 * only; it is checked before the upgrade.
 */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { AgentManifest } from "@workbay/core"
import { Audited } from "../Audit.js"
import { BadRequest, Forbidden, NotFound } from "../Common.js"
import { AgentAuthentication } from "../Security.js"
import { WebSocketUpgradeSchema } from "../WebSocket.js"

export class AgentRpcApi extends HttpApiGroup.make("agentRpc")
  .add(
    // Not audited: what an agent reports about itself (connection, lifecycle, stats) is not a user's action.
    HttpApiEndpoint.get("rpc", "/workspaceagents/me/rpc").annotate(Audited, false).addSuccess(WebSocketUpgradeSchema)
  )
  .add(HttpApiEndpoint.get("manifest", "/workspaceagents/me/manifest").addSuccess(AgentManifest))
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(AgentAuthentication)
  .prefix("/api/v2")
{}
