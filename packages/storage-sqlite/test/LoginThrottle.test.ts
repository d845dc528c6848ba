/** The sign-in failure count contract on SQLite (a fresh `:memory:` database per test). */
import * as Sqlite from "@workbay/storage-sqlite"
import { loginThrottleRepositorySuite } from "../../storage-sql/test/users/LoginThrottleSuite.js"

loginThrottleRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))
