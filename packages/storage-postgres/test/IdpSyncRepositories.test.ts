/** The IdP sync repository contract on Postgres: an empty, migrated store per test (fresh.ts). Skipped when no server answers. */
import { inject } from "@effect/vitest"
import { idpSyncRepositorySuite } from "../../storage-sql/test/externalauth/IdpSyncRepositorySuite.js"
import { freshStorage } from "./fresh.js"

const url = inject("workbayPgUrl")

idpSyncRepositorySuite("Postgres", () => freshStorage(url, { maxConnections: 4 }), { skip: url === null })
