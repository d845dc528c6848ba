import { describe, expect, it } from "vitest"
import { describeAccessTable, ROLES } from "../accessTable.js"
import { READ, routeWorkspaces, wsCheck } from "./accessFixtures.js"
import { accessRows } from "./accessRows.js"

describeAccessTable(accessRows, (tbl) => {
  // The list answers each role the workspaces it may read: the same as authcheck's `read`.
  describe("GET /workspaces shows each role what it may read", () => {
    ROLES.forEach((role, index) => {
      it(`${role}: ${READ[index] === 200 ? "sees" : "does not see"} someone's workspace`, async () => {
        const who = tbl.users.get(role)!
        const w = await routeWorkspaces(tbl).readOnly()
        const r = await who.client.get(`/workspaces?q=${encodeURIComponent(`name:${w.name}`)}`)
        expect(r.status, JSON.stringify(r.body)).toBe(200)
        const seen = (r.body.workspaces as Array<{ id: string }>).some((x) => x.id === w.id)
        const answer = await who.client.post("/authcheck", { checks: { read: wsCheck("read", w) } })
        expect(seen).toBe(READ[index] === 200)
        expect(answer.body.read).toBe(seen)
        expect(r.body.count).toBe(r.body.workspaces.length)
      })
    })
  })
})
