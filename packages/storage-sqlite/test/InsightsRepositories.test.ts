/** The insights repository contract on SQLite (a fresh `:memory:` database per test). */
import * as Sqlite from "@workbay/storage-sqlite"
import { insightsRepositorySuite } from "../../storage-sql/test/insights/RepositorySuite.js"

insightsRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))
