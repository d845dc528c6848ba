/**
 * The Workspaces service: creating workspaces (with their first build), reading and listing
 * them with every field of the wire record, renaming, favorites, who a caller may create
 * workspaces for, and the reads of a workspace's builds by workspace. Rules and messages follow
 * the described system's workspace routes; see docs/workspaces.md.
 *
 * Authorization: creating needs `create` on a workspace of the owner in the organization and
 * `use` on the template; reading needs `read` on the workspace (404 otherwise); renaming
 * `update` (403). Owners reach their own workspaces through the member role's owned grants,
 * organization admins every workspace of their organization, template admins read them, and a
 * workspace's sharing list grants its roles.
 */
import { Clock, Effect, Either, Option } from "effect"
import { allowed, authorize, authorizeRead, CurrentActor, decision } from "../Actor.js"
import { auditAdditional, auditResource } from "../Audit.js"
import { Licensing } from "../enterprise/Entitlements.js"
import { BadRequest, Conflict, Forbidden, NotFound, Validation } from "../Errors.js"
import { Events } from "../Events.js"
import { IdGenerator, isUuid, NullUuid } from "../Ids.js"
import { Organizations } from "../organizations/Organizations.js"
import { MemberRepo, OrganizationRepo } from "../organizations/Repositories.js"
import { jobStatus } from "../provisioners/ProvisionerJob.js"
import { Transactions } from "../Repositories.js"
import { nextOccurrence, parseWeeklySchedule, ttlProblem } from "../Schedule.js"
import { enumTerm, parseQuery } from "../SearchQuery.js"
import { Settings } from "../Settings.js"
import { sideBySide } from "../SideBySide.js"
import { templateObject, type TemplateRecord, TemplateRepo } from "../templates/Template.js"
import { type TemplateVersionRecord, TemplateVersionRepo } from "../templates/TemplateVersion.js"
import { span } from "../Tracing.js"
import { UserRepo } from "../users/Repositories.js"
import { toMinimalUser, type UserRecord } from "../users/User.js"
import { resolveUserRef } from "../users/UserRef.js"
import { putNonEmpty, wireMaker, type WireProps } from "../Wire.js"
import { publishWorkspaceChange } from "../WorkspaceChannel.js"
import { WorkspaceCreated } from "./Events.js"
import { makePrebuiltWorkspaces } from "./PrebuiltWorkspaces.js"
import type { AvailableUsersQuery, CreateWorkspaceRequest, ListBuildsQuery, ListWorkspacesQuery } from "./Requests.js"
import { WorkspaceSharing } from "./Sharing.js"
import {
  newWorkspace,
  PREBUILDS_USER_ID,
  type WorkspaceFilter,
  type WorkspacePatch,
  type WorkspaceRecord,
  WorkspaceRepo
} from "./Workspace.js"
import { WorkspaceBuildRepo, type WorkspaceBuildSummary, workspaceStatuses } from "./WorkspaceBuild.js"
import { WorkspaceBuilds, workspaceResource } from "./WorkspaceBuilds.js"
import { toAppStatus, Workspace, workspaceHealth, WorkspacesResponse } from "./WorkspaceWire.js"

/** The default and the largest page of a workspace listing (a larger limit is cut to this). */
export const DEFAULT_WORKSPACES_PAGE = 25
export const MAX_WORKSPACES_PAGE = 100

/** The `q` keys of `GET /workspaces`. */
export const workspaceSearchKeys = [
  "owner",
  "template",
  "name",
  "status",
  "outdated",
  "dormant",
  "has-agent",
  "last_used_before",
  "last_used_after",
  "has-ai-task",
  "organization",
  "deleted",
  "id"
] as const

const makeWorkspace = wireMaker(Workspace)

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
const workspaceNotFound = () => NotFound.resource("Workspace")

const boolTerm = (key: string, value: string | undefined) =>
  value === undefined
    ? Effect.succeed(undefined)
    : value === "true" || value === "false"
    ? Effect.succeed(value === "true")
    : Effect.fail(
      new BadRequest({
        message: "Invalid search query.",
        validations: [new Validation({ field: "q", detail: `Query param "${key}" must be a valid boolean.` })]
      })
    )

const dateTerm = (key: string, value: string | undefined) => {
  if (value === undefined) return Effect.succeed(undefined)
  const d = new Date(value)
  return Number.isNaN(d.getTime())
    ? Effect.fail(
      new BadRequest({
        message: "Invalid search query.",
        validations: [
          new Validation({ field: "q", detail: `Query param "${key}" must be a valid date-time (RFC 3339).` })
        ]
      })
    )
    : Effect.succeed(d)
}

export class Workspaces extends Effect.Service<Workspaces>()("@workbay/core/Workspaces", {
  effect: Effect.gen(function*() {
    const sharing = yield* WorkspaceSharing
    const workspaces = yield* WorkspaceRepo
    const builds = yield* WorkspaceBuildRepo
    const buildService = yield* WorkspaceBuilds
    const templates = yield* TemplateRepo
    const versions = yield* TemplateVersionRepo
    const users = yield* UserRepo
    const members = yield* MemberRepo
    const orgRepo = yield* OrganizationRepo
    const organizations = yield* Organizations
    const ids = yield* IdGenerator
    const tx = yield* Transactions
    const settings = yield* Settings
    const events = yield* Events
    const readPrebuilt = yield* makePrebuiltWorkspaces
    const licensing = yield* Licensing
    /** `{user}`: an id, a username or `me`; deleted users are not found. */
    const resolveUser = (ref: string) => resolveUserRef(users, ref)

    /**
     * The wire records of workspaces: latest builds (unless given: a list's page reads them with its
     * rows), then in one round their templates, organizations, owners and initiators, sharing and
     * the builds' details, each read once. A workspace with no build or no template is left out
     * (see `toWire`).
     */
    const toWires = (list: ReadonlyArray<WorkspaceRecord>, latestBuilds?: ReadonlyArray<WorkspaceBuildSummary>) =>
      Effect.gen(function*() {
        if (list.length === 0) return []
        const latest = latestBuilds ?? (yield* builds.latestSummariesOf(list.map((w) => w.id)))
        const templateIds = [...new Set(list.map((w) => w.template_id))]
        const userIds = [...new Set([...list.map((w) => w.owner_id), ...latest.map((b) => b.initiator_id)])]
        // The reads that need none of the others side by side (on Postgres, several of the pool's
        // connections at once: a list's page waited for each round trip in turn).
        const [templateRecords, organizations, userRecords, sharedWith, details] = yield* sideBySide([
          templates.findByIds(templateIds),
          orgRepo.findByIds([...new Set(list.map((w) => w.organization_id))]),
          users.findByIds(userIds),
          sharing.sharedWithAll(list),
          buildService.detailsOf(latest)
        ])
        const foundTemplates = new Map(templateRecords.map((t) => [t.id, t]))
        const tpl = new Map<string, TemplateRecord | undefined>(templateIds.map((id) => [id, foundTemplates.get(id)]))
        const orgNames = new Map(organizations.map((o) => [o.id, o.name]))
        const found = new Map(userRecords.map((u) => [u.id, u]))
        const people = new Map<string, UserRecord | undefined>(userIds.map((id) => [id, found.get(id)]))
        const buildList = yield* buildService.toWires(latest, list, { users: people, templates: tpl, details })
        const buildWires = new Map(buildList.map((b) => [b.workspace_id, b]))
        const shared = new Map(list.map((w, i) => [w.id, sharedWith[i]!]))
        return list.flatMap((w) => {
          const build = buildWires.get(w.id)
          const t = tpl.get(w.template_id)
          if (build === undefined || t === undefined) return []
          const owner = people.get(w.owner_id)
          const props: WireProps<typeof Workspace> = {
            id: w.id,
            created_at: w.created_at,
            updated_at: w.updated_at,
            owner_id: w.owner_id,
            owner_name: owner?.username ?? "",
            owner_avatar_url: owner?.avatar_url ?? "",
            organization_id: w.organization_id,
            organization_name: orgNames.get(w.organization_id) ?? "",
            template_id: t.id,
            template_name: t.name,
            template_display_name: t.display_name,
            template_icon: t.icon,
            template_allow_user_cancel_workspace_jobs: t.allow_user_cancel_workspace_jobs,
            template_active_version_id: t.active_version_id,
            template_require_active_version: t.require_active_version,
            template_use_classic_parameter_flow: t.use_classic_parameter_flow,
            latest_build: build,
            latest_app_status: w.latest_app_status == null ? null : toAppStatus(w.latest_app_status),
            outdated: build.template_version_id !== t.active_version_id,
            name: w.name,
            last_used_at: w.last_used_at,
            deleting_at: w.deleting_at,
            dormant_at: w.dormant_at,
            health: workspaceHealth(build.resources),
            automatic_updates: w.automatic_updates,
            allow_renames: settings.allowWorkspaceRenames,
            favorite: w.favorite,
            next_start_at: w.next_start_at,
            is_prebuild: w.owner_id === PREBUILDS_USER_ID,
            task_id: w.task_id == null ? NullUuid.none : NullUuid.of(w.task_id),
            shared_with: shared.get(w.id) ?? []
          }
          putNonEmpty(props, "autostart_schedule", w.autostart_schedule)
          putNonEmpty(props, "ttl_ms", w.ttl_ms ?? undefined)
          return [makeWorkspace(props)]
        })
      }).pipe(span("Workspaces.toWires"))

    /**
     * The wire record of one workspace. A row with no build (or no template) has no record: it
     * answers 404, as lists leave it out (`toWires`). The API never writes one (create writes the
     * workspace and its first build in one transaction); only a row written another way can be.
     */
    const toWire = (w: WorkspaceRecord) =>
      Effect.flatMap(toWires([w]), (ws) => ws.length === 1 ? Effect.succeed(ws[0]!) : Effect.fail(workspaceNotFound()))

    /** The workspace `id` the caller may read; a deleted one only with `includeDeleted`. */
    const readable = (id: string, includeDeleted = false) =>
      Effect.gen(function*() {
        const found = isUuid(id) ? yield* workspaces.findById(id.toLowerCase()) : Option.none()
        if (Option.isNone(found) || (found.value.deleted && !includeDeleted)) return yield* workspaceNotFound()
        yield* authorizeRead("Workspace", sharing.object(found.value))
        return found.value
      })

    const byOwnerAndName = (userRef: string, name: string, includeDeleted: boolean) =>
      Effect.gen(function*() {
        const owner = yield* Effect.catchTag(resolveUser(userRef), "NotFound", () => workspaceNotFound())
        const found = yield* workspaces.findByOwnerAndName(owner.id, name, includeDeleted)
        if (Option.isNone(found)) return yield* workspaceNotFound()
        yield* authorizeRead("Workspace", sharing.object(found.value))
        return found.value
      })

    const nameTaken = (name: string) =>
      new Conflict({
        message: `Workspace "${name}" already exists.`,
        validations: [new Validation({ field: "name", detail: "This value is already in use and should be unique." })]
      })

    /** The template and version a create names (400 when they do not exist or do not fit). */
    const templateAndVersion = (input: typeof CreateWorkspaceRequest.Type, orgId: string | undefined) =>
      Effect.gen(function*() {
        if (input.template_id !== undefined && input.template_version_id !== undefined) {
          return yield* new BadRequest({
            message: "You cannot specify both a template_id and a template_version_id.",
            validations: [
              new Validation({
                field: "template_id",
                detail: "Only one of template_id and template_version_id may be given."
              }),
              new Validation({
                field: "template_version_id",
                detail: "Only one of template_id and template_version_id may be given."
              })
            ]
          })
        }
        if (input.template_id === undefined && input.template_version_id === undefined) {
          return yield* new BadRequest({
            message: "A template_id or template_version_id is required.",
            validations: [
              new Validation({
                field: "template_id",
                detail: "One of template_id and template_version_id is required."
              }),
              new Validation({
                field: "template_version_id",
                detail: "One of template_id and template_version_id is required."
              })
            ]
          })
        }
        let template: TemplateRecord | undefined
        let versionId: string
        if (input.template_version_id !== undefined) {
          const version = yield* versions.findById(input.template_version_id.toLowerCase())
          const tid = Option.isSome(version) ? version.value.template_id : null
          const t = tid === null ? Option.none() : yield* templates.findById(tid)
          if (
            Option.isNone(version) || Option.isNone(t) || t.value.deleted ||
            !(yield* allowed("read", templateObject(t.value)))
          ) {
            return yield* BadRequest.field(
              "template_version_id",
              `Template version ${JSON.stringify(input.template_version_id)} doesn't exist.`,
              "Template version not found."
            )
          }
          template = t.value
          versionId = version.value.id
        } else {
          const t = yield* templates.findById(input.template_id!.toLowerCase())
          if (Option.isNone(t) || t.value.deleted || !(yield* allowed("read", templateObject(t.value)))) {
            return yield* BadRequest.field(
              "template_id",
              `Template ${JSON.stringify(input.template_id)} doesn't exist.`,
              "Template not found."
            )
          }
          template = t.value
          versionId = template.active_version_id
        }
        if (orgId !== undefined && template.organization_id !== orgId) {
          return yield* BadRequest.field(
            input.template_id !== undefined ? "template_id" : "template_version_id",
            "The template belongs to another organization.",
            "Template not found."
          )
        }
        const version = Option.getOrUndefined(yield* versions.findById(versionId))
        if (version === undefined) {
          return yield* BadRequest.field(
            "template_version_id",
            "The template's version is missing.",
            "Template version not found."
          )
        }
        return { template, version }
      })

    /**
     * Claims a ready prebuilt workspace of the preset (docs/prebuilds.md): the prebuilds user's
     * workspace whose latest build is a succeeded start of `version` with the preset and the same
     * parameters, oldest first. It moves to the owner under the requested name (a guarded update:
     * a claim racing for the same one moves on to the next) with a start build by the caller, in
     * one transaction, audited as the workspace's creation with `claimed_prebuild`. Undefined
     * when none is ready: the caller builds a new workspace.
     */
    const claimPrebuild = (c: {
      readonly template: TemplateRecord
      readonly version: TemplateVersionRecord
      readonly presetId: string
      readonly parameters: ReadonlyArray<{ readonly name: string; readonly value: string }>
      readonly ownerId: string
      readonly name: string
      readonly initiatorId: string
      readonly patch: WorkspacePatch
      readonly importJob: Parameters<typeof buildService.queue>[0]["importJob"]
    }) =>
      Effect.gen(function*() {
        const read = yield* readPrebuilt(builds.latestOf, c.template.id)
        const prebuilt = read.owned
        if (prebuilt.length === 0) return undefined
        const latest = new Map(read.latest.map((b) => [b.workspace_id, b]))
        const jobsById = read.jobsById
        const key = (ps: ReadonlyArray<{ readonly name: string; readonly value: string }>) =>
          JSON.stringify([...ps].map((p) => [p.name, p.value]).sort())
        const wanted = key(c.parameters)
        const ready = [...prebuilt].sort((a, b) => a.created_at.getTime() - b.created_at.getTime()).filter((w) => {
          const b = latest.get(w.id)
          const job = b === undefined ? undefined : jobsById.get(b.job_id)
          return b !== undefined && job !== undefined && b.transition === "start" &&
            jobStatus(job) === "succeeded" && b.template_version_id === c.version.id &&
            b.template_version_preset_id === c.presetId && key(b.parameters) === wanted
        })
        for (const candidate of ready) {
          const claimed = yield* tx.atomic(Effect.gen(function*() {
            const moved = yield* workspaces.claim(candidate.id, PREBUILDS_USER_ID, c.ownerId, c.name, c.patch).pipe(
              Effect.catchTag("UniqueViolation", () => Effect.fail(nameTaken(c.name)))
            )
            if (Option.isNone(moved)) return undefined
            const queued = yield* buildService.queue({
              workspace: moved.value,
              template: c.template,
              version: c.version,
              previous: latest.get(candidate.id),
              transition: "start",
              parameters: c.parameters,
              initiatorId: c.initiatorId,
              reason: "initiator",
              presetId: c.presetId,
              orphan: false,
              importJob: c.importJob,
              prebuildStage: "claim"
            })
            return { workspace: moved.value, build: queued.build }
          }))
          if (claimed === undefined) continue
          yield* auditResource(
            workspaceResource(claimed.workspace),
            auditedWorkspace(candidate),
            auditedWorkspace(claimed.workspace)
          )
          yield* auditAdditional({
            claimed_prebuild: true,
            prebuild_workspace_name: candidate.name,
            build_number: String(claimed.build.build_number),
            build_reason: "initiator"
          })
          return claimed.workspace
        }
        return undefined
      })

    /**
     * Creates a workspace for `{user}` in `{organization}` (or the template's organization) with
     * its first build (a start) and that build's job, in one transaction.
     */
    const create = (
      orgRef: string | undefined,
      userRef: string,
      input: typeof CreateWorkspaceRequest.Type,
      options: { readonly taskId?: string | undefined } = {}
    ) =>
      Effect.gen(function*() {
        const actor = yield* CurrentActor
        const org = orgRef === undefined ? undefined : yield* organizations.resolve(orgRef)
        const owner = yield* resolveUser(userRef)
        const { template, version } = yield* templateAndVersion(input, org?.id)
        const orgId = template.organization_id
        const member = yield* members.find(orgId, owner.id)
        if (Option.isNone(member)) {
          return yield* new NotFound({
            message: "Organization member not found.",
            detail: `${owner.username} is not a member of the template's organization.`
          })
        }
        yield* authorize("create", { type: "workspace", orgId, ownerId: owner.id })
        yield* authorize("use", templateObject(template))
        if (template.deprecated !== "") {
          return yield* BadRequest.field(
            "template_id",
            template.deprecated,
            `Template ${
              JSON.stringify(template.name)
            } has been deprecated, and cannot be used to create a new workspace.`
          )
        }
        const templateAdmin = yield* allowed("update", templateObject(template))
        if (
          input.template_version_id !== undefined && template.require_active_version &&
          version.id !== template.active_version_id &&
          !templateAdmin
        ) {
          return yield* new Forbidden({
            message: "cannot use non-active version: The template requires workspaces to use its active version.",
            validations: [
              new Validation({ field: "template_version_id", detail: "Must be the template's active version." })
            ]
          })
        }
        if (version.archived) {
          return yield* BadRequest.field(
            "template_version_id",
            "Archived template versions cannot be used to make a workspace."
          )
        }
        const at = yield* now
        // Schedules: a template that does not let users set them keeps its own.
        let ttl: number | null = template.default_ttl_ms > 0 ? template.default_ttl_ms : null
        if (input.ttl_ms !== undefined && template.allow_user_autostop) {
          const problem = input.ttl_ms === 0 ? undefined : ttlProblem(input.ttl_ms)
          if (problem !== undefined) {
            return yield* BadRequest.field("ttl_ms", problem, "Invalid Workspace Time to Shutdown.")
          }
          ttl = input.ttl_ms === 0 ? null : input.ttl_ms
        }
        let schedule = ""
        let nextStart: Date | null = null
        if (input.autostart_schedule !== undefined && input.autostart_schedule !== "") {
          const raw = input.autostart_schedule.trim()
          const parsed = parseWeeklySchedule(raw)
          if (Either.isLeft(parsed)) {
            return yield* BadRequest.field("autostart_schedule", parsed.left.message, "Invalid Autostart Schedule.")
          }
          if (template.allow_user_autostart) {
            schedule = raw
            nextStart = nextOccurrence(parsed.right, at)
          }
        }
        const existing = yield* workspaces.findByOwnerAndName(owner.id, input.name, false)
        if (Option.isSome(existing)) return yield* nameTaken(input.name)
        const importJob = yield* buildService.importedVersion(version)
        const preset = yield* buildService.presetOf(version, input.template_version_preset_id)
        const parameters = yield* buildService.parametersFor(
          version,
          input.rich_parameter_values ?? [],
          undefined,
          preset?.parameters,
          owner.id
        )
        if (
          preset !== undefined && (preset.prebuild?.instances ?? 0) > 0 &&
          (yield* licensing.enabled("workspace_prebuilds"))
        ) {
          const claimed = yield* claimPrebuild({
            template,
            version,
            presetId: preset.id,
            parameters,
            ownerId: owner.id,
            name: input.name,
            initiatorId: actor.user.id,
            patch: {
              autostart_schedule: schedule,
              ttl_ms: ttl,
              next_start_at: nextStart,
              automatic_updates: input.automatic_updates ?? "never",
              last_used_at: at,
              updated_at: at
            },
            importJob
          })
          if (claimed !== undefined) {
            yield* events.publish(
              new WorkspaceCreated({ workspace: claimed, templateName: template.name, versionName: version.name })
            )
            return yield* toWire(claimed)
          }
        }
        const record = newWorkspace({
          id: yield* ids.uuid,
          at,
          owner_id: owner.id,
          organization_id: orgId,
          template_id: template.id,
          name: input.name,
          autostart_schedule: schedule,
          ttl_ms: ttl,
          next_start_at: nextStart,
          automatic_updates: input.automatic_updates ?? "never",
          ...(options.taskId !== undefined ? { task_id: options.taskId } : {})
        })
        yield* tx.atomic(Effect.gen(function*() {
          yield* workspaces.insert(record).pipe(
            Effect.catchTag("UniqueViolation", () => Effect.fail(nameTaken(input.name)))
          )
          yield* buildService.queue({
            workspace: record,
            template,
            version,
            previous: undefined,
            transition: "start",
            parameters,
            initiatorId: actor.user.id,
            reason: "initiator",
            presetId: preset?.id ?? null,
            orphan: false,
            importJob
          })
        }))
        yield* auditResource(workspaceResource(record), undefined, auditedWorkspace(record))
        yield* events.publish(
          new WorkspaceCreated({ workspace: record, templateName: template.name, versionName: version.name })
        )
        return yield* toWire(record)
      }).pipe(span("Workspaces.create"))

    const get = (id: string, includeDeleted = false) =>
      Effect.flatMap(readable(id, includeDeleted), toWire).pipe(span("Workspaces.get"))

    const getByOwnerAndName = (userRef: string, name: string, includeDeleted: boolean) =>
      Effect.flatMap(byOwnerAndName(userRef, name, includeDeleted), toWire).pipe(span("Workspaces.getByOwnerAndName"))

    /** Which workspaces the caller may list (see `WorkspaceVisibility`). */
    const visibility = Effect.gen(function*() {
      const actor = yield* CurrentActor
      const own = yield* decision("read", { type: "workspace", ownerId: actor.user.id })
      if (own === "token") return yield* Forbidden.default()
      if (yield* allowed("read", { type: "workspace" })) {
        return { all: true, organizationIds: [], userId: actor.user.id, groupIds: [] }
      }
      const orgIds = [...(yield* actor.orgRoles).keys()]
      const readableOrgs: Array<string> = []
      for (const orgId of orgIds) if (yield* allowed("read", { type: "workspace", orgId })) readableOrgs.push(orgId)
      // With sharing turned off the lists grant nothing, so no group entry makes a workspace visible.
      const groupIds = !sharing.enabled || actor.groupIds === undefined ? [] : yield* actor.groupIds
      return {
        all: false,
        organizationIds: readableOrgs,
        userId: actor.user.id,
        groupIds: sharing.enabled ? [...orgIds, ...groupIds] : [],
        memberOrganizationIds: orgIds,
        shared: sharing.enabled
      }
    })

    /**
     * The `owner` and `organization` terms of a search, resolved to ids (absent terms stay
     * `undefined`); none when one names a user or an organization that does not exist, whose
     * listing is empty.
     */
    const ownerAndOrganizationTerms = (t: ReadonlyMap<string, string>) =>
      Effect.gen(function*() {
        let ownerIds: Array<string> | undefined
        const ownerTerm = t.get("owner")
        if (ownerTerm !== undefined) {
          const owner = yield* Effect.option(resolveUser(ownerTerm))
          if (Option.isNone(owner)) return Option.none()
          ownerIds = [owner.value.id]
        }
        let organizationIds: Array<string> | undefined
        const orgTerm = t.get("organization")
        if (orgTerm !== undefined) {
          const org = yield* Effect.option(organizations.resolve(orgTerm))
          if (Option.isNone(org)) return Option.none()
          organizationIds = [org.value.id]
        }
        return Option.some({ ownerIds, organizationIds })
      })

    /** `GET /workspaces`: the page and the count of every match. */
    const list = (input: typeof ListWorkspacesQuery.Type) =>
      Effect.gen(function*() {
        const actor = yield* CurrentActor
        const parsed = yield* parseQuery(input.q, workspaceSearchKeys)
        const t = parsed.terms
        const empty = new WorkspacesResponse({ workspaces: [], count: 0 }, true)
        const scope = yield* ownerAndOrganizationTerms(t)
        if (Option.isNone(scope)) return empty
        const { ownerIds, organizationIds } = scope.value
        let templateIds: Array<string> | undefined
        const templateTerm = t.get("template")
        if (templateTerm !== undefined) {
          const found = yield* templates.list({ exactName: templateTerm, organizationId: organizationIds?.[0] })
          if (found.length === 0) return empty
          templateIds = found.map((x) => x.id)
        }
        const statuses = yield* enumTerm("status", t.get("status"), workspaceStatuses, "a workspace status")
        const idTerm = t.get("id")
        const filter: WorkspaceFilter = {
          visibility: yield* visibility,
          requesterId: actor.user.id,
          ownerIds,
          organizationIds,
          templateIds,
          name: t.get("name") ?? (parsed.text.length > 0 ? parsed.text.join(" ") : undefined),
          statuses,
          outdated: yield* boolTerm("outdated", t.get("outdated")),
          dormant: yield* boolTerm("dormant", t.get("dormant")),
          hasAgent: t.get("has-agent"),
          lastUsedBefore: yield* dateTerm("last_used_before", t.get("last_used_before")),
          lastUsedAfter: yield* dateTerm("last_used_after", t.get("last_used_after")),
          hasAiTask: yield* boolTerm("has-ai-task", t.get("has-ai-task")),
          deleted: (yield* boolTerm("deleted", t.get("deleted"))) === true,
          ids: idTerm === undefined ? undefined : idTerm.split(",").map((s) => s.trim().toLowerCase()),
          limit: input.limit !== undefined && input.limit > 0
            ? Math.min(input.limit, MAX_WORKSPACES_PAGE)
            : DEFAULT_WORKSPACES_PAGE,
          offset: input.offset ?? 0
        }
        if (
          filter.hasAgent !== undefined &&
          !["connecting", "connected", "disconnected", "timeout"].includes(filter.hasAgent)
        ) {
          return yield* new BadRequest({
            message: "Invalid search query.",
            validations: [
              new Validation({
                field: "q",
                detail: `Query param "has-agent" has invalid value: ${JSON.stringify(filter.hasAgent)}.`
              })
            ]
          })
        }
        const page = yield* workspaces.list(filter)
        return new WorkspacesResponse({
          workspaces: yield* toWires(page.workspaces, page.latestBuilds),
          count: page.count
        }, true)
      }).pipe(span("Workspaces.list"))

    /** `PATCH /workspaces/{workspace}`: a rename (refused when the deployment disallows renames). */
    const update = (id: string, input: { readonly name?: string | undefined }) =>
      Effect.gen(function*() {
        const w = yield* readable(id)
        yield* authorize("update", sharing.object(w))
        if (input.name === undefined || input.name === "" || input.name === w.name) return
        if (!settings.allowWorkspaceRenames) {
          return yield* new BadRequest({
            message: "Workspace renames are not allowed.",
            validations: [
              new Validation({ field: "name", detail: "The deployment does not allow renaming workspaces." })
            ]
          })
        }
        const clash = yield* workspaces.findByOwnerAndName(w.owner_id, input.name, false)
        if (Option.isSome(clash) && clash.value.id !== w.id) return yield* nameTaken(input.name)
        const updated = yield* workspaces.update(w.id, { name: input.name, updated_at: yield* now }).pipe(
          Effect.catchTag("UniqueViolation", () => Effect.fail(nameTaken(input.name!))),
          Effect.flatMap(Option.match({ onNone: () => Effect.fail(workspaceNotFound()), onSome: Effect.succeed }))
        )
        yield* auditResource(workspaceResource(updated), auditedWorkspace(w), auditedWorkspace(updated))
        yield* publishWorkspaceChange(w.id)
      }).pipe(span("Workspaces.update"))

    /** Marks (or unmarks) a workspace as a favorite of its owner; only the owner may. */
    const setFavorite = (id: string, favorite: boolean) =>
      Effect.gen(function*() {
        const actor = yield* CurrentActor
        const w = yield* readable(id)
        if (w.owner_id !== actor.user.id) {
          return yield* new BadRequest({ message: "You can only favorite workspaces that you own." })
        }
        yield* authorize("update", sharing.object(w))
        if (w.favorite === favorite) return
        const updated = yield* Effect.orDie(workspaces.update(w.id, { favorite }))
        if (Option.isSome(updated)) {
          yield* auditResource(workspaceResource(updated.value), auditedWorkspace(w), auditedWorkspace(updated.value))
        }
        yield* publishWorkspaceChange(w.id)
      }).pipe(span("Workspaces.setFavorite"))

    /**
     * Who the caller may create workspaces for in `{organization}`: every member when they may
     * create workspaces for others there (filtered by `q`, paged), else only themselves.
     */
    const availableUsers = (orgRef: string, userRef: string, input: typeof AvailableUsersQuery.Type) =>
      Effect.gen(function*() {
        const actor = yield* CurrentActor
        const org = yield* organizations.resolve(orgRef)
        yield* resolveUser(userRef)
        const forOthers = yield* allowed("create", { type: "workspace", orgId: org.id, ownerId: "*" })
        if (!forOthers) {
          yield* authorize("create", { type: "workspace", orgId: org.id, ownerId: actor.user.id })
          return [toMinimalUser(actor.user)]
        }
        const limit = input.limit !== undefined && input.limit > 0 ? Math.min(input.limit, 1000) : 100
        const page = yield* users.list({
          organizationId: org.id,
          search: input.q,
          limit,
          offset: input.offset ?? 0,
          status: "active"
        })
        return page.users.map(toMinimalUser)
      }).pipe(span("Workspaces.availableUsers"))

    const listBuilds = (id: string, input: typeof ListBuildsQuery.Type) =>
      Effect.flatMap(readable(id, true), (w) => buildService.listByWorkspace(w, input)).pipe(
        span("Workspaces.listBuilds")
      )

    const buildByNumber = (userRef: string, name: string, buildNumber: number) =>
      Effect.flatMap(byOwnerAndName(userRef, name, true), (w) => buildService.byNumber(w, buildNumber)).pipe(
        span("Workspaces.buildByNumber")
      )

    return {
      create,
      get,
      getByOwnerAndName,
      list,
      update,
      setFavorite,
      availableUsers,
      listBuilds,
      buildByNumber,
      toWire,
      toWires,
      resolveUser,
      ownerAndOrganizationTerms
    } as const
  }),
  dependencies: [Organizations.Default]
}) {}

/** The fields of a workspace its audit entries diff. */
export const auditedWorkspace = (w: WorkspaceRecord) => ({
  name: w.name,
  owner_id: w.owner_id,
  organization_id: w.organization_id,
  template_id: w.template_id,
  autostart_schedule: w.autostart_schedule,
  ttl: w.ttl_ms,
  automatic_updates: w.automatic_updates,
  favorite: w.favorite,
  deleted: w.deleted
})
