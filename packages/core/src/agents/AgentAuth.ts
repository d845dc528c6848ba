/**
 * Agent authentication: a workspace agent presents its token (made by its build, see
 * `WorkspaceBuildExecutor`) in the same header, cookie or bearer as a user's key. The token
 * works while its agent belongs to the workspace's latest build and the workspace is not
 * deleted: a stop or a delete build (or any newer build) ends it. The owner must not be deleted
 * or suspended.
 *
 * The agent acts as its workspace's owner through a token limited to that workspace
 * (`workspace:read`, `workspace:update`, allow-listed to the workspace), so whatever an agent
 * route authorizes goes through the one evaluator. Which routes take an agent's token at all is
 * the HTTP layer's: the `/workspaceagents/me/` routes, and `PUT /workspaces/{workspace}/extend`.
 */
import { Clock, Context, Effect, Option } from "effect"
import type { Actor } from "../Actor.js"
import { hashAgentToken, isAgentToken } from "../AgentToken.js"
import { Unauthorized } from "../Errors.js"
import { MemberRepo } from "../organizations/Repositories.js"
import { span } from "../Tracing.js"
import type { ApiKeyRecord } from "../users/ApiKey.js"
import { memo, rolesByOrganization } from "../users/Auth.js"
import { UserRepo } from "../users/Repositories.js"
import type { UserRecord } from "../users/User.js"
import { type AgentInBuild, AgentRepo, makeClaimInProgress } from "./Agent.js"

/** The agent calling, with what it belongs to and its workspace's owner. */
export interface AgentSession extends AgentInBuild {
  readonly owner: UserRecord
}

/** The agent of an agent route's request (set with `CurrentActor`). */
export class CurrentAgent extends Context.Tag("@workbay/core/CurrentAgent")<CurrentAgent, AgentSession>() {}

/** What an agent may do as its workspace's owner: read and update that workspace. */
export const AGENT_SCOPES: ReadonlyArray<string> = ["workspace:read", "workspace:update"]

const FAR_FUTURE = new Date(Date.UTC(9999, 11, 31))

/**
 * The actor an agent acts as: its workspace's owner (with their organization roles, which grant
 * owners their own workspaces), through a token limited to that workspace.
 */
export const agentActor = (
  session: AgentSession,
  at: Date,
  orgRoles: Effect.Effect<ReadonlyMap<string, ReadonlyArray<string>>>
): Actor => {
  const key: ApiKeyRecord = {
    id: session.agent.id,
    hashed_secret: "",
    user_id: session.owner.id,
    login_type: "token",
    token_name: `workspace agent ${session.agent.name}`,
    scopes: AGENT_SCOPES,
    allow_list: [{ type: "workspace", id: session.workspace.id }],
    lifetime_seconds: 0,
    created_at: session.agent.created_at,
    updated_at: session.agent.updated_at,
    expires_at: FAR_FUTURE,
    last_used: at
  }
  return { user: session.owner, apiKey: key, orgRoles }
}

/** Whether two sessions of an agent say the same: its build, token and names, and its owner. */
const sameSession = (a: AgentSession, b: AgentSession): boolean =>
  a.agent.auth_token_hash === b.agent.auth_token_hash && a.agent.name === b.agent.name &&
  a.build.id === b.build.id && a.latest_build_number === b.latest_build_number &&
  a.workspace.id === b.workspace.id && a.workspace.name === b.workspace.name &&
  a.owner.id === b.owner.id && a.owner.username === b.owner.username && a.owner.status === b.owner.status

const refused = (detail: string) => new Unauthorized({ message: "Workspace agent not authorized.", detail })

export class AgentAuth extends Effect.Service<AgentAuth>()("@workbay/core/AgentAuth", {
  effect: Effect.gen(function*() {
    const agents = yield* AgentRepo
    const users = yield* UserRepo
    const members = yield* MemberRepo
    const claimInProgress = yield* makeClaimInProgress

    /**
     * The latest session of each agent authenticated here, while something holds it: a connection
     * that authenticates as the same agent, build, token and owner gets that one instead of its own
     * copy of the rows (an agent holds three connections as long as it runs; its rows are some
     * 4 KB). What a session is used for (ids, the token's hash, the build's definitions of scripts,
     * apps and metadata, the owner's name) is the same in both.
     */
    const recent = new Map<string, WeakRef<AgentSession>>()
    const forget = new FinalizationRegistry<string>((agentId) => {
      if (recent.get(agentId)?.deref() === undefined) recent.delete(agentId)
    })
    const shared = (session: AgentSession): AgentSession => {
      const known = recent.get(session.agent.id)?.deref()
      if (known !== undefined && sameSession(known, session)) return known
      recent.set(session.agent.id, new WeakRef(session))
      forget.register(session, session.agent.id)
      return session
    }

    /** The agent whose token this is, while the token works; else 401. */
    const authenticate = (token: string): Effect.Effect<AgentSession, Unauthorized> =>
      Effect.gen(function*() {
        if (!isAgentToken(token)) return yield* Effect.fail(refused("Agent tokens are UUIDs; this is not one."))
        const found = yield* agents.findByTokenHash(hashAgentToken(token))
        if (Option.isNone(found)) return yield* Effect.fail(refused("The agent token is unknown."))
        const inBuild = found.value
        if (inBuild.workspace.deleted) return yield* Effect.fail(refused("The agent's workspace was deleted."))
        if (inBuild.build.build_number !== inBuild.latest_build_number && !(yield* claimInProgress(inBuild))) {
          return yield* Effect.fail(
            refused("The agent belongs to an older build of its workspace; a newer build replaced it.")
          )
        }
        const owner = Option.getOrUndefined(yield* users.findById(inBuild.workspace.owner_id))
        if (owner === undefined || owner.deleted) {
          return yield* Effect.fail(refused("The workspace's owner was deleted."))
        }
        if (owner.status === "suspended") return yield* Effect.fail(refused("The workspace's owner is suspended."))
        return shared({ ...inBuild, owner })
      }).pipe(span("AgentAuth.authenticate"))

    /** {@link authenticate}, with the actor the agent acts as. */
    const authenticateActor = (token: string) =>
      Effect.flatMap(authenticate(token), (session) =>
        Effect.map(Clock.currentTimeMillis, (ms) => {
          const orgRoles = memo(Effect.map(members.ofUser(session.owner.id), rolesByOrganization))
          return { session, actor: agentActor(session, new Date(ms), orgRoles) }
        }))

    return { authenticate, authenticateActor } as const
  })
}) {}
