/**
 * Migrations as a record of effects (`Migrator.fromRecord`), so nothing is read from disk at run
 * time: each is a numbered module of `migrations/` (its statements, given the dialect's column
 * types), named here by the key recorded in the database.
 */
import { Migrator, SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { migration as m0001 } from "./migrations/0001_identity.js"
import { migration as m0002 } from "./migrations/0002_access.js"
import { migration as m0003 } from "./migrations/0003_counters.js"
import { migration as m0004 } from "./migrations/0004_audit_api_key_owner.js"
import { migration as m0005 } from "./migrations/0005_api_keys_login_type.js"
import { migration as m0006 } from "./migrations/0006_files.js"
import { migration as m0007 } from "./migrations/0007_provisioner_jobs.js"
import { migration as m0008 } from "./migrations/0008_templates.js"
import { migration as m0009 } from "./migrations/0009_provisioner_daemons.js"
import { migration as m0010 } from "./migrations/0010_workspaces.js"
import { migration as m0011 } from "./migrations/0011_workspace_builds.js"
import { migration as m0012 } from "./migrations/0012_workspace_list.js"
import { migration as m0013 } from "./migrations/0013_lifecycle_due.js"
import { migration as m0014 } from "./migrations/0014_template_users.js"
import { migration as m0015 } from "./migrations/0015_agent_instance_ids.js"
import { migration as m0016 } from "./migrations/0016_agent_logs.js"
import { migration as m0017 } from "./migrations/0017_agent_reports.js"
import { migration as m0018 } from "./migrations/0018_tasks.js"
import { migration as m0019 } from "./migrations/0019_task_log.js"
import { migration as m0020 } from "./migrations/0020_app_sessions.js"
import { migration as m0021 } from "./migrations/0021_notifications.js"
import { migration as m0022 } from "./migrations/0022_inbox.js"
import { migration as m0023 } from "./migrations/0023_oauth2_provider.js"
import { migration as m0024 } from "./migrations/0024_user_links.js"
import { migration as m0025 } from "./migrations/0025_external_auth_links.js"
import { migration as m0026 } from "./migrations/0026_insights.js"
import { migration as m0027 } from "./migrations/0027_licenses.js"
import { migration as m0028 } from "./migrations/0028_workspace_proxies.js"
import { migration as m0029 } from "./migrations/0029_builds_by_time.js"
import { migration as m0030 } from "./migrations/0030_provisioner_keys.js"
import { migration as m0031 } from "./migrations/0031_template_build_times.js"
import { migration as m0032 } from "./migrations/0032_workspace_latest_build_status.js"
import { migration as m0033 } from "./migrations/0033_user_preferences_workspace_sharing.js"
import { migration as m0034 } from "./migrations/0034_group_counts.js"
import { migration as m0035 } from "./migrations/0035_custom_roles.js"
import { migration as m0036 } from "./migrations/0036_oauth2_token_secret.js"
import { migration as m0037 } from "./migrations/0037_login_failures.js"
import { migration as m0038 } from "./migrations/0038_secrets_at_rest.js"
import { migration as m0039 } from "./migrations/0039_replicas.js"
import { migration as m0045 } from "./migrations/0045_agent_latency.js"
import { migration as m0046 } from "./migrations/0046_task_log_snapshots.js"
import { migration as m0047 } from "./migrations/0047_oauth2_scopes.js"
import { migration as m0048 } from "./migrations/0048_idp_sync.js"
import { migration as m0049 } from "./migrations/0049_prebuilds_user.js"
import { migration as m0050 } from "./migrations/0050_provisioner_hosts.js"
import { migration as m0051 } from "./migrations/0051_job_hosts.js"
import { migration as m0052 } from "./migrations/0052_host_draining.js"
import { migration as m0053 } from "./migrations/0053_workspace_moves.js"
import type { DialectTypes } from "./Schema.js"

const run = (statements: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    for (const statement of statements) yield* sql.unsafe(statement)
  })

/** Numbered migrations for `Migrator.fromRecord`, with the dialect's column types. */
export const migrations = (types: DialectTypes) => ({
  "0001_identity": run(m0001(types)),
  "0002_access": run(m0002(types)),
  "0003_counters": run(m0003(types)),
  "0004_audit_api_key_owner": run(m0004(types)),
  "0005_api_keys_login_type": run(m0005(types)),
  "0006_files": run(m0006(types)),
  "0007_provisioner_jobs": run(m0007(types)),
  "0008_templates": run(m0008(types)),
  "0009_provisioner_daemons": run(m0009(types)),
  "0010_workspaces": run(m0010(types)),
  "0011_workspace_builds": run(m0011(types)),
  "0012_workspace_list": run(m0012(types)),
  "0013_lifecycle_due": run(m0013(types)),
  "0014_template_users": run(m0014(types)),
  "0015_agent_instance_ids": run(m0015(types)),
  "0016_agent_logs": run(m0016(types)),
  "0017_agent_reports": run(m0017(types)),
  "0018_tasks": run(m0018(types)),
  "0019_task_log": run(m0019(types)),
  "0020_app_sessions": run(m0020(types)),
  "0021_notifications": run(m0021(types)),
  "0022_inbox": run(m0022(types)),
  "0023_oauth2_provider": run(m0023(types)),
  "0024_user_links": run(m0024(types)),
  "0025_external_auth_links": run(m0025(types)),
  "0026_insights": run(m0026(types)),
  "0027_licenses": run(m0027(types)),
  "0028_workspace_proxies": run(m0028(types)),
  "0029_builds_by_time": run(m0029(types)),
  "0030_provisioner_keys": run(m0030(types)),
  "0031_template_build_times": run(m0031(types)),
  "0032_workspace_latest_build_status": run(m0032(types)),
  "0033_user_preferences_workspace_sharing": run(m0033(types)),
  "0034_group_counts": run(m0034(types)),
  "0035_custom_roles": run(m0035(types)),
  "0036_oauth2_token_secret": run(m0036(types)),
  "0037_login_failures": run(m0037(types)),
  "0038_secrets_at_rest": run(m0038(types)),
  "0039_replicas": run(m0039(types)),
  "0045_agent_latency": run(m0045(types)),
  "0046_task_log_snapshots": run(m0046(types)),
  "0047_oauth2_scopes": run(m0047(types)),
  "0048_idp_sync": run(m0048(types)),
  "0049_prebuilds_user": run(m0049(types)),
  "0050_provisioner_hosts": run(m0050(types)),
  "0051_job_hosts": run(m0051(types)),
  "0052_host_draining": run(m0052(types)),
  "0053_workspace_moves": run(m0053(types))
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
