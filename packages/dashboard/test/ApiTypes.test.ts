/**
 * The dashboard's client is typed by src/api/schema.d.ts, generated from the service's HttpApi
 * definition: it must be the generation of the current definition (else a field the service
 * renamed would still compile in the dashboard).
 */
import { readFileSync } from "node:fs"
import { expect, it } from "vitest"
import { generate } from "../scripts/api-types.js"

it("src/api/schema.d.ts is generated from the current HttpApi definition (npm run api-types --workspace packages/dashboard)", async () => {
  const current = readFileSync(new URL("../src/api/schema.d.ts", import.meta.url), "utf8")
  const generated = await generate()
  expect(current === generated, "schema.d.ts is stale: npm run api-types --workspace packages/dashboard").toBe(true)
  // The shapes the pages rely on are there.
  expect(generated).toContain(`"/api/v2/users/{user}/workspace/{workspacename}": {`)
  expect(generated).toMatch(/\n {8}Workspace: \{\n/)
})
