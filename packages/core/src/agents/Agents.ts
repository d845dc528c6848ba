/**
 * The Agents service: what users ask about their workspaces' agents. Reading an agent needs
 * `read` on its workspace; an external agent's credentials need `update` on it (who may change
 * the workspace may run its agent).
 */
import { Clock, Context, Effect, Option, Schema } from "effect"
import { authorize, authorizeRead } from "../Actor.js"
import { hashAgentToken, newAgentToken } from "../AgentToken.js"
import { auditResource, auditUnchanged } from "../Audit.js"
import { BadRequest, NotFound } from "../Errors.js"
import { isUuid } from "../Ids.js"
import { PubSub } from "../PubSub.js"
import { Settings } from "../Settings.js"
import type { WorkspaceAgent } from "../templates/TemplateVersionWire.js"
import { span } from "../Tracing.js"
import { UserRepo } from "../users/Repositories.js"
import { Users } from "../users/Users.js"
import { publishWorkspaceChange } from "../WorkspaceChannel.js"
import { WorkspaceSharing } from "../workspaces/Sharing.js"
import { WorkspaceResourceRepo } from "../workspaces/WorkspaceBuild.js"
import { WorkspaceBuilds } from "../workspaces/WorkspaceBuilds.js"
import { toBuildResource } from "../workspaces/WorkspaceWire.js"
import { type AgentInBuild, AgentRepo } from "./Agent.js"
import { CurrentAgent } from "./AgentAuth.js"
import { DerpMapSchema, RelayMap } from "./RelayMap.js"

/** The agent form of the owner's git SSH key (spec: `private_key`, `public_key`). */
export class AgentGitSshKey extends Schema.Class<AgentGitSshKey>("AgentGitSSHKey")({
  private_key: Schema.String,
  public_key: Schema.String
}) {}

/** The answer of the credentials route (codersdk `ExternalAgentCredentials`). */
export class ExternalAgentCredentialsWire
  extends Schema.Class<ExternalAgentCredentialsWire>("ExternalAgentCredentials")({
    agent_token: Schema.String,
    command: Schema.String
  })
{}

/** The package and bin of the reference agent (packages/agent). */
export const AGENT_COMMAND = "npx -y @workbay/agent"

/**
 * The command the credentials route answers, before `--url ... --token ...`: the reference agent
 * from the npm registry unless the embedder names another (the standalone server: its own bundle).
 */
export class AgentCommand extends Context.Reference<AgentCommand>()("@workbay/core/AgentCommand", {
  defaultValue: () => AGENT_COMMAND
}) {}

/** `command` with the flags that start the reference agent against `accessUrl` with `token`. */
export const agentCommand = (command: string, accessUrl: string, token: string): string =>
  `${command} --url ${accessUrl.replace(/\/+$/, "")} --token ${token}`

/** The wire record of an agent as its build's resource shows it, at `now`. */
export const toAgent = (found: AgentInBuild, now: number, owner?: string): WorkspaceAgent =>
  toBuildResource(
    { resource: found.resource, agents: [found.agent] },
    now,
    owner === undefined ? undefined : { owner, workspace: found.workspace.name }
  ).agents![0]!

/**
 * How a client reaches an agent (the described system's `workspacesdk.AgentConnectionInfo`): the
 * relay map, and the same connection settings the agent's manifest gives it.
 */
export class AgentConnectionInfo extends Schema.Class<AgentConnectionInfo>("AgentConnectionInfo")({
  derp_map: DerpMapSchema,
  derp_force_websockets: Schema.Boolean,
  disable_direct_connections: Schema.Boolean,
  hostname_suffix: Schema.optional(Schema.String)
}) {}

export class Agents extends Effect.Service<Agents>()("@workbay/core/Agents", {
  effect: Effect.gen(function*() {
    const agents = yield* AgentRepo
    const sharing = yield* WorkspaceSharing
    const builds = yield* WorkspaceBuilds
    const resources = yield* WorkspaceResourceRepo
    const settings = yield* Settings
    const users = yield* Users
    const userRows = yield* UserRepo
    const pubsub = yield* PubSub
    const relays = yield* RelayMap

    /** The agent `ref` names, when the caller may read its workspace; else 404. */
    const resolve = (ref: string) =>
      Effect.gen(function*() {
        const found = isUuid(ref) ? yield* agents.findById(ref.toLowerCase()) : Option.none<AgentInBuild>()
        if (Option.isNone(found) || found.value.workspace.deleted) return yield* NotFound.resource("Workspace agent")
        yield* authorizeRead("Workspace agent", sharing.object(found.value.workspace))
        return found.value
      })

    /** GET /workspaceagents/{agent}. */
    const get = (ref: string) =>
      Effect.gen(function*() {
        const found = yield* resolve(ref)
        const owner = yield* userRows.findById(found.workspace.owner_id)
        return toAgent(found, yield* Clock.currentTimeMillis, Option.getOrUndefined(owner)?.username)
      }).pipe(span("Agents.get"))

    /**
     * GET /workspaces/{workspace}/external-agent/{agent}/credentials: the token of the external
     * agent of that name in the workspace's latest build, and the command that starts the
     * reference agent with it. The build keeps the token (sealed at rest), so every read answers
     * the same one, changes nothing and writes no audit entry; a new build makes a new one. An
     * agent that keeps none (built before tokens were kept), or whose kept token does not open
     * (sealed by a key no longer configured) or is no longer its token, gets a new token once:
     * kept from then on, audited, and the previous token stops working.
     */
    const externalCredentials = (workspaceRef: string, agentName: string) =>
      Effect.gen(function*() {
        const w = yield* sharing.resolve(workspaceRef, "read")
        yield* authorize("update", sharing.object(w))
        const latest = yield* builds.latestOf(w)
        const stored = latest === undefined ? [] : yield* resources.listByJobs([latest.job_id])
        const agent = stored.flatMap((r) => r.agents).find((a) => a.name === agentName)
        if (agent === undefined) return yield* NotFound.resource("Workspace agent")
        if (!agent.external) {
          return yield* BadRequest.field(
            "agent",
            `The agent "${agentName}" is not an external agent: its provisioner starts it.`,
            "The agent is not an external agent."
          )
        }
        const command = (token: string) =>
          Effect.map(AgentCommand, (c) =>
            new ExternalAgentCredentialsWire({
              agent_token: token,
              command: agentCommand(c, settings.accessUrl, token)
            }))
        const kept = yield* agents.keptToken(agent.id).pipe(
          Effect.catchTag("SecretDecryptFailed", (e) =>
            Effect.as(
              Effect.logWarning(
                `The kept token of workspace agent ${agent.id} cannot be decrypted; a new token is made. ${e.message}`
              ),
              Option.none<string>()
            ))
        )
        if (Option.isSome(kept) && hashAgentToken(kept.value) === agent.auth_token_hash) {
          yield* auditUnchanged
          return yield* command(kept.value)
        }
        const token = newAgentToken()
        const hash = hashAgentToken(token)
        yield* agents.setKeptToken(agent.id, token, new Date(yield* Clock.currentTimeMillis))
        // Connections made with the previous token end (they watch the workspace's signal).
        yield* Effect.provideService(publishWorkspaceChange(w.id), PubSub, pubsub)
        // A secret field: the diff says the token changed, never what it was or is.
        yield* auditResource(
          { type: "workspace_agent", id: agent.id, target: agent.name, organizationId: w.organization_id },
          { agent_token: agent.auth_token_hash },
          { agent_token: hash }
        )
        return yield* command(token)
      }).pipe(span("Agents.externalCredentials"))

    /** GET /workspaceagents/me/gitsshkey: the workspace owner's key pair, made on first use. */
    const gitSshKey = Effect.gen(function*() {
      const { owner } = yield* CurrentAgent
      const key = yield* users.gitSshKeyRecord(owner.id)
      return new AgentGitSshKey({ private_key: key.private_key, public_key: key.public_key })
    }).pipe(span("Agents.gitSshKey"))

    /**
     * GET /workspaceagents/{agent}/connection: the relay map now, relays forced to WebSockets and
     * no direct connections (Workbay relays peers' nodes and serves no direct path, as the
     * manifest tells the agent), and the deployment's workspace hostname suffix.
     */
    const connectionInfo = (ref: string) =>
      Effect.gen(function*() {
        yield* resolve(ref)
        return new AgentConnectionInfo({
          derp_map: yield* relays.get,
          derp_force_websockets: true,
          disable_direct_connections: true,
          ...(settings.sshHostnameSuffix === "" ? {} : { hostname_suffix: settings.sshHostnameSuffix })
        }, true)
      }).pipe(span("Agents.connectionInfo"))

    return { resolve, get, externalCredentials, gitSshKey, connectionInfo } as const
  })
}) {}
