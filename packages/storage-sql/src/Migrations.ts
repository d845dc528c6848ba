/** Migrations as a record of effects, so nothing is read from disk at run time. */
import { Migrator, SqlClient } from "@effect/sql"
import { Effect } from "effect"
import {
  type DialectTypes,
  migration0001,
  migration0002,
  migration0003,
  migration0004,
  migration0005,
  migration0006,
  migration0007,
  migration0008,
  migration0009,
  migration0010,
  migration0011,
  migration0012,
  migration0013,
  migration0014,
  migration0015,
  migration0016,
  migration0017,
  migration0018,
  migration0019,
  migration0020,
  migration0021,
  migration0022,
  migration0023,
  migration0024,
  migration0025,
  migration0026,
  migration0027,
  migration0028,
  migration0029,
  migration0030,
  migration0031,
  migration0032,
  migration0033,
  migration0034,
  migration0035,
  migration0036,
  migration0037,
  migration0038,
  migration0039,
  migration0045,
  migration0046,
  migration0047,
  migration0048,
  migration0049
} from "./Schema.js"

const run = (statements: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    for (const statement of statements) yield* sql.unsafe(statement)
  })

/** Numbered migrations for `Migrator.fromRecord`, with the dialect's column types. */
export const migrations = (types: DialectTypes) => ({
  "0001_identity": run(migration0001(types)),
  "0002_access": run(migration0002(types)),
  "0003_counters": run(migration0003(types)),
  "0004_audit_api_key_owner": run(migration0004(types)),
  "0005_api_keys_login_type": run(migration0005(types)),
  "0006_files": run(migration0006(types)),
  "0007_provisioner_jobs": run(migration0007(types)),
  "0008_templates": run(migration0008(types)),
  "0009_provisioner_daemons": run(migration0009(types)),
  "0010_workspaces": run(migration0010(types)),
  "0011_workspace_builds": run(migration0011(types)),
  "0012_workspace_list": run(migration0012(types)),
  "0013_lifecycle_due": run(migration0013(types)),
  "0014_template_users": run(migration0014(types)),
  "0015_agent_instance_ids": run(migration0015(types)),
  "0016_agent_logs": run(migration0016(types)),
  "0017_agent_reports": run(migration0017(types)),
  "0018_tasks": run(migration0018(types)),
  "0019_task_log": run(migration0019(types)),
  "0020_app_sessions": run(migration0020(types)),
  "0021_notifications": run(migration0021(types)),
  "0022_inbox": run(migration0022(types)),
  "0023_oauth2_provider": run(migration0023(types)),
  "0024_user_links": run(migration0024(types)),
  "0025_external_auth_links": run(migration0025(types)),
  "0026_insights": run(migration0026(types)),
  "0027_licenses": run(migration0027(types)),
  "0028_workspace_proxies": run(migration0028(types)),
  "0029_builds_by_time": run(migration0029(types)),
  "0030_provisioner_keys": run(migration0030(types)),
  "0031_template_build_times": run(migration0031(types)),
  "0032_workspace_latest_build_status": run(migration0032(types)),
  "0033_user_preferences_workspace_sharing": run(migration0033(types)),
  "0034_group_counts": run(migration0034(types)),
  "0035_custom_roles": run(migration0035(types)),
  "0036_oauth2_token_secret": run(migration0036(types)),
  "0037_login_failures": run(migration0037(types)),
  "0038_secrets_at_rest": run(migration0038(types)),
  "0039_replicas": run(migration0039(types)),
  "0045_agent_latency": run(migration0045()),
  "0046_task_log_snapshots": run(migration0046(types)),
  "0047_oauth2_scopes": run(migration0047()),
  "0048_idp_sync": run(migration0048(types)),
  "0049_prebuilds_user": run(migration0049(types))
})

/**
 * Runs pending migrations on the provided `SqlClient` (both dialects; no schema dump). On Postgres
 * the migrations table is made first, under a transaction-level advisory lock (per schema): the
 * migrator creates it when `select ...::regclass` fails, and two replicas starting together on a
 * fresh database both did, one failing on the catalog's unique index. With the table there, the
 * migrator's own `LOCK TABLE` in its transaction makes replicas migrate one after the other; the
 * later ones find every migration done.
 */
export const runMigrations = (types: DialectTypes) => {
  const run = Migrator.make({})({ loader: Migrator.fromRecord(migrations(types)), table: "workbay_migrations" })
  return Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql.onDialectOrElse({
      pg: () =>
        Effect.zipRight(
          sql.withTransaction(Effect.zipRight(
            sql`SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':workbay:migrations'))`,
            // The migrator's own definition of its table (@effect/sql's Migrator, Postgres).
            sql`CREATE TABLE IF NOT EXISTS workbay_migrations (
              migration_id integer primary key,
              created_at timestamp with time zone not null default now(),
              name text not null
            )`
          )),
          run
        ),
      orElse: () => run
    }))
}
