/**
 * Authentication: turning a token into an actor, password login and logout,
 * the first user, one-time passcodes, login conversion, and API keys.
 */
import { Clock, Duration, Effect, Option } from "effect"
import type { Actor } from "../Actor.js"
import {
  allowed,
  authorize,
  authorizeRead,
  authorizeVisible,
  CurrentActor,
  refuseOAuth2AppCredential
} from "../Actor.js"
import { auditResource, auditUser } from "../Audit.js"
import {
  BadRequest,
  Conflict,
  Forbidden,
  NotFound,
  ResponseBody,
  RetryLater,
  Unauthorized,
  Validation
} from "../Errors.js"
import { Events } from "../Events.js"
import { PREBUILDS_USER_ID } from "../Identity.js"
import { IdGenerator } from "../Ids.js"
import { hashSecret, MailSender, PasswordHasher, randomString, sameHash } from "../Platform.js"
import { externalScopes, isScope, type TokenLimits, tokenWithin } from "../Rbac.js"
import { Transactions } from "../Repositories.js"
import { Settings } from "../Settings.js"
import { span } from "../Tracing.js"
import { AllowListEntry, type ApiKeyLoginType, type ApiKeyRecord, toApiKey, toApiKeyWithOwner } from "./ApiKey.js"
import { OneTimePasscodeRequested } from "./Events.js"
import { githubConfigured, oidcConfigured } from "./Links.js"
import { decideAttempt, loginThrottleKey, type LoginThrottleKind, LoginThrottleRepo } from "./LoginThrottle.js"
import { checkPassword } from "./Passwords.js"
import { ApiKeyRepo, LoginConversionRepo, type TokenFilter, UserMemberships, UserRepo } from "./Repositories.js"
import type {
  ChangePasswordWithPasscodeRequest,
  ConvertLoginRequest,
  CreateTokenRequest,
  FirstUserRequest,
  ListTokensQuery
} from "./Requests.js"
import { isReservedUsername, UserAppearance, type UserRecord } from "./User.js"
import { refuseSystemUser } from "./UserRef.js"
import { auditRevokedGrants, userObject, userResource, Users } from "./Users.js"

/** Key ids are 10 characters and secrets 22, joined by a hyphen. */
const KEY_ID_LENGTH = 10
const KEY_SECRET_LENGTH = 22

/** How stale `last_used` may get before a request records use again. */
const TOUCH_INTERVAL_MS = 60_000

export { externalScopes }

const unauthorized = (message: string, detail?: string) =>
  new Unauthorized(detail === undefined ? { message } : { message, detail })

/** Runs `effect` at most once per actor (per request) and replays its result; cheaper than Effect.cached. */
export const memo = <A>(effect: Effect.Effect<A>): Effect.Effect<A> => {
  let value: { readonly a: A } | undefined
  return Effect.suspend(() =>
    value !== undefined ? Effect.succeed(value.a) : Effect.tap(effect, (a) => Effect.sync(() => void (value = { a })))
  )
}

/** An actor's organization roles (`Actor.orgRoles`) from its memberships. */
export const rolesByOrganization = (
  memberships: ReadonlyArray<{ readonly organization_id: string; readonly roles: ReadonlyArray<string> }>
): ReadonlyMap<string, ReadonlyArray<string>> => new Map(memberships.map((m) => [m.organization_id, m.roles] as const))

/** Splits `<id>-<secret>`; undefined when the shape is wrong. */
export const parseApiKey = (token: string): { readonly id: string; readonly secret: string } | undefined => {
  const i = token.indexOf("-")
  if (i !== KEY_ID_LENGTH || token.length !== KEY_ID_LENGTH + 1 + KEY_SECRET_LENGTH) return undefined
  return { id: token.slice(0, i), secret: token.slice(i + 1) }
}

/**
 * How audit entries name an API key: by its owner's id, as the described system does
 * (`resource_id` is a UUID; key ids are not), and by a token name or username.
 */
export const apiKeyResource = (key: Pick<ApiKeyRecord, "user_id">, target: string) => ({
  type: "api_key",
  id: key.user_id,
  target
})

/** Nanoseconds, the unit of Go's time.Duration, which the described API uses on the wire for lifetimes. */
export const NANOS_PER_SECOND = 1_000_000_000

export class Auth extends Effect.Service<Auth>()("@workbay/core/Auth", {
  effect: Effect.gen(function*() {
    const users = yield* UserRepo
    const keys = yield* ApiKeyRepo
    const members = yield* UserMemberships
    const conversions = yield* LoginConversionRepo
    const throttle = yield* LoginThrottleRepo
    const tx = yield* Transactions
    const hasher = yield* PasswordHasher
    // An embedder's mail hook, when given; else the one-time passcode goes out through the notifier (smtp).
    const mail = yield* Effect.serviceOption(MailSender)
    const events = yield* Events
    const ids = yield* IdGenerator
    const settings = yield* Settings
    const userService = yield* Users
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    const orgRolesOf = (userId: string) => Effect.map(members.ofUser(userId), rolesByOrganization)

    /**
     * The actor of a key found for the token, or the 401 it is refused with; `touch` when its use
     * is to be recorded. Plain code, not a generator: every authenticated request runs it.
     */
    const checkKey = (
      found: Effect.Effect.Success<ReturnType<typeof keys.findWithUser>>,
      secret: string,
      at: number
    ): Unauthorized | { readonly actor: Actor; readonly key: ApiKeyRecord; readonly touch: boolean } => {
      if (Option.isNone(found) || !sameHash(found.value.key.hashed_secret, hashSecret(secret))) {
        return unauthorized("Invalid API key.", "The API key is unknown or its secret does not match.")
      }
      const { key, memberships, user } = found.value
      if (key.expires_at.getTime() <= at) {
        return unauthorized("API key expired.", `The API key expired at ${key.expires_at.toISOString()}.`)
      }
      if (user.deleted) return unauthorized("The user of this API key has been deleted.")
      if (user.id === PREBUILDS_USER_ID) return unauthorized("System users cannot sign in.")
      if (user.status !== "active") {
        return unauthorized(
          `User is not active (status = "${user.status}"). Contact an admin to reactivate your account.`
        )
      }
      // Memberships read with the key (one round trip on Postgres) are as fresh as the key itself.
      const orgRoles = memberships === undefined
        ? memo(orgRolesOf(user.id))
        : Effect.succeed(rolesByOrganization(memberships))
      return {
        actor: {
          user,
          apiKey: key,
          orgRoles,
          groupIds: memo(Effect.suspend(() => members.groupIdsOf(user.id))),
          customRoles: memo(Effect.flatMap(orgRoles, (roles) => members.customRoles(roles)))
        },
        key,
        touch: at - key.last_used.getTime() > TOUCH_INTERVAL_MS
      }
    }

    /** Records a key's use (at most once a minute); sessions slide: each pushes expiry a full session out. */
    const touch = (key: ApiKeyRecord, at: number) => {
      const isSession = key.login_type !== "token" && key.login_type !== "oauth2_provider_app"
      const expiresAt = isSession && !settings.disableSessionExpiryRefresh
        ? new Date(Math.max(key.expires_at.getTime(), at + Duration.toMillis(settings.sessionDuration)))
        : key.expires_at
      return keys.touch(key.id, new Date(at), expiresAt)
    }

    /** Turns a presented token into an actor, or fails with 401. */
    const authenticate = (token: string): Effect.Effect<Actor, Unauthorized> => {
      const parsed = parseApiKey(token)
      if (parsed === undefined) {
        return Effect.fail(unauthorized("Invalid API key format.", "API keys have the form <id>-<secret>."))
      }
      return Effect.flatMap(keys.findWithUser(parsed.id), (found) =>
        Effect.clockWith((clock) => {
          const at = clock.unsafeCurrentTimeMillis()
          const checked = checkKey(found, parsed.secret, at)
          if (checked instanceof Unauthorized) return Effect.fail(checked)
          return checked.touch ? Effect.as(touch(checked.key, at), checked.actor) : Effect.succeed(checked.actor)
        })).pipe(span("Auth.authenticate"))
    }

    const insertKey = (
      userId: string,
      loginType: ApiKeyLoginType,
      lifetimeMs: number,
      extra: Partial<ApiKeyRecord> = {}
    ) =>
      Effect.gen(function*() {
        const at = yield* now
        const id = randomString(KEY_ID_LENGTH)
        const secret = randomString(KEY_SECRET_LENGTH)
        const record: ApiKeyRecord = {
          id,
          hashed_secret: hashSecret(secret),
          user_id: userId,
          login_type: loginType,
          token_name: "",
          scopes: ["all"],
          allow_list: [new AllowListEntry({ type: "*", id: "*" })],
          lifetime_seconds: Math.floor(lifetimeMs / 1000),
          created_at: at,
          updated_at: at,
          expires_at: new Date(at.getTime() + lifetimeMs),
          last_used: at,
          ...extra
        }
        yield* keys.insert(record)
        return { record, key: `${id}-${secret}` }
      })

    const passwordAuthDisabled = () =>
      new Forbidden({ message: "Password authentication is disabled on this deployment." })

    const createSession = (userId: string) => insertKey(userId, "password", Duration.toMillis(settings.sessionDuration))

    /**
     * Runs `check` (which verifies a secret for `email`) under the account's throttle: refused with
     * 429 during a back-off without running it; otherwise counted as a failure first and forgotten
     * when `check` succeeds (LoginThrottle.ts).
     */
    const throttled = <A, E, R>(kind: LoginThrottleKind, email: string, check: Effect.Effect<A, E, R>) =>
      Effect.gen(function*() {
        const key = loginThrottleKey(kind, email)
        const at = yield* now
        const decision = yield* throttle.attempt(key, (current) => decideAttempt(current, at))
        if (decision._tag === "Refused") {
          const seconds = Math.max(1, Math.ceil((decision.until.getTime() - at.getTime()) / 1000))
          return yield* new RetryLater({
            message: kind === "password"
              ? "Too many failed sign-in attempts for this account. Try again later."
              : "Too many failed one-time passcode attempts for this account. Try again later.",
            detail: `Try again in ${seconds} second${seconds === 1 ? "" : "s"}.`
          }, seconds)
        }
        const result = yield* check
        yield* throttle.clear(key)
        return result
      })

    /** The user whose password `password` is, or 401 (the same for an unknown email). */
    const checkLogin = (email: string, password: string) =>
      Effect.gen(function*() {
        const found = yield* users.findByEmail(email)
        const user = Option.getOrUndefined(found)
        // Hash even when the user is unknown so response time does not reveal which emails exist.
        const ok = user?.hashed_password
          ? yield* hasher.verify(password, user.hashed_password)
          : yield* Effect.as(hasher.hash(password), false)
        if (user !== undefined) yield* auditUser(user.id)
        if (user === undefined || !ok) return yield* unauthorized("Incorrect email or password.")
        return user
      })

    const login = (email: string, password: string) =>
      Effect.gen(function*() {
        const user = yield* throttled("password", email, checkLogin(email, password))
        if (settings.disablePasswordAuth) return yield* passwordAuthDisabled()
        if (user.login_type !== "password") {
          return yield* new Forbidden({
            message:
              `Incorrect login type, attempting to use "password" but user is of login type "${user.login_type}".`
          })
        }
        if (user.status !== "active") {
          return yield* new Forbidden({
            message: "Your account is suspended. Contact an admin to reactivate your account."
          })
        }
        const session = yield* createSession(user.id).pipe(Effect.orDie)
        yield* auditResource(apiKeyResource(session.record, user.username), undefined, session.record)
        yield* users.update(user.id, { last_seen_at: yield* now }).pipe(Effect.orDie)
        return { session_token: session.key, expires_at: session.record.expires_at }
      }).pipe(span("Auth.login"))

    const logout = Effect.gen(function*() {
      const actor = yield* CurrentActor
      yield* keys.delete(actor.apiKey.id)
      yield* auditResource(apiKeyResource(actor.apiKey, actor.user.username), actor.apiKey)
      return new ResponseBody({ message: "Logged out!" }, true)
    }).pipe(span("Auth.logout"))

    const hasFirstUser = Effect.map(users.count, (n) => n > 0)

    const firstUserStatus = Effect.flatMap(hasFirstUser, (exists) =>
      exists
        ? Effect.succeed(new ResponseBody({ message: "The initial user has already been created!" }, true))
        : Effect.fail(new NotFound({ message: "The initial user has not been created!" })))

    const createFirstUser = (input: typeof FirstUserRequest.Type) =>
      Effect.gen(function*() {
        if (yield* hasFirstUser) return yield* new Conflict({ message: "The initial user has already been created." })
        if (isReservedUsername(input.username)) {
          return yield* BadRequest.field("username", "This username is reserved.", "Validation failed.")
        }
        const hashed = yield* userService.hashNewPassword(input.password)
        const at = yield* now
        const userId = yield* ids.uuid
        const orgId = yield* ids.uuid
        const user: UserRecord = {
          id: userId,
          email: input.email,
          username: input.username,
          name: input.name ?? "",
          avatar_url: "",
          login_type: "password",
          status: "active",
          rbac_roles: ["owner"],
          is_service_account: false,
          hashed_password: hashed,
          created_at: at,
          updated_at: at,
          last_seen_at: at,
          deleted: false,
          appearance: UserAppearance.defaults,
          quiet_hours_schedule: "",
          hashed_one_time_passcode: null,
          one_time_passcode_expires_at: null
        }
        return yield* tx.atomic(Effect.gen(function*() {
          // Checked again inside the transaction: two racing first-user requests create one owner.
          if (yield* hasFirstUser) return yield* new Conflict({ message: "The initial user has already been created." })
          const organizationId = yield* members.ensureDefaultOrganization(orgId, at)
          yield* users.insert(user)
          yield* members.insert({
            organization_id: organizationId,
            user_id: userId,
            roles: [],
            created_at: at,
            updated_at: at
          })
          yield* auditUser(userId)
          yield* auditResource(userResource(user), undefined, user)
          return organizationId
        })).pipe(
          Effect.catchTag("UniqueViolation", () =>
            Effect.fail(new Conflict({ message: "The initial user has already been created." }))),
          Effect.map((organizationId) => ({ organization_id: organizationId, user_id: userId }))
        )
      }).pipe(span("Auth.createFirstUser"))

    const requestOneTimePasscode = (email: string) =>
      Effect.gen(function*() {
        if (settings.disablePasswordAuth) return yield* passwordAuthDisabled()
        const found = yield* users.findByEmail(email)
        const passcode = crypto.randomUUID()
        // Always succeed, and hash either way: neither the answer nor its timing may reveal whether an account exists.
        if (Option.isNone(found) || found.value.login_type !== "password" || found.value.status !== "active") {
          return yield* Effect.asVoid(hasher.hash(passcode))
        }
        const at = yield* now
        yield* auditUser(found.value.id)
        yield* auditResource(userResource(found.value))
        yield* users.update(found.value.id, {
          hashed_one_time_passcode: yield* hasher.hash(passcode),
          one_time_passcode_expires_at: new Date(at.getTime() + Duration.toMillis(settings.oneTimePasscodeLifetime)),
          updated_at: at
        }).pipe(Effect.orDie)
        const expiresIn = Duration.format(settings.oneTimePasscodeLifetime)
        if (Option.isSome(mail)) {
          yield* mail.value.send({
            to: found.value.email,
            subject: "Your one-time passcode",
            body: `Use this one-time passcode to reset your password: ${passcode}\nIt expires in ${expiresIn}.`
          })
        } else {
          yield* events.publish(
            new OneTimePasscodeRequested({ userId: found.value.id, passcode, expiresIn })
          )
        }
      }).pipe(span("Auth.requestOneTimePasscode"))

    /** The user whose unexpired one-time passcode `passcode` is, or 401 (the same for an unknown email). */
    const checkPasscode = (email: string, passcode: string) =>
      Effect.gen(function*() {
        const found = yield* users.findByEmail(email)
        const user = Option.getOrUndefined(found)
        const at = yield* now
        const hashedPasscode = user?.hashed_one_time_passcode ?? null
        // Verify even without a stored passcode so timing does not reveal which accounts have one.
        const matches = hashedPasscode !== null
          ? yield* hasher.verify(passcode, hashedPasscode)
          : yield* Effect.as(hasher.hash(passcode), false)
        const valid = matches && user?.one_time_passcode_expires_at != null &&
          user.one_time_passcode_expires_at.getTime() > at.getTime()
        if (user !== undefined) yield* auditUser(user.id)
        if (!valid || user === undefined) return yield* unauthorized("Incorrect email or one-time passcode.")
        return user
      })

    const changePasswordWithPasscode = (input: typeof ChangePasswordWithPasscodeRequest.Type) =>
      Effect.gen(function*() {
        if (settings.disablePasswordAuth) return yield* passwordAuthDisabled()
        const user = yield* throttled("otp", input.email, checkPasscode(input.email, input.one_time_passcode))
        const at = yield* now
        if (user.hashed_password !== null && (yield* hasher.verify(input.password, user.hashed_password))) {
          return yield* BadRequest.field(
            "password",
            "The new password must differ from the old one.",
            "New password cannot match old password."
          )
        }
        const hashed = yield* userService.hashNewPassword(input.password)
        const revoked = yield* tx.atomic(Effect.gen(function*() {
          yield* users.update(user.id, {
            hashed_password: hashed,
            hashed_one_time_passcode: null,
            one_time_passcode_expires_at: null,
            updated_at: at
          }).pipe(Effect.orDie)
          // A reset password ends every existing session and token, OAuth2 grants included.
          return yield* keys.deleteByUser(user.id)
        }))
        yield* auditResource(userResource(user), { hashed_password: user.hashed_password }, { hashed_password: hashed })
        yield* auditRevokedGrants(revoked)
      }).pipe(span("Auth.changePasswordWithPasscode"))

    const convertLogin = (ref: string, input: typeof ConvertLoginRequest.Type) =>
      Effect.gen(function*() {
        const actor = yield* CurrentActor
        const user = yield* userService.resolveVisible(ref)
        if (user.id !== actor.user.id) {
          return yield* new Forbidden({ message: "You can only convert your own login type." })
        }
        yield* authorize("update_personal", userObject(user))
        if (input.to_type !== "github" && input.to_type !== "oidc") {
          return yield* BadRequest.field(
            "to_type",
            `Cannot convert to login type "${input.to_type}"; use github or oidc.`,
            "Invalid login type."
          )
        }
        if (user.login_type !== "password" || !user.hashed_password) {
          return yield* new BadRequest({
            message: "Only accounts with password authentication can be converted to another login type."
          })
        }
        // A wrong password is a failed login (401), as in the described system.
        if (!(yield* hasher.verify(input.password, user.hashed_password))) {
          return yield* unauthorized("Incorrect password.", "The password does not match this account.")
        }
        const at = yield* now
        const record = {
          // The prefix tells the provider's callback that this sign-in converts an account.
          state_string: `convert-${randomString(32)}`,
          user_id: user.id,
          to_type: input.to_type,
          expires_at: new Date(at.getTime() + 5 * 60_000),
          created_at: at
        }
        yield* conversions.insert(record)
        yield* auditResource(userResource(user), { login_type: user.login_type }, { login_type: input.to_type })
        return record
      }).pipe(span("Auth.convertLogin"))

    const isOwner = (u: UserRecord) => u.rbac_roles.includes("owner")
    const maxLifetimeFor = (u: UserRecord) => isOwner(u) ? settings.maxAdminTokenLifetime : settings.maxTokenLifetime

    /** Fails with 403 unless a key with `limits` could do nothing the caller's own key cannot. */
    const withinCallerKey = (limits: TokenLimits) =>
      Effect.flatMap(
        CurrentActor,
        (actor) =>
          tokenWithin(limits, { scopes: actor.apiKey.scopes, allowList: actor.apiKey.allow_list })
            ? Effect.void
            : Effect.fail(
              new Forbidden({
                message: "Forbidden.",
                detail:
                  "The API token's scopes or allow-list do not cover this action: a token can only create keys within its own scopes and allow-list."
              })
            )
      )

    const createSessionKey = (ref: string) =>
      Effect.gen(function*() {
        const user = yield* userService.resolveVisible(ref)
        yield* authorize("create", { type: "api_key", ownerId: user.id })
        yield* refuseSystemUser(user)
        yield* refuseOAuth2AppCredential("API keys")
        // A session key has no limits: only a caller whose own key has none may make one.
        yield* withinCallerKey({ scopes: ["all"], allowList: [] })
        const session = yield* createSession(user.id).pipe(Effect.orDie)
        yield* auditResource(apiKeyResource(session.record, user.username), undefined, session.record)
        return { key: session.key }
      }).pipe(span("Auth.createSessionKey"))

    /** `lifetime` is in nanoseconds; 0 or absent takes the default lifetime. */
    const createToken = (ref: string, input: typeof CreateTokenRequest.Type) =>
      Effect.gen(function*() {
        const user = yield* userService.resolveVisible(ref)
        yield* authorize("create", { type: "api_key", ownerId: user.id })
        yield* refuseSystemUser(user)
        yield* refuseOAuth2AppCredential("API tokens")
        const problems: Array<Validation> = []
        const max = maxLifetimeFor(user)
        const lifetimeNs = input.lifetime ?? 0
        if (lifetimeNs < 0) {
          problems.push(new Validation({ field: "lifetime", detail: "Lifetime must not be negative." }))
        }
        const lifetimeMs = lifetimeNs > 0 ? lifetimeNs / 1e6 : Duration.toMillis(settings.defaultTokenLifetime)
        if (lifetimeMs > Duration.toMillis(max)) {
          problems.push(
            new Validation({ field: "lifetime", detail: `Lifetime must be at most ${Duration.format(max)}.` })
          )
        }
        if (lifetimeNs > 0 && lifetimeMs < 1000) {
          problems.push(new Validation({ field: "lifetime", detail: "Lifetime must be at least one second." }))
        }
        // An empty `scope` is not given, as in the described system: the key gets `all`.
        const scopes = input.scopes && input.scopes.length > 0 ? [...new Set(input.scopes)] : [input.scope || "all"]
        const unknownScopes = scopes.filter((s) => !isScope(s))
        if (unknownScopes.length > 0) {
          problems.push(
            new Validation({
              field: input.scopes && input.scopes.length > 0 ? "scopes" : "scope",
              detail: `${unknownScopes.map((s) => `"${s}"`).join(", ")} ${
                unknownScopes.length === 1 ? "is not a known scope" : "are not known scopes"
              }; use all, application_connect or <resource>:<action> (see GET /auth/scopes).`
            })
          )
        }
        if (problems.length > 0) return yield* new BadRequest({ message: "Validation failed.", validations: problems })
        yield* withinCallerKey({ scopes, allowList: input.allow_list ?? [] })
        const tokenName = input.token_name && input.token_name !== ""
          ? input.token_name
          : `token-${randomString(8).toLowerCase()}`
        const duplicateName = () =>
          new Conflict({
            message: `A token with name "${tokenName}" already exists.`,
            validations: [new Validation({ field: "token_name", detail: "This name is in use." })]
          })
        const existing = yield* keys.findByName(user.id, tokenName)
        if (Option.isSome(existing)) return yield* duplicateName()
        const created = yield* insertKey(user.id, "token", lifetimeMs, {
          token_name: tokenName,
          scopes,
          // Ids are compared as the routes name objects: lower-case UUIDs.
          allow_list: input.allow_list && input.allow_list.length > 0
            ? input.allow_list.map((e) => new AllowListEntry({ type: e.type, id: e.id.toLowerCase() }))
            : [new AllowListEntry({ type: "*", id: "*" })]
        }).pipe(Effect.catchTag("UniqueViolation", () => Effect.fail(duplicateName())))
        yield* auditResource(apiKeyResource(created.record, tokenName), undefined, created.record)
        return { key: created.key }
      }).pipe(span("Auth.createToken"))

    /** The user `{user}` names, when the caller's roles let them see that user's keys (else 404). */
    const keyOwner = (ref: string) =>
      Effect.tap(
        userService.resolveVisible(ref),
        (user) => authorizeVisible("User", { type: "api_key", ownerId: user.id })
      )

    /** The user `{user}` names, when the caller may read that user's keys (404 by roles, 403 by token). */
    const readableKeysOf = (ref: string) =>
      Effect.tap(
        userService.resolveVisible(ref),
        (user) => authorizeRead("User", { type: "api_key", ownerId: user.id })
      )

    /**
     * The tokens of `{user}`, each with its owner's username (expired ones too with
     * `include_expired`). With `include_all`, as in the described system, every user's tokens
     * instead, filtered to those the caller may read (an owner sees all; a member only their own).
     * `{user}` is checked either way. Only a caller who may read any user's keys walks every
     * token: for anyone else `include_all` can only find keys `{user}`'s own list already holds,
     * and that list costs the same however many tokens the deployment has.
     */
    const listTokens = (ref: string, query: typeof ListTokensQuery.Type) => {
      /** `{user}`'s own tokens: the list of a caller who does not ask for all, or may not read them. */
      const own = (user: UserRecord, filter: TokenFilter) =>
        Effect.map(
          keys.list({ userId: user.id, tokensOnly: true, ...filter }),
          (list) => list.map((k) => toApiKeyWithOwner(k, user.username))
        )
      const everyone = (user: UserRecord, filter: TokenFilter) =>
        Effect.flatMap(
          allowed("read", { type: "api_key" }),
          (mayReadAll) =>
            !mayReadAll ? own(user, filter) : keys.listAllTokens(filter).pipe(
              Effect.flatMap((all) =>
                Effect.filter(all, ({ key }) => allowed("read", { type: "api_key", id: key.id, ownerId: key.user_id }))
              ),
              Effect.map((readable) => readable.map(({ key, username }) => toApiKeyWithOwner(key, username)))
            )
        )
      // Plain combinators, not a generator: the tokens page reads this at every visit.
      return Effect.flatMap(readableKeysOf(ref), (user) =>
        Effect.clockWith((clock) => {
          const filter = {
            includeExpired: query.include_expired ?? false,
            now: new Date(clock.unsafeCurrentTimeMillis())
          }
          return query.include_all ?? false ? everyone(user, filter) : own(user, filter)
        })).pipe(span("Auth.listTokens"))
    }

    const findKey = (userId: string, idOrName: string) =>
      Effect.flatMap(keys.findByName(userId, idOrName), (byName) =>
        Option.isSome(byName)
          ? Effect.succeed(byName)
          : Effect.map(keys.findById(idOrName), Option.filter((k) => k.user_id === userId)))

    const getToken = (ref: string, idOrName: string) =>
      Effect.gen(function*() {
        const user = yield* keyOwner(ref)
        const key = yield* findKey(user.id, idOrName)
        if (Option.isNone(key)) return yield* NotFound.resource("API key")
        yield* authorizeRead("API key", { type: "api_key", id: key.value.id, ownerId: user.id })
        return toApiKey(key.value)
      })

    const deleteKey = (ref: string, idOrName: string) =>
      Effect.gen(function*() {
        const user = yield* keyOwner(ref)
        const key = yield* findKey(user.id, idOrName)
        if (Option.isNone(key)) return yield* NotFound.resource("API key")
        yield* authorize("delete", { type: "api_key", id: key.value.id, ownerId: user.id })
        yield* keys.delete(key.value.id)
        yield* auditResource(apiKeyResource(key.value, key.value.token_name || user.username), key.value)
      }).pipe(span("Auth.deleteKey"))

    /**
     * PUT /users/{user}/keys/{keyid}/expire: the key stops working now and stays listed (with
     * `include_expired`) until retention removes it. A key that already expired keeps its expiry.
     */
    const expireKey = (ref: string, keyId: string) =>
      Effect.gen(function*() {
        const user = yield* keyOwner(ref)
        const key = yield* findKey(user.id, keyId)
        if (Option.isNone(key)) return yield* NotFound.resource("API key")
        yield* authorize("update", { type: "api_key", id: key.value.id, ownerId: user.id })
        const after = yield* keys.expire(key.value.id, yield* now)
        if (Option.isNone(after)) return yield* NotFound.resource("API key")
        yield* auditResource(apiKeyResource(key.value, key.value.token_name || user.username), key.value, after.value)
      }).pipe(span("Auth.expireKey"))

    const tokenConfig = (ref: string) =>
      Effect.map(readableKeysOf(ref), (user) => ({
        max_token_lifetime: Duration.toMillis(maxLifetimeFor(user)) * 1e6
      }))

    return {
      authenticate,
      login,
      logout,
      firstUserStatus,
      createFirstUser,
      requestOneTimePasscode,
      changePasswordWithPasscode,
      convertLogin,
      createSessionKey,
      createToken,
      listTokens,
      getToken,
      deleteKey,
      expireKey,
      tokenConfig,
      /** A session for a user an outside provider signed in (docs/sign-in.md). */
      signInSession: (userId: string, loginType: "github" | "oidc") =>
        insertKey(userId, loginType, Duration.toMillis(settings.sessionDuration)).pipe(Effect.orDie),
      validatePassword: (password: string) => Effect.succeed(checkPassword(password)),
      authMethods: Effect.succeed({
        // Enabled when configured; the described system's default GitHub app is not available here.
        github: { default_provider_configured: false, enabled: githubConfigured(settings) },
        oidc: oidcConfigured(settings)
          ? { enabled: true, iconUrl: settings.oidcIconUrl, signInText: settings.oidcSignInText }
          : { enabled: false, iconUrl: "", signInText: "" },
        password: { enabled: !settings.disablePasswordAuth },
        // Absent unless configured, as in the described system.
        ...(settings.termsOfServiceUrl !== "" ? { terms_of_service_url: settings.termsOfServiceUrl } : {})
      })
    } as const
  }),
  dependencies: [Users.Default]
}) {}
