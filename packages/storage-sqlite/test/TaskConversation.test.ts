/** The task conversation repository contract on SQLite (a fresh `:memory:` database per test). */
import * as Sqlite from "@workbay/storage-sqlite"
import { conversationRepositorySuite } from "../../storage-sql/test/tasks/ConversationRepositorySuite.js"

conversationRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))
