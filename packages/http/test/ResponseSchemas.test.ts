/**
 * The response schema table's guard: one row per endpoint of the WorkbayApi definition, gathered from
 * every area's `<area>/responseRows.ts` (each area's rows run in its `<area>/ResponseSchemas.test.ts`,
 * the machinery in responseSchemas.ts); an endpoint with no row fails here, so new endpoints join the table.
 */
import { WorkbayApi } from "@workbay/http"
import { describe, expect, it } from "vitest"
import { fromEveryArea } from "./areas.js"
import type { Row } from "./responseSchemas.js"

const rows = [...(await fromEveryArea<ReadonlyArray<Row>>("responseRows", "responseRows")).values()].flat()

describe("response schemas", () => {
  it("has a row for every endpoint of the API, with its method and path", () => {
    const defined: Array<string> = []
    for (const group of Object.values(WorkbayApi.groups)) {
      for (const endpoint of Object.values(group.endpoints)) {
        const key = `${group.identifier}.${endpoint.name}`
        defined.push(key)
        const row = rows.find((r) => r.endpoint === key)
        expect(
          row,
          `no row in the response schema table for ${key} (${endpoint.method} ${endpoint.path})`
        ).toBeDefined()
        expect(`${row!.method} ${row!.path}`, key).toBe(`${endpoint.method} ${endpoint.path}`)
      }
    }
    expect(
      rows.map((r) => r.endpoint).filter((e) => !defined.includes(e)),
      "rows of endpoints the API does not have"
    ).toEqual([])
    expect(new Set(rows.map((r) => r.endpoint)).size).toBe(rows.length)
  })
})
