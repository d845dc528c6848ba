/**
 * Sign-in through an outside provider, after the provider has vouched for an identity: find
 * the linked user (by link, then by email), convert a password account when the sign-in carries
 * a conversion's state, create the user when signups allow it, keep the link, sync groups and
 * site roles, and open a session. Shared by GitHub and OpenID Connect (docs/sign-in.md).
 */
import { Clock, Duration, Effect, Option, Schema } from "effect"
import { auditAction, auditAdditional, auditAlso, auditResource, auditUser } from "../Audit.js"
import { BadRequest, Conflict, Forbidden, Unauthorized } from "../Errors.js"
import { IdGenerator } from "../Ids.js"
import { Organization } from "../organizations/Organization.js"
import { MemberRepo, OrganizationRepo } from "../organizations/Repositories.js"
import { randomString } from "../Platform.js"
import { isSiteRole } from "../Rbac.js"
import { Transactions } from "../Repositories.js"
import { Settings } from "../Settings.js"
import { span } from "../Tracing.js"
import { apiKeyResource, Auth } from "../users/Auth.js"
import { emptyClaims, type LinkLoginType, type UserLinkClaims, UserLinkRepo } from "../users/Links.js"
import { LoginConversionRepo, UserRepo } from "../users/Repositories.js"
import type { CallbackQuery } from "../users/Requests.js"
import { isReservedUsername, UserAppearance, usernamePattern, type UserRecord } from "../users/User.js"
import { userResource } from "../users/Users.js"
import { omitEmpty } from "../Wire.js"
import { IdpSync } from "./IdpSync.js"
import { seenClaims } from "./IdpSyncSettings.js"

/** 502: the sign-in provider could not be reached or answered in a way sign-in cannot use. */
export { ProviderUnavailable } from "../Errors.js"

/** Cookies of the sign-in flows (the described system's names where it has them). */
export const SignInCookies = {
  state: "oauth_state",
  redirect: "oauth_redirect",
  verifier: "oauth_pkce_verifier",
  nonce: "oidc_nonce",
  convert: "oauth_convert_state"
} as const

/** How long the flow's cookies live: long enough to sign in at the provider. */
export const FLOW_COOKIE_SECONDS = 60 * 60

/**
 * The query of a provider's callback, and the cookies the browser sent with it. The query is
 * the route's schema type; `cookie` is not part of the query but the flow checks its state
 * against a cookie, so the handler adds the request's cookie reader.
 */
export type CallbackInput = typeof CallbackQuery.Type & { readonly cookie: (name: string) => string | undefined }

export interface CallbackCookie {
  readonly name: string
  readonly value: string
  readonly maxAgeSeconds: number
}

/** What a callback answers: a redirect (307) or, in GitHub's device flow, where to go (200). */
export interface CallbackAnswer {
  readonly status: 200 | 307
  readonly location: string
  readonly cookies: ReadonlyArray<CallbackCookie>
  readonly session?: { readonly token: string; readonly expires_at: Date } | undefined
}

/** GET /users/authmethods: how one may sign in to this deployment. */
export class AuthMethods extends Schema.Class<AuthMethods>("AuthMethods")({
  github: Schema.Struct({ default_provider_configured: Schema.Boolean, enabled: Schema.Boolean }),
  oidc: Schema.Struct({ enabled: Schema.Boolean, iconUrl: Schema.String, signInText: Schema.String }),
  password: Schema.Struct({ enabled: Schema.Boolean }),
  /** Absent unless a terms of service URL is configured. */
  terms_of_service_url: omitEmpty(Schema.String)
}) {}

/** POST /users/{user}/convert-login: the state the provider's sign-in must carry to convert the account. */
export class ConvertLoginResponse extends Schema.Class<ConvertLoginResponse>("OAuthConversionResponse")({
  expires_at: Schema.Date,
  state_string: Schema.String,
  to_type: Schema.String,
  user_id: Schema.UUID
}) {}

/** A callback's answer in GitHub's device flow: where the browser goes next. */
export class DeviceFlowCallbackResponse
  extends Schema.Class<DeviceFlowCallbackResponse>("OAuth2DeviceFlowCallbackResponse")({
    redirect_url: Schema.String
  })
{}

/** GET /users/oauth2/github/device: the code the user enters at GitHub. */
export class GithubDeviceResponse extends Schema.Class<GithubDeviceResponse>("ExternalAuthDevice")({
  device_code: Schema.String,
  expires_in: Schema.Int,
  interval: Schema.Int,
  user_code: Schema.String,
  verification_uri: Schema.String
}) {}

/** GET /users/oidc-claims: the caller's claims from their last OpenID Connect sign-in. */
export class OidcClaimsResponse extends Schema.Class<OidcClaimsResponse>("OIDCClaimsResponse")({
  claims: Schema.Record({ key: Schema.String, value: Schema.Unknown })
}) {}

/** Only the path and query of a redirect target, so a sign-in never sends the browser to another site. */
export const safeRedirect = (redirect: string | undefined): string => {
  if (redirect === undefined || redirect === "") return "/"
  try {
    const url = new URL(redirect, "http://workbay.invalid")
    const path = url.pathname + url.search
    return path.startsWith("/") && !path.startsWith("//") ? path : "/"
  } catch {
    return "/"
  }
}

/** The cookies that start a flow: its state and where to go afterwards. */
export const startCookies = (state: string, redirect: string | undefined): Array<CallbackCookie> => [
  { name: SignInCookies.state, value: state, maxAgeSeconds: FLOW_COOKIE_SECONDS },
  { name: SignInCookies.redirect, value: safeRedirect(redirect), maxAgeSeconds: FLOW_COOKIE_SECONDS }
]

/** The cookies a finished flow clears. */
export const clearedCookies = (names: ReadonlyArray<string>): Array<CallbackCookie> =>
  names.map((name) => ({ name, value: "", maxAgeSeconds: 0 }))

/** The state of a flow to start: a conversion's state when the caller converts an account, else a fresh one. */
export const flowState = (input: CallbackInput) =>
  input.oidc_merge_state !== undefined && input.oidc_merge_state !== ""
    ? input.oidc_merge_state
    : `s${randomString(32)}`

/** Checks a callback's state against the cookie that started its flow (400 without one, 401 when they differ). */
export const checkState = (input: CallbackInput) =>
  Effect.gen(function*() {
    if (input.error !== undefined && input.error !== "") {
      return yield* new BadRequest({
        message: `The provider refused the sign-in: ${input.error}.`,
        ...(input.error_description ? { detail: input.error_description } : {})
      })
    }
    if (input.state === undefined || input.state === "") {
      return yield* BadRequest.field("state", "The state is required with a code.", "State must be provided.")
    }
    const cookie = input.cookie(SignInCookies.state)
    if (cookie === undefined || cookie === "") {
      return yield* new Unauthorized({ message: `Cookie "${SignInCookies.state}" must be provided.` })
    }
    if (cookie !== input.state) return yield* new Unauthorized({ message: "State mismatched." })
    return input.state
  })

/** Conversion state strings start with this, so a callback knows a sign-in converts an account. */
export const CONVERT_STATE_PREFIX = "convert-"

/** An identity a provider vouched for, with what the deployment's settings make of it. */
export interface ExternalIdentity {
  readonly loginType: LinkLoginType
  readonly linkedId: string
  readonly email: string
  /** The wanted username (made valid and unique when the user is created). */
  readonly username: string
  readonly name: string
  readonly avatarUrl: string
  readonly allowSignups: boolean
  readonly signupsDisabledText?: string | undefined
  readonly claims?: UserLinkClaims | undefined
  /**
   * The merged claims IdP sync reads (organizations, groups, organization roles: `IdpSync`);
   * undefined for providers without IdP sync (GitHub).
   */
  readonly syncClaims?: Readonly<Record<string, unknown>> | undefined
  /** Site roles the user holds; undefined when role sync is off. */
  readonly siteRoles?: ReadonlyArray<string> | undefined
  /** The state of the flow: a conversion's state string when it converts a password account. */
  readonly state: string
  /** The conversion cookie the browser sent with the callback. */
  readonly convertCookie?: string | undefined
}

/** A username from any text, as the described system derives one: lower case, hyphens between words, 32 at most. */
export const usernameFrom = (text: string): string => {
  const base = (text.includes("@") ? text.slice(0, text.indexOf("@")) : text)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 32)
    .replace(/-+$/, "")
  return usernamePattern.test(base) && !isReservedUsername(base)
    ? base
    : `user-${randomString(6).toLowerCase().replace(/[^a-z0-9]/g, "x")}`
}

/** A name for display: trimmed, at most 128 characters. */
const normalizeName = (name: string) => name.trim().slice(0, 128)

export class SignIn extends Effect.Service<SignIn>()("@workbay/core/SignIn", {
  effect: Effect.gen(function*() {
    const users = yield* UserRepo
    const links = yield* UserLinkRepo
    const conversions = yield* LoginConversionRepo
    const members = yield* MemberRepo
    const orgs = yield* OrganizationRepo
    const tx = yield* Transactions
    const ids = yield* IdGenerator
    const settings = yield* Settings
    const auth = yield* Auth
    const idpSync = yield* IdpSync
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    /** The password account a conversion's state names, checked against the cookie the browser holds. */
    const conversionTarget = (identity: ExternalIdentity) =>
      Effect.gen(function*() {
        if (identity.convertCookie === undefined || identity.convertCookie !== identity.state) {
          return yield* new BadRequest({
            message: "The login type conversion state does not match this browser.",
            detail: "Start the conversion again with POST /users/{user}/convert-login from this browser."
          })
        }
        const found = yield* conversions.findByState(identity.state)
        const at = yield* now
        if (Option.isNone(found) || found.value.expires_at.getTime() <= at.getTime()) {
          return yield* new BadRequest({
            message: "The login type conversion is unknown or has expired. Start it again."
          })
        }
        const conversion = found.value
        if (conversion.to_type !== identity.loginType) {
          return yield* new BadRequest({
            message:
              `The login type conversion is to "${conversion.to_type}", but this sign-in is through "${identity.loginType}".`
          })
        }
        const user = yield* users.findById(conversion.user_id)
        if (Option.isNone(user) || user.value.deleted || user.value.login_type !== "password") {
          return yield* new BadRequest({
            message: "Only accounts with password authentication can be converted to another login type."
          })
        }
        return { conversion, user: user.value }
      })

    /**
     * The user the identity signs in as: by its link, else by its email. A link left by a deleted
     * user is removed, so the identity can sign up (or link) again.
     */
    const linkedUser = (identity: ExternalIdentity) =>
      Effect.gen(function*() {
        const link = yield* links.findByLinkedId(identity.loginType, identity.linkedId)
        if (Option.isSome(link)) {
          const user = yield* users.findById(link.value.user_id)
          if (Option.isSome(user) && !user.value.deleted) return Option.some(user.value)
          yield* links.remove(link.value.user_id, identity.loginType)
        }
        return yield* users.findByEmail(identity.email)
      })

    /** A free username close to `wanted`. */
    const freeUsername = (wanted: string) =>
      Effect.gen(function*() {
        let candidate = usernameFrom(wanted)
        for (let i = 0; i < 10; i++) {
          if (Option.isNone(yield* users.findByUsername(candidate))) return candidate
          const suffix = randomString(4).toLowerCase().replace(/[^a-z0-9]/g, "x")
          candidate = `${candidate.slice(0, 27).replace(/-+$/, "")}-${suffix}`
        }
        return yield* new Conflict({ message: `Exhausted alternatives for the taken username "${wanted}".` })
      })

    /** The default organization, created as the first user's sign-up would (no organization yet). */
    const defaultOrganization = Effect.gen(function*() {
      const found = yield* orgs.findDefault
      if (Option.isSome(found)) return found.value.id
      const at = yield* now
      const id = yield* ids.uuid
      yield* orgs.insert(
        new Organization({
          id,
          name: "coder",
          display_name: "Coder",
          description: "Builtin default organization.",
          icon: "",
          is_default: true,
          created_at: at,
          updated_at: at
        })
      )
      return id
    })

    /**
     * Signs the identity in: the user it is linked to (or converts, or creates), a session for
     * them, and the audit entries (login or register; user creation and conversion beside it).
     */
    const complete = (identity: ExternalIdentity) =>
      Effect.gen(function*() {
        const converting = identity.state.startsWith(CONVERT_STATE_PREFIX)
        let user: UserRecord | undefined
        let created = false
        let converted: { readonly from: UserRecord; readonly state: string } | undefined
        if (converting) {
          const target = yield* conversionTarget(identity)
          const other = yield* linkedUser(identity)
          if (Option.isSome(other) && other.value.id !== target.user.id) {
            return yield* new Forbidden({
              message:
                `This ${identity.loginType} identity belongs to another account; it cannot be linked to "${target.user.username}".`
            })
          }
          user = target.user
          converted = { from: target.user, state: target.conversion.state_string }
        } else {
          user = Option.getOrUndefined(yield* linkedUser(identity))
        }
        if (user === undefined) {
          const count = yield* users.count
          // The very first user may sign up whatever the setting, as in the described system.
          if (count > 0 && !identity.allowSignups) {
            return yield* new Forbidden({
              message: "Signups are disabled.",
              detail: identity.signupsDisabledText || "Please contact your administrator to request access."
            })
          }
          const at = yield* now
          const username = yield* freeUsername(identity.username || identity.email)
          user = {
            id: yield* ids.uuid,
            email: identity.email,
            username,
            name: normalizeName(identity.name),
            avatar_url: identity.avatarUrl,
            login_type: identity.loginType,
            status: "active",
            rbac_roles: count === 0 ? ["owner"] : [],
            is_service_account: false,
            hashed_password: null,
            created_at: at,
            updated_at: at,
            last_seen_at: at,
            deleted: false,
            appearance: UserAppearance.defaults,
            quiet_hours_schedule: "",
            hashed_one_time_passcode: null,
            one_time_passcode_expires_at: null
          }
          created = true
        }
        const signedIn: UserRecord = user
        if (!created && converted === undefined && signedIn.login_type !== identity.loginType) {
          return yield* new Forbidden({
            message:
              `Incorrect login type, attempting to use "${identity.loginType}" but user is of login type "${signedIn.login_type}".`
          })
        }
        if (signedIn.status === "suspended") {
          return yield* new Forbidden({
            message: "Your account is suspended. Contact an admin to reactivate your account."
          })
        }
        const at = yield* now
        const finalUser = yield* tx.atomic(Effect.gen(function*() {
          let current = signedIn
          if (created) {
            const orgId = yield* defaultOrganization
            yield* users.insert(current)
            yield* members.insert({
              organization_id: orgId,
              user_id: current.id,
              roles: [],
              created_at: at,
              updated_at: at
            })
          }
          if (converted !== undefined) {
            // Used once: the state string converts nothing after this sign-in.
            yield* conversions.delete(converted.state)
            const patched = yield* users.update(current.id, {
              login_type: identity.loginType,
              hashed_password: null,
              updated_at: at
            })
            current = Option.getOrElse(patched, () => current)
          }
          const link = yield* links.findByUser(current.id, identity.loginType)
          const previous = Option.match(link, { onNone: () => [], onSome: (l) => l.synced_group_ids })
          const synced = identity.syncClaims === undefined
            ? previous
            : yield* idpSync.applyAtSignIn(current, identity.syncClaims, previous)
          if (identity.syncClaims !== undefined) {
            yield* idpSync.recordClaims(current.id, seenClaims(identity.syncClaims))
          }
          const claims = identity.claims ?? emptyClaims
          if (Option.isNone(link)) {
            yield* links.insert({
              user_id: current.id,
              login_type: identity.loginType,
              linked_id: identity.linkedId,
              claims,
              synced_group_ids: synced,
              created_at: at,
              updated_at: at
            })
          } else {
            yield* links.update(current.id, identity.loginType, {
              linked_id: identity.linkedId,
              claims,
              synced_group_ids: synced,
              updated_at: at
            })
          }
          const patch: { -readonly [K in keyof UserRecord]?: UserRecord[K] } = { last_seen_at: at }
          if (identity.siteRoles !== undefined) {
            const roles = [...new Set(identity.siteRoles.filter((r) => r !== "member" && isSiteRole(r)))].sort()
            // The first user keeps the owner role that made them the deployment's owner.
            const kept = created && current.rbac_roles.includes("owner")
              ? [...new Set(["owner", ...roles])].sort()
              : roles
            if (JSON.stringify(kept) !== JSON.stringify([...current.rbac_roles].sort())) patch.rbac_roles = kept
          }
          if (!created && identity.avatarUrl !== "" && identity.avatarUrl !== current.avatar_url) {
            patch.avatar_url = identity.avatarUrl
          }
          const updated = yield* users.update(current.id, patch)
          return Option.getOrElse(updated, () => current)
        })).pipe(
          Effect.catchTag("UniqueViolation", () =>
            Effect.fail(
              new Conflict({
                message: "Another sign-in changed the same account or group at the same time. Sign in again."
              })
            ))
        )
        const session = yield* auth.signInSession(finalUser.id, identity.loginType)
        yield* auditUser(finalUser.id)
        yield* auditAction(created ? "register" : "login")
        yield* auditAdditional({ login_type: identity.loginType })
        yield* auditResource(apiKeyResource(session.record, finalUser.username), undefined, session.record)
        if (created) {
          yield* auditAlso("create", userResource(finalUser), undefined, finalUser)
        }
        if (converted !== undefined) {
          yield* auditAlso("write", userResource(finalUser), { login_type: converted.from.login_type }, {
            login_type: finalUser.login_type
          })
        }
        return { user: finalUser, session: { token: session.key, expires_at: session.record.expires_at } }
      }).pipe(span("SignIn.complete"))

    return { complete, sessionLifetime: Duration.toMillis(settings.sessionDuration) } as const
  }),
  dependencies: [Auth.Default, IdpSync.Default]
}) {}
