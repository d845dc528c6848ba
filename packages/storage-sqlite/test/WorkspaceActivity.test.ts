/** The workspace activity repository contract on SQLite (a fresh `:memory:` database per test). */
import * as Sqlite from "@workbay/storage-sqlite"
import { activitySuite } from "../../storage-sql/test/workspaces/ActivitySuite.js"

activitySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))
