/**
 * The provisioner job queue on @effect/sql. Every state move is one conditional UPDATE ...
 * RETURNING, so concurrent callers see exactly one winner. The claim differs by dialect:
 * Postgres locks the chosen row with `FOR UPDATE SKIP LOCKED`, so any number of processes
 * share the queue; SQLite runs the same statement without it (one statement is atomic there,
 * and one process owns the file). Tags are JSON text; "the job's tags are a subset of the
 * worker's" is jsonb `<@` on Postgres and a `json_each` anti-join on SQLite.
 */
import { SqlClient, type Statement } from "@effect/sql"
import {
  BUILD_TIME_STATS_BUILDS,
  logLevels,
  logSources,
  type NewProvisionerJob,
  type ProvisionerJobLogRecord,
  type ProvisionerJobRecord,
  ProvisionerJobRepo,
  provisionerJobTypes,
  type ProvisionerTags,
  type TemplateVersionMetadata,
  type WorkspaceBuildMetadata,
  workspaceTransitions
} from "@workbay/core"
import { Effect, Layer, Option } from "effect"
import {
  bool,
  columns,
  date,
  first,
  int,
  json,
  literal,
  nullableDate,
  nullableText,
  openLiteral,
  orElse,
  type Row,
  text
} from "../Columns.js"
import { directStatements } from "../DirectReads.js"
import { filters } from "../Filters.js"
import { LATEST_BUILD_STATUS_SET, LIFECYCLE_RECHECK, WORKSPACE_LIST_RANK_UPDATE } from "../Schema.js"
import { transaction } from "../Transaction.js"
import { tagConditions } from "./Tags.js"

const rowToJob = columns<ProvisionerJobRecord>("provisioner_jobs", {
  id: text,
  created_at: date,
  updated_at: date,
  started_at: nullableDate,
  canceled_at: nullableDate,
  completed_at: nullableDate,
  error: text,
  error_code: text,
  organization_id: text,
  initiator_id: text,
  provisioner: text,
  type: openLiteral(provisionerJobTypes),
  file_id: text,
  input: json({}),
  tags: json({}),
  worker_id: nullableText,
  worker_name: text,
  logs_length: int,
  logs_overflowed: bool,
  host: nullableText,
  placed_memory_bytes: int,
  placed_cpus: int
}).read

const rowToLog = columns<ProvisionerJobLogRecord>("provisioner_job_logs", {
  id: int,
  job_id: text,
  created_at: date,
  log_source: literal(logSources),
  log_level: literal(logLevels),
  stage: text,
  output: text
}).read

/** A template version with its template's names (none when the version has no template: LEFT JOIN). */
const rowToVersionMetadata = columns<TemplateVersionMetadata>("template_versions", {
  version_id: text,
  version_name: text,
  template_id: nullableText,
  template_name: orElse(text, ""),
  template_display_name: orElse(text, ""),
  template_icon: orElse(text, "")
}).read

const rowToBuildMetadata = columns<WorkspaceBuildMetadata>("workspace_builds", {
  build_id: text,
  transition: literal(workspaceTransitions),
  workspace_id: text,
  workspace_name: text,
  version_id: orElse(text, ""),
  version_name: orElse(text, ""),
  template_id: nullableText,
  template_name: orElse(text, ""),
  template_display_name: orElse(text, ""),
  template_icon: orElse(text, "")
}).read

const rowToPending = columns<Pick<ProvisionerJobRecord, "id" | "provisioner" | "tags" | "created_at">>(
  "provisioner_jobs",
  { id: text, provisioner: text, tags: json<ProvisionerTags>({}), created_at: date }
).read

/** The conditions of a pending job, exactly as the partial index `provisioner_jobs_pending` states them. */
const PENDING = "started_at IS NULL AND canceled_at IS NULL AND completed_at IS NULL"

/** Bytes of output a batch adds to a job's logs. */
const outputBytes = (logs: ReadonlyArray<{ readonly output: string }>) =>
  logs.reduce((n, l) => n + Buffer.byteLength(l.output, "utf8"), 0)

/** The provisioner job repository on the provided `SqlClient`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const reads = yield* directStatements(sql)
  const withTransaction = transaction(sql)
  const f = filters(sql)
  const one = (statement: Statement.Statement<Row>) => Effect.map(Effect.orDie(statement), (rs) => first(rs, rowToJob))

  const tags = tagConditions(sql)
  const buildsOf = (jobIds: ReadonlyArray<string>) =>
    sql`(SELECT workspace_id FROM workspace_builds WHERE job_id IN ${sql.in(jobIds)})`
  /**
   * Recomputes the list sort key of the workspaces whose build ran these jobs (migration 0012),
   * and makes them due for the lifecycle executor (migration 0013: an ended job is a change to
   * what its rules read). Only a completion can make a latest build running; a cancel or a hung
   * job ends it failed or canceled, which ranks as the pending build it was.
   */
  const rerank = (jobIds: ReadonlyArray<string>) =>
    sql`${sql.literal(WORKSPACE_LIST_RANK_UPDATE)}, ${sql.literal(LATEST_BUILD_STATUS_SET)}, ${
      sql.literal(LIFECYCLE_RECHECK)
    }
      WHERE id IN ${buildsOf(jobIds)}`
  /**
   * The workspaces whose build ran these jobs are due for the lifecycle executor (their job
   * ended), and keep their latest build's status (migration 0032).
   */
  const recheck = (jobIds: ReadonlyArray<string>) =>
    jobIds.length === 0
      ? Effect.void
      : sql`UPDATE workspaces SET ${sql.literal(LATEST_BUILD_STATUS_SET)}, ${
        sql.literal(LIFECYCLE_RECHECK)
      } WHERE id IN ${buildsOf(jobIds)}`
        .pipe(Effect.asVoid)
  /** The workspaces whose build ran this job keep their latest build's status (its job was claimed, or asked to cancel). */
  const restatus = (job: Option.Option<ProvisionerJobRecord>) =>
    Option.isSome(job) && job.value.type === "workspace_build"
      ? sql`UPDATE workspaces SET ${sql.literal(LATEST_BUILD_STATUS_SET)} WHERE id IN ${buildsOf([job.value.id])}`.pipe(
        Effect.asVoid
      )
      : Effect.void
  const tagsInclude = tags.include
  const tagsWithin = tags.within

  /**
   * Keeps the duration of a build whose job succeeded among its template's newest 100
   * (`template_build_times`, migration 0031; by the build's creation time, as the stats read them).
   */
  const keepBuildTime = (jobId: string) =>
    Effect.gen(function*() {
      const kept = yield* sql<
        Row
      >`INSERT INTO template_build_times (build_id, template_id, build_created_at, transition, started_at, completed_at)
        SELECT b.id, v.template_id, b.created_at, b.transition, j.started_at, j.completed_at
        FROM workspace_builds b JOIN template_versions v ON v.id = b.template_version_id JOIN provisioner_jobs j ON j.id = b.job_id
        WHERE b.job_id = ${jobId}
        ON CONFLICT (build_id) DO NOTHING
        RETURNING template_id`
      for (const r of kept) {
        const templateId = text(r.template_id, "template_build_times.template_id")
        yield* sql`DELETE FROM template_build_times WHERE template_id = ${templateId} AND build_id NOT IN (
          SELECT build_id FROM template_build_times WHERE template_id = ${templateId}
          ORDER BY build_created_at DESC, build_id DESC LIMIT ${BUILD_TIME_STATS_BUILDS})`
      }
    })

  return ProvisionerJobRepo.of({
    enqueue: (job: NewProvisionerJob) =>
      sql<Row>`INSERT INTO provisioner_jobs ${
        sql.insert({
          id: job.id,
          created_at: job.created_at.toISOString(),
          updated_at: job.created_at.toISOString(),
          organization_id: job.organization_id,
          initiator_id: job.initiator_id,
          provisioner: job.provisioner,
          type: job.type,
          file_id: job.file_id,
          input: JSON.stringify(job.input),
          tags: JSON.stringify(job.tags),
          host: job.host ?? null,
          placed_memory_bytes: job.placed_memory_bytes ?? 0,
          placed_cpus: job.placed_cpus ?? 0
        })
      } RETURNING *`.pipe(Effect.orDie, Effect.map((rs) => rowToJob(rs[0]!))),

    findById: (id) => one(sql<Row>`SELECT * FROM provisioner_jobs WHERE id = ${id}`),
    findByIds: (ids) =>
      ids.length === 0
        ? Effect.succeed([])
        : reads.mapped(sql<Row>`SELECT * FROM provisioner_jobs WHERE ${sql.in("id", ids)}`, (rs) => rs.map(rowToJob)),

    acquire: (worker, now) => {
      if (worker.provisioners.length === 0) return Effect.succeedNone
      const at = now.toISOString()
      const candidate = sql`SELECT id FROM provisioner_jobs
        WHERE ${sql.unsafe(PENDING)} AND ${sql.in("provisioner", worker.provisioners)}
          AND ${tagsWithin("tags", worker.tags)}
          AND ${worker.organization_id === undefined ? sql`1 = 1` : sql`organization_id = ${worker.organization_id}`}
          AND ${worker.host === undefined ? sql`host IS NULL` : sql`(host IS NULL OR host = ${worker.host})`}
        ORDER BY created_at LIMIT 1`
      return withTransaction(Effect.gen(function*() {
        const claimed = yield* one(sql<Row>`UPDATE provisioner_jobs
          SET started_at = ${at}, updated_at = ${at}, worker_id = ${worker.id}, worker_name = ${worker.name},
            host = ${worker.host === undefined ? sql`host` : sql`COALESCE(host, ${worker.host})`}
          WHERE id = (${
          sql.onDialectOrElse({
            pg: () => sql`${candidate} FOR UPDATE SKIP LOCKED`,
            orElse: () => candidate
          })
        }) AND ${sql.unsafe(PENDING)}
          RETURNING *`)
        yield* restatus(claimed)
        return claimed
      })).pipe(Effect.orDie)
    },

    heartbeat: (jobId, workerId, now) =>
      one(sql<Row>`UPDATE provisioner_jobs SET updated_at = ${now.toISOString()}
        WHERE id = ${jobId} AND worker_id = ${workerId} AND completed_at IS NULL RETURNING *`),

    complete: (jobId, workerId, result, now) =>
      withTransaction(Effect.gen(function*() {
        const done = yield* one(sql<Row>`UPDATE provisioner_jobs
          SET completed_at = ${now.toISOString()}, updated_at = ${now.toISOString()},
            error = ${result.error ?? ""}, error_code = ${result.error_code ?? ""}
          WHERE id = ${jobId} AND worker_id = ${workerId} AND started_at IS NOT NULL AND completed_at IS NULL
          RETURNING *`)
        if (Option.isSome(done)) {
          yield* rerank([jobId])
          if (
            done.value.type === "workspace_build" && done.value.error === "" && done.value.canceled_at === null
          ) yield* keepBuildTime(jobId)
        }
        return done
      })).pipe(Effect.orDie),

    requestCancel: (jobId, now) => {
      const at = now.toISOString()
      // A job nobody started finishes canceled at once; a started one waits for its worker.
      return withTransaction(Effect.gen(function*() {
        const done = yield* one(sql<Row>`UPDATE provisioner_jobs
          SET canceled_at = ${at}, updated_at = ${at},
            completed_at = CASE WHEN started_at IS NULL THEN ${at} ELSE completed_at END
          WHERE id = ${jobId} AND completed_at IS NULL AND canceled_at IS NULL
          RETURNING *`)
        if (Option.isSome(done) && done.value.completed_at !== null) yield* recheck([jobId])
        else yield* restatus(done)
        return done
      })).pipe(Effect.orDie)
    },

    failHung: (olderThan, error, now) =>
      withTransaction(Effect.gen(function*() {
        const rs = yield* sql<Row>`UPDATE provisioner_jobs
          SET completed_at = ${now.toISOString()}, updated_at = ${now.toISOString()}, error = ${error}, error_code = ''
          WHERE started_at IS NOT NULL AND completed_at IS NULL AND updated_at < ${olderThan.toISOString()}
          RETURNING id`
        const ids = rs.map((r) => String(r.id))
        yield* recheck(ids)
        return ids
      })).pipe(Effect.orDie),

    pendingOnHosts: (createdBefore) =>
      sql<Row>`SELECT * FROM provisioner_jobs
        WHERE host IS NOT NULL AND started_at IS NULL AND completed_at IS NULL
          AND created_at < ${createdBefore.toISOString()}
        ORDER BY created_at LIMIT 1000`.pipe(Effect.orDie, Effect.map((rs) => rs.map(rowToJob))),

    failPending: (jobId, error, now) =>
      withTransaction(Effect.gen(function*() {
        const done = yield* one(sql<Row>`UPDATE provisioner_jobs
          SET completed_at = ${now.toISOString()}, updated_at = ${now.toISOString()}, error = ${error}, error_code = ''
          WHERE id = ${jobId} AND started_at IS NULL AND completed_at IS NULL
          RETURNING *`)
        if (Option.isSome(done)) yield* recheck([jobId])
        return done
      })).pipe(Effect.orDie),

    placedLoad: (organizationId, endedAfter) =>
      sql<Row>`SELECT host, SUM(placed_memory_bytes) AS memory_bytes, SUM(placed_cpus) AS cpus
        FROM provisioner_jobs
        WHERE organization_id = ${organizationId} AND host IS NOT NULL
          AND (placed_memory_bytes > 0 OR placed_cpus > 0)
          AND (completed_at IS NULL OR completed_at > ${endedAfter.toISOString()})
        GROUP BY host`.pipe(
        Effect.orDie,
        Effect.map((rs) =>
          new Map(rs.map((r) => [String(r.host), { memory_bytes: Number(r.memory_bytes), cpus: Number(r.cpus) }]))
        )
      ),

    appendLogs: (jobId, logs, maxBytes) =>
      withTransaction(Effect.gen(function*() {
        const bytes = outputBytes(logs)
        // Reserve the room first: of two racing batches only those that fit are stored.
        const reserved = yield* sql<Row>`UPDATE provisioner_jobs SET logs_length = logs_length + ${bytes}
          WHERE id = ${jobId} AND logs_overflowed = FALSE
            AND logs_length + ${bytes} <= ${maxBytes}
          RETURNING id`
        if (reserved.length === 0) {
          yield* sql`UPDATE provisioner_jobs SET logs_overflowed = TRUE
            WHERE id = ${jobId}`
          return { appended: 0, overflowed: true }
        }
        yield* sql`INSERT INTO provisioner_job_logs ${
          sql.insert(logs.map((l) => ({
            job_id: jobId,
            created_at: l.created_at.toISOString(),
            log_source: l.log_source,
            log_level: l.log_level,
            stage: l.stage,
            output: l.output
          })))
        }`
        return { appended: logs.length, overflowed: false }
      })).pipe(Effect.orDie),

    logsAfter: (jobId, afterId, limit) =>
      sql<
        Row
      >`SELECT * FROM provisioner_job_logs WHERE job_id = ${jobId} AND id > ${afterId} ORDER BY id LIMIT ${limit}`.pipe(
        Effect.orDie,
        Effect.map((rs) => rs.map(rowToLog))
      ),

    listByOrganization: (filter) =>
      sql<Row>`SELECT * FROM provisioner_jobs WHERE ${
        f.allOf([
          f.equals("organization_id", filter.organizationId),
          f.oneOf("id", filter.ids),
          f.oneOf("job_status", filter.statuses),
          f.equals("initiator_id", filter.initiatorId),
          filter.tags === undefined || Object.keys(filter.tags).length === 0
            ? undefined
            : tagsInclude("tags", filter.tags)
        ])
      } ORDER BY created_at DESC LIMIT ${filter.limit}`.pipe(Effect.orDie, Effect.map((rs) => rs.map(rowToJob))),

    versionMetadata: (versionIds) =>
      versionIds.length === 0
        ? Effect.succeed([])
        : reads.mapped(
          sql<Row>`SELECT v.id AS version_id, v.name AS version_name, t.id AS template_id, t.name AS template_name,
            t.display_name AS template_display_name, t.icon AS template_icon
          FROM template_versions v LEFT JOIN templates t ON t.id = v.template_id
          WHERE v.id IN ${sql.in(versionIds)}`,
          (rs) => rs.map(rowToVersionMetadata)
        ),

    buildMetadata: (buildIds) =>
      buildIds.length === 0
        ? Effect.succeed([])
        : reads.mapped(
          sql<Row>`SELECT b.id AS build_id, b.transition, w.id AS workspace_id, w.name AS workspace_name,
            v.id AS version_id, v.name AS version_name, t.id AS template_id, t.name AS template_name,
            t.display_name AS template_display_name, t.icon AS template_icon
          FROM workspace_builds b JOIN workspaces w ON w.id = b.workspace_id
            LEFT JOIN template_versions v ON v.id = b.template_version_id LEFT JOIN templates t ON t.id = w.template_id
          WHERE b.id IN ${sql.in(buildIds)}`,
          (rs) => rs.map(rowToBuildMetadata)
        ),

    pending: (provisioners) =>
      provisioners.length === 0
        ? Effect.succeed([])
        : reads.mapped(
          sql<Row>`SELECT id, provisioner, tags, created_at FROM provisioner_jobs
            WHERE ${sql.unsafe(PENDING)} AND ${sql.in("provisioner", provisioners)} ORDER BY created_at`,
          (rs) => rs.map(rowToPending)
        )
  })
})

export const layer: Layer.Layer<ProvisionerJobRepo, never, SqlClient.SqlClient> = Layer.effect(ProvisionerJobRepo, make)
