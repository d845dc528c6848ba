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
  type BuildReason,
  type DisplayApps,
  type PrebuildCreation,
  PREBUILDS_USER_ID,
  provisionerJobStatuses,
  SecretBox,
  sideBySide,
  type StoredResource,
  type WorkspaceAgentRecord,
  workspaceBuildReasons,
  type WorkspaceBuildRecord,
  WorkspaceBuildRepo,
  type WorkspaceBuildSummary,
  type WorkspaceResourceRecord,
  WorkspaceResourceRepo,
  workspaceTransitions
} from "@workbay/core"
import { Effect, Layer, Option } from "effect"
import { appStatuses, logSources } from "../agents/LogRepositories.js"
import {
  bool,
  bytes as storedBytes,
  type Column,
  columns,
  date,
  int,
  json,
  literal,
  literalOf,
  nullableDate,
  nullableInt,
  nullableText,
  orElse,
  type Row,
  text
} from "../Columns.js"
import { directStatements } from "../DirectReads.js"
import { latestBuildJoin } from "../LatestBuild.js"
import { bindRecord } from "../Rows.js"
import { LATEST_BUILD_STATUS_SET, LIFECYCLE_RECHECK, WORKSPACE_LIST_RANK_UPDATE } from "../Schema.js"
import { unique } from "../Unique.js"

const buildSummaryColumns = columns<WorkspaceBuildSummary>("workspace_builds", {
  id: text,
  created_at: date,
  updated_at: date,
  workspace_id: text,
  template_version_id: text,
  template_version_preset_id: nullableText,
  build_number: int,
  transition: literal(workspaceTransitions),
  initiator_id: text,
  job_id: text,
  deadline: nullableDate,
  max_deadline: nullableDate,
  reason: literalOf<BuildReason>()(workspaceBuildReasons),
  daily_cost: int,
  has_ai_task: bool,
  has_external_agent: bool,
  orphan: bool
})
export const rowToBuildSummary = buildSummaryColumns.read

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

/** The columns {@link rowToBuildSummary} reads (every one but the provisioner state), of `workspace_builds b`. */
export const SUMMARY_COLUMNS = buildSummaryColumns.select("b")

/**
 * {@link SUMMARY_COLUMNS} named `lb_...`, beside another table's row (the workspace list's page reads
 * each workspace with its latest build), and their reader.
 */
export const JOINED_SUMMARY_COLUMNS = buildSummaryColumns.select("b", "lb_")
export const rowToJoinedBuildSummary = buildSummaryColumns.prefixed("lb_")

const rowToBuild = (r: Row, parameters: ReadonlyArray<{ name: string; value: string }>): WorkspaceBuildRecord => ({
  ...rowToBuildSummary(r),
  provisioner_state: storedBytes(r.provisioner_state, "workspace_builds.provisioner_state"),
  parameters
})

export const rowToResource = columns<WorkspaceResourceRecord>("workspace_resources", {
  id: text,
  created_at: date,
  job_id: text,
  transition: literal(workspaceTransitions),
  type: text,
  name: text,
  hide: bool,
  icon: text,
  daily_cost: int,
  metadata: json([])
}).read

const healthByApp = json<Readonly<Record<string, AppHealth>>>({})
/** The apps' health by app id; undefined when none reported (an agent's optional maps are left out until set). */
const appHealth: Column<Readonly<Record<string, AppHealth>> | undefined> = (v, c) => {
  const health = healthByApp(v, c)
  return Object.keys(health).length === 0 ? undefined : health
}

const NO_DISPLAY_APPS: DisplayApps = {
  vscode: false,
  vscode_insiders: false,
  web_terminal: false,
  ssh_helper: false,
  port_forwarding_helper: false
}

export const rowToAgent = columns<WorkspaceAgentRecord>("workspace_agents", {
  id: text,
  created_at: date,
  updated_at: date,
  resource_id: text,
  name: text,
  external: bool,
  instance_id: orElse(text, ""),
  auth_token_hash: text,
  operating_system: text,
  architecture: text,
  directory: text,
  environment_variables: json({}),
  connection_timeout_seconds: int,
  troubleshooting_url: text,
  startup_script_behavior: literalOf<WorkspaceAgentRecord["startup_script_behavior"]>()(["blocking", "non-blocking"]),
  display_apps: json(NO_DISPLAY_APPS),
  apps: json([]),
  scripts: json([]),
  lifecycle_state: text,
  first_connected_at: nullableDate,
  last_connected_at: nullableDate,
  disconnected_at: nullableDate,
  last_connected_replica_id: nullableText,
  latency_us: nullableInt,
  started_at: nullableDate,
  ready_at: nullableDate,
  version: text,
  api_version: text,
  logs_length: int,
  logs_overflowed: bool,
  expanded_directory: orElse(text, ""),
  subsystems: json([]),
  script_results: json({}),
  metadata: json([]),
  app_health: appHealth,
  log_sources: logSources,
  app_statuses: appStatuses
}).read

const bytes = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength)

export const makeBuilds = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const reads = yield* directStatements(sql)

  /** Builds of these rows with their parameter values (one query for all). */
  const withParameters = (rows: ReadonlyArray<Row>) =>
    Effect.gen(function*() {
      if (rows.length === 0) return []
      const builds = rows.map((r) => ({ row: r, id: text(r.id, "workspace_builds.id") }))
      const ids = builds.map((b) => b.id)
      const params = yield* Effect.orDie(
        reads(sql<Row>`SELECT workspace_build_id, name, value FROM workspace_build_parameters
        WHERE workspace_build_id IN ${sql.in(ids)} ORDER BY name`)
      )
      const byBuild = new Map<string, Array<{ name: string; value: string }>>()
      for (const p of params) {
        const id = text(p.workspace_build_id, "workspace_build_parameters.workspace_build_id")
        const value = {
          name: text(p.name, "workspace_build_parameters.name"),
          value: text(p.value, "workspace_build_parameters.value")
        }
        const list = byBuild.get(id)
        if (list === undefined) byBuild.set(id, [value])
        else list.push(value)
      }
      return builds.map((b) => rowToBuild(b.row, byBuild.get(b.id) ?? []))
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

  const prebuildCreation = (r: Row): PrebuildCreation => ({
    workspace_id: text(r.workspace_id, "workspace_builds.workspace_id"),
    owner_id: text(r.owner_id, "workspaces.owner_id"),
    organization_id: text(r.organization_id, "workspaces.organization_id"),
    template_id: text(r.template_id, "workspaces.template_id"),
    template_version_id: text(r.template_version_id, "workspace_builds.template_version_id"),
    preset_id: text(r.template_version_preset_id, "workspace_builds.template_version_preset_id"),
    created_at: date(r.created_at, "workspace_builds.created_at"),
    job_status: literal(provisionerJobStatuses)(r.job_status, "provisioner_jobs.job_status")
  })

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
    prebuildCreations: ({ since, unclaimed, perPreset }) => {
      const creations = sql`SELECT b.workspace_id, w.owner_id, w.organization_id, w.template_id,
          b.template_version_id, b.template_version_preset_id, b.created_at, j.job_status${
        perPreset === undefined ? sql`` : sql`,
          ROW_NUMBER() OVER (PARTITION BY b.template_version_preset_id ORDER BY b.created_at DESC, b.id) AS rn`
      }
        FROM workspaces w
        JOIN workspace_builds b ON b.workspace_id = w.id AND b.build_number = 1
        JOIN provisioner_jobs j ON j.id = b.job_id
        WHERE b.initiator_id = ${PREBUILDS_USER_ID} AND b.transition = 'start'
          AND b.template_version_preset_id IS NOT NULL
          ${unclaimed === true ? sql`AND w.owner_id = ${PREBUILDS_USER_ID}` : sql``}
          ${since === undefined ? sql`` : sql`AND b.created_at >= ${since.toISOString()}`}`
      return reads.mapped(
        perPreset === undefined
          ? sql<Row>`${creations} ORDER BY b.created_at DESC`
          : sql<Row>`SELECT * FROM (${creations}) c WHERE c.rn <= ${perPreset} ORDER BY c.created_at DESC`,
        (rows) => rows.map(prebuildCreation)
      )
    },
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
  const box = yield* SecretBox
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
          // Every row names the same columns (a multi-row insert takes them from the first).
          const rows = agents.map(({ auth_token, ...a }) => {
            const kept = auth_token === undefined ? { value: null, keyId: null } : box.seal(auth_token)
            return { ...bindRecord(a), auth_token: kept.value, auth_token_key_id: kept.keyId }
          })
          yield* Effect.orDie(sql`INSERT INTO workspace_agents ${sql.insert(rows)}`)
        }
      }),
    retireAgentTokens: (agentIds, now) =>
      agentIds.length === 0 ? Effect.void : Effect.asVoid(Effect.orDie(
        // A token's hash is 64 hex digits: "retired:<id>" is none, and unique as the index wants.
        sql`UPDATE workspace_agents SET auth_token_hash = 'retired:' || id, auth_token = NULL,
          auth_token_key_id = NULL, updated_at = ${now.toISOString()} WHERE id IN ${sql.in(agentIds)}`
      )),
    listByJobs: (jobIds) =>
      Effect.gen(function*() {
        if (jobIds.length === 0) return []
        // The resources and their agents side by side (the agents found through their resources'
        // jobs, not after the resources: one round trip on Postgres, not two).
        const [rs, as] = yield* Effect.orDie(sideBySide([
          reads(
            sql<Row>`SELECT * FROM workspace_resources WHERE job_id IN ${sql.in(jobIds)} ORDER BY created_at, name, id`
          ),
          reads(sql<Row>`SELECT a.* FROM workspace_agents a WHERE a.resource_id IN
            (SELECT r.id FROM workspace_resources r WHERE r.job_id IN ${sql.in(jobIds)})
            ORDER BY a.name, a.id`)
        ]))
        if (rs.length === 0) return []
        const resources = rs.map(rowToResource)
        const byResource = new Map<string, Array<WorkspaceAgentRecord>>()
        for (const a of as) {
          const agent = rowToAgent(a)
          const list = byResource.get(agent.resource_id)
          if (list === undefined) byResource.set(agent.resource_id, [agent])
          else list.push(agent)
        }
        return resources.map((resource): StoredResource => ({
          resource,
          agents: byResource.get(resource.id) ?? []
        }))
      })
  })
})

export const layer: Layer.Layer<WorkspaceBuildRepo | WorkspaceResourceRepo, never, SqlClient.SqlClient> = Layer.merge(
  Layer.effect(WorkspaceBuildRepo, makeBuilds),
  Layer.effect(WorkspaceResourceRepo, makeResources)
)
