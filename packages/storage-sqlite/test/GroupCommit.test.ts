/** The group commit on SQLite's one connection. */
import * as Sqlite from "@workbay/storage-sqlite"
import { groupCommitSuite } from "../../storage-sql/test/GroupCommitSuite.js"

groupCommitSuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))
