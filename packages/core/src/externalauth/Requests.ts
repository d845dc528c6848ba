/**
 * The request bodies and queries of the external auth routes (`/external-auth/...`, and what an
 * agent asks under `/workspaceagents/me/`). The routes in `http/src/externalauth/` declare them;
 * the services take their decoded types (`typeof X.Type`). The sign-in providers' callback query
 * is the users area's `CallbackQuery`.
 */
import { Schema } from "effect"
import { optional, optionalOr, optionalParam, wireName } from "../Requests.js"

const text = (max: number) => Schema.String.pipe(Schema.maxLength(max, { message: () => `At most ${max} characters.` }))

/** The callback's query: the provider's `code` and `state` (or `error`), or, to start, a `redirect` path. */
export const ExternalAuthCallbackQuery = Schema.Struct({
  code: optionalParam(text(4096)),
  state: optionalParam(text(1024)),
  error: optionalParam(text(256)),
  error_description: optionalParam(text(1024)),
  /** A path on this deployment to return to after linking (only a path is honoured). */
  redirect: optionalParam(text(2048))
})

/** POST /external-auth/{externalauth}/device: the device code to exchange. */
export class ExternalAuthDeviceExchangeRequest
  extends Schema.Class<ExternalAuthDeviceExchangeRequest>("ExternalAuthDeviceExchange")({
    device_code: text(1024).pipe(Schema.minLength(1, { message: () => "The device code is required." }))
  })
{}

/** `listen` is on when present at all (`?listen`, `?listen=true`), as the described system reads it; `false` or `0` turn it off. */
const ListenParam = Schema.transform(Schema.String, Schema.Boolean, {
  strict: true,
  decode: (s) => s !== "false" && s !== "0",
  encode: (b) => (b ? "true" : "false")
})

/** What an agent asks: `match` (a URL; `url` for older agents) or `id`, and whether to wait for a link (`listen`). */
export const AgentExternalAuthQuery = Schema.Struct({
  match: optionalParam(text(2048)),
  /** The older agents' name of `match`. */
  url: optionalParam(text(2048)),
  id: optionalParam(text(256)),
  listen: Schema.optional(ListenParam)
})

// IdP sync settings (`/settings/idpsync/*`, `/organizations/{organization}/settings/idpsync/*`).
// A field left out takes its zero value, as the described system's decoding leaves it.

/** At most this many claim values in one mapping. */
const MAX_MAPPING_KEYS = 1000

const claimField = text(256)
const claimValue = text(256)

const boundedMapping = <A extends string, I extends string>(target: Schema.Schema<A, I>) =>
  Schema.Record({ key: claimValue, value: Schema.Array(target).pipe(Schema.maxItems(100)) }).pipe(
    Schema.filter((m) => Object.keys(m).length <= MAX_MAPPING_KEYS || `At most ${MAX_MAPPING_KEYS} claim values.`)
  )

const uuidTarget = Schema.UUID.annotations({
  message: () => ({ message: "Must be a valid UUID.", override: true })
})
const roleTarget = text(64)

/** A regular expression that compiles (JavaScript's syntax; RE2's common subset behaves alike). */
const RegexFilter = text(1024).pipe(Schema.filter((s) => {
  try {
    new RegExp(s)
    return true
  } catch (e) {
    return `Not a valid regular expression: ${e instanceof Error ? e.message : String(e)}`
  }
}))

/** PATCH /settings/idpsync/organization: the whole organization sync settings. */
export class OrganizationSyncSettingsRequest
  extends Schema.Class<OrganizationSyncSettingsRequest>("OrganizationSyncSettingsRequest")({
    field: optionalOr(claimField, () => ""),
    mapping: optionalOr(boundedMapping(uuidTarget), () => ({})),
    organization_assign_default: optionalOr(Schema.Boolean, () => false)
  }, wireName("OrganizationSyncSettingsRequest"))
{}

/** PATCH /settings/idpsync/organization/config: the claim and the default organization, keeping the mapping. */
export class PatchOrganizationIDPSyncConfigRequest
  extends Schema.Class<PatchOrganizationIDPSyncConfigRequest>("PatchOrganizationIDPSyncConfigRequest")({
    field: optionalOr(claimField, () => ""),
    assign_default: optionalOr(Schema.Boolean, () => false)
  }, wireName("PatchOrganizationIDPSyncConfigRequest"))
{}

const mappingEntry = <A extends string, I extends string>(target: Schema.Schema<A, I>) =>
  Schema.Struct({ Given: claimValue, Gets: target })

const mappingDiff = <A extends string, I extends string>(target: Schema.Schema<A, I>) => ({
  Add: optionalOr(Schema.Array(mappingEntry(target)).pipe(Schema.maxItems(MAX_MAPPING_KEYS)), () => []),
  Remove: optionalOr(Schema.Array(mappingEntry(target)).pipe(Schema.maxItems(MAX_MAPPING_KEYS)), () => [])
})

/** PATCH /settings/idpsync/organization/mapping: entries to add and remove (`Remove` wins). */
export class PatchOrganizationIDPSyncMappingRequest
  extends Schema.Class<PatchOrganizationIDPSyncMappingRequest>("PatchOrganizationIDPSyncMappingRequest")(
    mappingDiff(uuidTarget),
    wireName("PatchOrganizationIDPSyncMappingRequest")
  )
{}

/** PATCH /organizations/{organization}/settings/idpsync/groups: the whole group sync settings. */
export class GroupSyncSettingsRequest extends Schema.Class<GroupSyncSettingsRequest>("GroupSyncSettingsRequest")({
  field: optionalOr(claimField, () => ""),
  mapping: optionalOr(boundedMapping(uuidTarget), () => ({})),
  regex_filter: optional(RegexFilter),
  auto_create_missing_groups: optionalOr(Schema.Boolean, () => false),
  /** Refused when not empty: the flags' name mapping is read only, as in the described system. */
  legacy_group_name_mapping: optional(Schema.Record({ key: claimValue, value: claimValue }))
}, wireName("GroupSyncSettingsRequest")) {}

/** PATCH .../idpsync/groups/config: the claim, the filter and auto-creation, keeping the mapping. */
export class PatchGroupIDPSyncConfigRequest
  extends Schema.Class<PatchGroupIDPSyncConfigRequest>("PatchGroupIDPSyncConfigRequest")({
    field: optionalOr(claimField, () => ""),
    regex_filter: optional(RegexFilter),
    auto_create_missing_groups: optionalOr(Schema.Boolean, () => false)
  }, wireName("PatchGroupIDPSyncConfigRequest"))
{}

/** PATCH .../idpsync/groups/mapping: entries to add and remove (`Remove` wins). */
export class PatchGroupIDPSyncMappingRequest
  extends Schema.Class<PatchGroupIDPSyncMappingRequest>("PatchGroupIDPSyncMappingRequest")(
    mappingDiff(uuidTarget),
    wireName("PatchGroupIDPSyncMappingRequest")
  )
{}

/** PATCH /organizations/{organization}/settings/idpsync/roles: the whole role sync settings. */
export class RoleSyncSettingsRequest extends Schema.Class<RoleSyncSettingsRequest>("RoleSyncSettingsRequest")({
  field: optionalOr(claimField, () => ""),
  mapping: optionalOr(boundedMapping(roleTarget), () => ({}))
}, wireName("RoleSyncSettingsRequest")) {}

/** PATCH .../idpsync/roles/config: the claim, keeping the mapping. */
export class PatchRoleIDPSyncConfigRequest
  extends Schema.Class<PatchRoleIDPSyncConfigRequest>("PatchRoleIDPSyncConfigRequest")({
    field: optionalOr(claimField, () => "")
  }, wireName("PatchRoleIDPSyncConfigRequest"))
{}

/** PATCH .../idpsync/roles/mapping: entries to add and remove (`Remove` wins). */
export class PatchRoleIDPSyncMappingRequest
  extends Schema.Class<PatchRoleIDPSyncMappingRequest>("PatchRoleIDPSyncMappingRequest")(
    mappingDiff(roleTarget),
    wireName("PatchRoleIDPSyncMappingRequest")
  )
{}

/** GET .../idpsync/field-values: the claim whose values to list (required). */
export const IdpSyncFieldValuesQuery = Schema.Struct({
  claimField: optionalParam(claimField)
})
