/**
 * Writes `src/ApiTypes.ts`: the TypeScript types of every route, request and answer of the public
 * API, generated from the service's HttpApi definition (`WorkbayApi` of @workbay/http) by way of
 * its OpenAPI document (`OpenApi.fromApi`) and openapi-typescript. The client (`src/Client.ts`,
 * openapi-fetch) is typed by it, and through it the dashboard, the CLI and the agent: a route or a
 * field the service does not have does not compile in any of them. Run after changing the API:
 *
 *   npm run generate --workspace packages/client
 *
 * `--check` exits 1 when the file is not current (the tests run it).
 */
import { OpenApi } from "@effect/platform"
import { WorkbayApi } from "@workbay/http"
import { readFileSync, writeFileSync } from "node:fs"
import openapiTS, { astToString } from "openapi-typescript"

const target = new URL("../src/ApiTypes.ts", import.meta.url)

export const generate = async () => {
  const document = OpenApi.fromApi(WorkbayApi)
  const ast = await openapiTS(document as never, { alphabetize: true, rootTypes: false })
  return [
    "/**",
    " * The public API's types, generated from @workbay/http's HttpApi definition by",
    " * packages/client/scripts/generate.ts. Do not edit: run `npm run generate --workspace packages/client`.",
    " */",
    "",
    astToString(ast)
  ].join("\n")
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = await generate()
  if (process.argv.includes("--check")) {
    let current = ""
    try {
      current = readFileSync(target, "utf8")
    } catch {}
    if (current !== text) {
      console.error(
        "packages/client/src/ApiTypes.ts is not current: run npm run generate --workspace packages/client"
      )
      process.exit(1)
    }
  } else {
    writeFileSync(target, text)
    console.log(`wrote ${target.pathname} (${text.length} characters)`)
  }
}
