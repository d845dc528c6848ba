/**
 * IdP sync: the settings routes (`/settings/idpsync/*` for organization sync, and per
 * organization `/organizations/{organization}/settings/idpsync/*` for group and role sync), the
 * claim names and values seen at sign-ins, and what an OpenID Connect sign-in makes of its claims:
 * the user's organizations, groups and organization roles (docs/sign-in.md).
 *
 * Stored settings are the source of truth; while nothing is stored, the deployment flags give the
 * defaults (`oidc_group_*` for the default organization's group sync; organization and role sync
 * start off). Sync is licensed as in the described system: organization sync with
 * `multiple_organizations`, group sync with `template_rbac`, role sync with `user_role_management`
 * (every feature is on without a license key).
 */
import { Clock, Effect, Option, Schema } from "effect"
import { authorize } from "../Actor.js"
import { auditResource } from "../Audit.js"
import { Licensing } from "../enterprise/Entitlements.js"
import { BadRequest, Forbidden, Validation } from "../Errors.js"
import { EVERYONE_GROUP_NAME, GroupRepo, isEveryoneGroup } from "../groups/Group.js"
import { IdGenerator } from "../Ids.js"
import { lazily } from "../Lazily.js"
import { CustomRoleRepo } from "../organizations/CustomRole.js"
import { Organizations } from "../organizations/Organizations.js"
import { MemberRepo, OrganizationRepo } from "../organizations/Repositories.js"
import { isOrganizationRole } from "../Rbac.js"
import { Transactions } from "../Repositories.js"
import { Settings } from "../Settings.js"
import { span } from "../Tracing.js"
import { usernamePattern, type UserRecord } from "../users/User.js"
import {
  applyMappingDiff,
  claimValues,
  GroupSyncSettings,
  IdpSyncRepo,
  type IdpSyncScope,
  OrganizationSyncSettings,
  RoleSyncSettings,
  type SyncMapping
} from "./IdpSyncSettings.js"
import type {
  GroupSyncSettingsRequest,
  IdpSyncFieldValuesQuery,
  OrganizationSyncSettingsRequest,
  PatchGroupIDPSyncConfigRequest,
  PatchGroupIDPSyncMappingRequest,
  PatchOrganizationIDPSyncConfigRequest,
  PatchOrganizationIDPSyncMappingRequest,
  PatchRoleIDPSyncConfigRequest,
  PatchRoleIDPSyncMappingRequest,
  RoleSyncSettingsRequest
} from "./Requests.js"

type Claims = Readonly<Record<string, unknown>>

const NIL_UUID = "00000000-0000-0000-0000-000000000000"

/** The deployment's settings object (organization sync, the claim listings without an organization). */
const deploymentObject = { type: "idpsync_settings" } as const
/** An organization's settings object (group and role sync, its claim listings). */
const orgObject = (orgId: string) => ({ type: "idpsync_settings", orgId }) as const

const decodeOrganization = lazily(() => Schema.decodeUnknownOption(OrganizationSyncSettings))
const decodeGroup = lazily(() => Schema.decodeUnknownOption(GroupSyncSettings))
const decodeRole = lazily(() => Schema.decodeUnknownOption(RoleSyncSettings))
const encodeGroup = lazily(() => Schema.encodeSync(GroupSyncSettings))

const emptyGroupSettings = () =>
  new GroupSyncSettings({ field: "", mapping: {}, regex_filter: null, auto_create_missing_groups: false })

/** A regular expression from stored text; one that no longer compiles matches nothing. */
const compile = (source: string | null): RegExp | undefined | null => {
  if (source === null) return undefined
  try {
    return new RegExp(source)
  } catch {
    return null
  }
}

export class IdpSync extends Effect.Service<IdpSync>()("@workbay/core/IdpSync", {
  effect: Effect.gen(function*() {
    const repo = yield* IdpSyncRepo
    const organizations = yield* Organizations
    const orgs = yield* OrganizationRepo
    const members = yield* MemberRepo
    const groups = yield* GroupRepo
    const customRoles = yield* CustomRoleRepo
    const licensing = yield* Licensing
    const settings = yield* Settings
    const ids = yield* IdGenerator
    const tx = yield* Transactions
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    // The effective settings: stored, else the defaults.

    const organizationSettings = Effect.map(
      repo.find("organization"),
      (stored) =>
        Option.getOrElse(
          Option.flatMap(stored, decodeOrganization),
          () => new OrganizationSyncSettings({ field: "", mapping: {}, organization_assign_default: true })
        )
    )

    /** The flags' group sync, which the default organization has while nothing is stored. */
    const flagGroupSettings = () => {
      const legacy = settings.oidcGroupMapping
      return new GroupSyncSettings({
        field: settings.oidcGroupField,
        mapping: {},
        regex_filter: settings.oidcGroupRegexFilter === "" ? null : settings.oidcGroupRegexFilter,
        auto_create_missing_groups: settings.oidcGroupAutoCreate,
        ...(Object.keys(legacy).length > 0 ? { legacy_group_name_mapping: { ...legacy } } : {})
      })
    }

    const groupSettings = (orgId: string, isDefault: boolean) =>
      Effect.map(repo.find(`group:${orgId}`), (stored) =>
        Option.getOrElse(
          Option.flatMap(stored, decodeGroup),
          () => isDefault ? flagGroupSettings() : emptyGroupSettings()
        ))

    const roleSettings = (orgId: string) =>
      Effect.map(
        repo.find(`role:${orgId}`),
        (stored) =>
          Option.getOrElse(Option.flatMap(stored, decodeRole), () => new RoleSyncSettings({ field: "", mapping: {} }))
      )

    const save = (scope: IdpSyncScope, value: unknown) =>
      Effect.flatMap(now, (at) => repo.save(scope, value, at)).pipe(
        // One row per scope is replaced in place; a clash is a concurrent first save: the last one wins.
        Effect.catchTag("UniqueViolation", () => Effect.flatMap(now, (at) => Effect.orDie(repo.save(scope, value, at))))
      )

    const deploymentResource = { type: "idp_sync_settings_organization", id: NIL_UUID, target: "Organization sync" }

    /** Reads, changes and stores the organization sync settings in one transaction, audited. */
    const changeOrganization = (change: (existing: OrganizationSyncSettings) => OrganizationSyncSettings) =>
      Effect.gen(function*() {
        yield* authorize("update", deploymentObject)
        const [before, after] = yield* tx.atomic(Effect.gen(function*() {
          const existing = yield* organizationSettings
          const next = change(existing)
          yield* save("organization", Schema.encodeSync(OrganizationSyncSettings)(next))
          return [existing, next] as const
        }))
        yield* auditResource(deploymentResource, { ...before }, { ...after })
        return after
      })

    // Organization sync (deployment-wide).

    const getOrganizationSync = Effect.zipRight(authorize("read", deploymentObject), organizationSettings).pipe(
      span("IdpSync.getOrganizationSync")
    )

    const patchOrganizationSync = (input: typeof OrganizationSyncSettingsRequest.Type) =>
      changeOrganization(() =>
        new OrganizationSyncSettings({
          field: input.field,
          // As the described system, the organizations a mapping names are not checked here;
          // a sign-in skips those that do not exist.
          mapping: lowerIds(input.mapping),
          organization_assign_default: input.organization_assign_default
        })
      ).pipe(span("IdpSync.patchOrganizationSync"))

    const patchOrganizationSyncConfig = (input: typeof PatchOrganizationIDPSyncConfigRequest.Type) =>
      changeOrganization((existing) =>
        new OrganizationSyncSettings({
          field: input.field,
          mapping: existing.mapping,
          organization_assign_default: input.assign_default
        })
      ).pipe(span("IdpSync.patchOrganizationSyncConfig"))

    const patchOrganizationSyncMapping = (input: typeof PatchOrganizationIDPSyncMappingRequest.Type) =>
      changeOrganization((existing) =>
        new OrganizationSyncSettings({
          field: existing.field,
          mapping: applyMappingDiff(existing.mapping, lowerEntries(input.Add), lowerEntries(input.Remove)),
          organization_assign_default: existing.organization_assign_default
        })
      ).pipe(span("IdpSync.patchOrganizationSyncMapping"))

    // Group and role sync (per organization).

    /** The organization (404 when unknown or unreadable) and the check on its settings. */
    const organizationFor = (ref: string, action: "read" | "update") =>
      Effect.gen(function*() {
        const org = yield* organizations.resolve(ref)
        yield* authorize(action, orgObject(org.id))
        return org
      })

    const getGroupSync = (ref: string) =>
      Effect.gen(function*() {
        const org = yield* organizationFor(ref, "read")
        return yield* groupSettings(org.id, org.is_default)
      }).pipe(span("IdpSync.getGroupSync"))

    const changeGroup = (ref: string, change: (existing: GroupSyncSettings) => GroupSyncSettings) =>
      Effect.gen(function*() {
        const org = yield* organizationFor(ref, "update")
        const [before, after] = yield* tx.atomic(Effect.gen(function*() {
          const existing = yield* groupSettings(org.id, org.is_default)
          const next = change(existing)
          yield* save(`group:${org.id}`, encodeGroup(next))
          return [existing, next] as const
        }))
        yield* auditResource(
          { type: "idp_sync_settings_group", id: org.id, target: org.name, organizationId: org.id },
          { ...before },
          { ...after }
        )
        return after
      })

    const patchGroupSync = (ref: string, input: typeof GroupSyncSettingsRequest.Type) =>
      Effect.gen(function*() {
        if (input.legacy_group_name_mapping !== undefined && Object.keys(input.legacy_group_name_mapping).length > 0) {
          return yield* new BadRequest({
            message: "Unexpected field 'legacy_group_name_mapping'. Field not allowed, set to null or remove it.",
            detail: "legacy_group_name_mapping is deprecated, use mapping instead",
            validations: [new Validation({ field: "legacy_group_name_mapping", detail: "field is not allowed" })]
          })
        }
        return yield* changeGroup(ref, (existing) =>
          new GroupSyncSettings({
            field: input.field,
            mapping: lowerIds(input.mapping),
            regex_filter: input.regex_filter ?? null,
            auto_create_missing_groups: input.auto_create_missing_groups,
            ...(existing.legacy_group_name_mapping !== undefined
              ? { legacy_group_name_mapping: existing.legacy_group_name_mapping }
              : {})
          }))
      }).pipe(span("IdpSync.patchGroupSync"))

    const patchGroupSyncConfig = (ref: string, input: typeof PatchGroupIDPSyncConfigRequest.Type) =>
      changeGroup(ref, (existing) =>
        new GroupSyncSettings({
          ...existing,
          field: input.field,
          regex_filter: input.regex_filter ?? null,
          auto_create_missing_groups: input.auto_create_missing_groups
        })).pipe(span("IdpSync.patchGroupSyncConfig"))

    const patchGroupSyncMapping = (ref: string, input: typeof PatchGroupIDPSyncMappingRequest.Type) =>
      changeGroup(ref, (existing) =>
        new GroupSyncSettings({
          ...existing,
          mapping: applyMappingDiff(existing.mapping, lowerEntries(input.Add), lowerEntries(input.Remove))
        })).pipe(span("IdpSync.patchGroupSyncMapping"))

    const getRoleSync = (ref: string) =>
      Effect.gen(function*() {
        const org = yield* organizationFor(ref, "read")
        return yield* roleSettings(org.id)
      }).pipe(span("IdpSync.getRoleSync"))

    const changeRole = (ref: string, change: (existing: RoleSyncSettings) => RoleSyncSettings) =>
      Effect.gen(function*() {
        const org = yield* organizationFor(ref, "update")
        const [before, after] = yield* tx.atomic(Effect.gen(function*() {
          const existing = yield* roleSettings(org.id)
          const next = change(existing)
          yield* save(`role:${org.id}`, Schema.encodeSync(RoleSyncSettings)(next))
          return [existing, next] as const
        }))
        yield* auditResource(
          { type: "idp_sync_settings_role", id: org.id, target: org.name, organizationId: org.id },
          { ...before },
          { ...after }
        )
        return after
      })

    const patchRoleSync = (ref: string, input: typeof RoleSyncSettingsRequest.Type) =>
      changeRole(ref, () => new RoleSyncSettings({ field: input.field, mapping: input.mapping })).pipe(
        span("IdpSync.patchRoleSync")
      )

    const patchRoleSyncConfig = (ref: string, input: typeof PatchRoleIDPSyncConfigRequest.Type) =>
      changeRole(ref, (existing) => new RoleSyncSettings({ field: input.field, mapping: existing.mapping })).pipe(
        span("IdpSync.patchRoleSyncConfig")
      )

    const patchRoleSyncMapping = (ref: string, input: typeof PatchRoleIDPSyncMappingRequest.Type) =>
      changeRole(ref, (existing) =>
        new RoleSyncSettings({
          field: existing.field,
          mapping: applyMappingDiff(existing.mapping, input.Add, input.Remove)
        })).pipe(span("IdpSync.patchRoleSyncMapping"))

    // The claims seen.

    /** The organization a listing is about (none: the deployment), checked for `read` on its settings. */
    const listingScope = (ref: string | undefined, what: string) =>
      Effect.gen(function*() {
        const org = ref === undefined ? undefined : yield* organizations.resolve(ref)
        yield* authorize("read", org === undefined ? deploymentObject : orgObject(org.id)).pipe(
          Effect.catchTag("Forbidden", () =>
            Effect.fail(
              new Forbidden({
                message: `You do not have permission to view the ${what}`,
                detail: "idpsync_settings.read permission is required"
              })
            ))
        )
        return org?.id
      })

    const claimFields = (ref: string | undefined) =>
      Effect.flatMap(listingScope(ref, "available IDP fields"), repo.claimFields).pipe(span("IdpSync.claimFields"))

    const claimFieldValues = (ref: string | undefined, query: typeof IdpSyncFieldValuesQuery.Type) =>
      Effect.gen(function*() {
        const orgId = yield* listingScope(ref, "IDP claim field values")
        if (query.claimField === undefined) {
          return yield* new BadRequest({
            message: "claimField query parameter is required",
            validations: [new Validation({ field: "claimField", detail: "The claim field is required." })]
          })
        }
        return yield* repo.claimFieldValues(orgId, query.claimField)
      }).pipe(span("IdpSync.claimFieldValues"))

    // At sign-in.

    /**
     * The group allow-list (`oidc_allowed_groups`): with a list and a group claim (the default
     * organization's group sync field), a sign-in whose claim names none of the listed groups is
     * refused with 403, as the described system's.
     */
    const checkAllowedGroups = (claims: Claims) =>
      Effect.gen(function*() {
        if (settings.oidcAllowedGroups.length === 0) return
        const defaultOrg = yield* orgs.findDefault
        const field = Option.isSome(defaultOrg)
          ? (yield* groupSettings(defaultOrg.value.id, true)).field
          : settings.oidcGroupField
        if (field === "") return
        if (!Object.hasOwn(claims, field)) {
          return yield* new Forbidden({
            message: "Not a member of an allowed group",
            detail: "You have no groups in your claims!"
          })
        }
        const allowed = new Set(settings.oidcAllowedGroups)
        if (!claimValues(claims[field]).some((g) => allowed.has(g))) {
          return yield* new Forbidden({
            message: "Not a member of an allowed group",
            detail: "Ask an administrator to add one of your groups to the allow list."
          })
        }
      })

    /** Moves the user into exactly the organizations the claim maps to (and the default one when asked). */
    const syncOrganizations = (user: UserRecord, claims: Claims, at: Date) =>
      Effect.gen(function*() {
        if (!(yield* licensing.enabled("multiple_organizations"))) return
        const org = yield* organizationSettings
        if (org.field === "") return
        const wanted = new Set(claimValues(claims[org.field]).flatMap((v) => mappedIds(org.mapping, v)))
        if (org.organization_assign_default) {
          const found = yield* orgs.findDefault
          if (Option.isSome(found)) wanted.add(found.value.id)
        }
        const existing = new Set((yield* members.ofUser(user.id)).map((m) => m.organization_id))
        const present = new Set((yield* orgs.findByIds([...wanted])).map((o) => o.id))
        for (const id of wanted) {
          if (existing.has(id) || !present.has(id)) continue
          yield* members.insert({ organization_id: id, user_id: user.id, roles: [], created_at: at, updated_at: at })
        }
        for (const id of existing) if (!wanted.has(id)) yield* members.delete(id, user.id)
      })

    /**
     * Puts the user in the groups each of their organizations' group sync names, and takes them out
     * of the groups an earlier sync added that are no longer named; answers the groups sync now manages.
     */
    const syncGroups = (user: UserRecord, claims: Claims, previous: ReadonlyArray<string>, at: Date) =>
      Effect.gen(function*() {
        if (!(yield* licensing.enabled("template_rbac"))) return previous
        const memberships = yield* members.ofUser(user.id)
        const memberOrgs = yield* orgs.findByIds(memberships.map((m) => m.organization_id))
        const previousGroups = yield* groups.findByIds(previous)
        // Groups of organizations the user left are gone with the membership.
        const managed = new Set(
          previousGroups.filter((g) => memberOrgs.some((o) => o.id === g.organization_id)).map((g) => g.id)
        )
        for (const org of memberOrgs) {
          const gs = yield* groupSettings(org.id, org.is_default)
          if (gs.field === "") continue
          const filter = compile(gs.regex_filter)
          const wantedIds = new Set<string>()
          const names = new Set<string>()
          for (const value of claimValues(claims[gs.field])) {
            if (filter === null || (filter !== undefined && !filter.test(value))) continue
            const legacy = gs.legacy_group_name_mapping
            if (legacy !== undefined && Object.hasOwn(legacy, value)) {
              names.add(legacy[value]!)
              continue
            }
            if (Object.hasOwn(gs.mapping, value)) {
              for (const id of gs.mapping[value]!) wantedIds.add(id.toLowerCase())
              continue
            }
            names.add(value)
          }
          const mapped = yield* groups.findByIds([...wantedIds])
          const wanted = new Set(
            mapped.filter((g) => g.organization_id === org.id && !isEveryoneGroup(g)).map((g) => g.id)
          )
          for (const name of names) {
            if (name === EVERYONE_GROUP_NAME) continue
            const found = yield* groups.findByOrganizationAndName(org.id, name)
            if (Option.isSome(found)) {
              if (!isEveryoneGroup(found.value)) wanted.add(found.value.id)
            } else if (gs.auto_create_missing_groups && name.length <= 32 && usernamePattern.test(name)) {
              const id = yield* ids.uuid
              // A sign-in racing this one to create the same group fails with 409 (the sign-in's
              // clash handling); signing in again finds the group.
              yield* groups.insert({
                id,
                organization_id: org.id,
                name,
                display_name: "",
                avatar_url: "",
                quota_allowance: 0,
                source: "oidc",
                created_at: at,
                updated_at: at
              })
              wanted.add(id)
            }
          }
          for (const id of wanted) yield* groups.addMembers({ id, organization_id: org.id }, [user.id], at)
          for (const g of previousGroups) {
            if (g.organization_id !== org.id || wanted.has(g.id)) continue
            yield* groups.removeMembers({ id: g.id, organization_id: org.id }, [user.id])
            managed.delete(g.id)
          }
          for (const id of wanted) managed.add(id)
        }
        return [...managed].sort()
      })

    /** Gives the user, in each organization with role sync on, the organization roles the claim maps to. */
    const syncRoles = (user: UserRecord, claims: Claims, at: Date) =>
      Effect.gen(function*() {
        if (!(yield* licensing.enabled("user_role_management"))) return
        for (const membership of yield* members.ofUser(user.id)) {
          const rs = yield* roleSettings(membership.organization_id)
          if (rs.field === "") continue
          const named = new Set(
            claimValues(claims[rs.field]).flatMap((v) => Object.hasOwn(rs.mapping, v) ? rs.mapping[v]! : [v])
          )
          const roles: Array<string> = []
          for (const name of named) {
            if (isOrganizationRole(name)) roles.push(name)
            else if (Option.isSome(yield* customRoles.find(membership.organization_id, name))) roles.push(name)
          }
          roles.sort()
          if (JSON.stringify(roles) !== JSON.stringify([...membership.roles].sort())) {
            yield* members.updateRoles(membership.organization_id, user.id, roles, at)
          }
        }
      })

    /**
     * What an OpenID Connect sign-in makes of its claims, inside the sign-in's transaction:
     * organizations, then groups, then organization roles; the claims seen are kept for the
     * settings' forms. Answers the group ids sync manages for the user (kept on the link).
     */
    const applyAtSignIn = (user: UserRecord, claims: Claims, previous: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const at = yield* now
        yield* syncOrganizations(user, claims, at)
        const synced = yield* syncGroups(user, claims, previous, at)
        yield* syncRoles(user, claims, at)
        return synced
      }).pipe(span("IdpSync.applyAtSignIn"))

    return {
      getOrganizationSync,
      patchOrganizationSync,
      patchOrganizationSyncConfig,
      patchOrganizationSyncMapping,
      getGroupSync,
      patchGroupSync,
      patchGroupSyncConfig,
      patchGroupSyncMapping,
      getRoleSync,
      patchRoleSync,
      patchRoleSyncConfig,
      patchRoleSyncMapping,
      claimFields,
      claimFieldValues,
      checkAllowedGroups,
      applyAtSignIn,
      recordClaims: repo.recordClaims
    } as const
  })
}) {}

/** A mapping's ids in lower case (ids are stored lower case). */
const lowerIds = (mapping: SyncMapping): Record<string, Array<string>> =>
  Object.fromEntries(Object.entries(mapping).map(([k, v]) => [k, [...new Set(v.map((id) => id.toLowerCase()))]]))

const lowerEntries = (entries: ReadonlyArray<{ readonly Given: string; readonly Gets: string }>) =>
  entries.map((e) => ({ Given: e.Given, Gets: e.Gets.toLowerCase() }))

const mappedIds = (mapping: SyncMapping, value: string): ReadonlyArray<string> =>
  Object.hasOwn(mapping, value) ? mapping[value]! : []
