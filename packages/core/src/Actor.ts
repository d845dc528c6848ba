/** The authenticated caller and the single authorization check every service uses. */
import { Context, Effect } from "effect"
import { Forbidden, NotFound } from "./Errors.js"
import type { ApiKeyRecord, UserRecord } from "./Identity.js"
import {
  aclNeedsGroups,
  type Action,
  type AuthzObject,
  type Decision,
  isBuiltInRole,
  type RoleDefinition,
  rolesAllow,
  type Subject,
  tokenAllows,
  unassignable
} from "./Rbac.js"

/** Who is calling: the user, the key they used, and (loaded on demand) their organization roles. */
export interface Actor {
  readonly user: UserRecord
  readonly apiKey: ApiKeyRecord
  /** Organization id to explicit organization roles; loaded once per request when needed. */
  readonly orgRoles: Effect.Effect<ReadonlyMap<string, ReadonlyArray<string>>>
  /**
   * Ids of the groups the user was added to; loaded once per request, only when an access list
   * names groups. Absent: none (the Everyone groups of the user's organizations count anyway).
   */
  readonly groupIds?: Effect.Effect<ReadonlyArray<string>> | undefined
  /**
   * The definitions of the custom organization roles the user holds, by organization id and
   * name; loaded once per request, only when a membership names a role that is not built in.
   * Absent: custom roles grant nothing.
   */
  readonly customRoles?: Effect.Effect<ReadonlyMap<string, ReadonlyMap<string, RoleDefinition>>> | undefined
}

export class CurrentActor extends Context.Tag("@workbay/core/CurrentActor")<CurrentActor, Actor>() {}

const NO_ORG_ROLES: ReadonlyMap<string, ReadonlyArray<string>> = new Map()

const siteSubject = (actor: Actor): Subject => ({
  userId: actor.user.id,
  siteRoles: actor.user.rbac_roles,
  orgRoles: NO_ORG_ROLES,
  scopes: actor.apiKey.scopes,
  allowList: actor.apiKey.allow_list,
  // Every key a copy may set later is here from the start: on Node 20 a copy (`{ ...subject, k }`)
  // that adds a key takes V8's slow path, about 1 us, where one that sets a key it has is cheap.
  groupIds: undefined,
  customRoles: undefined
})

/** Whether some membership names a role that is not built in (a custom role). */
export const holdsCustomRoles = (orgRoles: ReadonlyMap<string, ReadonlyArray<string>>): boolean => {
  for (const names of orgRoles.values()) for (const n of names) if (!isBuiltInRole(n)) return true
  return false
}

/** The subject with its organization roles and, when it holds any, its custom roles' definitions. */
const withMemberships = (actor: Actor, subject: Subject): Effect.Effect<Subject> =>
  Effect.flatMap(
    actor.orgRoles,
    (orgRoles): Effect.Effect<Subject> =>
      actor.customRoles === undefined || !holdsCustomRoles(orgRoles)
        ? Effect.succeed({ ...subject, orgRoles })
        : Effect.map(actor.customRoles, (customRoles): Subject => ({ ...subject, orgRoles, customRoles }))
  )

const ALLOWED = Effect.succeed<Decision>("allowed")
const BY_ROLES = Effect.succeed<Decision>("roles")

/**
 * The subject with the memberships a check on `object` may need: organization roles, and the
 * user's groups when the object's access list names groups the organizations do not settle.
 */
const subjectFor = (actor: Actor, subject: Subject, action: Action, object: AuthzObject): Effect.Effect<Subject> =>
  Effect.flatMap(withMemberships(actor, subject), (withOrgs) => {
    if (!aclNeedsGroups(object) || actor.groupIds === undefined || rolesAllow(withOrgs, action, object)) {
      return Effect.succeed(withOrgs)
    }
    return Effect.map(actor.groupIds, (groupIds): Subject => ({ ...withOrgs, groupIds }))
  })

/** The decision on `action` over `object` for the current actor (see `Rbac.decide`). */
export const decision = (action: Action, object: AuthzObject): Effect.Effect<Decision, never, CurrentActor> =>
  Effect.flatMap(CurrentActor, (actor) => {
    const subject = siteSubject(actor)
    // The token's limits and the site roles decide most checks without loading memberships.
    if (!tokenAllows(subject, action, object)) {
      return Effect.map(
        subjectFor(actor, subject, action, object),
        (full): Decision => rolesAllow(full, action, object) ? "token" : "roles"
      )
    }
    if (rolesAllow(subject, action, object)) return ALLOWED
    // Memberships matter only with an organization, an access list, or an owned object (owner grants of membership).
    if (
      object.orgId === undefined && object.anyOrg !== true && !aclNeedsGroups(object) &&
      object.ownerId !== subject.userId
    ) {
      return BY_ROLES
    }
    return Effect.flatMap(
      subjectFor(actor, subject, action, object),
      (full) => rolesAllow(full, action, object) ? ALLOWED : BY_ROLES
    )
  })

/** Whether the current actor may perform `action` on `object`. */
export const allowed = (action: Action, object: AuthzObject): Effect.Effect<boolean, never, CurrentActor> =>
  Effect.map(decision(action, object), (d) => d === "allowed")

/** The subject of the current actor with its organization roles. */
export const currentSubject: Effect.Effect<Subject, never, CurrentActor> = Effect.flatMap(
  CurrentActor,
  (actor) => withMemberships(actor, siteSubject(actor))
)

/** Fails with 403 unless the current actor may perform `action` on `object`. */
export const authorize = (action: Action, object: AuthzObject): Effect.Effect<void, Forbidden, CurrentActor> =>
  Effect.flatMap(
    decision(action, object),
    (d) => d === "allowed" ? Effect.void : Effect.fail(d === "token" ? outsideTokenGrant() : Forbidden.default())
  )

/**
 * Fails with 403 when the caller authenticated with an OAuth2 app's access token: what an app
 * holds mints no other credential (API keys, sessions, application keys, OAuth2 grants), so
 * everything it holds ends with its grant (docs/oauth2.md). `what` names what was refused.
 */
export const refuseOAuth2AppCredential = (what: string): Effect.Effect<void, Forbidden, CurrentActor> =>
  Effect.flatMap(CurrentActor, (actor) =>
    actor.apiKey.login_type === "oauth2_provider_app"
      ? Effect.fail(
        new Forbidden({
          message: `An OAuth2 app's access token cannot create ${what}.`,
          detail: "Credentials an OAuth2 app holds mint no others, so revoking the app ends everything it holds."
        })
      )
      : Effect.void)

/** The 403 of a token whose scopes or allow-list do not cover a request its owner could make. */
export const outsideTokenGrant = () =>
  new Forbidden({
    message: "Forbidden.",
    detail: "The API token's scopes or allow-list do not cover this action."
  })

/**
 * For reads: fails with 404 (`what` not found) unless the roles let the actor read the object,
 * hiding its existence; with 403 when only the token's scopes or allow-list stand in the way.
 * `action` is the read-like action checked (`read`, `read_personal`).
 */
export const authorizeRead = (
  what: string,
  object: AuthzObject,
  action: Action = "read"
): Effect.Effect<void, NotFound | Forbidden, CurrentActor> =>
  Effect.flatMap(
    decision(action, object),
    (d): Effect.Effect<void, NotFound | Forbidden> =>
      d === "allowed"
        ? Effect.void
        : d === "token"
        ? Effect.fail(outsideTokenGrant())
        : Effect.fail(NotFound.resource(what))
  )

/**
 * For a path parameter that names the thing an action works on: fails with 404 (`what` not
 * found) unless the actor's roles let them read it. The token's scopes and allow-list are not
 * asked here: the route's own action is checked with them next (`authorize`), so a token
 * scoped to `api_key:create` may create a key for the user it names without `user:read`.
 */
export const authorizeVisible = (what: string, object: AuthzObject): Effect.Effect<void, NotFound, CurrentActor> =>
  Effect.flatMap(decision("read", object), (d) => d === "roles" ? Effect.fail(NotFound.resource(what)) : Effect.void)

/**
 * The roles of `wanted` the current actor may not assign or remove: those above their own
 * (site roles, plus their roles in `orgId`). See `Rbac.canAssign`.
 */
export const rolesBeyondActor = (
  wanted: ReadonlyArray<string>,
  orgId?: string
): Effect.Effect<ReadonlyArray<string>, never, CurrentActor> =>
  wanted.length === 0
    ? Effect.succeed([])
    : Effect.map(currentSubject, (subject) => unassignable(subject, wanted, orgId))
