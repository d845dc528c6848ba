/** @workbay/storage-sql: repositories, row mapping and DDL shared by the SQLite and Postgres storages. */
// Shared machinery: migrations and DDL, row mapping, transactions, unique violations, purge, the storage layer.
export * from "./Migrations.js"
export * from "./Purge.js"
export * from "./Rows.js"
export * from "./Schema.js"
export * from "./Storage.js"
export * from "./Transaction.js"
export * from "./Unique.js"
// Each area's repositories (`make` and `layer`).
export * as Repositories from "./users/Repositories.js"
export * as OrganizationRepositories from "./organizations/Repositories.js"
export * as GroupRepositories from "./groups/Repositories.js"
export * as AuditRepositories from "./audit/AuditRepositories.js"
export * as ConnectionLogRepositories from "./audit/ConnectionLogRepositories.js"
export * as FileRepositories from "./templates/Repositories.js"
export * as ProvisionerJobRepositories from "./templates/ProvisionerJobRepositories.js"
export * as TickLockLayer from "./workspaces/TickLock.js"
export { listStatements } from "./workspaces/Repositories.js"
