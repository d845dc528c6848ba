/**
 * The dialects' column types and the SQL fragments the migrations and the repositories share. The
 * DDL of every table is written once, in the numbered modules of `migrations/` (joined in one
 * record by Migrations.ts): the two dialects differ only in the column types for timestamps,
 * booleans and bytes, which are passed in.
 */
export interface DialectTypes {
  /** Timestamp column type: TEXT (ISO 8601, UTC) on SQLite, TIMESTAMPTZ on Postgres. */
  readonly timestamp: string
  /** Boolean column type: INTEGER (0/1) on SQLite, BOOLEAN on Postgres. */
  readonly boolean: string
  /** Bytes column type: BLOB on SQLite, BYTEA on Postgres. */
  readonly binary: string
  /** A growing integer primary key: INTEGER PRIMARY KEY AUTOINCREMENT on SQLite, BIGSERIAL PRIMARY KEY on Postgres. */
  readonly serialKey: string
}

export const sqliteTypes: DialectTypes = {
  timestamp: "TEXT",
  boolean: "INTEGER",
  binary: "BLOB",
  serialKey: "INTEGER PRIMARY KEY AUTOINCREMENT"
}

export const postgresTypes: DialectTypes = {
  timestamp: "TIMESTAMPTZ",
  boolean: "BOOLEAN",
  binary: "BYTEA",
  serialKey: "BIGSERIAL PRIMARY KEY"
}

/** The nil UUID: the organization of entries that belong to none, the id of an unknown resource. */
export const NIL_UUID = "00000000-0000-0000-0000-000000000000"

/**
 * The latest build of each workspace counts as running (`list_rank` 0) when it is a start whose
 * job succeeded; anything else is 1. The repositories recompute it with this statement (followed by
 * a WHERE picking the workspaces) whenever a build is inserted or a
 * job's status moves to an end.
 */
export const WORKSPACE_LIST_RANK_UPDATE = `UPDATE workspaces SET list_rank = CASE WHEN EXISTS (
      SELECT 1 FROM workspace_builds b JOIN provisioner_jobs j ON j.id = b.job_id
      WHERE b.workspace_id = workspaces.id AND b.transition = 'start' AND j.job_status = 'succeeded'
        AND b.build_number = (SELECT max(x.build_number) FROM workspace_builds x WHERE x.workspace_id = workspaces.id)
    ) THEN 0 ELSE 1 END`

/** A workspace's status from its latest build (`b`) transition and job (`j`), in SQL (as `buildStatus`). */
export const WORKSPACE_STATUS_SQL = `CASE
    WHEN j.job_status = 'pending' THEN 'pending'
    WHEN j.job_status = 'running' THEN CASE b.transition WHEN 'start' THEN 'starting' WHEN 'stop' THEN 'stopping' ELSE 'deleting' END
    WHEN j.job_status = 'succeeded' THEN CASE b.transition WHEN 'start' THEN 'running' WHEN 'stop' THEN 'stopped' ELSE 'deleted' END
    ELSE j.job_status
  END`

/**
 * SET clause keeping `workspaces.latest_build_status` (migration 0032): the status of the
 * workspace's latest build, NULL without builds. The repositories add it to every write that
 * inserts a build or moves a workspace build's job (claimed, cancel asked, ended, hung), in the
 * same transaction, so the status gauges count the rows' column instead of joining every
 * workspace to its latest build. The newest build is read backwards along `workspace_builds_number`.
 */
export const LATEST_BUILD_STATUS_SET = `latest_build_status = (
    SELECT ${WORKSPACE_STATUS_SQL} FROM workspace_builds b JOIN provisioner_jobs j ON j.id = b.job_id
    WHERE b.workspace_id = workspaces.id ORDER BY b.build_number DESC LIMIT 1)`

/** "At once": the `lifecycle_due_at` of a workspace the next lifecycle tick must look at. */
export const LIFECYCLE_AT_ONCE = "1970-01-01T00:00:00.000Z"

/**
 * SET clause of every write to what the lifecycle rules read (see migration 0013): the
 * workspace is due at once, and a look in flight (which read `lifecycle_version` before) stores
 * nothing.
 */
export const LIFECYCLE_RECHECK = `lifecycle_due_at = '${LIFECYCLE_AT_ONCE}', lifecycle_version = lifecycle_version + 1`
