/**
 * @workbay/storage-sql: repositories, row mapping and DDL shared by the SQLite and Postgres storages.
 *
 * This file is the package's public surface (its `exports` map has "." only): what the two storage
 * packages, the server and their tests use. The areas' repositories, the row mappers, the DDL and
 * its migrations one by one, group commits, purges and unique-violation mapping are internal: the
 * storages reach them through `fromClient`, which assembles every repository port on a client; the
 * package's own tests (the repository suites) import them by relative path (`../src/...`). See
 * docs/architecture.md, "Public surface".
 */
// The storage layer: every repository port on one SqlClient, and the port set a storage provides.
export * from "./Storage.js"
// Dialects and the schema: each storage passes its types; `migrations` is the list run at start-up.
export { migrations } from "./Migrations.js"
export { type DialectTypes, postgresTypes, sqliteTypes } from "./Schema.js"
// The fast read paths a storage registers for its client (SQLite: synchronous; Postgres: on the pool).
export {
  /** The fast read paths themselves, for the storages' tests. */
  directReads,
  directStatements,
  type PoolRead,
  registerDirectReads,
  registerPoolReads,
  type SyncRead
} from "./DirectReads.js"
/** Statement texts made once per shape (the direct paths' compiler), for the storages' tests. */
export { makeStatementText, MAX_NODES } from "./StatementText.js"
/** Row mapping: the column readers (as `Columns.text`, ...), for the storages' tests. */
export * as Columns from "./Columns.js"
export { RowError, toDate } from "./Columns.js"
export { transaction } from "./Transaction.js"
// The server's `dbcrypt` command: encrypt, decrypt or delete the stored secrets.
export {
  decryptSecrets,
  deleteSecrets,
  rotateSecrets,
  type SecretPassOptions,
  type SecretPassResult
} from "./Secrets.js"
