/**
 * Agent routes (the described system's Agents group, `docs/reference/api/agents.md`): what users
 * ask about their workspaces' agents, and what agents call with their own token under
 * `/workspaceagents/me/`. See docs/agents.md.
 */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  AgentConnectionInfo,
  AgentGitSshKey,
  BadGateway,
  ExternalAgentCredentialsWire,
  GatewayTimeout,
  WorkspaceAgent,
  WorkspaceAgentListeningPortsResponse
} from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, Forbidden, NotFound, uuid } from "../Common.js"
import { AgentAuthentication, Authentication } from "../Security.js"

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
