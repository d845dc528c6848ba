/**
 * The repository contract on Postgres, its workspaces, builds, lifecycle candidates,
 * port shares and tasks: every test gets an empty,
 * migrated store (fresh.ts). Skipped when no server answers. The suites are spread over three
 * files (Repositories, WorkspaceRepositories, ProvisionerRepositories), so that the run's workers
 * share them.
 */
import { inject } from "@effect/vitest"
import { freshStorage } from "./fresh.js"

const url = inject("workbayPgUrl")

import { workspaceRepositorySuite } from "../../storage-sql/test/workspaces/RepositorySuite.js"
workspaceRepositorySuite(
  "Postgres",
  () => freshStorage(url, { maxConnections: 4 }),
  { skip: url === null }
)

import { portShareRepositorySuite } from "../../storage-sql/test/workspaces/PortShareRepositorySuite.js"
portShareRepositorySuite(
  "Postgres",
  () => freshStorage(url, { maxConnections: 4 }),
  { skip: url === null }
)

import { workspaceListPlanSuite } from "../../storage-sql/test/workspaces/ListPlanSuite.js"
workspaceListPlanSuite(
  "Postgres",
  "pg",
  () => freshStorage(url, { maxConnections: 4 }),
  {
    skip: url === null
  }
)

import { buildRepositorySuite } from "../../storage-sql/test/workspaces/BuildRepositorySuite.js"
buildRepositorySuite("Postgres", () => freshStorage(url, { maxConnections: 4 }), {
  skip: url === null
})

import { lifecycleSuite } from "../../storage-sql/test/workspaces/LifecycleSuite.js"
lifecycleSuite("Postgres", "pg", () => freshStorage(url, { maxConnections: 4 }), {
  skip: url === null
})

import { taskRepositorySuite } from "../../storage-sql/test/tasks/RepositorySuite.js"
taskRepositorySuite(
  "Postgres",
  "pg",
  () => freshStorage(url, { maxConnections: 4 }),
  { skip: url === null }
)
