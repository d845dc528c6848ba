/**
 * Templates and template versions on @effect/sql. ACLs, tags, variable values and a version's
 * import result are JSON text; a template's name is unique per organization among the undeleted
 * (case-insensitive), a version's name per template. A change to a template's lifecycle settings
 * makes its workspaces due for the lifecycle executor (migration 0013).
 */
import { SqlClient, type SqlError, type Statement } from "@effect/sql"
import {
  type DryRunRecord,
  type ImportedResource,
  type TemplateAcl,
  type TemplateRecord,
  TemplateRepo,
  type TemplateVersionImport,
  type TemplateVersionRecord,
  TemplateVersionRepo
} from "@workbay/core"
import { Effect, Layer, Option } from "effect"
import { bool, type Column, columns, date, first, int, json, nullableText, type Row, text } from "../Columns.js"
import { directStatements } from "../DirectReads.js"
import { escapeLike, filters } from "../Filters.js"
import { latestBuildJoin } from "../LatestBuild.js"
import { bind, bindRecord } from "../Rows.js"
import { LIFECYCLE_RECHECK } from "../Schema.js"
import { transaction } from "../Transaction.js"
import { unique } from "../Unique.js"

/** The template settings the lifecycle rules read (`nextTransition`'s `template`, timing only). */
const LIFECYCLE_SETTINGS: ReadonlyArray<keyof TemplateRecord> = [
  "allow_user_autostart",
  "autostart_requirement_days_of_week",
  "failure_ttl_ms",
  "time_til_dormant_ms",
  "time_til_dormant_autodelete_ms"
]

const rowToTemplate = columns<TemplateRecord>("templates", {
  id: text,
  created_at: date,
  updated_at: date,
  organization_id: text,
  deleted: bool,
  name: text,
  display_name: text,
  description: text,
  icon: text,
  provisioner: text,
  active_version_id: text,
  created_by: text,
  default_ttl_ms: int,
  activity_bump_ms: int,
  autostop_requirement_days_of_week: int,
  autostop_requirement_weeks: int,
  autostart_requirement_days_of_week: int,
  allow_user_cancel_workspace_jobs: bool,
  allow_user_autostart: bool,
  allow_user_autostop: bool,
  failure_ttl_ms: int,
  time_til_dormant_ms: int,
  time_til_dormant_autodelete_ms: int,
  require_active_version: bool,
  max_port_share_level: text,
  deprecated: text,
  use_classic_parameter_flow: bool,
  cors_behavior: text,
  user_acl: json<TemplateAcl>({}),
  group_acl: json<TemplateAcl>({})
}).read

/** Dates inside the stored import come back as strings; resources carry a `created_at`. */
const reviveResources = (resources: ReadonlyArray<ImportedResource> | null | undefined, c?: string) =>
  resources?.map((res) => ({ ...res, created_at: date(res.created_at, c) })) ?? null

const storedImport = json<TemplateVersionImport | null>(null)
const importResult: Column<TemplateVersionImport | null> = (v, c) => {
  const parsed = storedImport(v, c)
  if (parsed === null) return null
  return { ...parsed, resources: reviveResources(parsed.resources, c) ?? [] }
}

const rowToVersion = columns<TemplateVersionRecord>("template_versions", {
  id: text,
  template_id: nullableText,
  organization_id: text,
  created_at: date,
  updated_at: date,
  name: text,
  message: text,
  readme: text,
  job_id: text,
  created_by: text,
  archived: bool,
  file_id: text,
  provisioner: text,
  tags: json({}),
  user_variable_values: json([]),
  import_result: importResult
}).read

/** Where a page of versions starts: the creation time (as ISO text, the form both dialects compare) and id. */
const versionCursor = (r: Row) => ({
  created_at: date(r.created_at, "template_versions.created_at").toISOString(),
  id: text(r.id, "template_versions.id")
})

const storedResources = json<ReadonlyArray<ImportedResource> | null>(null)
const rowToDryRun = columns<DryRunRecord>("template_version_dry_runs", {
  job_id: text,
  template_version_id: text,
  workspace_name: text,
  rich_parameter_values: json([]),
  user_variable_values: json([]),
  resources: (v, c) => reviveResources(storedResources(v, c), c)
}).read

/**
 * The `workspaces` table for statements that pick a template's workspaces: read through
 * `workspaces_template`. SQLite, without statistics, would rather walk `workspaces_undeleted_name`
 * on `deleted = FALSE` (every undeleted workspace), so the index is named there.
 */
export const workspacesByTemplate = (sql: SqlClient.SqlClient, alias?: string): Statement.Fragment => {
  const table = alias === undefined ? "workspaces" : `workspaces AS ${alias}`
  return sql.onDialectOrElse({
    pg: () => sql.literal(table),
    orElse: () => sql.literal(`${table} INDEXED BY workspaces_template`)
  })
}

export const makeTemplates = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const reads = yield* directStatements(sql)
  const f = filters(sql)
  const withTransaction = transaction(sql)
  const inUse = templateWorkspaceStatements(sql)
  const byId = (id: string) =>
    reads.mapped(sql<Row>`SELECT * FROM templates WHERE id = ${id}`, (rs) => first(rs, rowToTemplate))
  return TemplateRepo.of({
    insert: (t) => unique(sql`INSERT INTO templates ${sql.insert(bindRecord(t))}`).pipe(Effect.asVoid),
    findById: byId,
    findByIds: (ids) =>
      ids.length === 0
        ? Effect.succeed([])
        : reads.mapped(sql<Row>`SELECT * FROM templates WHERE ${sql.in("id", ids)}`, (rs) => rs.map(rowToTemplate)),
    findByName: (organizationId, name) =>
      Effect.orDie(sql<Row>`SELECT * FROM templates
        WHERE organization_id = ${organizationId} AND lower(name) = lower(${name}) AND deleted = FALSE`).pipe(
        Effect.map((rs) => first(rs, rowToTemplate))
      ),
    list: (filter) =>
      Effect.orDie(sql<Row>`SELECT * FROM templates WHERE ${
        f.allOf([
          sql`deleted = FALSE`,
          f.equals("organization_id", filter.organizationId),
          f.oneOf("id", filter.ids),
          filter.exactName === undefined ? undefined : sql`lower(name) = lower(${filter.exactName})`,
          filter.fuzzyName === undefined ? undefined : (() => {
            const like = `%${escapeLike(filter.fuzzyName.toLowerCase())}%`
            return sql`(lower(name) LIKE ${like} ESCAPE '\\' OR lower(display_name) LIKE ${like} ESCAPE '\\')`
          })(),
          filter.deprecated === undefined ? undefined : filter.deprecated ? sql`deprecated <> ''` : sql`deprecated = ''`
        ])
      } ORDER BY lower(name), id`).pipe(Effect.map((rs) => rs.map(rowToTemplate))),
    update: (id, patch) =>
      Effect.gen(function*() {
        const values = bindRecord(patch)
        if (Object.keys(values).length > 0) {
          const lifecycle = LIFECYCLE_SETTINGS.some((k) => (patch as Partial<TemplateRecord>)[k] !== undefined)
          yield* unique(withTransaction(Effect.gen(function*() {
            yield* sql`UPDATE templates SET ${sql.update(values)} WHERE id = ${id} AND deleted = FALSE`
            // Every workspace of the template is looked at by the next tick (one indexed update).
            if (lifecycle) {
              yield* sql`UPDATE workspaces SET ${
                sql.literal(LIFECYCLE_RECHECK)
              } WHERE template_id = ${id} AND deleted = FALSE`
            }
          })))
        }
        return Option.filter(yield* byId(id), (t) => !t.deleted)
      }),
    hasWorkspaces: (templateId) => Effect.orDie(inUse.any(templateId)).pipe(Effect.map((rs) => rs.length > 0)),
    workspaceOwnerCounts: (templateIds) =>
      templateIds.length === 0
        ? Effect.succeed(new Map())
        // Kept counts (migration 0014): one row per template, whatever the number of workspaces.
        : reads.mapped(
          sql<Row>`SELECT name, value FROM counters
            WHERE ${sql.in("name", templateIds.map((id) => `template_users:${id}`))} AND value > 0`,
          (rs) =>
            new Map(
              rs.map((r) => [
                text(r.name, "counters.name").slice("template_users:".length),
                int(r.value, "counters.value")
              ])
            )
        )
  })
})

/**
 * The reads of a template's undeleted workspaces, through `workspaces_template`
 * (`workspacesByTemplate`): whether there is any (stops at the first). The distinct owners per
 * template are kept counts (migration 0014). Exported for the test of its query plan.
 */
export const templateWorkspaceStatements = (sql: SqlClient.SqlClient) => {
  const from = workspacesByTemplate(sql)
  return {
    any: (templateId: string) =>
      sql<Row>`SELECT 1 AS found FROM ${from} WHERE template_id = ${templateId} AND deleted = FALSE LIMIT 1`
  }
}

export const makeVersions = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const reads = yield* directStatements(sql)
  /**
   * The versions the template's workspaces use: those of their latest builds, but deletes (as
   * the described system's `ArchiveUnusedTemplateVersions`; a succeeded delete also deletes the
   * workspace), read through the template's workspaces.
   */
  const versionsInUse = (templateId: string) =>
    sql`SELECT b.template_version_id FROM ${workspacesByTemplate(sql, "w")}
      ${latestBuildJoin(sql, "w.id")}
      WHERE w.template_id = ${templateId} AND w.deleted = FALSE AND b.transition <> 'delete'`
  const one = (statement: Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError>) =>
    Effect.map(Effect.orDie(statement), (rs) => first(rs, rowToVersion))
  const byId = (id: string) => one(reads(sql<Row>`SELECT * FROM template_versions WHERE id = ${id}`))
  return TemplateVersionRepo.of({
    insert: (v) =>
      unique(
        sql`INSERT INTO template_versions ${
          sql.insert(bindRecord({ ...v, import_result: v.import_result ?? undefined }))
        }`
      ).pipe(
        Effect.asVoid
      ),
    findById: byId,
    findByIds: (ids) =>
      ids.length === 0
        ? Effect.succeed([])
        : reads.mapped(
          sql<Row>`SELECT * FROM template_versions WHERE ${sql.in("id", ids)}`,
          (rs) => rs.map(rowToVersion)
        ),
    findByJobId: (jobId) => one(sql<Row>`SELECT * FROM template_versions WHERE job_id = ${jobId}`),
    listByFileId: (fileId) =>
      Effect.orDie(sql<Row>`SELECT * FROM template_versions WHERE file_id = ${fileId} ORDER BY created_at, id`).pipe(
        Effect.map((rs) => rs.map(rowToVersion))
      ),
    findByTemplateAndName: (templateId, name) =>
      one(sql<Row>`SELECT * FROM template_versions WHERE template_id = ${templateId} AND lower(name) = lower(${name})`),
    listByTemplate: (page) =>
      Effect.gen(function*() {
        const after = page.afterId === undefined
          ? undefined
          : yield* Effect.orDie(sql<Row>`SELECT created_at, id FROM template_versions WHERE id = ${page.afterId}`)
        const cursor = after?.[0] === undefined ? undefined : versionCursor(after[0])
        if (page.afterId !== undefined && cursor === undefined) return []
        const rows = yield* Effect.orDie(sql<Row>`SELECT * FROM template_versions
          WHERE template_id = ${page.templateId}
            ${page.includeArchived ? sql`` : sql`AND archived = FALSE`}
            ${
          cursor === undefined
            ? sql``
            : sql`AND (created_at > ${cursor.created_at} OR (created_at = ${cursor.created_at} AND id > ${cursor.id}))`
        }
          ORDER BY created_at, id LIMIT ${page.limit} OFFSET ${page.offset ?? 0}`)
        return rows.map(rowToVersion)
      }),
    previous: (templateId, versionId) =>
      one(sql<Row>`SELECT p.* FROM template_versions p, template_versions v
        WHERE v.id = ${versionId} AND p.template_id = ${templateId}
          AND (p.created_at < v.created_at OR (p.created_at = v.created_at AND p.id < v.id))
        ORDER BY p.created_at DESC, p.id DESC LIMIT 1`),
    update: (id, patch, now) =>
      Effect.gen(function*() {
        const values = bindRecord({ ...patch, updated_at: now })
        yield* unique(sql`UPDATE template_versions SET ${sql.update(values)} WHERE id = ${id}`)
        return yield* byId(id)
      }),
    setArchived: (templateId, ids, archived, now) =>
      ids.length === 0
        ? Effect.succeed([])
        : Effect.orDie(
          sql<Row>`UPDATE template_versions SET archived = ${bind(archived)}, updated_at = ${now.toISOString()}
            WHERE template_id = ${templateId} AND archived = ${bind(!archived)} AND ${sql.in("id", ids)}
              ${archived ? sql`AND id NOT IN (${versionsInUse(templateId)})` : sql``} RETURNING id`
        ).pipe(
          Effect.map((rs) => rs.map((r) => text(r.id, "template_versions.id")))
        ),
    setImportResult: (id, result, now) =>
      Effect.orDie(
        sql`UPDATE template_versions SET import_result = ${JSON.stringify(result)}, updated_at = ${now.toISOString()}
        WHERE id = ${id}`
      ).pipe(Effect.asVoid),
    insertDryRun: (d) =>
      Effect.orDie(
        sql`INSERT INTO template_version_dry_runs ${
          sql.insert(bindRecord({ ...d, resources: d.resources ?? undefined }))
        }`
      ).pipe(
        Effect.asVoid
      ),
    findDryRun: (jobId) =>
      Effect.orDie(sql<Row>`SELECT * FROM template_version_dry_runs WHERE job_id = ${jobId}`).pipe(
        Effect.map((rs) => first(rs, rowToDryRun))
      ),
    setDryRunResources: (jobId, resources) =>
      Effect.orDie(
        sql`UPDATE template_version_dry_runs SET resources = ${JSON.stringify(resources)} WHERE job_id = ${jobId}`
      ).pipe(
        Effect.asVoid
      )
  })
})

export const layer: Layer.Layer<TemplateRepo | TemplateVersionRepo, never, SqlClient.SqlClient> = Layer.mergeAll(
  Layer.effect(TemplateRepo, makeTemplates),
  Layer.effect(TemplateVersionRepo, makeVersions)
)
