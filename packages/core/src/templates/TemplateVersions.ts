/**
 * The TemplateVersions service: creating versions (each with its import job), reading what the
 * import found, dry runs, renaming, canceling, archiving, and promoting a version to be its
 * template's active one. Rules and messages follow the described system's template version
 * routes; see docs/templates.md.
 *
 * Authorization: a version that belongs to a template is authorized as that template (with its
 * access list); one that belongs to none as the `template` resource of its organization. A
 * version the caller may not read answers like a missing one (404); one they may read but not
 * change answers 403.
 */
import { Clock, Effect, Either, Option } from "effect"
import { allowed, authorize, authorizeRead, CurrentActor } from "../Actor.js"
import { auditResource, NIL_UUID } from "../Audit.js"
import { BadRequest, Conflict, Forbidden, NotFound, ResponseBody, Validation } from "../Errors.js"
import { ExternalAuthLinkRepo } from "../externalauth/ExternalAuthLink.js"
import { resolveProviders } from "../externalauth/Provider.js"
import { GroupRepo } from "../groups/Group.js"
import { IdGenerator } from "../Ids.js"
import { Organizations } from "../organizations/Organizations.js"
import { ProvisionerDaemons } from "../provisioners/ProvisionerDaemons.js"
import {
  jobStatus,
  type ProvisionerJobLogRecord,
  type ProvisionerJobRecord,
  toProvisionerJobLog
} from "../provisioners/ProvisionerJob.js"
import { ProvisionerJobs } from "../provisioners/ProvisionerJobs.js"
import { ProvisionerJobViews } from "../provisioners/ProvisionerJobViews.js"
import type { JobLogsQuery } from "../provisioners/Requests.js"
import { Transactions } from "../Repositories.js"
import { givenFields } from "../Requests.js"
import { Settings } from "../Settings.js"
import { span } from "../Tracing.js"
import { UserRepo } from "../users/Repositories.js"
import { toMinimalUser, type UserRecord } from "../users/User.js"
import { putNonEmpty, type WireProps } from "../Wire.js"
import { dynamicParametersResponse } from "./DynamicParameters.js"
import { exampleArchive, exampleProvisioner } from "./Examples.js"
import { Files } from "./Files.js"
import type {
  CreateTemplateVersionDryRunRequest,
  CreateTemplateVersionRequest,
  ListTemplateVersionsQuery,
  PatchTemplateVersionRequest
} from "./Requests.js"
import { templateObject, type TemplateRecord, TemplateRepo } from "./Template.js"
import {
  newTemplateVersion,
  type TemplateVersionRecord,
  TemplateVersionRepo,
  versionObject
} from "./TemplateVersion.js"
import {
  ArchiveTemplateVersionsResponse,
  TemplateVersion,
  TemplateVersionExternalAuth,
  toPreset,
  toTemplateVersionParameter,
  toTemplateVersionVariable,
  toWorkspaceResource
} from "./TemplateVersionWire.js"
import { workspaceOwnerData } from "./WorkspaceOwners.js"

/** The most versions one listing answers when it names no limit. */
export const MAX_VERSIONS_PAGE = 10_000

// Moby's name generator picks "adjective_surname"; so do we, from our own shorter lists.
const adjectives = [
  "admiring",
  "bold",
  "brave",
  "busy",
  "calm",
  "clever",
  "cool",
  "eager",
  "elated",
  "epic",
  "fervent",
  "focused",
  "friendly",
  "gallant",
  "gifted",
  "happy",
  "hopeful",
  "jolly",
  "keen",
  "kind",
  "lucid",
  "modest",
  "nifty",
  "optimistic",
  "peaceful",
  "quirky",
  "relaxed",
  "serene",
  "sharp",
  "stoic",
  "sweet",
  "tender",
  "trusting",
  "vibrant",
  "wizardly",
  "zen"
]
const surnames = [
  "agnesi",
  "babbage",
  "bell",
  "bohr",
  "curie",
  "darwin",
  "dijkstra",
  "euler",
  "fermat",
  "feynman",
  "gauss",
  "hopper",
  "hypatia",
  "johnson",
  "kepler",
  "knuth",
  "lamarr",
  "lovelace",
  "meitner",
  "newton",
  "noether",
  "pascal",
  "ritchie",
  "shannon",
  "tesla",
  "thompson",
  "torvalds",
  "turing",
  "wozniak",
  "yalow"
]
/** A random version name, as the described system gives a version created without one (`hopeful_turing`). */
export const randomVersionName = (): string =>
  `${adjectives[Math.floor(Math.random() * adjectives.length)]}_${
    surnames[Math.floor(Math.random() * surnames.length)]
  }`

const versionNotFound = () => NotFound.resource("Template version")
const templateNotFound = () => NotFound.resource("Template")
const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** How audit entries name a version and a template. */
const versionResource = (v: TemplateVersionRecord) => ({
  type: "template_version",
  id: v.id,
  target: v.name,
  organizationId: v.organization_id
})
const templateResource = (t: TemplateRecord) => ({
  type: "template",
  id: t.id,
  target: t.name,
  organizationId: t.organization_id,
  icon: t.icon
})

const auditedVersion = (v: TemplateVersionRecord) => ({
  name: v.name,
  message: v.message,
  template_id: v.template_id,
  organization_id: v.organization_id,
  job_id: v.job_id,
  file_id: v.file_id,
  archived: v.archived
})

const unfinished = (job: ProvisionerJobRecord) => job.completed_at === null

export class TemplateVersions extends Effect.Service<TemplateVersions>()("@workbay/core/TemplateVersions", {
  effect: Effect.gen(function*() {
    const versions = yield* TemplateVersionRepo
    const templates = yield* TemplateRepo
    const jobs = yield* ProvisionerJobs
    const files = yield* Files
    const users = yield* UserRepo
    const groupRepo = yield* GroupRepo
    const organizations = yield* Organizations
    const views = yield* ProvisionerJobViews
    const daemons = yield* ProvisionerDaemons
    const ids = yield* IdGenerator
    const tx = yield* Transactions
    const settings = yield* Settings
    const externalAuthLinks = yield* ExternalAuthLinkRepo

    /**
     * A job on the wire (queue standing and available workers among the live provisioner
     * daemons, metadata) and the daemons that could run it (`matched_provisioners`).
     */
    const provisionerStanding = (job: ProvisionerJobRecord) =>
      Effect.all({ job: views.describe(job), matched: daemons.matched(job) })

    const templateOf = (v: TemplateVersionRecord) =>
      v.template_id === null
        ? Effect.succeed<TemplateRecord | undefined>(undefined)
        : Effect.map(templates.findById(v.template_id), Option.getOrUndefined)

    const jobOf = (jobId: string) => Effect.orDie(jobs.get(jobId))

    const creatorOf = (v: TemplateVersionRecord) =>
      Effect.map(
        users.findById(v.created_by),
        (u): Pick<UserRecord, "id" | "username" | "avatar_url" | "name"> =>
          Option.getOrElse(u, () => ({ id: v.created_by, username: "", avatar_url: "", name: "" }))
      )

    /** The wire form of a version with its job, its creator and its matched provisioners. */
    const toWire = (v: TemplateVersionRecord, _template: TemplateRecord | undefined, job?: ProvisionerJobRecord) =>
      Effect.gen(function*() {
        const j = job ?? (yield* jobOf(v.job_id))
        const standing = yield* provisionerStanding(j)
        const creator = yield* creatorOf(v)
        const props: WireProps<typeof TemplateVersion> = {
          id: v.id,
          template_id: v.template_id ?? NIL_UUID,
          organization_id: v.organization_id,
          created_at: v.created_at,
          updated_at: v.updated_at,
          name: v.name,
          message: v.message,
          job: standing.job,
          readme: v.readme,
          created_by: toMinimalUser(creator as UserRecord),
          archived: v.archived,
          matched_provisioners: standing.matched,
          has_external_agent: v.import_result?.has_external_agent ?? false,
          has_ai_task: v.import_result?.has_ai_task ?? false
        }
        return new TemplateVersion(props, true)
      })

    /** The version `id` the caller may read, with its template. */
    const readable = (id: string) =>
      Effect.gen(function*() {
        const found = yield* versions.findById(id.toLowerCase())
        if (Option.isNone(found)) return yield* versionNotFound()
        const template = yield* templateOf(found.value)
        if (template?.deleted === true) return yield* versionNotFound()
        yield* authorizeRead("Template version", versionObject(found.value, template))
        return { version: found.value, template }
      })

    /** The version `id` the caller may read and change. */
    const changeable = (id: string) =>
      Effect.tap(readable(id), ({ template, version }) => authorize("update", versionObject(version, template)))

    /** The undeleted template `id` the caller may read. */
    const readableTemplate = (id: string) =>
      Effect.gen(function*() {
        const found = yield* templates.findById(id.toLowerCase())
        if (Option.isNone(found) || found.value.deleted) return yield* templateNotFound()
        yield* authorizeRead("Template", templateObject(found.value))
        return found.value
      })

    /**
     * The values `template`'s active version was given for the variables `given` leaves out: a
     * new version of a template keeps them (a secret is not asked for again with each version,
     * and the dashboard never sees it), as the described system's provisioner server adds the
     * active version's values to an import. Only given values are kept, not defaults, so a
     * variable nobody set follows the new version's default.
     */
    const keptVariableValues = (template: TemplateRecord, given: ReadonlyArray<{ readonly name: string }>) =>
      Effect.map(versions.findById(template.active_version_id), (active) => {
        const named = new Set(given.map((v) => v.name))
        return Option.isNone(active) ? [] : active.value.user_variable_values.filter((v) => !named.has(v.name))
      })

    const create = (organization: string, input: typeof CreateTemplateVersionRequest.Type) =>
      Effect.gen(function*() {
        const actor = yield* CurrentActor
        const org = yield* organizations.resolve(organization)
        let template: TemplateRecord | undefined
        if (input.template_id !== undefined) {
          const found = yield* templates.findById(input.template_id.toLowerCase())
          if (
            Option.isNone(found) || found.value.deleted || found.value.organization_id !== org.id ||
            !(yield* allowed("read", templateObject(found.value)))
          ) {
            return yield* new NotFound({ message: "Template does not exist." })
          }
          template = found.value
        }
        // A version of a template is a change of that template; one without a template is
        // the start of a new template.
        yield* authorize(
          template === undefined ? "create" : "update",
          template === undefined
            ? { type: "template", orgId: org.id }
            : templateObject(template)
        )
        // A starter template (example_id) is stored as the caller's file and imported by the
        // provisioner it is written for, whatever `provisioner` says (the dashboard sends `terraform`).
        let fileId: string
        let provisioner = input.provisioner
        if (input.example_id !== undefined && input.example_id !== "") {
          if (input.file_id !== undefined) {
            return yield* new BadRequest({
              message: "You cannot specify both an example_id and a file_id.",
              validations: [new Validation({ field: "example_id", detail: "Give either example_id or file_id." })]
            })
          }
          const archive = yield* exampleArchive(input.example_id)
          if (archive === undefined) {
            return yield* BadRequest.field(
              "example_id",
              `No starter template has the id "${input.example_id}"; GET /templates/examples lists them.`,
              `Example "${input.example_id}" not found.`
            )
          }
          fileId = (yield* files.storeArchive(archive)).response.hash
          provisioner = exampleProvisioner(input.example_id)
        } else {
          if (input.file_id === undefined) {
            return yield* BadRequest.field("file_id", "A file_id or an example_id is required.")
          }
          fileId = (yield* files.get(input.file_id)).id
        }
        const file = { id: fileId }
        const variableValues = [
          ...(input.user_variable_values ?? []),
          ...(template === undefined ? [] : yield* keptVariableValues(template, input.user_variable_values ?? []))
        ]
        const at = yield* now
        const versionId = yield* ids.uuid
        const named = input.name !== undefined && input.name !== ""
        const insert = (name: string) =>
          tx.atomic(Effect.gen(function*() {
            const job = yield* jobs.enqueue({
              organization_id: org.id,
              initiator_id: actor.user.id,
              provisioner,
              type: "template_version_import",
              file_id: file.id,
              input: { template_version_id: versionId },
              tags: input.tags ?? {}
            })
            const record = newTemplateVersion({
              id: versionId,
              at,
              organization_id: org.id,
              name,
              job_id: job.id,
              created_by: actor.user.id,
              file_id: file.id,
              provisioner,
              tags: job.tags,
              user_variable_values: variableValues,
              ...givenFields({ template_id: template?.id, message: input.message })
            })
            yield* versions.insert(record)
            return { record, job }
          }))
        const nameConflict = (name: string) =>
          new Conflict({
            message: `A template version named "${name}" already exists for this template.`,
            validations: [new Validation({ field: "name", detail: "This name is in use." })]
          })
        // A generated name that happens to be taken in the template is drawn again, with a
        // digit after the first draw (as the described system's name generator retries).
        const created = yield* Effect.gen(function*() {
          if (named) {
            return yield* insert(input.name!).pipe(
              Effect.catchTag("UniqueViolation", () => Effect.fail(nameConflict(input.name!)))
            )
          }
          for (let attempt = 0;; attempt++) {
            const name = randomVersionName() + (attempt === 0 ? "" : String(attempt))
            const drawn = yield* insert(name).pipe(
              Effect.asSome,
              Effect.catchTag(
                "UniqueViolation",
                () => attempt < 8 ? Effect.succeedNone : Effect.fail(nameConflict(name))
              )
            )
            if (Option.isSome(drawn)) return drawn.value
          }
        })
        yield* auditResource(versionResource(created.record), undefined, auditedVersion(created.record))
        return yield* toWire(created.record, template, created.job)
      }).pipe(span("TemplateVersions.create"))

    const get = (id: string) =>
      Effect.flatMap(readable(id), ({ template, version }) => toWire(version, template)).pipe(
        span("TemplateVersions.get")
      )

    const update = (id: string, input: typeof PatchTemplateVersionRequest.Type) =>
      Effect.gen(function*() {
        const { template, version } = yield* changeable(id)
        const name = input.name !== undefined && input.name !== "" ? input.name : version.name
        const clash = () =>
          new Conflict({
            message: "A template version with that name already exists for this template.",
            validations: [new Validation({ field: "name", detail: "Name is already used." })]
          })
        if (template !== undefined && name.toLowerCase() !== version.name.toLowerCase()) {
          const other = yield* versions.findByTemplateAndName(template.id, name)
          if (Option.isSome(other) && other.value.id !== version.id) return yield* clash()
        }
        const updated = yield* versions.update(
          version.id,
          { name, message: input.message ?? version.message },
          yield* now
        ).pipe(
          Effect.catchTag("UniqueViolation", () => Effect.fail(clash())),
          Effect.flatMap(Option.match({ onNone: () => Effect.fail(versionNotFound()), onSome: Effect.succeed }))
        )
        yield* auditResource(versionResource(updated), auditedVersion(version), auditedVersion(updated))
        return yield* toWire(updated, template)
      }).pipe(span("TemplateVersions.update"))

    /** Cancels the version's import job (pending: at once; running: once its worker stops). */
    const cancel = (id: string) =>
      Effect.gen(function*() {
        const { version } = yield* changeable(id)
        const job = yield* jobOf(version.job_id)
        // The described system's order: a canceled pending job is completed too, so it reads "completed".
        if (job.completed_at !== null) return yield* new BadRequest({ message: "Job has already completed!" })
        if (job.canceled_at !== null) {
          return yield* new BadRequest({ message: "Job has already been marked as canceled!" })
        }
        yield* jobs.cancel(version.job_id).pipe(
          Effect.catchTag("NotFound", () => Effect.die("A version's job is missing."))
        )
        return new ResponseBody({ message: "Job has been marked as canceled..." }, true)
      }).pipe(span("TemplateVersions.cancel"))

    /** The version's import job, once the caller may read the version (for logs, followed or not). */
    const importJob = (id: string) =>
      Effect.flatMap(readable(id), ({ version }) => jobOf(version.job_id)).pipe(span("TemplateVersions.importJob"))

    /** A job's log lines between `after` and `before` (ids), in order (`follow` is the route's: it upgrades instead). */
    const logs = (job: ProvisionerJobRecord, input: typeof JobLogsQuery.Type) =>
      Effect.gen(function*() {
        const out: Array<ProvisionerJobLogRecord> = []
        const before = input.before !== undefined && input.before > 0 ? input.before : Number.MAX_SAFE_INTEGER
        let after = Math.max(0, input.after ?? 0)
        const PAGE = 1000
        while (true) {
          const page = yield* jobs.logsAfter(job.id, after, PAGE)
          for (const line of page) {
            if (line.id >= before) return out.map(toProvisionerJobLog)
            out.push(line)
          }
          if (page.length < PAGE) return out.map(toProvisionerJobLog)
          after = page[page.length - 1]!.id
        }
      }).pipe(span("TemplateVersions.logs"))

    const notCompleted = (status: 400 | 403) =>
      status === 400
        ? new BadRequest({ message: "Job hasn't completed!" })
        : new Forbidden({ message: "Job hasn't completed!" })

    const resources = (id: string) =>
      Effect.gen(function*() {
        const { version } = yield* readable(id)
        const job = yield* jobOf(version.job_id)
        if (unfinished(job)) return yield* notCompleted(400)
        return (version.import_result?.resources ?? []).map(toWorkspaceResource)
      }).pipe(span("TemplateVersions.resources"))

    /**
     * The evaluator of a version's dynamic parameters for one owner (the caller, or `ownerId`, a
     * user the caller may read): each call answers one request of a form, its id echoed.
     */
    const dynamicParameters = (id: string, ownerId: string | undefined) =>
      Effect.gen(function*() {
        const { version } = yield* readable(id)
        const job = yield* jobOf(version.job_id)
        if (unfinished(job)) return yield* notCompleted(400)
        const actor = yield* CurrentActor
        let user: UserRecord = actor.user
        if (ownerId !== undefined && ownerId.toLowerCase() !== actor.user.id) {
          const found = yield* users.findById(ownerId.toLowerCase())
          if (Option.isNone(found)) return yield* NotFound.resource("User")
          yield* authorizeRead("User", { type: "user", id: found.value.id, ownerId: found.value.id })
          // Another user's form only for those who could create their workspace (403 otherwise).
          yield* authorize("create", { type: "workspace", orgId: version.organization_id, ownerId: found.value.id })
          user = found.value
        }
        const owner = yield* Effect.provideService(
          workspaceOwnerData(user, version.organization_id),
          GroupRepo,
          groupRepo
        )
        const parameters = [...(version.import_result?.parameters ?? [])]
        return (request: { readonly id: number; readonly inputs: Readonly<Record<string, string>> }) =>
          dynamicParametersResponse(request.id, parameters, request.inputs, owner)
      }).pipe(span("TemplateVersions.dynamicParameters"))

    const richParameters = (id: string) =>
      Effect.gen(function*() {
        const { version } = yield* readable(id)
        const job = yield* jobOf(version.job_id)
        if (unfinished(job)) return yield* notCompleted(403)
        return [...(version.import_result?.parameters ?? [])].sort((a, b) => a.order - b.order).map(
          toTemplateVersionParameter
        )
      }).pipe(span("TemplateVersions.richParameters"))

    const variables = (id: string) =>
      Effect.gen(function*() {
        const { version } = yield* readable(id)
        const job = yield* jobOf(version.job_id)
        if (unfinished(job)) return yield* notCompleted(403)
        return (version.import_result?.variables ?? []).map(toTemplateVersionVariable)
      }).pipe(span("TemplateVersions.variables"))

    /**
     * The external auth providers the version asks for, as the caller stands with each: the
     * deployment's provider of that id (its type, display name and icon) and whether the caller
     * has a usable link to it (a token that has not expired, or one that can be refreshed). An id
     * no provider has answers unauthenticated with the id as type and name. The sign-in address
     * is the described system's `<access URL>/external-auth/<id>`.
     */
    const externalAuth = (id: string) =>
      Effect.gen(function*() {
        const { version } = yield* readable(id)
        const actor = yield* CurrentActor
        const base = settings.accessUrl.replace(/\/+$/, "")
        const configured = Either.getOrElse(resolveProviders(settings.externalAuth, settings.accessUrl), () => [])
        const at = yield* Clock.currentTimeMillis
        return yield* Effect.forEach(version.import_result?.external_auth_providers ?? [], (p) =>
          Effect.gen(function*() {
            const provider = configured.find((c) => c.id === p.id)
            const link = provider === undefined
              ? undefined
              : Option.getOrUndefined(yield* externalAuthLinks.find(p.id, actor.user.id))
            const usable = link !== undefined && link.oauth_access_token !== "" &&
              (link.oauth_expiry === null || link.oauth_expiry.getTime() > at || link.oauth_refresh_token !== "")
            const props: WireProps<typeof TemplateVersionExternalAuth> = {
              id: p.id,
              type: provider?.type ?? p.id,
              display_name: provider?.displayName ?? p.id,
              display_icon: provider?.displayIcon ?? "",
              authenticate_url: `${base}/external-auth/${encodeURIComponent(p.id)}`,
              authenticated: usable
            }
            putNonEmpty(props, "optional", p.optional)
            return new TemplateVersionExternalAuth(props, true)
          }))
      }).pipe(span("TemplateVersions.externalAuth"))

    const presets = (id: string) =>
      Effect.map(readable(id), ({ version }) => (version.import_result?.presets ?? []).map(toPreset)).pipe(
        span("TemplateVersions.presets")
      )

    // Dry runs.

    const createDryRun = (id: string, input: typeof CreateTemplateVersionDryRunRequest.Type) =>
      Effect.gen(function*() {
        const actor = yield* CurrentActor
        const { version } = yield* readable(id)
        // A dry run is a workspace build that creates nothing: who may not create a workspace may not run one.
        const workspace = { type: "workspace", orgId: version.organization_id, ownerId: actor.user.id } as const
        if (!(yield* allowed("create", workspace))) return yield* versionNotFound()
        const importJob = yield* jobOf(version.job_id)
        if (unfinished(importJob)) {
          return yield* new BadRequest({ message: "Template version import job hasn't completed!" })
        }
        const job = yield* tx.atomic(Effect.gen(function*() {
          const job = yield* jobs.enqueue({
            organization_id: version.organization_id,
            initiator_id: actor.user.id,
            provisioner: importJob.provisioner,
            type: "template_version_dry_run",
            file_id: importJob.file_id,
            input: { template_version_id: version.id },
            tags: importJob.tags
          })
          yield* versions.insertDryRun({
            job_id: job.id,
            template_version_id: version.id,
            workspace_name: input.workspace_name ?? "",
            rich_parameter_values: input.rich_parameter_values ?? [],
            user_variable_values: input.user_variable_values ?? [],
            resources: null
          })
          return job
        }))
        const standing = yield* provisionerStanding(job)
        return standing.job
      }).pipe(span("TemplateVersions.createDryRun"))

    /**
     * The dry run `jobId` of version `id`: 404 when there is no such job, 403 when it is not a
     * dry run of this version or the caller may not read the initiator's workspaces.
     */
    const dryRunJob = (id: string, jobId: string) =>
      Effect.gen(function*() {
        const { template, version } = yield* readable(id)
        const found = yield* Effect.option(jobs.get(jobId.toLowerCase()))
        if (Option.isNone(found)) return yield* new NotFound({ message: `Provisioner job "${jobId}" not found.` })
        const job = found.value
        if (job.type !== "template_version_dry_run" || job.input.template_version_id !== version.id) {
          return yield* Forbidden.default()
        }
        if (
          !(yield* allowed("read", { type: "workspace", orgId: version.organization_id, ownerId: job.initiator_id }))
        ) {
          return yield* Forbidden.default()
        }
        return { job, version, template }
      })

    const getDryRun = (id: string, jobId: string) =>
      Effect.gen(function*() {
        const { job } = yield* dryRunJob(id, jobId)
        return (yield* provisionerStanding(job)).job
      }).pipe(span("TemplateVersions.getDryRun"))

    /**
     * The provisioner daemons (workers) that could take the dry run `jobId`: those of its
     * organization whose type and tags fit the job, as the version's `matched_provisioners`.
     */
    const dryRunMatchedProvisioners = (id: string, jobId: string) =>
      Effect.gen(function*() {
        const { job } = yield* dryRunJob(id, jobId)
        return yield* daemons.matched(job)
      }).pipe(span("TemplateVersions.dryRunMatchedProvisioners"))

    /**
     * GET .../parameters and .../schema, removed in the described system, which answers them `[]`
     * once the version is found (and readable).
     */
    const removedListing = (id: string) =>
      Effect.as(readable(id), [] as const).pipe(span("TemplateVersions.removedListing"))

    const dryRunResources = (id: string, jobId: string) =>
      Effect.gen(function*() {
        const { job } = yield* dryRunJob(id, jobId)
        if (unfinished(job)) return yield* notCompleted(400)
        const dryRun = yield* versions.findDryRun(job.id)
        return Option.match(dryRun, { onNone: () => [], onSome: (d) => d.resources ?? [] }).map(toWorkspaceResource)
      }).pipe(span("TemplateVersions.dryRunResources"))

    /** The dry run's job, once the caller may read it (for logs, followed or not). */
    const dryRunLogsJob = (id: string, jobId: string) =>
      Effect.map(dryRunJob(id, jobId), ({ job }) => job).pipe(span("TemplateVersions.dryRunLogsJob"))

    const cancelDryRun = (id: string, jobId: string) =>
      Effect.gen(function*() {
        const { job, version } = yield* dryRunJob(id, jobId)
        if (
          !(yield* allowed("update", { type: "workspace", orgId: version.organization_id, ownerId: job.initiator_id }))
        ) {
          return yield* versionNotFound()
        }
        if (job.completed_at !== null) return yield* new BadRequest({ message: "Job has already completed." })
        if (job.canceled_at !== null) {
          return yield* new BadRequest({ message: "Job has already been marked as canceled." })
        }
        yield* jobs.cancel(job.id).pipe(
          Effect.catchTag("NotFound", () => Effect.die("A dry run's job is missing.")),
          // Finished between the read and the cancel.
          Effect.catchTag("BadRequest", () => Effect.fail(new BadRequest({ message: "Job has already completed." })))
        )
        return new ResponseBody({ message: "Job has been marked as canceled." }, true)
      }).pipe(span("TemplateVersions.cancelDryRun"))

    // Archiving.

    /** Why `version` may not be archived now, if it may not: it is the active one, or its import is unfinished. */
    const archiveRefusal = (version: TemplateVersionRecord, template: TemplateRecord, job: ProvisionerJobRecord) => {
      if (template.active_version_id === version.id) return "The active template version cannot be archived."
      if (unfinished(job)) {
        return `Cannot archive a template version whose import job is ${
          jobStatus(job)
        }; cancel it or wait for it to finish.`
      }
      return undefined
    }

    const setArchived = (id: string, archived: boolean) =>
      Effect.gen(function*() {
        const { template, version } = yield* changeable(id)
        const verb = archived ? "archived" : "unarchived"
        if (version.archived === archived) {
          return yield* new BadRequest({ message: `Template version already ${verb}.` })
        }
        if (template === undefined) {
          return yield* new BadRequest({ message: "Cannot archive template versions not associated with a template." })
        }
        if (archived) {
          const refusal = archiveRefusal(version, template, yield* jobOf(version.job_id))
          if (refusal !== undefined) return yield* new BadRequest({ message: refusal })
        }
        const changed = yield* versions.setArchived(template.id, [version.id], archived, yield* now)
        if (archived && changed.length === 0) {
          // The described system answers a 500 "the version is likely in use by a workspace"; we name it.
          return yield* new BadRequest({
            message: "A template version in use by a workspace's latest build cannot be archived."
          })
        }
        yield* auditResource(
          versionResource(version),
          auditedVersion(version),
          auditedVersion({ ...version, archived })
        )
        return new ResponseBody({ message: `template version "${version.id}" ${verb}` }, true)
      }).pipe(span("TemplateVersions.setArchived"))

    /**
     * Archives the template's unused versions whose import failed (`all`: whose import finished);
     * the storage leaves out those its workspaces use.
     */
    const archiveUnused = (templateId: string, all: boolean) =>
      Effect.gen(function*() {
        const template = yield* readableTemplate(templateId)
        yield* authorize("update", templateObject(template))
        const list = yield* versions.listByTemplate({
          templateId: template.id,
          limit: MAX_VERSIONS_PAGE,
          includeArchived: false
        })
        const chosen: Array<string> = []
        for (const v of list) {
          const job = yield* jobOf(v.job_id)
          if (archiveRefusal(v, template, job) !== undefined) continue
          if (!all && jobStatus(job) !== "failed") continue
          chosen.push(v.id)
        }
        const archivedIds = yield* versions.setArchived(template.id, chosen, true, yield* now)
        yield* auditResource(templateResource(template))
        return new ArchiveTemplateVersionsResponse({ template_id: template.id, archived_ids: archivedIds }, true)
      }).pipe(span("TemplateVersions.archiveUnused"))

    // A template's versions.

    const listByTemplate = (templateId: string, input: typeof ListTemplateVersionsQuery.Type) =>
      Effect.gen(function*() {
        const template = yield* readableTemplate(templateId)
        if (input.after_id !== undefined) {
          const after = yield* versions.findById(input.after_id.toLowerCase())
          if (Option.isNone(after)) {
            return yield* new BadRequest({
              message: `Record at "after_id" (${JSON.stringify(input.after_id)}) does not exist.`
            })
          }
        }
        const limit = input.limit !== undefined && input.limit > 0
          ? Math.min(input.limit, MAX_VERSIONS_PAGE)
          : MAX_VERSIONS_PAGE
        const list = yield* versions.listByTemplate({
          templateId: template.id,
          limit,
          offset: input.offset,
          afterId: input.after_id?.toLowerCase(),
          includeArchived: input.include_archived === true
        })
        return yield* Effect.forEach(list, (v) => toWire(v, template))
      }).pipe(span("TemplateVersions.listByTemplate"))

    const byName = (template: TemplateRecord, name: string) =>
      Effect.flatMap(
        versions.findByTemplateAndName(template.id, name),
        Option.match({
          onNone: () =>
            Effect.fail(new NotFound({ message: `No template version found by name ${JSON.stringify(name)}.` })),
          onSome: Effect.succeed
        })
      )

    const getByTemplateAndName = (templateId: string, name: string) =>
      Effect.gen(function*() {
        const template = yield* readableTemplate(templateId)
        return yield* toWire(yield* byName(template, name), template)
      }).pipe(span("TemplateVersions.getByTemplateAndName"))

    const templateByOrganizationAndName = (organization: string, templateName: string) =>
      Effect.gen(function*() {
        const org = yield* organizations.resolve(organization)
        const found = yield* templates.findByName(org.id, templateName)
        if (Option.isNone(found)) return yield* templateNotFound()
        yield* authorizeRead("Template", templateObject(found.value))
        return found.value
      })

    const getByOrganizationAndName = (organization: string, templateName: string, name: string) =>
      Effect.gen(function*() {
        const template = yield* templateByOrganizationAndName(organization, templateName)
        return yield* toWire(yield* byName(template, name), template)
      }).pipe(span("TemplateVersions.getByOrganizationAndName"))

    const previous = (organization: string, templateName: string, name: string) =>
      Effect.gen(function*() {
        const template = yield* templateByOrganizationAndName(organization, templateName)
        const version = yield* byName(template, name)
        const prev = yield* versions.previous(template.id, version.id)
        if (Option.isNone(prev)) {
          return yield* new NotFound({ message: `No previous template version found for ${JSON.stringify(name)}.` })
        }
        return yield* toWire(prev.value, template)
      }).pipe(span("TemplateVersions.previous"))

    /** Makes version `versionId` the template's active one: it must be the template's, not archived, and imported. */
    const promote = (templateId: string, versionId: string) =>
      Effect.gen(function*() {
        const template = yield* readableTemplate(templateId)
        yield* authorize("update", templateObject(template))
        const found = yield* versions.findById(versionId.toLowerCase())
        if (Option.isNone(found)) return yield* new NotFound({ message: "Template version not found." })
        const version = found.value
        if (version.template_id !== template.id) {
          return yield* new BadRequest({
            message: "The provided template version doesn't belong to the specified template."
          })
        }
        if (version.archived) return yield* new BadRequest({ message: "The provided template version is archived." })
        const job = yield* jobOf(version.job_id)
        const status = jobStatus(job)
        if (status !== "succeeded") {
          return yield* new Forbidden({
            message: "Only versions that have been built successfully can be promoted.",
            detail: `Attempted to promote a version with a ${status} build`
          })
        }
        const updated = yield* templates.update(template.id, { active_version_id: version.id, updated_at: yield* now })
          .pipe(
            Effect.catchTag("UniqueViolation", () => Effect.die("Promoting a version clashed on a template's name.")),
            Effect.flatMap(Option.match({ onNone: () => Effect.fail(templateNotFound()), onSome: Effect.succeed }))
          )
        yield* auditResource(
          templateResource(updated),
          { active_version_id: template.active_version_id },
          { active_version_id: updated.active_version_id }
        )
        return new ResponseBody({ message: "Updated the active template version!" }, true)
      }).pipe(span("TemplateVersions.promote"))

    return {
      create,
      get,
      update,
      cancel,
      importJob,
      logs,
      resources,
      richParameters,
      dynamicParameters,
      variables,
      externalAuth,
      presets,
      createDryRun,
      getDryRun,
      dryRunResources,
      dryRunLogsJob,
      cancelDryRun,
      setArchived,
      archiveUnused,
      listByTemplate,
      getByTemplateAndName,
      getByOrganizationAndName,
      previous,
      promote,
      provisionerStanding,
      dryRunMatchedProvisioners,
      removedListing
    } as const
  }),
  dependencies: [Organizations.Default, Files.Default, ProvisionerJobs.Default]
}) {}
