/** The app session repository contract on SQLite (a fresh `:memory:` database per test). */
import * as Sqlite from "@workbay/storage-sqlite"
import { appSessionSuite } from "../../storage-sql/test/agents/AppSessionSuite.js"

appSessionSuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))
