/**
 * User links: which identity at an outside provider (GitHub, an OpenID provider) signs in as
 * which user. One link per user and login type; a provider identity links to one user.
 */
import { Context, type Effect, type Option } from "effect"
import type { UniqueViolation } from "../Repositories.js"
import type { SettingsShape } from "../Settings.js"

/** Whether sign-in through GitHub is configured (a client id and secret). */
export const githubConfigured = (s: Pick<SettingsShape, "oauth2GithubClientId" | "oauth2GithubClientSecret">) =>
  s.oauth2GithubClientId !== "" && s.oauth2GithubClientSecret !== ""

/** Whether sign-in through OpenID Connect is configured (an issuer and a client id). */
export const oidcConfigured = (s: Pick<SettingsShape, "oidcIssuerUrl" | "oidcClientId">) =>
  s.oidcIssuerUrl !== "" && s.oidcClientId !== ""

/** The login types a link can have: the providers users sign in through. */
export type LinkLoginType = "github" | "oidc"

/**
 * A stored link. Provider tokens are not kept: sign-in needs them only during the callback, so
 * nothing secret from the provider is at rest. `claims` holds the identity's claims from its last
 * OpenID Connect sign-in (`GET /users/oidc-claims`), and `synced_group_ids` the groups group
 * sync put the user in, so the next sign-in can take back exactly those memberships.
 */
export interface UserLinkRecord {
  readonly user_id: string
  readonly login_type: LinkLoginType
  /** The provider's stable id of the identity: GitHub's numeric user id, OIDC's `issuer` + `sub`. */
  readonly linked_id: string
  readonly claims: UserLinkClaims
  readonly synced_group_ids: ReadonlyArray<string>
  readonly created_at: Date
  readonly updated_at: Date
}

/** Claims from the last OpenID Connect sign-in, as the described system keeps them. */
export interface UserLinkClaims {
  readonly id_token_claims: Readonly<Record<string, unknown>>
  readonly user_info_claims: Readonly<Record<string, unknown>>
  readonly merged_claims: Readonly<Record<string, unknown>>
}

export const emptyClaims: UserLinkClaims = { id_token_claims: {}, user_info_claims: {}, merged_claims: {} }

export class UserLinkRepo extends Context.Tag("@workbay/core/UserLinkRepo")<UserLinkRepo, {
  readonly insert: (link: UserLinkRecord) => Effect.Effect<void, UniqueViolation>
  readonly findByLinkedId: (loginType: LinkLoginType, linkedId: string) => Effect.Effect<Option.Option<UserLinkRecord>>
  readonly findByUser: (userId: string, loginType: LinkLoginType) => Effect.Effect<Option.Option<UserLinkRecord>>
  readonly remove: (userId: string, loginType: LinkLoginType) => Effect.Effect<void>
  /** Replaces the link's linked id, claims and synced groups. */
  readonly update: (
    userId: string,
    loginType: LinkLoginType,
    patch: Pick<UserLinkRecord, "linked_id" | "claims" | "synced_group_ids" | "updated_at">
  ) => Effect.Effect<void, UniqueViolation>
}>() {}
