/** The TickLock contract on SQLite: an in-process lock per client. */
import * as Sqlite from "@workbay/storage-sqlite"
import { tickLockSuite } from "../../storage-sql/test/workspaces/TickLockSuite.js"

tickLockSuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))
