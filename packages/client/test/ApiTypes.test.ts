/**
 * The client is typed by src/ApiTypes.ts, generated from the service's HttpApi definition: it must
 * be the generation of the current definition (else a field the service renamed would still
 * compile in the dashboard, the CLI and the agent).
 */
import { readFileSync } from "node:fs"
import { expect, it } from "vitest"
import { generate } from "../scripts/generate.js"

it("src/ApiTypes.ts is generated from the current HttpApi definition (npm run generate --workspace packages/client)", async () => {
  const current = readFileSync(new URL("../src/ApiTypes.ts", import.meta.url), "utf8")
  const generated = await generate()
  expect(current === generated, "ApiTypes.ts is stale: npm run generate --workspace packages/client").toBe(true)
  // The shapes the consumers rely on are there.
  expect(generated).toContain(`"/api/v2/users/{user}/workspace/{workspacename}": {`)
  expect(generated).toMatch(/\n {8}Workspace: \{\n/)
})
