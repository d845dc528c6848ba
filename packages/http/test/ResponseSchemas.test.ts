/**
 * The response schema table's guard: one row per endpoint of the WorkbayApi definition, gathered from
 * every area's `<area>/responseRows.ts` (each area's rows run in its `<area>/ResponseSchemas.test.ts`,
 * the machinery in responseSchemas.ts); an endpoint with no row fails here, so new endpoints join the table.
 */
import { WorkbayApi } from "@workbay/http"
import { describe, expect, it } from "vitest"
import { responseRows as agents } from "./agents/responseRows.js"
import { responseRows as applications } from "./applications/responseRows.js"
import { responseRows as audit } from "./audit/responseRows.js"
import { responseRows as debug } from "./debug/responseRows.js"
import { responseRows as enterprise } from "./enterprise/responseRows.js"
import { responseRows as externalauth } from "./externalauth/responseRows.js"
import { responseRows as general } from "./general/responseRows.js"
import { responseRows as groups } from "./groups/responseRows.js"
import { responseRows as insights } from "./insights/responseRows.js"
import { responseRows as notifications } from "./notifications/responseRows.js"
import { responseRows as oauth2 } from "./oauth2/responseRows.js"
import { responseRows as organizations } from "./organizations/responseRows.js"
import { responseRows as provisioners } from "./provisioners/responseRows.js"
import { responseRows as proxies } from "./proxies/responseRows.js"
import { responseRows as tasks } from "./tasks/responseRows.js"
import { responseRows as templates } from "./templates/responseRows.js"
import { responseRows as users } from "./users/responseRows.js"
import { responseRows as workspaces } from "./workspaces/responseRows.js"

const rows = [
  agents,
  applications,
  audit,
  debug,
  enterprise,
  externalauth,
  general,
  groups,
  insights,
  notifications,
  oauth2,
  organizations,
  provisioners,
  proxies,
  tasks,
  templates,
  users,
  workspaces
].flat()

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
