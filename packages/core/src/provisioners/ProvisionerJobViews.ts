/**
 * Provisioner jobs and daemons as the API shows them, with their authorization: the wire job
 * (queue standing among the live workers, `available_workers`, the template and workspace it
 * is about) and the organization listings of jobs and daemons.
 *
 * Authorization as the described system: reading jobs takes `provisioner_jobs:read` in the
 * organization (owners, organization admins, template admins); a listing refused answers 403,
 * a single job 404 (as if it did not exist). Daemons take `provisioner_daemon:read`, which every
 * member has.
 */
import { Effect, Option } from "effect"
import { authorize, authorizeRead } from "../Actor.js"
import { NIL_UUID } from "../Audit.js"
import { NotFound } from "../Errors.js"
import { isUuid } from "../Ids.js"
import { Organizations } from "../organizations/Organizations.js"
import { span } from "../Tracing.js"
import { UserRepo } from "../users/Repositories.js"
import { wireMaker } from "../Wire.js"
import { ProvisionerDaemons } from "./ProvisionerDaemons.js"
import {
  jobStatus,
  type ProvisionerJob,
  ProvisionerJobMetadata,
  type ProvisionerJobRecord,
  ProvisionerJobRepo,
  queueStanding,
  type TemplateVersionMetadata,
  toProvisionerJob,
  workerServes,
  type WorkspaceBuildMetadata
} from "./ProvisionerJob.js"
import type { ListProvisionerDaemonsQuery, ListProvisionerJobsQuery } from "./Requests.js"

/** The default and the largest `limit` of the listings (a larger one is cut to this). */
export const DEFAULT_JOB_LIST_LIMIT = 50
export const MAX_JOB_LIST_LIMIT = 1000

const limitOf = (limit: number | undefined) =>
  limit === undefined || limit <= 0 ? DEFAULT_JOB_LIST_LIMIT : Math.min(limit, MAX_JOB_LIST_LIMIT)

/**
 * A job's metadata from its template version and template (a build job: its build's version,
 * the workspace's template, the workspace and the build's transition); empty names and the nil
 * id when it has none.
 */
const makeMetadata = wireMaker(ProvisionerJobMetadata)

const metadataOf = (found: TemplateVersionMetadata | undefined, build?: WorkspaceBuildMetadata | undefined) => {
  const v = build ?? found
  const props: Record<string, unknown> = {
    template_version_name: v?.version_name ?? "",
    template_id: v?.template_id ?? NIL_UUID,
    template_name: v?.template_name ?? "",
    template_display_name: v?.template_display_name ?? "",
    template_icon: v?.template_icon ?? ""
  }
  if (build !== undefined) {
    props.workspace_id = build.workspace_id
    props.workspace_name = build.workspace_name
    props.workspace_build_transition = build.transition
  }
  return makeMetadata(props as ConstructorParameters<typeof ProvisionerJobMetadata>[0])
}

export class ProvisionerJobViews extends Effect.Service<ProvisionerJobViews>()("@workbay/core/ProvisionerJobViews", {
  effect: Effect.gen(function*() {
    const organizations = yield* Organizations
    const daemons = yield* ProvisionerDaemons
    const jobs = yield* ProvisionerJobRepo
    const users = yield* UserRepo

    /**
     * The wire records of jobs of one organization: queue standing among the pending jobs its
     * live workers could run (read once for the whole list), and `available_workers`. The
     * metadata of build jobs whose build is in `knownBuilds` (`undefined` for a build without a
     * workspace) is taken from there, the rest read in one query.
     */
    const describeAll = (
      organizationId: string,
      records: ReadonlyArray<ProvisionerJobRecord>,
      knownBuilds: ReadonlyMap<string, WorkspaceBuildMetadata | undefined> = new Map()
    ) =>
      Effect.gen(function*() {
        const anyPending = records.some((r) => jobStatus(r) === "pending")
        // Workers matter only to pending jobs (queue standing, available workers).
        const workers = anyPending ? yield* daemons.liveWorkers(organizationId) : []
        const types = [...new Set(workers.flatMap((w) => w.provisioners))]
        const pending = anyPending && types.length > 0 ? yield* jobs.pending(types) : []
        const buildIds = [
          ...new Set(records.flatMap((r) => r.type === "workspace_build" ? r.input.workspace_build_id ?? [] : []))
        ]
          .filter((id) => !knownBuilds.has(id))
        const builds = new Map(knownBuilds)
        for (const b of buildIds.length === 0 ? [] : yield* jobs.buildMetadata(buildIds)) builds.set(b.build_id, b)
        // A job with its build's metadata names that build's version: only the others read theirs
        // (a workspace list, whose builds are all known, reads none).
        const withoutBuild = records.filter((r) => builds.get(r.input.workspace_build_id ?? "") === undefined)
        const versionIds = [...new Set(withoutBuild.flatMap((r) => r.input.template_version_id ?? []))]
        const versions = new Map((yield* jobs.versionMetadata(versionIds)).map((v) => [v.version_id, v]))
        return records.map((job): ProvisionerJob => {
          const isPending = jobStatus(job) === "pending"
          return toProvisionerJob(job, {
            queue: isPending ? queueStanding(job, pending, workers) : undefined,
            availableWorkers: isPending ? workers.filter((w) => workerServes(w, job)).map((w) => w.id) : undefined,
            metadata: metadataOf(
              versions.get(job.input.template_version_id ?? ""),
              builds.get(job.input.workspace_build_id ?? "")
            )
          })
        })
      })

    /** The wire record of one job (for other areas: template version and build jobs). */
    const describe = (job: ProvisionerJobRecord) =>
      Effect.map(describeAll(job.organization_id, [job]), (all) => all[0]!).pipe(span("ProvisionerJobViews.describe"))

    const list = (orgRef: string, params: typeof ListProvisionerJobsQuery.Type) =>
      Effect.gen(function*() {
        const org = yield* organizations.resolve(orgRef)
        yield* authorize("read", { type: "provisioner_jobs", orgId: org.id })
        let initiatorId: string | undefined
        if (params.initiator !== undefined) {
          const found = isUuid(params.initiator)
            ? Option.some(params.initiator.toLowerCase())
            : Option.map(yield* users.findByUsername(params.initiator), (u) => u.id)
          // An unknown username matches no job.
          if (Option.isNone(found)) return []
          initiatorId = found.value
        }
        const records = yield* jobs.listByOrganization({
          organizationId: org.id,
          limit: limitOf(params.limit),
          ids: params.ids?.map((id) => id.toLowerCase()),
          statuses: params.status,
          tags: params.tags,
          initiatorId
        })
        return yield* describeAll(org.id, records)
      }).pipe(span("ProvisionerJobViews.list"))

    const get = (orgRef: string, jobId: string) =>
      Effect.gen(function*() {
        const org = yield* organizations.resolve(orgRef)
        yield* authorizeRead("Provisioner job", { type: "provisioner_jobs", orgId: org.id })
        const found = yield* jobs.findById(jobId.toLowerCase())
        if (Option.isNone(found) || found.value.organization_id !== org.id) {
          return yield* NotFound.resource("Provisioner job")
        }
        return yield* describe(found.value)
      }).pipe(span("ProvisionerJobViews.get"))

    const listDaemons = (orgRef: string, params: typeof ListProvisionerDaemonsQuery.Type) =>
      Effect.gen(function*() {
        const org = yield* organizations.resolve(orgRef)
        yield* authorize("read", { type: "provisioner_daemon", orgId: org.id })
        return yield* daemons.list({
          organizationId: org.id,
          limit: limitOf(params.limit),
          ids: params.ids?.map((id) => id.toLowerCase()),
          tags: params.tags,
          statuses: params.status
        })
      }).pipe(span("ProvisionerJobViews.listDaemons"))

    return { describe, describeAll, list, get, listDaemons } as const
  })
}) {}
