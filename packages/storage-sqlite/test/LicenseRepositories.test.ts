/** The license repository contract on SQLite (a fresh `:memory:` database per test). */
import * as Sqlite from "@workbay/storage-sqlite"
import { licenseRepositorySuite } from "../../storage-sql/test/enterprise/RepositorySuite.js"

licenseRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))
