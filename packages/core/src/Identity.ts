/**
 * Who calls: the stored user and the API key a request authenticated with, as the caller
 * (`Actor`, Actor.ts) carries them. The users area owns their rules and wire forms
 * (users/User.ts, users/ApiKey.ts, which re-export these); they sit at the root because the
 * root machinery (the actor, audit) reads them.
 */
import { Schema } from "effect"
import { resourceKinds } from "./Rbac.js"

export const UserStatus = Schema.Literal("active", "suspended").annotations({
  message: () => ({ message: "Status must be active or suspended.", override: true })
})
export type UserStatus = typeof UserStatus.Type

export const LoginType = Schema.Literal("", "github", "none", "oidc", "password", "token").annotations({
  message: () => ({ message: "Login type must be one of github, none, oidc, password or token.", override: true })
})
export type LoginType = typeof LoginType.Type

/** User appearance settings. */
export class UserAppearance extends Schema.Class<UserAppearance>("UserAppearanceSettings")({
  terminal_font: Schema.String,
  theme_dark: Schema.String,
  theme_light: Schema.String,
  theme_mode: Schema.String,
  theme_preference: Schema.String
}) {
  static readonly defaults = new UserAppearance({
    terminal_font: "",
    theme_dark: "",
    theme_light: "",
    theme_mode: "",
    theme_preference: ""
  })
}

/** The stored user. Secrets (password and passcode hashes) never leave core. */
export interface UserRecord {
  readonly id: string
  readonly email: string
  readonly username: string
  readonly name: string
  readonly avatar_url: string
  readonly login_type: LoginType
  readonly status: UserStatus
  /** Explicit site roles (`member` is implicit). */
  readonly rbac_roles: ReadonlyArray<string>
  readonly is_service_account: boolean
  readonly hashed_password: string | null
  readonly created_at: Date
  readonly updated_at: Date
  readonly last_seen_at: Date
  readonly deleted: boolean
  readonly appearance: UserAppearance
  readonly quiet_hours_schedule: string
  readonly hashed_one_time_passcode: string | null
  readonly one_time_passcode_expires_at: Date | null
}

export const ApiKeyLoginType = Schema.Literal("github", "oidc", "password", "token", "oauth2_provider_app")
export type ApiKeyLoginType = typeof ApiKeyLoginType.Type

export class AllowListEntry extends Schema.Class<AllowListEntry>("APIAllowListTarget")({
  id: Schema.String,
  // Named, so that a message about a whole entry says `type: RBACResource` instead of listing
  // every kind; a failing entry or type is reported once per item, in a few words.
  type: Schema.Literal(...resourceKinds).annotations({
    identifier: "RBACResource",
    message: () => ({
      message: "Type must be \"*\" or a resource kind such as workspace (see the kinds in GET /auth/scopes).",
      override: true
    })
  })
}) {}

/** The stored key: the wire fields plus the hash of the secret. */
export interface ApiKeyRecord {
  readonly id: string
  readonly hashed_secret: string
  readonly user_id: string
  readonly login_type: ApiKeyLoginType
  readonly token_name: string
  readonly scopes: ReadonlyArray<string>
  readonly allow_list: ReadonlyArray<AllowListEntry>
  readonly lifetime_seconds: number
  readonly created_at: Date
  readonly updated_at: Date
  readonly expires_at: Date
  readonly last_used: Date
}

/**
 * The described system's prebuilds system user, owner of prebuilt workspaces (created by
 * migration 0049; docs/prebuilds.md). It never signs in, is not listed and cannot be changed.
 */
export const PREBUILDS_USER_ID = "c42fdf75-3097-471c-8c33-fb52454d81c0"
