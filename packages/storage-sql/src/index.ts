/** @workbay/storage-sql: repositories, row mapping and DDL shared by the SQLite and Postgres storages. */
export * from "./Migrations.js"
export * as AuditRepositories from "./AuditRepositories.js"
export * as Repositories from "./Repositories.js"
export * from "./Rows.js"
export * from "./Schema.js"
export * from "./Storage.js"
