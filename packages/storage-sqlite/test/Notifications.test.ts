/** The notifications repository contract on SQLite (a fresh `:memory:` database per test). */
import * as Sqlite from "@workbay/storage-sqlite"
import { notificationRepositorySuite } from "../../storage-sql/test/notifications/RepositorySuite.js"

notificationRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))
