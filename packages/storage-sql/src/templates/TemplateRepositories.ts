/**
 * Templates and template versions on @effect/sql. ACLs, tags, variable values and a version's
 * import result are JSON text; a template's name is unique per organization among the undeleted
 * (case-insensitive), a version's name per template. A change to a template's lifecycle settings
 * makes its workspaces due for the lifecycle executor (migration 0013).
 */
import { SqlClient, type SqlError } from "@effect/sql"
import {
  type DryRunRecord,
  type TemplateRecord,
  TemplateRepo,
  type TemplateVersionImport,
  type TemplateVersionRecord,
  TemplateVersionRepo
} from "@workbay/core"
import { Effect, Layer, Option } from "effect"
import { directStatements } from "../DirectReads.js"
import { escapeLike, filters } from "../Filters.js"
import { latestBuildJoin } from "../LatestBuild.js"
import { bind, bindRecord, first, fromJson, toBool, toDate, toNumber } from "../Rows.js"
import { LIFECYCLE_RECHECK } from "../Schema.js"
import { transaction } from "../Transaction.js"
import { unique } from "../Unique.js"
import { workspacesByTemplate } from "../workspaces/Repositories.js"

type Row = Record<string, unknown>

/** The template settings the lifecycle rules read (`nextTransition`'s `template`, timing only). */
const LIFECYCLE_SETTINGS: ReadonlyArray<keyof TemplateRecord> = [
  "allow_user_autostart",
  "autostart_requirement_days_of_week",
  "failure_ttl_ms",
  "time_til_dormant_ms",
  "time_til_dormant_autodelete_ms"
]

const rowToTemplate = (r: Row): TemplateRecord => ({
  id: r.id as string,
  created_at: toDate(r.created_at),
  updated_at: toDate(r.updated_at),
  organization_id: r.organization_id as string,
  deleted: toBool(r.deleted),
  name: r.name as string,
  display_name: r.display_name as string,
  description: r.description as string,
  icon: r.icon as string,
  provisioner: r.provisioner as string,
  active_version_id: r.active_version_id as string,
  created_by: r.created_by as string,
  default_ttl_ms: toNumber(r.default_ttl_ms),
  activity_bump_ms: toNumber(r.activity_bump_ms),
  autostop_requirement_days_of_week: toNumber(r.autostop_requirement_days_of_week),
  autostop_requirement_weeks: toNumber(r.autostop_requirement_weeks),
  autostart_requirement_days_of_week: toNumber(r.autostart_requirement_days_of_week),
  allow_user_cancel_workspace_jobs: toBool(r.allow_user_cancel_workspace_jobs),
  allow_user_autostart: toBool(r.allow_user_autostart),
  allow_user_autostop: toBool(r.allow_user_autostop),
  failure_ttl_ms: toNumber(r.failure_ttl_ms),
  time_til_dormant_ms: toNumber(r.time_til_dormant_ms),
  time_til_dormant_autodelete_ms: toNumber(r.time_til_dormant_autodelete_ms),
  require_active_version: toBool(r.require_active_version),
  max_port_share_level: r.max_port_share_level as string,
  deprecated: r.deprecated as string,
  use_classic_parameter_flow: toBool(r.use_classic_parameter_flow),
  cors_behavior: r.cors_behavior as string,
  user_acl: fromJson(r.user_acl, {}),
  group_acl: fromJson(r.group_acl, {})
})

/** Dates inside the stored import come back as strings; resources carry a `created_at`. */
const reviveResources = (resources: ReadonlyArray<any> | null | undefined) =>
  resources?.map((res) => ({ ...res, created_at: toDate(res.created_at) })) ?? null

const reviveImport = (v: unknown): TemplateVersionImport | null => {
  const parsed = fromJson<any>(v, null)
  if (parsed === null) return null
  return { ...parsed, resources: reviveResources(parsed.resources) ?? [] }
}

const rowToVersion = (r: Row): TemplateVersionRecord => ({
  id: r.id as string,
  template_id: (r.template_id as string | null) ?? null,
  organization_id: r.organization_id as string,
  created_at: toDate(r.created_at),
  updated_at: toDate(r.updated_at),
  name: r.name as string,
  message: r.message as string,
  readme: r.readme as string,
  job_id: r.job_id as string,
  created_by: r.created_by as string,
  archived: toBool(r.archived),
  file_id: r.file_id as string,
  provisioner: r.provisioner as string,
  tags: fromJson(r.tags, {}),
  user_variable_values: fromJson(r.user_variable_values, []),
  import_result: reviveImport(r.import_result)
})

const rowToDryRun = (r: Row): DryRunRecord => ({
  job_id: r.job_id as string,
  template_version_id: r.template_version_id as string,
  workspace_name: r.workspace_name as string,
  rich_parameter_values: fromJson(r.rich_parameter_values, []),
  user_variable_values: fromJson(r.user_variable_values, []),
  resources: reviveResources(fromJson<ReadonlyArray<any> | null>(r.resources, null))
})

export const makeTemplates = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const reads = yield* directStatements(sql)
  const f = filters(sql)
  const withTransaction = transaction(sql)
  const inUse = templateWorkspaceStatements(sql)
  const byId = (id: string) =>
    Effect.orDie(reads(sql<Row>`SELECT * FROM templates WHERE id = ${id}`)).pipe(
      Effect.map((rs) => first(rs, rowToTemplate))
    )
  return TemplateRepo.of({
    insert: (t) => unique(sql`INSERT INTO templates ${sql.insert(bindRecord(t))}`).pipe(Effect.asVoid),
    findById: byId,
    findByIds: (ids) =>
      ids.length === 0
        ? Effect.succeed([])
        : Effect.orDie(reads(sql<Row>`SELECT * FROM templates WHERE ${sql.in("id", ids)}`)).pipe(
          Effect.map((rs) => rs.map(rowToTemplate))
        ),
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
        : Effect.orDie(reads(sql<Row>`SELECT name, value FROM counters
            WHERE ${sql.in("name", templateIds.map((id) => `template_users:${id}`))} AND value > 0`)).pipe(
          Effect.map((rs) =>
            new Map(rs.map((r) => [(r.name as string).slice("template_users:".length), toNumber(r.value)]))
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
        const cursor = after?.[0]
        if (page.afterId !== undefined && cursor === undefined) return []
        const rows = yield* Effect.orDie(sql<Row>`SELECT * FROM template_versions
          WHERE template_id = ${page.templateId}
            ${page.includeArchived ? sql`` : sql`AND archived = FALSE`}
            ${
          cursor === undefined
            ? sql``
            : sql`AND (created_at > ${cursor.created_at as string} OR (created_at = ${cursor
              .created_at as string} AND id > ${cursor.id as string}))`
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
          Effect.map((rs) => rs.map((r) => r.id as string))
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
