/**
 * What the access table's rows cover together: each area keeps the rows of its routes in
 * `<area>/accessRows.ts` and runs them in `<area>/AccessTable.test.ts` (the machinery in accessTable.ts).
 */
import { readdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { AccessTable, type AreaRows, ROLES } from "./accessTable.js"
import { accessRows as agents } from "./agents/accessRows.js"
import { accessRows as audit } from "./audit/accessRows.js"
import { accessRows as debug } from "./debug/accessRows.js"
import { accessRows as enterprise } from "./enterprise/accessRows.js"
import { accessRows as externalauth } from "./externalauth/accessRows.js"
import { accessRows as general } from "./general/accessRows.js"
import { accessRows as groups } from "./groups/accessRows.js"
import { accessRows as insights } from "./insights/accessRows.js"
import { accessRows as notifications } from "./notifications/accessRows.js"
import { accessRows as oauth2 } from "./oauth2/accessRows.js"
import { accessRows as organizations } from "./organizations/accessRows.js"
import { accessRows as provisioners } from "./provisioners/accessRows.js"
import { accessRows as proxies } from "./proxies/accessRows.js"
import { accessRows as tasks } from "./tasks/accessRows.js"
import { accessRows as templates } from "./templates/accessRows.js"
import { accessRows as users } from "./users/accessRows.js"
import { accessRows as workspaces } from "./workspaces/accessRows.js"

const areas: Record<string, AreaRows> = {
  agents,
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
}

describe("access table", () => {
  // The rows are only read here, never tried: the table is not set up.
  const rows = Object.values(areas).flatMap((area) => area(new AccessTable()))

  it("gathers the rows of every area that has some", () => {
    const here = fileURLToPath(new URL(".", import.meta.url))
    const folders = readdirSync(here, { withFileTypes: true })
      .filter((d) => d.isDirectory() && readdirSync(`${here}${d.name}`).includes("accessRows.ts"))
      .map((d) => d.name)
    expect(Object.keys(areas).sort()).toEqual(folders.sort())
  })

  it("covers every role, and every resource kind the issue names", () => {
    const kinds = new Set(rows.map((r) => r.kind))
    for (
      const kind of [
        "user",
        "organization",
        "organization_member",
        "assign_role",
        "assign_org_role",
        "api_key",
        "audit_log",
        "group",
        "template",
        "workspace"
      ]
    ) {
      expect(kinds.has(kind), kind).toBe(true)
    }
    for (const row of rows) expect(row.expected).toHaveLength(ROLES.length)
  })
})
