/** The cache of authenticated keys through the repositories on SQLite (a fresh `:memory:` database per test). */
import * as Sqlite from "@workbay/storage-sqlite"
import { keyCacheSuite } from "../../storage-sql/test/users/KeyCacheSuite.js"

keyCacheSuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))
