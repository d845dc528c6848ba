/**
 * Wire forms of templates (`codersdk.Template`), their access lists (`TemplateACL`,
 * `ACLAvailable`) and the prebuild invalidation answer, with the conversions from stored records.
 */
import { Schema } from "effect"
import { Group } from "../groups/Group.js"
import type { OrganizationRecord } from "../organizations/Organization.js"
import { daysOfMask } from "../Schedule.js"
import { ReducedUser, User } from "../users/User.js"
import { wireMaker, type WireProps } from "../Wire.js"
import type { TemplateRecord } from "./Template.js"

export const PortShareLevel = Schema.Literal("owner", "authenticated", "organization", "public")
export const CorsBehavior = Schema.Literal("simple", "passthru")
export const TemplateRoleSchema = Schema.Literal("admin", "use")

/**
 * Build time percentiles of one transition, in milliseconds. The described system's struct has no
 * json tags, so its keys are the Go field names (`P50`, `P95`), always sent and null until measured.
 */
export class TransitionStats extends Schema.Class<TransitionStats>("TransitionStats")({
  P50: Schema.NullOr(Schema.Int),
  P95: Schema.NullOr(Schema.Int)
}) {}

export class TemplateAutostopRequirement
  extends Schema.Class<TemplateAutostopRequirement>("TemplateAutostopRequirement")({
    days_of_week: Schema.Array(Schema.String),
    weeks: Schema.Int
  })
{}

export class TemplateAutostartRequirement
  extends Schema.Class<TemplateAutostartRequirement>("TemplateAutostartRequirement")({
    days_of_week: Schema.Array(Schema.String)
  })
{}

/** A template as the API answers it. */
export class Template extends Schema.Class<Template>("Template")({
  active_user_count: Schema.Int,
  active_version_id: Schema.UUID,
  activity_bump_ms: Schema.Int,
  allow_user_autostart: Schema.Boolean,
  allow_user_autostop: Schema.Boolean,
  allow_user_cancel_workspace_jobs: Schema.Boolean,
  autostart_requirement: TemplateAutostartRequirement,
  autostop_requirement: TemplateAutostopRequirement,
  build_time_stats: Schema.Record({ key: Schema.String, value: TransitionStats }),
  cors_behavior: Schema.String,
  created_at: Schema.Date,
  created_by_id: Schema.UUID,
  created_by_name: Schema.String,
  default_ttl_ms: Schema.Int,
  deleted: Schema.Boolean,
  deprecated: Schema.Boolean,
  deprecation_message: Schema.String,
  description: Schema.String,
  display_name: Schema.String,
  failure_ttl_ms: Schema.Int,
  icon: Schema.String,
  id: Schema.UUID,
  max_port_share_level: Schema.String,
  name: Schema.String,
  organization_display_name: Schema.String,
  organization_icon: Schema.String,
  organization_id: Schema.UUID,
  organization_name: Schema.String,
  provisioner: Schema.String,
  require_active_version: Schema.Boolean,
  time_til_dormant_autodelete_ms: Schema.Int,
  time_til_dormant_ms: Schema.Int,
  updated_at: Schema.Date,
  use_classic_parameter_flow: Schema.Boolean
}) {}

/** A user of a template's access list: the user and their role. */
export class TemplateUser extends Schema.Class<TemplateUser>("TemplateUser")({
  ...User.fields,
  role: TemplateRoleSchema
}) {}

/** A group of a template's access list: the group and its role. */
export class TemplateGroup extends Schema.Class<TemplateGroup>("TemplateGroup")({
  ...Group.fields,
  role: TemplateRoleSchema
}) {}

/** A template's access list. */
export class TemplateACL extends Schema.Class<TemplateACL>("TemplateACL")({
  users: Schema.Array(TemplateUser),
  group: Schema.Array(TemplateGroup)
}) {}

/** Who may be added to a template's access list. */
export class ACLAvailable extends Schema.Class<ACLAvailable>("ACLAvailable")({
  users: Schema.Array(ReducedUser),
  groups: Schema.Array(Group)
}) {}

export class InvalidatedPreset extends Schema.Class<InvalidatedPreset>("InvalidatedPreset")({
  preset_name: Schema.String,
  template_name: Schema.String,
  template_version_name: Schema.String
}) {}

/** The presets whose prebuilt workspaces are to be replaced. */
export class InvalidatePresetsResponse extends Schema.Class<InvalidatePresetsResponse>("InvalidatePresetsResponse")({
  invalidated: Schema.Array(InvalidatedPreset)
}) {}

const makeTransitionStats = wireMaker(TransitionStats)
const makeAutostartRequirement = wireMaker(TemplateAutostartRequirement)
const makeAutostopRequirement = wireMaker(TemplateAutostopRequirement)
const makeTemplate = wireMaker(Template)

/** Every transition is present; one without builds has neither percentile. */
const unknownBuildTimes = () => ({
  start: makeTransitionStats({ P50: null, P95: null }),
  stop: makeTransitionStats({ P50: null, P95: null }),
  delete: makeTransitionStats({ P50: null, P95: null })
})

/**
 * Wire form of a stored template, with its organization, the username of its creator and how many
 * users own undeleted workspaces of it (`active_user_count`, as the described system counts it).
 */
export const toTemplate = (
  t: TemplateRecord,
  org: Pick<OrganizationRecord, "name" | "display_name" | "icon"> | undefined,
  createdByName: string,
  activeUserCount = 0,
  buildTimes?: Readonly<Record<string, { p50?: number; p95?: number }>>
): Template => {
  const props: WireProps<typeof Template> = {
    active_user_count: activeUserCount,
    active_version_id: t.active_version_id,
    activity_bump_ms: t.activity_bump_ms,
    allow_user_autostart: t.allow_user_autostart,
    allow_user_autostop: t.allow_user_autostop,
    allow_user_cancel_workspace_jobs: t.allow_user_cancel_workspace_jobs,
    autostart_requirement: makeAutostartRequirement({ days_of_week: daysOfMask(t.autostart_requirement_days_of_week) }),
    autostop_requirement: makeAutostopRequirement({
      days_of_week: daysOfMask(t.autostop_requirement_days_of_week),
      // 0 and 1 both mean every week; the described system answers at least 1.
      weeks: Math.max(1, t.autostop_requirement_weeks)
    }),
    build_time_stats: buildTimes === undefined ? unknownBuildTimes() : {
      ...unknownBuildTimes(),
      ...Object.fromEntries(
        Object.entries(buildTimes).map((
          [transition, s]
        ) => [transition, makeTransitionStats({ P50: s.p50 ?? null, P95: s.p95 ?? null })])
      )
    },
    cors_behavior: t.cors_behavior,
    created_at: t.created_at,
    created_by_id: t.created_by,
    created_by_name: createdByName,
    default_ttl_ms: t.default_ttl_ms,
    deleted: t.deleted,
    deprecated: t.deprecated !== "",
    deprecation_message: t.deprecated,
    description: t.description,
    display_name: t.display_name,
    failure_ttl_ms: t.failure_ttl_ms,
    icon: t.icon,
    id: t.id,
    max_port_share_level: t.max_port_share_level,
    name: t.name,
    organization_display_name: org?.display_name ?? "",
    organization_icon: org?.icon ?? "",
    organization_id: t.organization_id,
    organization_name: org?.name ?? "",
    provisioner: t.provisioner,
    require_active_version: t.require_active_version,
    time_til_dormant_autodelete_ms: t.time_til_dormant_autodelete_ms,
    time_til_dormant_ms: t.time_til_dormant_ms,
    updated_at: t.updated_at,
    use_classic_parameter_flow: t.use_classic_parameter_flow
  }
  return makeTemplate(props)
}
