/**
 * What the access table's rows cover together, gathered from every area folder's `accessRows.ts`
 * (each area runs its rows in `<area>/AccessTable.test.ts`, the machinery in accessTable.ts).
 */
import { describe, expect, it } from "vitest"
import { AccessTable, type AreaRows, ROLES } from "./accessTable.js"
import { fromEveryArea } from "./areas.js"

const areas = await fromEveryArea<AreaRows>("accessRows", "accessRows")

describe("access table", () => {
  // The rows are only read here, never tried: the table is not set up.
  const rows = [...areas.values()].flatMap((area) => area(new AccessTable()))

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
