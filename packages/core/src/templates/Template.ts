/**
 * Templates: the stored record, its access list and the repository port. The wire form
 * (`codersdk.Template`) and the rules live in `Templates.ts`.
 */
import { Context, Effect, Option } from "effect"
import { isUuid } from "../Ids.js"
import { type Action, type AuthzObject, objectAcl } from "../Rbac.js"
import type { NewRecord, UniqueViolation } from "../Repositories.js"
import { ALL_DAYS } from "../Schedule.js"

/** Roles a template's access list grants: `admin` (everything on the template) and `use` (read, create workspaces). */
export type TemplateRole = "admin" | "use"
export const templateRoles: ReadonlyArray<TemplateRole> = ["admin", "use"]

/** A template's access list: user ids and group ids to their role, as the described system stores it. */
export type TemplateAcl = Readonly<Record<string, TemplateRole>>

/** A stored template. Durations are milliseconds; days of week are bit masks (bit 0 = Monday ... bit 6 = Sunday). */
export interface TemplateRecord {
  readonly id: string
  readonly created_at: Date
  readonly updated_at: Date
  readonly organization_id: string
  readonly deleted: boolean
  readonly name: string
  readonly display_name: string
  readonly description: string
  readonly icon: string
  readonly provisioner: string
  readonly active_version_id: string
  readonly created_by: string
  readonly default_ttl_ms: number
  readonly activity_bump_ms: number
  readonly autostop_requirement_days_of_week: number
  readonly autostop_requirement_weeks: number
  readonly autostart_requirement_days_of_week: number
  readonly allow_user_cancel_workspace_jobs: boolean
  readonly allow_user_autostart: boolean
  readonly allow_user_autostop: boolean
  readonly failure_ttl_ms: number
  readonly time_til_dormant_ms: number
  readonly time_til_dormant_autodelete_ms: number
  readonly require_active_version: boolean
  readonly max_port_share_level: string
  /** The deprecation message; `""` when the template is not deprecated. */
  readonly deprecated: string
  readonly use_classic_parameter_flow: boolean
  readonly cors_behavior: string
  readonly user_acl: TemplateAcl
  readonly group_acl: TemplateAcl
}

/** What a new template is made of; every other field may be given or takes its default. */
export type NewTemplate = NewRecord<
  TemplateRecord,
  "id" | "organization_id" | "name" | "provisioner" | "active_version_id" | "created_by"
>

/**
 * A new template's stored record: the one constructor every writer uses (the service and the test
 * factories), so a new field gets its default here once. The defaults are the described system's
 * for a template created without them: no names beyond `name`, workspaces without a time to live,
 * activity bumps of an hour, autostart on any day, users may start and stop their workspaces, and
 * the organization's Everyone group (its id is the organization's) may use it.
 */
export const newTemplate = ({ at, ...given }: NewTemplate): TemplateRecord => ({
  created_at: at,
  updated_at: at,
  deleted: false,
  display_name: "",
  description: "",
  icon: "",
  default_ttl_ms: 0,
  activity_bump_ms: 3_600_000,
  autostop_requirement_days_of_week: 0,
  autostop_requirement_weeks: 1,
  autostart_requirement_days_of_week: ALL_DAYS,
  allow_user_cancel_workspace_jobs: false,
  allow_user_autostart: true,
  allow_user_autostop: true,
  failure_ttl_ms: 0,
  time_til_dormant_ms: 0,
  time_til_dormant_autodelete_ms: 0,
  require_active_version: false,
  max_port_share_level: "owner",
  deprecated: "",
  use_classic_parameter_flow: false,
  cors_behavior: "simple",
  user_acl: {},
  group_acl: { [given.organization_id]: "use" },
  ...given
})

/** What may change on a template (fields left `undefined` stay). */
export type TemplatePatch = Partial<
  Omit<TemplateRecord, "id" | "created_at" | "organization_id" | "created_by" | "provisioner">
>

/** Filters of a template listing; every template matches an absent filter. Deleted templates never match. */
export interface TemplateFilter {
  readonly organizationId?: string | undefined
  readonly ids?: ReadonlyArray<string> | undefined
  /** Case-insensitive substring of the name or display name. */
  readonly fuzzyName?: string | undefined
  /** Case-insensitive exact name. */
  readonly exactName?: string | undefined
  readonly deprecated?: boolean | undefined
}

export class TemplateRepo extends Context.Tag("@workbay/core/TemplateRepo")<TemplateRepo, {
  /** Fails with `UniqueViolation` when the organization has an undeleted template of that name. */
  readonly insert: (template: TemplateRecord) => Effect.Effect<void, UniqueViolation>
  /** The template, deleted or not. */
  readonly findById: (id: string) => Effect.Effect<Option.Option<TemplateRecord>>
  /** The templates of these ids that exist, deleted or not, in any order (one read for a page). */
  readonly findByIds: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<TemplateRecord>>
  /** The undeleted template of that name (case-insensitive) in the organization. */
  readonly findByName: (organizationId: string, name: string) => Effect.Effect<Option.Option<TemplateRecord>>
  /** Undeleted templates matching `filter`, by name. */
  readonly list: (filter: TemplateFilter) => Effect.Effect<ReadonlyArray<TemplateRecord>>
  /** None when there is no undeleted template `id`. */
  readonly update: (id: string, patch: TemplatePatch) => Effect.Effect<Option.Option<TemplateRecord>, UniqueViolation>
  /** Whether any undeleted workspace uses the template (one probe of the template's workspaces index). */
  readonly hasWorkspaces: (templateId: string) => Effect.Effect<boolean>
  /**
   * Per template id, how many distinct users own undeleted workspaces of it (the described
   * system's `active_user_count`); templates without any are left out. One grouped read.
   */
  readonly workspaceOwnerCounts: (templateIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, number>>
}>() {}

/** Actions each template role grants, as the described system's template ACL roles. */
export const templateRoleActions: Readonly<Record<TemplateRole, ReadonlyArray<Action>>> = {
  admin: ["read", "update", "delete", "use", "view_insights", "create"],
  use: ["read", "use"]
}

/** How authorization names a template: in its organization, with its access list. */
export const templateObject = (
  t: Pick<TemplateRecord, "id" | "organization_id" | "user_acl" | "group_acl">
): AuthzObject => ({
  type: "template",
  id: t.id,
  orgId: t.organization_id,
  acl: objectAcl(t.user_acl, t.group_acl, templateRoleActions)
})

/**
 * POST /authcheck on one template answers what its routes do: in the template's organization,
 * with its access list. An unknown (or deleted) template is checked as named (core AuthCheck.ts).
 */
export const templateAcl = (object: AuthzObject): Effect.Effect<AuthzObject, never, TemplateRepo> =>
  object.type !== "template" || object.id === undefined || !isUuid(object.id)
    ? Effect.succeed(object)
    : Effect.map(
      Effect.flatMap(TemplateRepo, (templates) => templates.findById(object.id!)),
      (found) => Option.isNone(found) || found.value.deleted ? object : { ...object, ...templateObject(found.value) }
    )
