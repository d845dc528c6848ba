/**
 * Agent routes (the described system's Agents group, `docs/reference/api/agents.md`): what users
 * ask about their workspaces' agents, and what agents call with their own token under
 * `/workspaceagents/me/`. See docs/agents.md.
 */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  AgentConnectionInfo,
  AgentContainersQuery,
  AgentGitSshKey,
  BadGateway,
  DevcontainerPath,
  ExternalAgentCredentialsWire,
  GatewayTimeout,
  WorkspaceAgent,
  WorkspaceAgentListContainersResponse,
  WorkspaceAgentListeningPortsResponse
} from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, Conflict, Forbidden, NoContent, NotFound, ResponseBody, uuid } from "../Common.js"
import { AgentAuthentication, Authentication } from "../Security.js"
import { WebSocketUpgradeSchema } from "../WebSocket.js"

const AgentPath = Schema.Struct({ workspaceagent: uuid("Workspace agent id") })

const CredentialsPath = Schema.Struct({
  workspace: uuid("Workspace id"),
  agent: Schema.String.pipe(Schema.minLength(1, { message: () => "Agent name is required." }))
})

/** Routes users call about agents. */
export class AgentsApi extends HttpApiGroup.make("agents")
  .add(HttpApiEndpoint.get("get", "/workspaceagents/:workspaceagent").setPath(AgentPath).addSuccess(WorkspaceAgent))
  .add(
    // Answers the build's kept token; mints one (a change, audited though it is a GET) only for
    // an agent that keeps none or whose kept token does not open. Reads write no entry.
    HttpApiEndpoint.get("externalCredentials", "/workspaces/:workspace/external-agent/:agent/credentials")
      .annotate(Audited, audit("workspace_agent", { action: "write" }))
      .setPath(CredentialsPath)
      .addSuccess(ExternalAgentCredentialsWire)
  )
  .add(
    HttpApiEndpoint.get("connection", "/workspaceagents/:workspaceagent/connection").setPath(AgentPath).addSuccess(
      AgentConnectionInfo
    )
  )
  .add(
    HttpApiEndpoint.get("listeningPorts", "/workspaceagents/:workspaceagent/listening-ports")
      .setPath(AgentPath)
      .addSuccess(WorkspaceAgentListeningPortsResponse)
      .addError(BadGateway)
      .addError(GatewayTimeout)
  )
  .add(
    HttpApiEndpoint.get("containers", "/workspaceagents/:workspaceagent/containers")
      .setPath(AgentPath)
      .setUrlParams(AgentContainersQuery)
      .addSuccess(WorkspaceAgentListContainersResponse)
      .addError(Conflict)
      .addError(BadGateway)
      .addError(GatewayTimeout)
  )
  .add(
    HttpApiEndpoint.get("watchContainers", "/workspaceagents/:workspaceagent/containers/watch")
      .setPath(AgentPath)
      .addSuccess(WebSocketUpgradeSchema)
      .addError(BadGateway)
  )
  .add(
    HttpApiEndpoint.del("deleteDevcontainer", "/workspaceagents/:workspaceagent/containers/devcontainers/:devcontainer")
      .annotate(Audited, audit("workspace_agent", { action: "write" }))
      .setPath(DevcontainerPath)
      .addSuccess(NoContent)
      .addError(Conflict)
      .addError(BadGateway)
      .addError(GatewayTimeout)
  )
  .add(
    HttpApiEndpoint.post(
      "recreateDevcontainer",
      "/workspaceagents/:workspaceagent/containers/devcontainers/:devcontainer/recreate"
    )
      .annotate(Audited, audit("workspace_agent", { action: "write" }))
      .setPath(DevcontainerPath)
      .addSuccess(ResponseBody, { status: 202 })
      .addError(Conflict)
      .addError(BadGateway)
      .addError(GatewayTimeout)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}

/** Routes a workspace agent calls with its own token. */
export class AgentMeApi extends HttpApiGroup.make("agentMe")
  .add(HttpApiEndpoint.get("gitSshKey", "/workspaceagents/me/gitsshkey").addSuccess(AgentGitSshKey))
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(AgentAuthentication)
  .prefix("/api/v2")
{}
