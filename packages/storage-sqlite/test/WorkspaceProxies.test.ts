/** The workspace proxy repository contract on SQLite (a fresh `:memory:` database per test). */
import * as Sqlite from "@workbay/storage-sqlite"
import { workspaceProxyRepositorySuite } from "../../storage-sql/test/proxies/RepositorySuite.js"

workspaceProxyRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))
