/**
 * The Templates service: creating templates from succeeded template versions, reading and
 * listing them (only those the caller may read, access lists included), changing and deleting
 * them, their access lists, and invalidating their presets' prebuilt workspaces.
 */
import { Clock, Context, Effect, Option } from "effect"
import { allowed, authorize, authorizeRead, authorizeVisible, CurrentActor } from "../Actor.js"
import { auditResource } from "../Audit.js"
import { BadRequest, Conflict, NotFound, ResponseBody, Validation } from "../Errors.js"
import { Events } from "../Events.js"
import { type GroupRecord, GroupRepo } from "../groups/Group.js"
import { groupObject, Groups, toGroup } from "../groups/Groups.js"
import { IdGenerator, isUuid } from "../Ids.js"
import type { OrganizationRecord } from "../organizations/Organization.js"
import { Organizations } from "../organizations/Organizations.js"
import { MemberRepo, OrganizationRepo } from "../organizations/Repositories.js"
import { jobStatus, ProvisionerJobRepo } from "../provisioners/ProvisionerJob.js"
import { PubSub } from "../PubSub.js"
import { Transactions } from "../Repositories.js"
import { givenFields } from "../Requests.js"
import { maskOfDays, MAX_AUTOSTOP_WEEKS, weekdaysProblem } from "../Schedule.js"
import { parseQuery } from "../SearchQuery.js"
import { span } from "../Tracing.js"
import { UserRepo } from "../users/Repositories.js"
import { toReducedUser, type UserRecord } from "../users/User.js"
import { toUser } from "../users/Users.js"
import { publishWorkspaceChange } from "../WorkspaceChannel.js"
import { BUILD_TIME_STATS_DAYS, BuildDurations, buildTimeStats } from "./BuildTimeStats.js"
import { DormantWorkspacesRedated, TemplateDeleted, TemplateDeprecated } from "./Events.js"
import { templateExamples } from "./Examples.js"
import type {
  CreateTemplateRequest,
  TemplateAclAvailableQuery,
  UpdateTemplateACL,
  UpdateTemplateMeta
} from "./Requests.js"
import {
  newTemplate,
  type TemplateAcl,
  templateObject,
  type TemplatePatch,
  type TemplateRecord,
  TemplateRepo,
  type TemplateRole
} from "./Template.js"
import { TemplateVersionRepo } from "./TemplateVersion.js"
import {
  ACLAvailable,
  InvalidatedPreset,
  InvalidatePresetsResponse,
  type PortShareLevel,
  type Template,
  TemplateACL,
  TemplateGroup,
  TemplateUser,
  toTemplate
} from "./TemplateWire.js"

/**
 * What a template change does to its workspaces, in the template update's transaction: the
 * workspaces area gives it (workspaces/PortShares.ts `templateWorkspacesLayer`), through the assembly.
 */
export class TemplateWorkspaces extends Context.Tag("@workbay/core/TemplateWorkspaces")<TemplateWorkspaces, {
  /** Lowers the port shares of the template's workspaces above `max` (to `owner`: deletes them). */
  readonly lowerPortShares: (templateId: string, max: typeof PortShareLevel.Type) => Effect.Effect<number>
  /** Sets `last_used_at` of the template's workspaces to `at`. */
  readonly touch: (templateId: string, at: Date) => Effect.Effect<void>
  /**
   * Dates again the deletion of the template's dormant workspaces (`dormantAt`, when given,
   * becomes their `dormant_at`); answers their ids.
   */
  readonly redateDormant: (
    templateId: string,
    autodeleteMs: number,
    dormantAt: Date | null
  ) => Effect.Effect<ReadonlyArray<string>>
}>() {}

/** How audit entries name a template. */
export const templateResource = (t: Pick<TemplateRecord, "id" | "name" | "organization_id" | "icon">) => ({
  type: "template",
  id: t.id,
  target: t.name,
  organizationId: t.organization_id,
  icon: t.icon
})

/** The audited fields of a template: everything but bookkeeping. */
const auditedFields = (t: TemplateRecord) => {
  const { updated_at: _u, created_at: _c, ...rest } = t
  return rest
}

/** The described system's answer of a DELETE. */
const deletedResponse = () => new ResponseBody({ message: "Template has been deleted!" }, true)

const nameConflict = (name: string) =>
  new Conflict({
    message: `Template with name "${name}" already exists.`,
    validations: [new Validation({ field: "name", detail: "This value is already in use and should be unique." })]
  })

/** Problems of the settings shared by create and update, one validation per bad field. */
const settingsProblems = (
  input: typeof CreateTemplateRequest.Type | typeof UpdateTemplateMeta.Type
): Array<Validation> => {
  const problems: Array<Validation> = []
  const durations = [
    "default_ttl_ms",
    "activity_bump_ms",
    "failure_ttl_ms",
    "dormant_ttl_ms",
    "delete_ttl_ms",
    "time_til_dormant_ms",
    "time_til_dormant_autodelete_ms"
  ] as const
  for (const field of durations) {
    const v = (input as Readonly<Record<string, unknown>>)[field]
    if (typeof v === "number" && v < 0) problems.push(new Validation({ field, detail: "Must be a positive integer." }))
  }
  const checkDays = (field: string, days: ReadonlyArray<string> | undefined) => {
    const detail = days === undefined ? undefined : weekdaysProblem(days)
    if (detail !== undefined) problems.push(new Validation({ field, detail }))
  }
  checkDays("autostop_requirement.days_of_week", input.autostop_requirement?.days_of_week)
  checkDays("autostart_requirement.days_of_week", input.autostart_requirement?.days_of_week)
  const weeks = input.autostop_requirement?.weeks
  if (weeks !== undefined && (weeks < 0 || weeks > MAX_AUTOSTOP_WEEKS)) {
    problems.push(
      new Validation({ field: "autostop_requirement.weeks", detail: `Must be between 0 and ${MAX_AUTOSTOP_WEEKS}.` })
    )
  }
  return problems
}

const lower = (days: ReadonlyArray<string>) => days.map((d) => d.toLowerCase())

/**
 * The stored fields of a template's schedule: a change of any of them is what makes the described
 * system's PATCH set the schedule, and only then does it move its workspaces' times
 * (`update_workspace_last_used_at`, `update_workspace_dormant_at`, `deleting_at`).
 */
const SCHEDULE_FIELDS = [
  "default_ttl_ms",
  "activity_bump_ms",
  "autostop_requirement_days_of_week",
  "autostop_requirement_weeks",
  "autostart_requirement_days_of_week",
  "failure_ttl_ms",
  "time_til_dormant_ms",
  "time_til_dormant_autodelete_ms",
  "allow_user_autostart",
  "allow_user_autostop"
] as const satisfies ReadonlyArray<keyof TemplateRecord>

/** The described system's `q` keys of a template search. */
const TEMPLATE_QUERY_KEYS = [
  "deleted",
  "organization",
  "exact_name",
  "exact_display_name",
  "name",
  "display_name",
  "ids",
  "deprecated",
  "has-ai-task",
  "author_id",
  "author",
  "has_external_agent"
]

const parseBool = (field: string, value: string | undefined, problems: Array<Validation>): boolean | undefined => {
  if (value === undefined) return undefined
  if (value === "true") return true
  if (value === "false") return false
  problems.push(new Validation({ field: "q", detail: `Query param "${field}" must be a valid boolean.` }))
  return undefined
}

export class Templates extends Effect.Service<Templates>()("@workbay/core/Templates", {
  effect: Effect.gen(function*() {
    const templates = yield* TemplateRepo
    const buildDurations = yield* BuildDurations
    const versions = yield* TemplateVersionRepo
    const jobs = yield* ProvisionerJobRepo
    const orgRepo = yield* OrganizationRepo
    const userRepo = yield* UserRepo
    const members = yield* MemberRepo
    const groupRepo = yield* GroupRepo
    const organizations = yield* Organizations
    const groups = yield* Groups
    const templateWorkspaces = yield* TemplateWorkspaces
    const pubsub = yield* PubSub
    const ids = yield* IdGenerator
    const events = yield* Events
    const tx = yield* Transactions
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    /**
     * Wire forms of several templates, with one lookup per organization and creator and one read
     * of their workspace owners (`active_user_count`).
     */
    const toWire = (records: ReadonlyArray<TemplateRecord>) =>
      Effect.gen(function*() {
        const orgs = new Map<string, OrganizationRecord | undefined>()
        const names = new Map<string, string>()
        for (const t of records) {
          if (!orgs.has(t.organization_id)) {
            orgs.set(t.organization_id, Option.getOrUndefined(yield* orgRepo.findById(t.organization_id)))
          }
          if (!names.has(t.created_by)) {
            names.set(
              t.created_by,
              Option.match(yield* userRepo.findById(t.created_by), { onNone: () => "", onSome: (u) => u.username })
            )
          }
        }
        const owners = yield* templates.workspaceOwnerCounts(records.map((t) => t.id))
        const since = new Date((yield* Clock.currentTimeMillis) - BUILD_TIME_STATS_DAYS * 86_400_000)
        const buildTimes = buildTimeStats(yield* buildDurations.of(records.map((t) => t.id), since))
        return records.map((t) =>
          toTemplate(
            t,
            orgs.get(t.organization_id),
            names.get(t.created_by) ?? "",
            owners.get(t.id) ?? 0,
            buildTimes.get(t.id)
          )
        )
      })

    /** A listing's order, as the described system's: most active users first, then by name (the stable order of `search`). */
    const byActiveUsers = (list: ReadonlyArray<Template>): Array<Template> =>
      [...list].sort((a, b) => b.active_user_count - a.active_user_count)

    const toOne = (t: TemplateRecord) => Effect.map(toWire([t]), (ts) => ts[0]!)

    /**
     * Resolves `{template}` (an id). A deleted template, or one the caller may not read, answers
     * 404. For reads (`read`) a token that does not cover reading it answers 403; for changes
     * (`act`) the token is asked about the change itself, next.
     */
    const resolve = (ref: string, mode: "read" | "act" = "read") =>
      Effect.gen(function*() {
        const found = isUuid(ref) ? yield* templates.findById(ref.toLowerCase()) : Option.none()
        if (Option.isNone(found) || found.value.deleted) return yield* NotFound.resource("Template")
        const t = found.value
        yield* mode === "read"
          ? authorizeRead("Template", templateObject(t))
          : authorizeVisible("Template", templateObject(t))
        return t
      })

    const get = (ref: string) => Effect.flatMap(resolve(ref), toOne).pipe(span("Templates.get"))

    const getByName = (orgRef: string, name: string) =>
      Effect.gen(function*() {
        const org = yield* organizations.resolve(orgRef)
        const found = yield* templates.findByName(org.id, name)
        if (Option.isNone(found)) return yield* NotFound.resource("Template")
        yield* authorizeRead("Template", templateObject(found.value))
        return yield* toOne(found.value)
      }).pipe(span("Templates.getByName"))

    /** Templates matching `q` (the described system's search keys) the caller may read, by name. */
    const search = (q: string | undefined, organizationId: string | undefined) =>
      Effect.gen(function*() {
        const query = yield* parseQuery(q?.toLowerCase(), TEMPLATE_QUERY_KEYS)
        const terms = query.terms
        const problems: Array<Validation> = []
        const deleted = parseBool("deleted", terms.get("deleted"), problems)
        // Deprecated templates are left out unless asked for, as in the described system.
        const deprecated = parseBool("deprecated", terms.get("deprecated"), problems) ?? false
        const hasAiTask = parseBool("has-ai-task", terms.get("has-ai-task"), problems)
        const hasExternalAgent = parseBool("has_external_agent", terms.get("has_external_agent"), problems)
        let orgId = organizationId
        const orgRef = terms.get("organization")
        if (orgRef !== undefined) {
          const org = yield* Effect.option(organizations.resolve(orgRef))
          if (Option.isNone(org)) {
            problems.push(new Validation({ field: "q", detail: `Organization "${orgRef}" not found.` }))
          } else if (orgId !== undefined && org.value.id !== orgId) return []
          else orgId = org.value.id
        }
        const idList = terms.get("ids")?.split(",").filter((s) => s !== "")
        if (idList !== undefined && idList.some((id) => !isUuid(id))) {
          problems.push(new Validation({ field: "q", detail: `Query param "ids" must be a list of valid UUIDs.` }))
        }
        let authorId = terms.get("author_id")
        if (authorId !== undefined && !isUuid(authorId)) {
          problems.push(new Validation({ field: "q", detail: `Query param "author_id" must be a valid UUID.` }))
        }
        const author = terms.get("author")
        if (author === "me") authorId = (yield* CurrentActor).user.id
        if (problems.length > 0) {
          return yield* new BadRequest({ message: "Invalid search query.", validations: problems })
        }
        // Deleted templates are never listed: a search for them finds none.
        if (deleted === true) return []
        let authorName: string | undefined
        if (author !== undefined && author !== "me") authorName = author
        const found = yield* templates.list({
          organizationId: orgId,
          ids: idList,
          exactName: terms.get("exact_name"),
          fuzzyName: terms.get("name"),
          deprecated
        })
        const fuzzyDisplay = [terms.get("display_name"), ...query.text].filter((s): s is string =>
          s !== undefined && s !== ""
        )
        const exactDisplay = terms.get("exact_display_name")
        const matching: Array<TemplateRecord> = []
        const authors = new Map<string, string>()
        for (const t of found) {
          const name = terms.get("name")
          if (name !== undefined && !t.name.toLowerCase().includes(name)) continue
          if (fuzzyDisplay.some((s) => !t.display_name.toLowerCase().includes(s))) continue
          if (exactDisplay !== undefined && t.display_name.toLowerCase() !== exactDisplay) continue
          if (authorId !== undefined && t.created_by !== authorId.toLowerCase()) continue
          if (authorName !== undefined) {
            if (!authors.has(t.created_by)) {
              authors.set(
                t.created_by,
                Option.match(yield* userRepo.findById(t.created_by), {
                  onNone: () => "",
                  onSome: (u) => u.username.toLowerCase()
                })
              )
            }
            if (authors.get(t.created_by) !== authorName) continue
          }
          if (hasAiTask !== undefined || hasExternalAgent !== undefined) {
            const active = Option.getOrUndefined(yield* versions.findById(t.active_version_id))
            const imported = active?.import_result
            if (hasAiTask !== undefined && (imported?.has_ai_task ?? false) !== hasAiTask) continue
            if (hasExternalAgent !== undefined && (imported?.has_external_agent ?? false) !== hasExternalAgent) continue
          }
          if (!(yield* allowed("read", templateObject(t)))) continue
          matching.push(t)
        }
        return matching
      })

    const list = (q: string | undefined) =>
      Effect.flatMap(search(q, undefined), toWire).pipe(Effect.map(byActiveUsers), span("Templates.list"))

    const listByOrganization = (orgRef: string, q?: string | undefined) =>
      Effect.gen(function*() {
        const org = yield* organizations.resolve(orgRef)
        return byActiveUsers(yield* toWire(yield* search(q, org.id)))
      }).pipe(span("Templates.listByOrganization"))

    /**
     * The starter templates (GET /templates/examples, GET /organizations/{organization}/templates/examples):
     * for whoever may read templates in that organization, or in any of theirs without one; as in
     * the described system anyone else gets 404 (a token whose scopes leave templates out, 403).
     */
    const examples = (orgRef?: string) =>
      Effect.gen(function*() {
        if (orgRef === undefined) {
          yield* authorizeRead("Template examples", { type: "template", anyOrg: true })
        } else {
          const org = yield* organizations.resolve(orgRef)
          yield* authorizeRead("Template examples", { type: "template", orgId: org.id })
        }
        return templateExamples()
      }).pipe(span("Templates.examples"))

    const create = (orgRef: string, input: typeof CreateTemplateRequest.Type) =>
      Effect.gen(function*() {
        const org = yield* organizations.resolve(orgRef)
        yield* authorize("create", { type: "template", orgId: org.id })
        const problems = settingsProblems(input)
        if (problems.length > 0) {
          return yield* new BadRequest({ message: "Invalid create template request.", validations: problems })
        }
        if (Option.isSome(yield* templates.findByName(org.id, input.name))) {
          return yield* nameConflict(input.name)
        }
        const versionId = input.template_version_id.toLowerCase()
        const version = yield* versions.findById(versionId)
        // A version of another organization is not offered: it answers like a missing one.
        if (Option.isNone(version) || version.value.organization_id !== org.id) {
          return yield* new NotFound({
            message: `Template version "${input.template_version_id}" does not exist.`,
            validations: [new Validation({ field: "template_version_id", detail: "Template version does not exist." })]
          })
        }
        const v = version.value
        if (v.template_id !== null) {
          return yield* BadRequest.field(
            "template_version_id",
            "Template version is already part of a template.",
            `Template version ${v.id} is already part of a template.`
          )
        }
        const job = yield* jobs.findById(v.job_id)
        const status = Option.match(job, { onNone: () => "unknown", onSome: jobStatus })
        if (status !== "succeeded") {
          return yield* BadRequest.field(
            "template_version_id",
            `The template version's import job has not succeeded (it is ${status}).`,
            "The template version is not ready to be used by a template."
          )
        }
        const at = yield* now
        const stop = input.autostop_requirement
        const record = newTemplate({
          id: yield* ids.uuid,
          at,
          organization_id: org.id,
          name: input.name,
          provisioner: v.provisioner,
          active_version_id: v.id,
          created_by: (yield* CurrentActor).user.id,
          ...givenFields({
            display_name: input.display_name,
            description: input.description,
            icon: input.icon,
            default_ttl_ms: input.default_ttl_ms,
            activity_bump_ms: input.activity_bump_ms,
            autostop_requirement_days_of_week: maskOfDays(lower(stop?.days_of_week ?? [])),
            autostop_requirement_weeks: stop?.weeks,
            autostart_requirement_days_of_week: input.autostart_requirement?.days_of_week === undefined
              ? undefined
              : maskOfDays(lower(input.autostart_requirement.days_of_week)),
            allow_user_cancel_workspace_jobs: input.allow_user_cancel_workspace_jobs,
            allow_user_autostart: input.allow_user_autostart,
            allow_user_autostop: input.allow_user_autostop,
            failure_ttl_ms: input.failure_ttl_ms,
            time_til_dormant_ms: input.dormant_ttl_ms,
            time_til_dormant_autodelete_ms: input.delete_ttl_ms,
            require_active_version: input.require_active_version,
            max_port_share_level: input.max_port_share_level,
            use_classic_parameter_flow: input.template_use_classic_parameter_flow,
            cors_behavior: input.cors_behavior
          }),
          ...(input.disable_everyone_group_access === true ? { group_acl: {} } : {})
        })
        yield* tx.atomic(Effect.gen(function*() {
          yield* templates.insert(record)
          yield* versions.update(v.id, { template_id: record.id }, at)
        })).pipe(Effect.catchTag("UniqueViolation", () => Effect.fail(nameConflict(input.name))))
        yield* auditResource(templateResource(record), undefined, auditedFields(record))
        return yield* toOne(record)
      }).pipe(span("Templates.create"))

    /** The changed fields of `t` under `input`; empty when nothing would change. */
    const patchOf = (t: TemplateRecord, input: typeof UpdateTemplateMeta.Type): TemplatePatch => {
      const patch: Record<string, unknown> = {}
      const set = <K extends keyof TemplateRecord>(key: K, value: TemplateRecord[K] | undefined) => {
        if (value !== undefined && JSON.stringify(value) !== JSON.stringify(t[key])) patch[key] = value
      }
      set("name", input.name === "" ? undefined : input.name)
      set("display_name", input.display_name)
      set("description", input.description)
      set("icon", input.icon)
      set("default_ttl_ms", input.default_ttl_ms)
      set("activity_bump_ms", input.activity_bump_ms)
      if (input.autostop_requirement !== undefined) {
        set(
          "autostop_requirement_days_of_week",
          input.autostop_requirement.days_of_week === undefined
            ? undefined
            : maskOfDays(lower(input.autostop_requirement.days_of_week))
        )
        // 0 and 1 both mean every week.
        const weeks = input.autostop_requirement.weeks
        if (weeks !== undefined && Math.max(1, weeks) !== Math.max(1, t.autostop_requirement_weeks)) {
          patch.autostop_requirement_weeks = weeks
        }
      }
      if (input.autostart_requirement?.days_of_week !== undefined) {
        set("autostart_requirement_days_of_week", maskOfDays(lower(input.autostart_requirement.days_of_week)))
      }
      set("allow_user_cancel_workspace_jobs", input.allow_user_cancel_workspace_jobs)
      set("allow_user_autostart", input.allow_user_autostart)
      set("allow_user_autostop", input.allow_user_autostop)
      set("failure_ttl_ms", input.failure_ttl_ms)
      set("time_til_dormant_ms", input.time_til_dormant_ms)
      set("time_til_dormant_autodelete_ms", input.time_til_dormant_autodelete_ms)
      set("require_active_version", input.require_active_version)
      set("max_port_share_level", input.max_port_share_level)
      set("cors_behavior", input.cors_behavior)
      set("deprecated", input.deprecation_message)
      set("use_classic_parameter_flow", input.use_classic_parameter_flow)
      if (input.disable_everyone_group_access === true && Object.hasOwn(t.group_acl, t.organization_id)) {
        const { [t.organization_id]: _, ...rest } = t.group_acl
        patch.group_acl = rest
      }
      return patch as TemplatePatch
    }

    /**
     * PATCH /templates/{template}: the changed settings. `Option.none()` when nothing would
     * change (the described system answers 304 Not Modified then).
     */
    const update = (ref: string, input: typeof UpdateTemplateMeta.Type) =>
      Effect.gen(function*() {
        const t = yield* resolve(ref, "act")
        yield* authorize("update", templateObject(t))
        const problems = settingsProblems(input)
        if (problems.length > 0) {
          return yield* new BadRequest({
            message: "Invalid request to update template metadata.",
            validations: problems
          })
        }
        const patch = patchOf(t, input)
        if (Object.keys(patch).length === 0) return Option.none<Template>()
        const at = yield* now
        const maxLevel = patch.max_port_share_level as typeof PortShareLevel.Type | undefined
        const scheduleChanged = SCHEDULE_FIELDS.some((field) => patch[field] !== undefined)
        const touchLastUsed = scheduleChanged && input.update_workspace_last_used_at === true
        const moveDormant = scheduleChanged && input.update_workspace_dormant_at === true
        // A lower maximum lowers the port shares of the template's workspaces above it (to `owner`:
        // deletes them), and a schedule change moves the times of its workspaces, in the same
        // transaction as the template, as the described system does.
        const { redated, updated } = yield* tx.atomic(Effect.gen(function*() {
          const changed = yield* templates.update(t.id, { ...patch, updated_at: at })
          if (Option.isNone(changed)) return { updated: changed, redated: [] }
          if (maxLevel !== undefined) yield* templateWorkspaces.lowerPortShares(t.id, maxLevel)
          // The template's schedule fields mark its workspaces due for the lifecycle executor (the
          // template update's statement); moved deletion times mark theirs (redateDormantByTemplate).
          // A later last_used_at only delays dormancy, so it marks nothing.
          if (touchLastUsed) yield* templateWorkspaces.touch(t.id, at)
          // `deleting_at` is dormant_at + the template's autodelete time: it moves with a new
          // autodelete time (0: none) or with dormant_at itself.
          const redated = moveDormant || patch.time_til_dormant_autodelete_ms !== undefined
            ? yield* templateWorkspaces.redateDormant(
              t.id,
              changed.value.time_til_dormant_autodelete_ms,
              moveDormant ? at : null
            )
            : []
          return { updated: changed, redated }
        })).pipe(Effect.catchTag("UniqueViolation", () => Effect.fail(nameConflict(patch.name ?? t.name))))
        if (Option.isNone(updated)) return yield* NotFound.resource("Template")
        // Watchers see the moved deletion times (committed by now); `last_used_at` alone signals nothing.
        yield* Effect.forEach(redated, (id) => publishWorkspaceChange(id), { discard: true }).pipe(
          Effect.provideService(PubSub, pubsub)
        )
        yield* auditResource(templateResource(updated.value), auditedFields(t), auditedFields(updated.value))
        // The owners hear of new deletion times of dormant workspaces and of a new deprecation.
        if (patch.time_til_dormant_autodelete_ms !== undefined) {
          yield* events.publish(
            new DormantWorkspacesRedated({
              workspaceIds: redated,
              autodeleteMs: updated.value.time_til_dormant_autodelete_ms
            })
          )
        }
        if (patch.deprecated !== undefined && updated.value.deprecated !== "") {
          yield* events.publish(new TemplateDeprecated({ template: updated.value, message: updated.value.deprecated }))
        }
        return Option.some(yield* toOne(updated.value))
      }).pipe(span("Templates.update"))

    const remove = (ref: string) =>
      Effect.gen(function*() {
        const t = yield* resolve(ref, "act")
        yield* authorize("delete", templateObject(t))
        if (yield* templates.hasWorkspaces(t.id)) {
          return yield* new BadRequest({ message: "All workspaces must be deleted before a template can be removed." })
        }
        const done = yield* templates.update(t.id, { deleted: true, updated_at: yield* now }).pipe(
          // Deleted templates leave the name index: no clash can come from this change.
          Effect.catchTag("UniqueViolation", (e) => Effect.die(e))
        )
        if (Option.isNone(done)) {
          // Already deleted by a concurrent request: gone either way.
          const again = yield* templates.findById(t.id)
          if (Option.isNone(again) || !again.value.deleted) return yield* NotFound.resource("Template")
        }
        yield* auditResource(templateResource(t), auditedFields(t), { ...auditedFields(t), deleted: true })
        const actor = yield* CurrentActor
        yield* events.publish(
          new TemplateDeleted({ template: t, initiatorId: actor.user.id, initiator: actor.user.username })
        )
        return deletedResponse()
      }).pipe(span("Templates.delete"))

    /** GET /templates/{template}/acl: the entries whose user or group the caller may see. */
    const getAcl = (ref: string) =>
      Effect.gen(function*() {
        const t = yield* resolve(ref)
        const userIds = Object.keys(t.user_acl)
        const found: Array<{ user: UserRecord; role: TemplateRole }> = []
        for (const id of userIds) {
          const u = yield* userRepo.findById(id)
          if (Option.isSome(u) && !u.value.deleted) found.push({ user: u.value, role: t.user_acl[id]! })
        }
        const orgsOf = found.length === 0
          ? new Map<string, ReadonlyArray<string>>()
          : yield* members.ofUsers(found.map((f) => f.user.id))
        const users = found
          .sort((a, b) => a.user.username.localeCompare(b.user.username))
          .map(({ role, user }) => new TemplateUser({ ...toUser(user, orgsOf.get(user.id) ?? []), role }, true))
        const groupList: Array<TemplateGroup> = []
        for (const [id, role] of Object.entries(t.group_acl)) {
          const g = yield* groups.get(id).pipe(Effect.option)
          if (Option.isSome(g)) groupList.push(new TemplateGroup({ ...g.value, role }, true))
        }
        groupList.sort((a, b) => a.name.localeCompare(b.name))
        return new TemplateACL({ users, group: groupList }, true)
      }).pipe(span("Templates.getAcl"))

    const ROLE_VALUES = ["admin", "use", ""]

    /** PATCH /templates/{template}/acl: sets (or with `""` removes) entries; each bad entry is one validation. */
    const updateAcl = (ref: string, input: typeof UpdateTemplateACL.Type) =>
      Effect.gen(function*() {
        const t = yield* resolve(ref, "act")
        yield* authorize("update", templateObject(t))
        const problems: Array<Validation> = []
        const userPerms = Object.entries(input.user_perms ?? {})
        const groupPerms = Object.entries(input.group_perms ?? {})
        const badRole = (field: string, id: string, role: string) =>
          new Validation({
            field,
            detail: `Invalid role "${role}" for "${id}": must be one of admin, use or "" (remove).`
          })
        const orgIdsOf = yield* members.ofUsers(userPerms.map(([id]) => id.toLowerCase()).filter(isUuid))
        for (const [id, role] of userPerms) {
          if (!ROLE_VALUES.includes(role)) problems.push(badRole("user_perms", id, role))
          else if (role === "") continue
          else if (!isUuid(id)) {
            problems.push(new Validation({ field: "user_perms", detail: `"${id}" is not a valid user id.` }))
          } else {
            const u = yield* userRepo.findById(id.toLowerCase())
            if (Option.isNone(u) || u.value.deleted) {
              problems.push(new Validation({ field: "user_perms", detail: `Failed to find user "${id}".` }))
            } else if (!(orgIdsOf.get(u.value.id) ?? []).includes(t.organization_id)) {
              problems.push(
                new Validation({
                  field: "user_perms",
                  detail: `User "${u.value.username}" is not a member of the template's organization.`
                })
              )
            }
          }
        }
        for (const [id, role] of groupPerms) {
          if (!ROLE_VALUES.includes(role)) problems.push(badRole("group_perms", id, role))
          else if (role === "") continue
          else if (!isUuid(id)) {
            problems.push(new Validation({ field: "group_perms", detail: `"${id}" is not a valid group id.` }))
          } else {
            const g = yield* groupRepo.findById(id.toLowerCase())
            if (Option.isNone(g) || g.value.organization_id !== t.organization_id) {
              problems.push(
                new Validation({
                  field: "group_perms",
                  detail: `Failed to find group "${id}" in the template's organization.`
                })
              )
            }
          }
        }
        if (problems.length > 0) {
          return yield* new BadRequest({ message: "Invalid request to update template ACL.", validations: problems })
        }
        const apply = (acl: TemplateAcl, perms: ReadonlyArray<[string, string]>): TemplateAcl => {
          const next: Record<string, TemplateRole> = { ...acl }
          for (const [rawId, role] of perms) {
            const id = rawId.toLowerCase()
            if (role === "") {
              delete next[id]
            } else next[id] = role as TemplateRole
          }
          return next
        }
        const user_acl = apply(t.user_acl, userPerms)
        const group_acl = apply(t.group_acl, groupPerms)
        const updated = yield* templates.update(t.id, { user_acl, group_acl, updated_at: yield* now }).pipe(
          Effect.catchTag("UniqueViolation", (e) => Effect.die(e))
        )
        if (Option.isNone(updated)) return yield* NotFound.resource("Template")
        yield* auditResource(
          templateResource(t),
          { user_acl: t.user_acl, group_acl: t.group_acl },
          { user_acl: updated.value.user_acl, group_acl: updated.value.group_acl }
        )
        return new ResponseBody({ message: "Successfully updated template ACL list." }, true)
      }).pipe(span("Templates.updateAcl"))

    /**
     * GET /templates/{template}/acl/available: members and groups of the template's organization
     * that could be added. Needs `update` on the template (else 404, as the described system).
     */
    const aclAvailable = (ref: string, input: typeof TemplateAclAvailableQuery.Type) =>
      Effect.gen(function*() {
        const t = yield* resolve(ref)
        if (!(yield* allowed("update", templateObject(t)))) return yield* NotFound.resource("Template")
        const query = yield* parseQuery(input.q, [])
        const text = query.text.join(" ").toLowerCase()
        const limit = Math.min(input.limit !== undefined && input.limit > 0 ? input.limit : 100, 1000)
        const page = yield* userRepo.list({
          organizationId: t.organization_id,
          search: text === "" ? undefined : text,
          status: "active",
          limit,
          offset: 0
        })
        const all = yield* groupRepo.list({ organizationId: t.organization_id })
        const groupList: Array<GroupRecord> = all.filter((g) =>
          text === "" || g.name.toLowerCase().includes(text) || g.display_name.toLowerCase().includes(text)
        )
        const visible = yield* Effect.filter(groupList, (g) => allowed("read", groupObject(g)))
        return new ACLAvailable({
          users: page.users.map(toReducedUser),
          // Members are not listed here (the picker shows names and sizes): see total_member_count.
          groups: visible.slice(0, limit).map((g) => toGroup(g, []))
        }, true)
      }).pipe(span("Templates.aclAvailable"))

    /**
     * POST /templates/{template}/prebuilds/invalidate: the active version's presets that keep
     * prebuilt workspaces. The route is `PrebuildsReconciler.invalidate`, which calls this and
     * then deletes the template's prebuilt workspaces (the reconciler builds fresh ones).
     */
    const invalidatePresets = (ref: string) =>
      Effect.gen(function*() {
        const t = yield* resolve(ref, "act")
        yield* authorize("update", templateObject(t))
        const active = Option.getOrUndefined(yield* versions.findById(t.active_version_id))
        const presets = active?.import_result?.presets ?? []
        return new InvalidatePresetsResponse({
          invalidated: presets
            .filter((p) => (p.prebuild?.instances ?? 0) > 0)
            .map((p) =>
              new InvalidatedPreset(
                { preset_name: p.name, template_name: t.name, template_version_name: active!.name },
                true
              )
            )
        }, true)
      }).pipe(span("Templates.invalidatePresets"))

    return {
      resolve,
      get,
      getByName,
      list,
      listByOrganization,
      create,
      update,
      delete: remove,
      getAcl,
      updateAcl,
      aclAvailable,
      invalidatePresets,
      examples
    } as const
  }),
  dependencies: [Organizations.Default, Groups.Default]
}) {}
