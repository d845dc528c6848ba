/** The OAuth2 repository contract on SQLite (a fresh `:memory:` database per test). */
import * as Sqlite from "@workbay/storage-sqlite"
import { oauth2RepositorySuite } from "../../storage-sql/test/oauth2/RepositorySuite.js"

oauth2RepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))
