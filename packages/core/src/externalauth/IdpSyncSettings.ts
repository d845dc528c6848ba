/**
 * IdP sync settings: what an OpenID Connect sign-in makes of the claims (organizations, groups
 * and organization roles), as the described system's `/settings/idpsync/*` and
 * `/organizations/{organization}/settings/idpsync/*` routes keep them (docs/sign-in.md). The wire
 * shapes are the described system's; the stored form is the same JSON, one row per scope; and the
 * claim names and values seen at sign-ins, which the settings' forms offer.
 */
import { Context, type Effect, type Option, Schema } from "effect"
import type { UniqueViolation } from "../Repositories.js"

const Mapping = Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) })

/** GET/PATCH /settings/idpsync/organization: which organizations a sign-in's claim puts the user in. */
export class OrganizationSyncSettings extends Schema.Class<OrganizationSyncSettings>("OrganizationSyncSettings")({
  /** The claim naming the user's organizations; empty turns organization sync off. */
  field: Schema.String,
  /** Claim value to organization ids. */
  mapping: Mapping,
  /** The default organization is always among the user's, whatever the claim says. */
  organization_assign_default: Schema.Boolean
}) {}

/** GET/PATCH /organizations/{organization}/settings/idpsync/groups. */
export class GroupSyncSettings extends Schema.Class<GroupSyncSettings>("GroupSyncSettings")({
  /** The claim naming the user's groups; empty turns group sync off in the organization. */
  field: Schema.String,
  /** Claim value to group ids. */
  mapping: Mapping,
  /** Only claim values this expression matches are synced; null: all of them. */
  regex_filter: Schema.NullOr(Schema.String),
  /** Groups the claim names by name that do not exist yet are created. */
  auto_create_missing_groups: Schema.Boolean,
  /** Claim value to group name: the deployment flags' mapping (`oidc_group_mapping`), read only. */
  legacy_group_name_mapping: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Schema.String }), {
    exact: true
  })
}) {}

/** GET/PATCH /organizations/{organization}/settings/idpsync/roles. */
export class RoleSyncSettings extends Schema.Class<RoleSyncSettings>("RoleSyncSettings")({
  /** The claim naming the user's organization roles; empty turns role sync off in the organization. */
  field: Schema.String,
  /** Claim value to organization role names. */
  mapping: Mapping
}) {}

/** A settings' mapping: claim value to ids (or role names). */
export type SyncMapping = Readonly<Record<string, ReadonlyArray<string>>>

/** Adds and removes mapping entries: `Remove` wins over `Add`, as in the described system. */
export const applyMappingDiff = (
  previous: SyncMapping,
  add: ReadonlyArray<{ readonly Given: string; readonly Gets: string }>,
  remove: ReadonlyArray<{ readonly Given: string; readonly Gets: string }>
): Record<string, Array<string>> => {
  const next: Record<string, Array<string>> = {}
  for (const [key, ids] of Object.entries(previous)) next[key] = [...ids]
  for (const m of add) {
    const list = Object.hasOwn(next, m.Given) ? next[m.Given]! : (next[m.Given] = [])
    if (!list.includes(m.Gets)) list.push(m.Gets)
  }
  for (const m of remove) {
    if (Object.hasOwn(next, m.Given)) next[m.Given] = next[m.Given]!.filter((id) => id !== m.Gets)
  }
  return next
}

/** The scope a settings row belongs to: the deployment's organization sync, or one organization's groups or roles. */
export type IdpSyncScope = "organization" | `group:${string}` | `role:${string}`

/** The claim names and string values one sign-in showed, bounded (`MAX_CLAIM_FIELDS`, ...). */
export interface SeenClaims {
  readonly fields: ReadonlyArray<string>
  readonly values: ReadonlyArray<{ readonly field: string; readonly value: string }>
}

/** At most this many claim names per sign-in are kept, ... */
export const MAX_CLAIM_FIELDS = 100
/** ... this many values per claim, ... */
export const MAX_CLAIM_VALUES = 200
/** ... and names and values of at most this many characters (longer ones are left out). */
export const MAX_CLAIM_LENGTH = 256

/** The claim's values as strings: a list (strings only), or one string (some providers send one group as a string). */
export const claimValues = (value: unknown): Array<string> =>
  Array.isArray(value)
    ? value.filter((v): v is string => typeof v === "string")
    : typeof value === "string" && value !== ""
    ? [value]
    : []

/** What of a sign-in's merged claims is kept for the settings' forms: names, and string values, bounded. */
export const seenClaims = (claims: Readonly<Record<string, unknown>>): SeenClaims => {
  const fields = Object.keys(claims).filter((f) => f.length <= MAX_CLAIM_LENGTH).sort().slice(0, MAX_CLAIM_FIELDS)
  const values = fields.flatMap((field) =>
    [...new Set(claimValues(claims[field]).filter((v) => v.length <= MAX_CLAIM_LENGTH))]
      .slice(0, MAX_CLAIM_VALUES)
      .map((value) => ({ field, value }))
  )
  return { fields, values }
}

/** The IdP sync settings and the claims seen at sign-ins (migration 0048). */
export class IdpSyncRepo extends Context.Tag("@workbay/core/IdpSyncRepo")<IdpSyncRepo, {
  /** The stored settings of a scope (JSON), if any were stored. */
  readonly find: (scope: IdpSyncScope) => Effect.Effect<Option.Option<unknown>>
  /** Stores a scope's settings, replacing what was there. */
  readonly save: (scope: IdpSyncScope, settings: unknown, at: Date) => Effect.Effect<void, UniqueViolation>
  /** Replaces what the user's last sign-in showed. */
  readonly recordClaims: (userId: string, seen: SeenClaims) => Effect.Effect<void>
  /** Claim names seen, sorted; with an organization, only those of its members' sign-ins. */
  readonly claimFields: (organizationId: string | undefined) => Effect.Effect<ReadonlyArray<string>>
  /** A claim's values seen, sorted; with an organization, only those of its members' sign-ins. */
  readonly claimFieldValues: (
    organizationId: string | undefined,
    field: string
  ) => Effect.Effect<ReadonlyArray<string>>
}>() {}
