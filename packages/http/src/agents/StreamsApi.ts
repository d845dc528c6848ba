/**
 * Streams into a workspace (docs/agents.md, "Into the workspace: terminals, tunnels and SSH"):
 * users open the web terminal (`pty`), a TCP tunnel (`tunnel`) or SSH (`ssh`) to an agent as a
 * WebSocket; the agent opens each stream's other end (`/workspaceagents/me/streams/{stream}`) with
 * its token. Every check comes before the upgrade, as plain HTTP.
 */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { AgentPtyQuery, AgentStreamQuery, AgentTunnelQuery, BadGateway } from "@workbay/core"
import { Schema } from "effect"
import { Audited } from "../Audit.js"
import { BadRequest, Forbidden, NotFound, uuid } from "../Common.js"
import { AgentAuthentication, Authentication } from "../Security.js"
import { WebSocketUpgradeSchema } from "../WebSocket.js"

const AgentPath = Schema.Struct({ workspaceagent: uuid("Workspace agent id") })

export class AgentStreamsApi extends HttpApiGroup.make("agentStreams")
  .add(
    // Not audited: a connection, recorded in the connection log by the agent's reports.
    HttpApiEndpoint.get("pty", "/workspaceagents/:workspaceagent/pty").annotate(Audited, false).setPath(AgentPath)
      .setUrlParams(AgentPtyQuery)
      .addSuccess(WebSocketUpgradeSchema)
  )
  .add(
    HttpApiEndpoint.get("tunnel", "/workspaceagents/:workspaceagent/tunnel").annotate(Audited, false).setPath(
      AgentPath
    )
      .setUrlParams(AgentTunnelQuery)
      .addSuccess(WebSocketUpgradeSchema)
  )
  .add(
    HttpApiEndpoint.get("ssh", "/workspaceagents/:workspaceagent/ssh").annotate(Audited, false).setPath(AgentPath)
      .addSuccess(WebSocketUpgradeSchema)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .addError(BadGateway)
  .middleware(Authentication)
  .prefix("/api/v2")
{}

/** The agent's end of a stream it was asked to open (`stream_open`), with its own token. */
export class AgentStreamEndApi extends HttpApiGroup.make("agentStreamEnd")
  .add(
    HttpApiEndpoint.get("stream", "/workspaceagents/me/streams/:stream").annotate(Audited, false)
      .setPath(Schema.Struct({ stream: uuid("Stream id") }))
      .setUrlParams(AgentStreamQuery)
      .addSuccess(WebSocketUpgradeSchema)
  )
  .addError(BadRequest)
  .addError(NotFound)
  .middleware(AgentAuthentication)
  .prefix("/api/v2")
{}
