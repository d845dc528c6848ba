/** The authenticated caller and the single authorization check every service uses. */
import { Context, Effect } from "effect"
import type { ApiKeyRecord } from "./ApiKey.js"
import { Forbidden, NotFound } from "./Errors.js"
import { type Action, type AuthzObject, can, type Subject } from "./Rbac.js"
import type { UserRecord } from "./User.js"

/** Who is calling: the user, the key they used, and (loaded on demand) their organization roles. */
export interface Actor {
  readonly user: UserRecord
  readonly apiKey: ApiKeyRecord
  /** Organization id to explicit organization roles; loaded once per request when needed. */
  readonly orgRoles: Effect.Effect<ReadonlyMap<string, ReadonlyArray<string>>>
}

export class CurrentActor extends Context.Tag("@workbay/core/CurrentActor")<CurrentActor, Actor>() {}

const siteSubject = (actor: Actor): Subject => ({
  userId: actor.user.id,
  siteRoles: actor.user.rbac_roles,
  orgRoles: new Map()
})

/** Whether the current actor may perform `action` on `object`. */
export const allowed = (action: Action, object: AuthzObject): Effect.Effect<boolean, never, CurrentActor> =>
  Effect.flatMap(CurrentActor, (actor) => {
    // Site roles and ownership decide most checks without loading memberships.
    if (can(siteSubject(actor), action, object)) return Effect.succeed(true)
    if (object.orgId === undefined && object.anyOrg !== true) return Effect.succeed(false)
    return Effect.map(actor.orgRoles, (orgRoles) => can({ ...siteSubject(actor), orgRoles }, action, object))
  })

/** The subject of the current actor with its organization roles. */
export const currentSubject: Effect.Effect<Subject, never, CurrentActor> = Effect.flatMap(
  CurrentActor,
  (actor) => Effect.map(actor.orgRoles, (orgRoles) => ({ ...siteSubject(actor), orgRoles }))
)

/** Fails with 403 unless the current actor may perform `action` on `object`. */
export const authorize = (action: Action, object: AuthzObject): Effect.Effect<void, Forbidden, CurrentActor> =>
  Effect.flatMap(allowed(action, object), (ok) => (ok ? Effect.void : Effect.fail(Forbidden.default())))

/** For reads: fails with 404 (`what` not found) unless the actor may read the object, hiding its existence. */
export const authorizeRead = (what: string, object: AuthzObject): Effect.Effect<void, NotFound, CurrentActor> =>
  Effect.flatMap(allowed("read", object), (ok) => (ok ? Effect.void : Effect.fail(NotFound.resource(what))))
