/** Secrets at rest on SQLite (a fresh `:memory:` database per test). */
import * as Sqlite from "@workbay/storage-sqlite"
import { secretsSuite } from "../../storage-sql/test/SecretsSuite.js"

secretsSuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))
