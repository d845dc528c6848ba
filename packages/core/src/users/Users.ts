/** The Users service: lookup, listing, creation, deletion and per-user settings. */
import { Clock, Effect, Either, Option } from "effect"
import { generateKeyPairSync } from "node:crypto"
import {
  allowed,
  authorize,
  authorizeRead,
  authorizeVisible,
  CurrentActor,
  decision,
  outsideTokenGrant,
  rolesBeyondActor
} from "../Actor.js"
import { auditAdditional, auditResource, NIL_UUID } from "../Audit.js"
import { Events } from "../Events.js"
import { span } from "../Tracing.js"
import { UserAccountCreated, UserAccountDeleted, UserStatusChanged } from "./Events.js"

/** Who hears of accounts created, deleted, suspended and activated (the described system's user admins). */
import { BadRequest, Conflict, Forbidden, NotFound, Validation } from "../Errors.js"
import { IdGenerator } from "../Ids.js"
import { sshpkModule } from "../OnDemand.js"
import { PasswordHasher } from "../Platform.js"
import { isSiteRole, permissions, type RoleDefinition, roles as roleDefinitions, siteRoles } from "../Rbac.js"
import { GitSshKey, type GitSshKeyRecord, QuietHoursEntry } from "./GitSshKey.js"
import { checkPassword } from "./Passwords.js"

import { Transactions, type UniqueViolation } from "../Repositories.js"
import type { SearchPageQuery } from "../Requests.js"
import { parseQuietHoursSchedule } from "../Schedule.js"
import { parseQuery } from "../SearchQuery.js"
import { Settings } from "../Settings.js"
import { putNonEmpty, wireMaker, type WireProps } from "../Wire.js"
import { oidcConfigured } from "./Links.js"
import { type StoredPreferences, toUserPreferences } from "./Preferences.js"
import { ApiKeyRepo, GitSshKeyRepo, type UserFilter, UserMemberships, UserRepo } from "./Repositories.js"
import type {
  CreateUserRequest,
  UpdateAppearanceRequest,
  UpdatePreferencesRequest,
  UpdateUserPasswordRequest,
  UpdateUserProfileRequest
} from "./Requests.js"
import {
  AssignableRole,
  isReservedUsername,
  type LoginType,
  reducedUserProps,
  RolePermission,
  toSlimRole,
  User,
  UserAppearance,
  type UserRecord,
  type UserStatus
} from "./User.js"
import { refuseSystemUser, resolveUserRef } from "./UserRef.js"

const makeUser = wireMaker(User)

/** Wire form of a user with its memberships. */
export const toUser = (u: UserRecord, organizationIds: ReadonlyArray<string>): User => {
  const props: WireProps<typeof User> = reducedUserProps(u) as WireProps<typeof User>
  // has_ai_seat is always sent (it has no omitempty in the described system).
  props.has_ai_seat = false
  props.organization_ids = organizationIds
  props.roles = u.rbac_roles.map((name) => toSlimRole(name, roleDefinitions.get(name)?.display_name ?? name, ""))
  return makeUser(props)
}

/** How audit entries name a user. */
export const userResource = (u: UserRecord) => ({ type: "user", id: u.id, target: u.username })

/**
 * Notes on the entry of the change that ended a user's credentials (a password change or reset, a
 * deletion) how many OAuth2 refresh tokens went with them.
 */
export const auditRevokedGrants = (revoked: number) =>
  revoked > 0 ? auditAdditional({ oauth2_tokens_revoked: revoked }) : Effect.void

/** How authorization names a user: a user owns itself. */
export const userObject = (u: Pick<UserRecord, "id">) => ({ type: "user", id: u.id, ownerId: u.id }) as const

/** Wire form of a role for the roles listings; `organizationId` is empty for site roles. */
export const toAssignableRole = (
  role: RoleDefinition,
  organizationId: string,
  assignable: boolean,
  builtIn = true
): AssignableRole => {
  const granted = permissions(role)
  const wire = (list: typeof granted.site) => list.map((p) => new RolePermission(p, true))
  const props: WireProps<typeof AssignableRole> = {
    name: role.name,
    display_name: role.display_name,
    site_permissions: wire(granted.site),
    organization_permissions: wire(granted.organization),
    user_permissions: wire(granted.user),
    assignable,
    built_in: builtIn
  }
  putNonEmpty(props, "organization_id", organizationId)
  return new AssignableRole(props, true)
}

const quoted = (names: ReadonlyArray<string>) => names.map((n) => `"${n}"`).join(", ")
const plural = (names: ReadonlyArray<string>, one: string, many: string) => (names.length === 1 ? one : many)

/** 400 on `roles` for names that are not roles of the wanted kind. */
export const unknownRoles = (names: ReadonlyArray<string>, kind: "site" | "organization") =>
  BadRequest.field(
    "roles",
    `${quoted(names)} ${
      plural(names, `is not ${kind === "site" ? "a site" : "an organization"} role`, `are not ${kind} roles`)
    }.`,
    "Validation failed."
  )

/** 403 naming the roles the caller may not assign or remove (those above their own). */
export const rolesRefused = (added: ReadonlyArray<string>, removed: ReadonlyArray<string>) => {
  const parts = [
    ...(added.length > 0 ? [`assign the role${plural(added, "", "s")} ${added.join(", ")}`] : []),
    ...(removed.length > 0 ? [`remove the role${plural(removed, "", "s")} ${removed.join(", ")}`] : [])
  ]
  return new Forbidden({
    message: `You may not ${parts.join(" or ")}.`,
    detail: "Nobody can grant or remove a role above their own."
  })
}

/** The roles in `next` that `before` lacks, and the roles of `before` that `next` lacks. */
export const roleChanges = (before: ReadonlyArray<string>, next: ReadonlyArray<string>) => ({
  added: next.filter((r) => !before.includes(r)),
  removed: before.filter((r) => !next.includes(r))
})

/** Largest page a listing returns; larger `limit`s are clamped. */
export const MAX_PAGE_SIZE = 1000
export const DEFAULT_PAGE_SIZE = 100

/** A listing's page size: `limit` when positive (at most MAX_PAGE_SIZE), else DEFAULT_PAGE_SIZE. */
export const pageLimit = (limit: number | undefined) =>
  Math.min(limit !== undefined && limit > 0 ? limit : DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)

const conflictFor = (e: UniqueViolation) =>
  new Conflict({
    message: e.constraint.includes("email")
      ? "A user with this email already exists."
      : "A user with this username already exists.",
    validations: [
      new Validation({
        field: e.constraint.includes("email") ? "email" : "username",
        detail: e.constraint.includes("email") ? "This email is in use." : "This username is in use."
      })
    ]
  })

const quietHoursField = (detail: string) => BadRequest.field("schedule", detail, "Invalid quiet hours schedule.")

/**
 * Reads a quiet-hours schedule (`[CRON_TZ=<zone>] <min> <hour> * * *`, see Schedule.ts): its zone,
 * its time of day and its next start after `now`; 400 on `schedule` with the reason.
 */
export const parseQuietHours = (raw: string, now: Date) =>
  Either.match(parseQuietHoursSchedule(raw, now), {
    onLeft: (e) => Effect.fail(quietHoursField(e.message)),
    onRight: ({ next, time, timezone }) => Effect.succeed({ timezone, time, next })
  })

/** Makes an ed25519 key pair in OpenSSH formats. */
export const generateSshKeyPair: Effect.Effect<{ readonly privateKey: string; readonly publicKey: string }> = Effect
  .map(sshpkModule, (sshpk) => {
    const { privateKey } = generateKeyPairSync("ed25519")
    const key = sshpk.parsePrivateKey(privateKey.export({ type: "pkcs8", format: "pem" }).toString(), "pem")
    return {
      privateKey: key.toString("ssh"),
      publicKey: key.toPublic().toString("ssh").replace(/ \(unnamed\)$/, "").trim()
    }
  })

export class Users extends Effect.Service<Users>()("@workbay/core/Users", {
  effect: Effect.gen(function*() {
    const users = yield* UserRepo
    const members = yield* UserMemberships
    const keys = yield* ApiKeyRepo
    const sshKeys = yield* GitSshKeyRepo
    const tx = yield* Transactions
    const hasher = yield* PasswordHasher
    const ids = yield* IdGenerator
    const settings = yield* Settings
    const events = yield* Events
    /** The acting user's username, as notifications name who did something. */
    const initiator = Effect.map(CurrentActor, (a) => a.user.username)

    /** Resolves `{user}`: an id, a username or `me`. Deleted users are not found. */
    const resolve = (ref: string): Effect.Effect<UserRecord, NotFound, CurrentActor> => resolveUserRef(users, ref)

    /**
     * Resolves `{user}` and checks the caller may read it: 404 when the roles refuse, 403 when
     * only the token's scopes or allow-list do. For routes whose action is reading the user.
     */
    const resolveReadable = (ref: string) => Effect.tap(resolve(ref), (u) => authorizeRead("User", userObject(u)))

    /**
     * Resolves `{user}` for a route that acts on it or on something of theirs: 404 unless the
     * caller's roles let them read the user. The token's limits apply to the route's own action.
     */
    const resolveVisible = (ref: string) => Effect.tap(resolve(ref), (u) => authorizeVisible("User", userObject(u)))

    /**
     * Resolves `{user}` for its personal data (appearance, git SSH key, quiet hours, parameters):
     * the caller needs `read_personal` on the user (themselves, an owner or a user admin). Anyone
     * else gets 404, as if the user did not exist, like the described system's data layer; a
     * token whose scopes or allow-list leave `read_personal` out gets 403.
     */
    const resolvePersonal = (ref: string) =>
      Effect.tap(resolveVisible(ref), (u) => authorizeRead("User", userObject(u), "read_personal"))

    // The caller's memberships are already memoized on the actor (authorization may have
    // loaded them this request); anyone else's take one query.
    const organizationIdsOf = (userId: string) =>
      Effect.flatMap(CurrentActor, (actor) =>
        userId === actor.user.id
          ? Effect.map(actor.orgRoles, (roles) => [...roles.keys()])
          : Effect.map(members.ofUser(userId), (ms) => ms.map((m) => m.organization_id)))

    const withMemberships = (u: UserRecord) => Effect.map(organizationIdsOf(u.id), (orgIds) => toUser(u, orgIds))

    const hashNewPassword = (password: string, field = "password") => {
      const check = checkPassword(password)
      return check.valid
        ? hasher.hash(password)
        : Effect.fail(BadRequest.field(field, check.details, "Invalid password."))
    }

    const create = (input: typeof CreateUserRequest.Type) =>
      Effect.gen(function*() {
        yield* authorize("create", { type: "user" })
        const problems: Array<Validation> = []
        if (isReservedUsername(input.username)) {
          problems.push(new Validation({ field: "username", detail: "This username is reserved." }))
        }
        // No login type means password (the described system's rule), except for a service
        // account given no password, which cannot log in.
        const loginType: LoginType = input.login_type === undefined || input.login_type === ""
          ? (input.service_account === true && !input.password ? "none" : "password")
          : input.login_type
        if (loginType === "password" && !input.password) {
          problems.push(
            new Validation({ field: "password", detail: "A password is required for login type \"password\"." })
          )
        }
        if (loginType !== "password" && input.password) {
          problems.push(
            new Validation({ field: "password", detail: `A password cannot be set for login type "${loginType}".` })
          )
        }
        if (loginType === "token") {
          problems.push(
            new Validation({ field: "login_type", detail: "Login type \"token\" cannot be used to create users." })
          )
        } else if (loginType === "oidc" && !oidcConfigured(settings)) {
          problems.push(
            new Validation({ field: "login_type", detail: "OIDC must be configured before creating OIDC users." })
          )
        }
        // `member` is everyone's: accepted and not stored.
        const siteRoles = [...new Set(input.roles ?? [])].filter((role) => role !== "member")
        const unknown = siteRoles.filter((role) => !isSiteRole(role))
        if (unknown.length > 0) problems.push(...(unknownRoles(unknown, "site").validations ?? []))
        if (problems.length > 0) return yield* new BadRequest({ message: "Validation failed.", validations: problems })
        if (loginType === "password" && settings.disablePasswordAuth) {
          return yield* new Forbidden({
            message: "Password authentication is disabled; users with login type \"password\" cannot be created."
          })
        }
        if (siteRoles.length > 0) {
          yield* authorize("assign", { type: "assign_role" })
          const denied = yield* rolesBeyondActor(siteRoles)
          if (denied.length > 0) return yield* rolesRefused(denied, [])
        }
        // No organization, or the nil id, names the default organization (the described system's rule).
        const requested = (input.organization_ids ?? []).map((s) => s.toLowerCase())
        const defaultIds = requested.length === 0 || requested.includes(NIL_UUID)
          ? Option.match(yield* members.defaultOrganizationId, { onNone: () => [], onSome: (id) => [id] })
          : []
        const orgIds = requested.length === 0
          ? defaultIds
          : [...new Set(requested.flatMap((id) => id === NIL_UUID ? defaultIds : [id]))]
        for (const orgId of orgIds) {
          if (!(yield* members.organizationExists(orgId))) {
            return yield* BadRequest.field(
              "organization_ids",
              `Organization ${orgId} does not exist.`,
              "Organization not found."
            )
          }
        }
        const hashed = input.password && loginType === "password" ? yield* hashNewPassword(input.password) : null
        const now = new Date(yield* Clock.currentTimeMillis)
        const record: UserRecord = {
          id: yield* ids.uuid,
          email: input.email,
          username: input.username,
          name: input.name ?? "",
          avatar_url: "",
          login_type: loginType,
          status: input.user_status ?? "active",
          rbac_roles: siteRoles,
          is_service_account: input.service_account ?? false,
          hashed_password: hashed,
          created_at: now,
          updated_at: now,
          last_seen_at: now,
          deleted: false,
          appearance: UserAppearance.defaults,
          quiet_hours_schedule: "",
          hashed_one_time_passcode: null,
          one_time_passcode_expires_at: null
        }
        yield* tx.atomic(Effect.gen(function*() {
          yield* users.insert(record)
          for (const orgId of orgIds) {
            yield* members.insert({
              organization_id: orgId,
              user_id: record.id,
              roles: [],
              created_at: now,
              updated_at: now
            })
          }
        })).pipe(Effect.catchTag("UniqueViolation", (e) => Effect.fail(conflictFor(e))))
        yield* auditResource(userResource(record), undefined, record)
        yield* events.publish(new UserAccountCreated({ user: record, initiator: yield* initiator }))
        return toUser(record, orgIds)
      }).pipe(span("Users.create"))

    const list = (input: typeof SearchPageQuery.Type) =>
      Effect.gen(function*() {
        const d = yield* decision("read", { type: "user" })
        if (d === "token") return yield* outsideTokenGrant()
        if (d === "roles") return yield* new Forbidden({ message: "You may not list users." })
        const query = yield* parseQuery(input.q, ["username", "email", "status", "role", "login_type"])
        const status = query.terms.get("status")
        if (status !== undefined && status !== "active" && status !== "suspended") {
          return yield* BadRequest.field(
            "q",
            `Status "${status}" is not one of active, suspended.`,
            "Invalid search query."
          )
        }
        if (input.after_id !== undefined) {
          const after = yield* users.findById(input.after_id.toLowerCase())
          if (Option.isNone(after)) {
            return yield* BadRequest.field(
              "after_id",
              `User ${input.after_id} does not exist.`,
              "Invalid pagination cursor."
            )
          }
        }
        const filter: UserFilter = {
          search: query.text.length > 0 ? query.text.join(" ") : undefined,
          username: query.terms.get("username"),
          email: query.terms.get("email"),
          status: status as UserStatus | undefined,
          role: query.terms.get("role"),
          loginType: query.terms.get("login_type"),
          afterId: input.after_id?.toLowerCase(),
          limit: Math.min(input.limit && input.limit > 0 ? input.limit : DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
          offset: input.offset ?? 0
        }
        const page = yield* users.list(filter)
        const memberships = yield* members.ofUsers(page.users.map((u) => u.id))
        return {
          count: page.count,
          users: page.users.map((u) => toUser(u, memberships.get(u.id) ?? []))
        }
      }).pipe(span("Users.list"))

    /** Whether taking `user` away (deleting, suspending, demoting) would leave no active owner. */
    const isLastActiveOwner = (user: UserRecord) =>
      !user.rbac_roles.includes("owner") || user.status !== "active"
        ? Effect.succeed(false)
        : Effect.map(
          users.list({ role: "owner", status: "active", limit: 1, offset: 0 }),
          (owners) => owners.count <= 1
        )

    /**
     * Fails with 403 unless the caller could assign every role `user` holds: nobody deletes,
     * suspends or reactivates a user above them (a user admin cannot suspend an owner).
     */
    const refuseActingAbove = (user: UserRecord, verb: string) =>
      Effect.flatMap(
        rolesBeyondActor(user.rbac_roles.filter((r) => roleDefinitions.has(r))),
        (above) =>
          above.length === 0 ? Effect.void : Effect.fail(
            new Forbidden({
              message: `You may not ${verb} a user with the role${plural(above, "", "s")} ${above.join(", ")}.`,
              detail: "Nobody can act on a user whose roles are above their own."
            })
          )
      )

    const remove = (ref: string) =>
      Effect.gen(function*() {
        const actor = yield* CurrentActor
        const user = yield* resolveVisible(ref)
        yield* authorize("delete", userObject(user))
        yield* refuseSystemUser(user)
        if (user.id === actor.user.id) {
          return yield* new Forbidden({ message: "You cannot delete yourself." })
        }
        if (yield* isLastActiveOwner(user)) {
          return yield* new Forbidden({ message: "The last owner cannot be deleted." })
        }
        yield* refuseActingAbove(user, "delete")
        const now = new Date(yield* Clock.currentTimeMillis)
        const revoked = yield* tx.atomic(Effect.gen(function*() {
          yield* users.update(user.id, { deleted: true, updated_at: now }).pipe(Effect.orDie)
          const revoked = yield* keys.deleteByUser(user.id)
          yield* members.deleteByUser(user.id)
          return revoked
        }))
        yield* auditResource(userResource(user), user, { ...user, deleted: true })
        yield* auditRevokedGrants(revoked)
        yield* events.publish(new UserAccountDeleted({ user, initiator: actor.user.username }))
      }).pipe(span("Users.delete"))

    const getAppearance = (ref: string) => Effect.map(resolvePersonal(ref), (user) => user.appearance)

    /** `update_personal` on the user, or `update` (owners, user admins); 403 otherwise. */
    const updatePersonal = (user: UserRecord) =>
      Effect.flatMap(decision("update_personal", userObject(user)), (d) =>
        d === "allowed"
          ? Effect.void
          : authorize("update", userObject(user)).pipe(
            // The roles allowed the personal update and only the token refused it: say so.
            Effect.mapError((e) => (d === "token" ? outsideTokenGrant() : e))
          )).pipe(Effect.zipRight(refuseSystemUser(user)))

    const setAppearance = (ref: string, appearance: typeof UpdateAppearanceRequest.Type) =>
      Effect.gen(function*() {
        const user = yield* resolveVisible(ref)
        yield* updatePersonal(user)
        const now = new Date(yield* Clock.currentTimeMillis)
        yield* users.update(user.id, { appearance, updated_at: now }).pipe(Effect.orDie)
        yield* auditResource(userResource(user), { appearance: user.appearance }, { appearance })
        return appearance
      }).pipe(span("Users.setAppearance"))

    /** GET /users/{user}/preferences: the settings the user set, defaults for the rest. */
    const getPreferences = (ref: string) =>
      Effect.gen(function*() {
        const user = yield* resolvePersonal(ref)
        const stored = yield* users.findPreferences(user.id)
        if (Option.isNone(stored)) return yield* NotFound.resource("User")
        return toUserPreferences(stored.value)
      }).pipe(span("Users.getPreferences"))

    /**
     * PUT /users/{user}/preferences: the settings given change, the others stay (the dashboard
     * sends one setting at a time). Who may change the appearance may change these.
     */
    const setPreferences = (ref: string, input: typeof UpdatePreferencesRequest.Type) =>
      Effect.gen(function*() {
        const user = yield* resolveVisible(ref)
        yield* updatePersonal(user)
        const stored = yield* users.findPreferences(user.id)
        if (Option.isNone(stored)) return yield* NotFound.resource("User")
        const before = toUserPreferences(stored.value)
        const given = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as StoredPreferences
        const next: StoredPreferences = { ...stored.value, ...given }
        const after = toUserPreferences(next)
        const now = new Date(yield* Clock.currentTimeMillis)
        if (!(yield* users.setPreferences(user.id, next, now))) return yield* NotFound.resource("User")
        yield* auditResource(userResource(user), { preferences: { ...before } }, { preferences: { ...after } })
        return after
      }).pipe(span("Users.setPreferences"))

    /** GET /users/{user}/roles: the user's explicit site roles and their organization roles by organization id. */
    const rolesOf = (ref: string) =>
      Effect.gen(function*() {
        const user = yield* resolveReadable(ref)
        const memberships = yield* members.ofUser(user.id)
        return {
          roles: user.rbac_roles,
          organization_roles: Object.fromEntries(memberships.map((m) => [m.organization_id, m.roles]))
        }
      }).pipe(span("Users.roles"))

    /** GET /users/{user}/login-type: a user may read only their own, as in the described system. */
    const loginType = (ref: string) =>
      Effect.gen(function*() {
        const actor = yield* CurrentActor
        const user = yield* resolveVisible(ref)
        if (user.id !== actor.user.id) {
          return yield* new Forbidden({ message: "You are not authorized to view this user's login type." })
        }
        return { login_type: user.login_type }
      }).pipe(span("Users.loginType"))

    /**
     * PUT /users/{user}/profile `{username, name}`: the user themselves, an owner or a user admin
     * (`update_personal`); a new username needs `update` on the user (user admins), as in the
     * described system. A username in use answers 409.
     */
    const updateProfile = (ref: string, input: typeof UpdateUserProfileRequest.Type) =>
      Effect.gen(function*() {
        const user = yield* resolveVisible(ref)
        yield* updatePersonal(user)
        if (input.username !== user.username) {
          yield* authorize("update", userObject(user))
          if (isReservedUsername(input.username)) {
            return yield* BadRequest.field("username", "This username is reserved.")
          }
        }
        const taken = Option.getOrUndefined(yield* users.findByUsername(input.username))
        if (taken !== undefined && taken.id !== user.id) {
          return yield* new Conflict({
            message: "A user with this username already exists.",
            validations: [new Validation({ field: "username", detail: "This username is already in use." })]
          })
        }
        const patch = { username: input.username, name: input.name ?? user.name }
        if (patch.username === user.username && patch.name === user.name) return yield* withMemberships(user)
        const updated = yield* users.update(user.id, { ...patch, updated_at: new Date(yield* Clock.currentTimeMillis) })
          .pipe(
            Effect.catchTag("UniqueViolation", (e) => Effect.fail(conflictFor(e)))
          )
        const after = Option.getOrElse(updated, () => ({ ...user, ...patch }))
        yield* auditResource(userResource(user), { username: user.username, name: user.name }, patch)
        return yield* withMemberships(after)
      }).pipe(span("Users.updateProfile"))

    /**
     * PUT /users/{user}/password `{old_password, password}`: a password account only. The user gives
     * their old password; an owner or user admin (`update` on the user) may leave it out. The new
     * one must pass the strength rules and differ from the old. Every session and token of the user
     * ends, as after a reset.
     */
    const updatePassword = (ref: string, input: typeof UpdateUserPasswordRequest.Type) =>
      Effect.gen(function*() {
        const user = yield* resolveVisible(ref)
        yield* updatePersonal(user)
        if (user.login_type !== "password") {
          return yield* new BadRequest({ message: "Users without password login type cannot change their password." })
        }
        const old = input.old_password ?? ""
        if (old === "") {
          yield* authorize("update", userObject(user))
        } else if (user.hashed_password === null || !(yield* hasher.verify(old, user.hashed_password))) {
          return yield* BadRequest.field("old_password", "Old password is incorrect.", "Old password is incorrect.")
        }
        if (user.hashed_password !== null && (yield* hasher.verify(input.password, user.hashed_password))) {
          return yield* BadRequest.field(
            "password",
            "The new password must differ from the old one.",
            "New password cannot match old password."
          )
        }
        const hashed = yield* hashNewPassword(input.password)
        const revoked = yield* tx.atomic(Effect.gen(function*() {
          yield* users.update(user.id, {
            hashed_password: hashed,
            updated_at: new Date(yield* Clock.currentTimeMillis)
          }).pipe(Effect.orDie)
          return yield* keys.deleteByUser(user.id)
        }))
        yield* auditResource(userResource(user), { hashed_password: user.hashed_password }, { hashed_password: hashed })
        yield* auditRevokedGrants(revoked)
      }).pipe(span("Users.updatePassword"))

    const toGitSshKey = (k: GitSshKeyRecord) =>
      new GitSshKey({
        created_at: k.created_at,
        public_key: k.public_key,
        updated_at: k.updated_at,
        user_id: k.user_id
      })

    const regenerateKey = (userId: string, createdAt?: Date) =>
      Effect.gen(function*() {
        const now = new Date(yield* Clock.currentTimeMillis)
        const pair = yield* generateSshKeyPair
        const record: GitSshKeyRecord = {
          user_id: userId,
          private_key: pair.privateKey,
          public_key: pair.publicKey,
          created_at: createdAt ?? now,
          updated_at: now
        }
        yield* sshKeys.upsert(record)
        return record
      })

    /** The user's git SSH key, made on first use. */
    const gitSshKeyRecord = (userId: string) =>
      Effect.flatMap(
        sshKeys.find(userId),
        Option.match({ onNone: () => regenerateKey(userId), onSome: Effect.succeed })
      )

    const getGitSshKey = (ref: string) =>
      Effect.gen(function*() {
        const user = yield* resolvePersonal(ref)
        return toGitSshKey(yield* gitSshKeyRecord(user.id))
      })

    const regenerateGitSshKey = (ref: string) =>
      Effect.gen(function*() {
        const user = yield* resolveVisible(ref)
        yield* updatePersonal(user)
        const existing = Option.getOrUndefined(yield* sshKeys.find(user.id))
        const record = yield* regenerateKey(user.id, existing?.created_at)
        yield* auditResource({ type: "git_ssh_key", id: user.id, target: user.username }, existing, record)
        return toGitSshKey(record)
      }).pipe(span("Users.regenerateGitSshKey"))

    const quietHoursEntry = (user: UserRecord) =>
      Effect.gen(function*() {
        const now = new Date(yield* Clock.currentTimeMillis)
        const userSet = settings.allowCustomQuietHours && user.quiet_hours_schedule !== ""
        const raw = userSet ? user.quiet_hours_schedule : settings.defaultQuietHoursSchedule
        const parsed = yield* parseQuietHours(raw, now).pipe(Effect.orDie)
        return new QuietHoursEntry({
          next: parsed.next,
          raw_schedule: raw,
          time: parsed.time,
          timezone: parsed.timezone,
          user_can_set: settings.allowCustomQuietHours,
          user_set: userSet
        })
      })

    const getQuietHours = (ref: string) =>
      Effect.gen(function*() {
        const user = yield* resolvePersonal(ref)
        return [yield* quietHoursEntry(user)]
      })

    const setQuietHours = (ref: string, schedule: string) =>
      Effect.gen(function*() {
        const user = yield* resolveVisible(ref)
        yield* updatePersonal(user)
        if (!settings.allowCustomQuietHours) {
          return yield* new Forbidden({ message: "Custom quiet hours are disabled on this deployment." })
        }
        const now = new Date(yield* Clock.currentTimeMillis)
        // An empty schedule returns the user to the deployment default.
        if (schedule.trim() !== "") yield* parseQuietHours(schedule, now)
        const updated = yield* users.update(user.id, { quiet_hours_schedule: schedule.trim(), updated_at: now }).pipe(
          Effect.orDie,
          Effect.flatMap(Option.match({ onNone: () => Effect.fail(NotFound.resource("User")), onSome: Effect.succeed }))
        )
        yield* auditResource(userResource(user), user, updated)
        return [yield* quietHoursEntry(updated)]
      }).pipe(span("Users.setQuietHours"))

    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    /** Stores a patch of `user` and answers the updated record (404 if it vanished meanwhile). */
    const updateUser = (user: UserRecord, patch: Partial<UserRecord>) =>
      users.update(user.id, patch).pipe(
        Effect.orDie,
        Effect.flatMap(Option.match({ onNone: () => Effect.fail(NotFound.resource("User")), onSome: Effect.succeed }))
      )

    /**
     * PUT /users/{user}/roles: replaces the user's explicit site roles (`member` is implicit and
     * ignored). The caller needs `assign` (and `unassign` to take roles away) on `assign_role`,
     * may only add or remove roles they could assign themselves, and cannot change their own.
     */
    const setRoles = (ref: string, wanted: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const actor = yield* CurrentActor
        const user = yield* resolveVisible(ref)
        if (user.id === actor.user.id) return yield* new BadRequest({ message: "You cannot change your own roles." })
        yield* authorize("assign", { type: "assign_role" })
        yield* refuseSystemUser(user)
        const next = [...new Set(wanted)].filter((role) => role !== "member")
        const unknown = next.filter((role) => !isSiteRole(role))
        if (unknown.length > 0) return yield* unknownRoles(unknown, "site")
        const { added, removed } = roleChanges(user.rbac_roles, next)
        if (removed.length > 0) yield* authorize("unassign", { type: "assign_role" })
        // Stored names that are no role grant nothing: anyone who may unassign may drop them.
        const deniedAdd = yield* rolesBeyondActor(added)
        const deniedRemove = yield* rolesBeyondActor(removed.filter((r) => roleDefinitions.has(r)))
        if (deniedAdd.length > 0 || deniedRemove.length > 0) return yield* rolesRefused(deniedAdd, deniedRemove)
        if (removed.includes("owner") && (yield* isLastActiveOwner(user))) {
          return yield* new Forbidden({ message: "The last active owner cannot lose the owner role." })
        }
        const updated = added.length === 0 && removed.length === 0
          ? user
          : yield* updateUser(user, { rbac_roles: next, updated_at: yield* now })
        yield* auditResource(userResource(user), { rbac_roles: user.rbac_roles }, { rbac_roles: updated.rbac_roles })
        return yield* withMemberships(updated)
      }).pipe(span("Users.setRoles"))

    /**
     * PUT /users/{user}/status/{suspend,activate}: needs `update` on the user. Nobody suspends
     * themselves or the last active owner, or changes the status of a user above them. A
     * suspended user's tokens answer 401 and their logins 403 until they are activated again.
     */
    const setStatus = (ref: string, status: UserStatus) =>
      Effect.gen(function*() {
        const actor = yield* CurrentActor
        const user = yield* resolveVisible(ref)
        if (status === "suspended" && user.id === actor.user.id) {
          return yield* new BadRequest({ message: "You cannot suspend yourself." })
        }
        yield* authorize("update", userObject(user))
        yield* refuseSystemUser(user)
        if (status === "suspended" && (yield* isLastActiveOwner(user))) {
          return yield* new Forbidden({ message: "The last active owner cannot be suspended." })
        }
        yield* refuseActingAbove(user, status === "suspended" ? "suspend" : "activate")
        const updated = user.status === status ? user : yield* updateUser(user, { status, updated_at: yield* now })
        yield* auditResource(userResource(user), { status: user.status }, { status: updated.status })
        if (user.status !== updated.status) {
          yield* events.publish(new UserStatusChanged({ user: updated, initiator: actor.user.username }))
        }
        return yield* withMemberships(updated)
      }).pipe(span("Users.setStatus"))

    /** GET /users/roles: the site roles, each marked with whether the caller may assign it. */
    const assignableRoles = Effect.gen(function*() {
      yield* authorize("read", { type: "assign_role" })
      const mayAssign = yield* allowed("assign", { type: "assign_role" })
      const beyond = yield* rolesBeyondActor(siteRoles.map((r) => r.name))
      return siteRoles.map((role) => toAssignableRole(role, "", mayAssign && !beyond.includes(role.name)))
    }).pipe(span("Users.assignableRoles"))

    return {
      resolve,
      resolveReadable,
      resolveVisible,
      resolvePersonal,
      setRoles,
      setStatus,
      assignableRoles,
      create,
      list,
      get: (ref: string) => Effect.flatMap(resolveReadable(ref), withMemberships).pipe(span("Users.get")),
      delete: remove,
      getAppearance,
      setAppearance,
      getPreferences,
      setPreferences,
      loginType,
      rolesOf,
      organizationIdsOf,
      updateProfile,
      updatePassword,
      getGitSshKey,
      regenerateGitSshKey,
      gitSshKeyRecord,
      getQuietHours,
      setQuietHours,
      hashNewPassword
    } as const
  })
}) {}
