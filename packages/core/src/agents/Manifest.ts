/**
 * The agent's view of its workspace (the described system's `agentsdk.Manifest`): what it runs
 * (apps, scripts, environment, directory), whom it serves and how peers reach it (the relay map).
 * Answered by `get_manifest` on the agent connection and by `GET /workspaceagents/me/manifest`.
 */
import { Clock, Effect, Schema } from "effect"
import { WorkspaceAgentScript, WorkspaceApp } from "../templates/TemplateVersionWire.js"
import { span } from "../Tracing.js"
import { CurrentAgent } from "./AgentAuth.js"
import { toAgent } from "./Agents.js"
import { DerpMapSchema, RelayMap } from "./RelayMap.js"

/** A metadata item the agent collects (the described system's `WorkspaceAgentMetadataDescription`). */
export class AgentMetadataDescription
  extends Schema.Class<AgentMetadataDescription>("WorkspaceAgentMetadataDescription")({
    key: Schema.String,
    display_name: Schema.String,
    script: Schema.String,
    interval: Schema.Int,
    timeout: Schema.Int
  })
{}

export { DerpMapSchema } from "./RelayMap.js"

export class AgentManifest extends Schema.Class<AgentManifest>("AgentManifest")({
  agent_id: Schema.UUID,
  agent_name: Schema.String,
  owner_name: Schema.String,
  workspace_id: Schema.UUID,
  workspace_name: Schema.String,
  git_auth_configs: Schema.Int,
  vscode_port_proxy_uri: Schema.String,
  apps: Schema.Array(WorkspaceApp),
  derp_map: DerpMapSchema,
  derp_force_websockets: Schema.Boolean,
  environment_variables: Schema.Record({ key: Schema.String, value: Schema.String }),
  directory: Schema.String,
  motd_file: Schema.String,
  disable_direct_connections: Schema.Boolean,
  metadata: Schema.Array(AgentMetadataDescription),
  scripts: Schema.Array(WorkspaceAgentScript)
}) {}

export class AgentManifests extends Effect.Service<AgentManifests>()("@workbay/core/AgentManifests", {
  effect: Effect.gen(function*() {
    const relays = yield* RelayMap

    /** The calling agent's manifest. */
    const manifest = Effect.gen(function*() {
      const session = yield* CurrentAgent
      const agent = toAgent(session, yield* Clock.currentTimeMillis, session.owner.username)
      return new AgentManifest({
        agent_id: session.agent.id,
        agent_name: session.agent.name,
        owner_name: session.owner.username,
        workspace_id: session.workspace.id,
        workspace_name: session.workspace.name,
        git_auth_configs: 0,
        vscode_port_proxy_uri: "",
        apps: agent.apps,
        derp_map: yield* relays.get,
        derp_force_websockets: true,
        environment_variables: session.agent.environment_variables,
        directory: session.agent.directory,
        motd_file: "",
        disable_direct_connections: true,
        metadata: session.agent.metadata.map((m) => new AgentMetadataDescription(m)),
        scripts: agent.scripts
      })
    }).pipe(span("AgentManifests.manifest"))

    return { manifest } as const
  })
}) {}
