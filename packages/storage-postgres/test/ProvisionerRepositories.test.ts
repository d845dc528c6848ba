/**
 * The repository contract on Postgres, its groups, templates, provisioner jobs,
 * keys and hosts, agent logs: every test gets an empty,
 * migrated store (fresh.ts). Skipped when no server answers. The suites are spread over three
 * files (Repositories, WorkspaceRepositories, ProvisionerRepositories), so that the run's workers
 * share them.
 */
import { inject } from "@effect/vitest"
import { freshStorage } from "./fresh.js"

const url = inject("workbayPgUrl")

import { groupRepositorySuite } from "../../storage-sql/test/groups/RepositorySuite.js"
groupRepositorySuite("Postgres", () => freshStorage(url, { maxConnections: 4 }), {
  skip: url === null
})

import { jobRepositorySuite } from "../../storage-sql/test/provisioners/JobRepositorySuite.js"
jobRepositorySuite("Postgres", () => freshStorage(url, { maxConnections: 4 }), {
  skip: url === null
})

import { templateRepositorySuite } from "../../storage-sql/test/templates/TemplateRepositorySuite.js"
templateRepositorySuite(
  "Postgres",
  () => freshStorage(url, { maxConnections: 4 }),
  { skip: url === null }
)

import { agentLogRepositorySuite } from "../../storage-sql/test/agents/LogRepositorySuite.js"
agentLogRepositorySuite(
  "Postgres",
  () => freshStorage(url, { maxConnections: 4 }),
  { skip: url === null }
)

import { provisionerKeyRepositorySuite } from "../../storage-sql/test/provisioners/ProvisionerKeyRepositorySuite.js"
provisionerKeyRepositorySuite(
  "Postgres",
  () => freshStorage(url, { maxConnections: 4 }),
  { skip: url === null }
)

import { provisionerHostRepositorySuite } from "../../storage-sql/test/provisioners/ProvisionerHostRepositorySuite.js"
provisionerHostRepositorySuite(
  "Postgres",
  () => freshStorage(url, { maxConnections: 4 }),
  { skip: url === null }
)
