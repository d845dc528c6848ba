/** The external auth link repository contract on SQLite (a fresh `:memory:` database per test). */
import * as Sqlite from "@workbay/storage-sqlite"
import { externalAuthRepositorySuite } from "../../storage-sql/test/externalauth/RepositorySuite.js"

externalAuthRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))
