/**
 * Workspace builds (with their parameter values) and the resources and agents their jobs made,
 * on @effect/sql. Build numbers are unique per workspace, so two builds racing for the next
 * number clash (`UniqueViolation`); the provisioner's state is bytes; agents' apps, scripts,
 * display apps and environment are JSON text. A new build, a build's result and a deadline moved
 * earlier make the workspace due for the lifecycle executor (migration 0013).
 */
import { SqlClient } from "@effect/sql"
import {
  type AppHealth,
  type StoredResource,
  type WorkspaceAgentRecord,
  type WorkspaceBuildRecord,
  WorkspaceBuildRepo,
  type WorkspaceBuildSummary,
  type WorkspaceResourceRecord,
  WorkspaceResourceRepo
} from "@workbay/core"
import { Effect, Layer, Option } from "effect"
import { toAppStatuses, toLogSources } from "../agents/LogRepositories.js"
import { directStatements } from "../DirectReads.js"
import { latestBuildJoin } from "../LatestBuild.js"
import { bindRecord, fromJson, toBool, toDate, toDateOrNull, toNumber } from "../Rows.js"
import { LATEST_BUILD_STATUS_SET, LIFECYCLE_RECHECK, WORKSPACE_LIST_RANK_UPDATE } from "../Schema.js"
import { unique } from "../Unique.js"

type Row = Record<string, unknown>

const toBytes = (v: unknown): Uint8Array => {
  if (v === null || v === undefined) return new Uint8Array(0)
  const b = v as Uint8Array
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength)
}

export const rowToBuildSummary = (r: Row): WorkspaceBuildSummary => ({
  id: r.id as string,
  created_at: toDate(r.created_at),
  updated_at: toDate(r.updated_at),
  workspace_id: r.workspace_id as string,
  template_version_id: r.template_version_id as string,
  template_version_preset_id: (r.template_version_preset_id as string | null) ?? null,
  build_number: toNumber(r.build_number),
  transition: r.transition as WorkspaceBuildRecord["transition"],
  initiator_id: r.initiator_id as string,
  job_id: r.job_id as string,
  deadline: toDateOrNull(r.deadline),
  max_deadline: toDateOrNull(r.max_deadline),
  reason: r.reason as WorkspaceBuildRecord["reason"],
  daily_cost: toNumber(r.daily_cost),
  has_ai_task: toBool(r.has_ai_task),
  has_external_agent: toBool(r.has_external_agent),
  orphan: toBool(r.orphan)
})
/** The columns {@link rowToBuildSummary} reads (every one but the provisioner state). */
/**
 * The statement of `columns` of the latest build of each of `workspaceIds`, one index seek per
 * workspace (`latestBuildJoin`). It once asked the latest number of the build being read, which
 * read every build of those workspaces: the soak's reads slowed as the history grew
 * (docs/storage.md). Exported for the plan test.
 */
export const latestBuildsStatement = (sql: SqlClient.SqlClient, columns: string, workspaceIds: ReadonlyArray<string>) =>
  sql<Row>`SELECT ${sql.literal(columns)} FROM workspaces w ${latestBuildJoin(sql, "w.id")} WHERE w.id IN ${
    sql.in(workspaceIds)
  }`

export const SUMMARY_COLUMNS = [
  "id",
  "created_at",
  "updated_at",
  "workspace_id",
  "template_version_id",
  "template_version_preset_id",
  "build_number",
  "transition",
  "initiator_id",
  "job_id",
  "deadline",
  "max_deadline",
  "reason",
  "daily_cost",
  "has_ai_task",
  "has_external_agent",
  "orphan"
].map((c) => `b.${c}`).join(", ")

const rowToBuild = (r: Row, parameters: ReadonlyArray<{ name: string; value: string }>): WorkspaceBuildRecord => ({
  ...rowToBuildSummary(r),
  provisioner_state: toBytes(r.provisioner_state),
  parameters
})

export const rowToResource = (r: Row): WorkspaceResourceRecord => ({
  id: r.id as string,
  created_at: toDate(r.created_at),
  job_id: r.job_id as string,
  transition: r.transition as WorkspaceResourceRecord["transition"],
  type: r.type as string,
  name: r.name as string,
  hide: toBool(r.hide),
  icon: r.icon as string,
  daily_cost: toNumber(r.daily_cost),
  metadata: fromJson(r.metadata, [])
})

/** A record, or undefined when it is empty (an agent's optional maps are left out until set). */
const nonEmptyRecord = <A>(
  r: Record<string, A>
): Record<string, A> | undefined => (Object.keys(r).length === 0 ? undefined : r)

export const rowToAgent = (r: Row): WorkspaceAgentRecord => ({
  id: r.id as string,
  created_at: toDate(r.created_at),
  updated_at: toDate(r.updated_at),
  resource_id: r.resource_id as string,
  name: r.name as string,
  external: toBool(r.external),
  instance_id: (r.instance_id as string | undefined) ?? "",
  auth_token_hash: r.auth_token_hash as string,
  operating_system: r.operating_system as string,
  architecture: r.architecture as string,
  directory: r.directory as string,
  environment_variables: fromJson(r.environment_variables, {}),
  connection_timeout_seconds: toNumber(r.connection_timeout_seconds),
  troubleshooting_url: r.troubleshooting_url as string,
  startup_script_behavior: r.startup_script_behavior as WorkspaceAgentRecord["startup_script_behavior"],
  display_apps: fromJson(r.display_apps, {
    vscode: false,
    vscode_insiders: false,
    web_terminal: false,
    ssh_helper: false,
    port_forwarding_helper: false
  }),
  apps: fromJson(r.apps, []),
  scripts: fromJson(r.scripts, []),
  lifecycle_state: r.lifecycle_state as string,
  first_connected_at: toDateOrNull(r.first_connected_at),
  last_connected_at: toDateOrNull(r.last_connected_at),
  disconnected_at: toDateOrNull(r.disconnected_at),
  started_at: toDateOrNull(r.started_at),
  ready_at: toDateOrNull(r.ready_at),
  version: r.version as string,
  api_version: r.api_version as string,
  logs_length: toNumber(r.logs_length),
  logs_overflowed: toBool(r.logs_overflowed),
  expanded_directory: (r.expanded_directory as string | undefined) ?? "",
  subsystems: fromJson(r.subsystems, []),
  script_results: fromJson(r.script_results, {}),
  metadata: fromJson(r.metadata, []),
  app_health: nonEmptyRecord(fromJson<Record<string, AppHealth>>(r.app_health, {})),
  log_sources: toLogSources(r.log_sources),
  app_statuses: toAppStatuses(r.app_statuses)
})

const bytes = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength)

export const makeBuilds = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const reads = yield* directStatements(sql)

  /** Builds of these rows with their parameter values (one query for all). */
  const withParameters = (rows: ReadonlyArray<Row>) =>
    Effect.gen(function*() {
      if (rows.length === 0) return []
      const ids = rows.map((r) => r.id as string)
      const params = yield* Effect.orDie(
        reads(sql<Row>`SELECT workspace_build_id, name, value FROM workspace_build_parameters
        WHERE workspace_build_id IN ${sql.in(ids)} ORDER BY name`)
      )
      const byBuild = new Map<string, Array<{ name: string; value: string }>>()
      for (const p of params) {
        const id = p.workspace_build_id as string
        const value = { name: p.name as string, value: p.value as string }
        const list = byBuild.get(id)
        if (list === undefined) byBuild.set(id, [value])
        else list.push(value)
      }
      return rows.map((r) => rowToBuild(r, byBuild.get(r.id as string) ?? []))
    })

  /** `columns` of the latest build (highest number) of each of these workspaces. */
  const latestRows = (columns: string, workspaceIds: ReadonlyArray<string>) =>
    Effect.orDie(reads(latestBuildsStatement(sql, columns, workspaceIds)))

  const one = (rows: ReadonlyArray<Row>) =>
    Effect.map(withParameters(rows.slice(0, 1)), (bs) => Option.fromNullable(bs[0]))

  const workspaceOf = (buildId: string) => sql`(SELECT workspace_id FROM workspace_builds WHERE id = ${buildId})`
  /** The build's workspace is due for the lifecycle executor at once. */
  const recheckOfBuild = (buildId: string) =>
    Effect.orDie(sql`UPDATE workspaces SET ${sql.literal(LIFECYCLE_RECHECK)} WHERE id = ${workspaceOf(buildId)}`).pipe(
      Effect.asVoid
    )
  /**
   * The build's workspace is due by `deadline` (its autostop) at the latest. Only the autostop
   * rule reads the deadline, so a later one changes nothing that was due earlier: activity bumps
   * do not bring a workspace back before its old deadline, when the executor reads the new one.
   */
  const dueBy = (buildId: string, deadline: Date) => {
    const at = deadline.toISOString()
    return Effect.orDie(sql`UPDATE workspaces SET lifecycle_version = lifecycle_version + 1,
      lifecycle_due_at = CASE WHEN lifecycle_due_at IS NULL OR lifecycle_due_at > ${at} THEN ${at} ELSE lifecycle_due_at END
      WHERE id = ${workspaceOf(buildId)}`).pipe(Effect.asVoid)
  }

  return WorkspaceBuildRepo.of({
    insert: (build) =>
      Effect.gen(function*() {
        const { parameters, provisioner_state, ...rest } = build
        yield* unique(
          sql`INSERT INTO workspace_builds ${
            sql.insert({ ...bindRecord(rest), provisioner_state: bytes(provisioner_state) })
          }`
        )
        // The workspace's list sort key follows its latest build (see migration 0012); the
        // lifecycle executor looks at it again (migration 0013),
        // and keeps its latest build's status (migration 0032).
        yield* Effect.orDie(
          sql`${sql.literal(WORKSPACE_LIST_RANK_UPDATE)}, ${sql.literal(LATEST_BUILD_STATUS_SET)}, ${
            sql.literal(LIFECYCLE_RECHECK)
          }
          WHERE id = ${build.workspace_id}`
        )
        if (parameters.length > 0) {
          yield* Effect.orDie(
            sql`INSERT INTO workspace_build_parameters ${
              sql.insert(parameters.map((p) => ({ workspace_build_id: build.id, name: p.name, value: p.value })))
            }`
          )
        }
      }),
    findById: (id) =>
      Effect.flatMap(Effect.orDie(reads(sql<Row>`SELECT * FROM workspace_builds WHERE id = ${id}`)), one),
    recentParameters: (ownerId, templateId, limit) =>
      Effect.orDie(sql<Row>`SELECT p.name, p.value, b.template_version_id FROM workspace_build_parameters p
        JOIN workspace_builds b ON b.id = p.workspace_build_id
        JOIN workspaces w ON w.id = b.workspace_id
        WHERE w.owner_id = ${ownerId} AND w.template_id = ${templateId} AND b.transition = 'start'
        ORDER BY b.created_at DESC, b.build_number DESC
        LIMIT ${limit}`).pipe(
        Effect.map((rs) =>
          rs.map((r) => ({
            name: String(r.name),
            value: String(r.value),
            template_version_id: String(r.template_version_id)
          }))
        )
      ),
    findByJobId: (jobId) =>
      Effect.flatMap(Effect.orDie(sql<Row>`SELECT * FROM workspace_builds WHERE job_id = ${jobId}`), one),
    findByNumber: (workspaceId, n) =>
      Effect.flatMap(
        Effect.orDie(
          sql<Row>`SELECT * FROM workspace_builds WHERE workspace_id = ${workspaceId} AND build_number = ${n}`
        ),
        one
      ),
    latestOf: (workspaceIds) =>
      workspaceIds.length === 0 ? Effect.succeed([]) : Effect.flatMap(latestRows("b.*", workspaceIds), withParameters),
    latestSummariesOf: (workspaceIds) =>
      workspaceIds.length === 0
        ? Effect.succeed([])
        : Effect.map(latestRows(SUMMARY_COLUMNS, workspaceIds), (rows) => rows.map(rowToBuildSummary)),
    list: (page) =>
      Effect.flatMap(
        Effect.orDie(reads(sql<Row>`SELECT * FROM workspace_builds WHERE workspace_id = ${page.workspaceId}
          ${
          page.afterId === undefined
            ? sql``
            : sql`AND build_number > (SELECT build_number FROM workspace_builds WHERE id = ${page.afterId})`
        }
          ${page.since === undefined ? sql`` : sql`AND created_at > ${page.since.toISOString()}`}
          ORDER BY build_number DESC LIMIT ${page.limit} OFFSET ${page.offset ?? 0}`)),
        withParameters
      ),
    setResult: (id, result, now) =>
      Effect.orDie(sql`UPDATE workspace_builds SET ${
        sql.update({
          ...bindRecord({
            daily_cost: result.daily_cost,
            has_ai_task: result.has_ai_task,
            has_external_agent: result.has_external_agent,
            updated_at: now
          }),
          deadline: result.deadline === null ? null : result.deadline.toISOString(),
          max_deadline: result.max_deadline === null ? null : result.max_deadline.toISOString(),
          provisioner_state: bytes(result.provisioner_state)
        })
      } WHERE id = ${id}`).pipe(Effect.zipRight(recheckOfBuild(id))),
    setProvisionerState: (id, state, now) =>
      Effect.orDie(
        sql`UPDATE workspace_builds SET ${
          sql.update({ ...bindRecord({ updated_at: now }), provisioner_state: bytes(state) })
        } WHERE id = ${id}`
      ),
    setDeadline: (id, times, now) =>
      Effect.orDie(sql`UPDATE workspace_builds SET ${
        sql.update({
          ...bindRecord({ updated_at: now }),
          deadline: times.deadline === null ? null : times.deadline.toISOString(),
          ...(times.max_deadline === undefined
            ? {}
            : { max_deadline: times.max_deadline === null ? null : times.max_deadline.toISOString() })
        })
      } WHERE id = ${id}`).pipe(Effect.zipRight(times.deadline === null ? Effect.void : dueBy(id, times.deadline)))
  })
})

export const makeResources = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const reads = yield* directStatements(sql)
  return WorkspaceResourceRepo.of({
    insert: (resources) =>
      Effect.gen(function*() {
        if (resources.length === 0) return
        yield* Effect.orDie(
          sql`INSERT INTO workspace_resources ${sql.insert(resources.map((r) => bindRecord(r.resource)))}`
        )
        const agents = resources.flatMap((r) => r.agents)
        if (agents.length > 0) {
          yield* Effect.orDie(sql`INSERT INTO workspace_agents ${sql.insert(agents.map((a) => bindRecord(a)))}`)
        }
      }),
    listByJobs: (jobIds) =>
      Effect.gen(function*() {
        if (jobIds.length === 0) return []
        const rs = yield* Effect.orDie(
          reads(
            sql<Row>`SELECT * FROM workspace_resources WHERE job_id IN ${sql.in(jobIds)} ORDER BY created_at, name, id`
          )
        )
        if (rs.length === 0) return []
        const as = yield* Effect.orDie(
          reads(sql<Row>`SELECT * FROM workspace_agents WHERE resource_id IN ${sql.in(rs.map((r) => r.id as string))}
          ORDER BY name, id`)
        )
        const byResource = new Map<string, Array<WorkspaceAgentRecord>>()
        for (const a of as) {
          const list = byResource.get(a.resource_id as string)
          if (list === undefined) byResource.set(a.resource_id as string, [rowToAgent(a)])
          else list.push(rowToAgent(a))
        }
        return rs.map((r): StoredResource => ({
          resource: rowToResource(r),
          agents: byResource.get(r.id as string) ?? []
        }))
      })
  })
})

export const layer: Layer.Layer<WorkspaceBuildRepo | WorkspaceResourceRepo, never, SqlClient.SqlClient> = Layer.merge(
  Layer.effect(WorkspaceBuildRepo, makeBuilds),
  Layer.effect(WorkspaceResourceRepo, makeResources)
)
