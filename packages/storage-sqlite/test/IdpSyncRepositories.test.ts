/** The IdP sync repository contract on SQLite (a fresh `:memory:` database per test). */
import * as Sqlite from "@workbay/storage-sqlite"
import { idpSyncRepositorySuite } from "../../storage-sql/test/externalauth/IdpSyncRepositorySuite.js"

idpSyncRepositorySuite("SQLite", () => Sqlite.layer({ filename: ":memory:" }))
