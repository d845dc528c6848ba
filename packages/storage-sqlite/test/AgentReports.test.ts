/** The agent report repository contract on SQLite (a fresh `:memory:` database per test). */
import * as Sqlite from "@workbay/storage-sqlite"
import { reportRepositorySuite } from "../../storage-sql/test/agents/ReportRepositorySuite.js"

reportRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))
