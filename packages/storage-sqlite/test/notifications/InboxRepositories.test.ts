/** The inbox repository contract on SQLite (a fresh `:memory:` database per test). */
import * as Sqlite from "@workbay/storage-sqlite"
import { inboxRepositorySuite } from "../../../storage-sql/test/notifications/InboxRepositorySuite.js"

inboxRepositorySuite("SQLite", "sqlite", () => Sqlite.layer({ filename: ":memory:" }))
