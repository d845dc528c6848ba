/** The agent repository contract on SQLite (a fresh `:memory:` database per test). */
import * as Sqlite from "@workbay/storage-sqlite"
import { agentRepositorySuite } from "../../storage-sql/test/agents/RepositorySuite.js"

agentRepositorySuite("SQLite", "sqlite", () => Sqlite.layer({ filename: ":memory:" }))
