/** @workbay/storage-sql: repositories, row mapping and DDL shared by the SQLite and Postgres storages. */
// Shared machinery: migrations and DDL, row mapping (Columns.ts), transactions, unique violations, purge, the storage layer.
/** Row mapping: the column readers and `columns` (as `Columns.text`, ...), and the few used by name. */
export * as Columns from "./Columns.js"
export { RowError, toDate, toDateOrNull } from "./Columns.js"
export {
  type DialectRead,
  dialectReads,
  /** The fast read paths themselves, for the storages' tests. */
  directReads,
  directStatements,
  type PoolRead,
  type ReadSql,
  registerDirectReads,
  registerPoolReads,
  type SyncRead
} from "./DirectReads.js"
export * from "./GroupCommit.js"
export * from "./Migrations.js"
export * from "./Purge.js"
export * from "./Rows.js"
export * from "./Schema.js"
export {
  decryptSecrets,
  deleteSecrets,
  ensureKeys,
  rotateSecrets,
  type SecretPassOptions,
  type SecretPassResult
} from "./Secrets.js"
export * from "./Storage.js"
export * from "./Transaction.js"
export * from "./Unique.js"
// Each area's repositories (`make` and `layer`).
export * as AuditRepositories from "./audit/AuditRepositories.js"
export * as ConnectionLogRepositories from "./audit/ConnectionLogRepositories.js"
export * as GroupRepositories from "./groups/Repositories.js"
export * as InboxRepositories from "./notifications/InboxRepositories.js"
export * as NotificationRepositories from "./notifications/Repositories.js"
export * as OAuth2Repositories from "./oauth2/Repositories.js"
export * as OrganizationRepositories from "./organizations/Repositories.js"
export * as WorkspaceProxyRepositories from "./proxies/Repositories.js"
export * as TaskRepositories from "./tasks/Repositories.js"
export * as ProvisionerJobRepositories from "./templates/ProvisionerJobRepositories.js"
export * as FileRepositories from "./templates/Repositories.js"
export { templateWorkspaceStatements } from "./templates/TemplateRepositories.js"
export * as Repositories from "./users/Repositories.js"
export { latestBuildsStatement } from "./workspaces/BuildRepositories.js"
export { lifecycleDueStatement } from "./workspaces/LifecycleRepositories.js"
export { listStatements } from "./workspaces/Repositories.js"
export * as TickLockLayer from "./workspaces/TickLock.js"
