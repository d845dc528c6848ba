/**
 * The cache of authenticated keys on Postgres: the repositories' contract on an empty, migrated
 * store per test (fresh.ts), and across two replicas on one schema: a change made through
 * replica B (a user's roles, status, key) is seen by replica A's very next request once B's
 * signal arrives, well before A's kept read would have aged out (10 s). Skipped when no server answers.
 */
import { inject } from "@effect/vitest"
import { describe, expect, it } from "vitest"
import { recordingProvisioner } from "../../http/test/agents/tailnet.js"
import { Client, createUser, type Reply } from "../../http/test/support.js"
import { keyCacheSuite } from "../../storage-sql/test/users/KeyCacheSuite.js"
import { freshStorage } from "./fresh.js"
import { twoReplicas } from "./replicas.js"

const url = inject("workbayPgUrl")

keyCacheSuite("Postgres", () => freshStorage(url, { maxConnections: 4 }), { skip: url === null })

describe.skipIf(url === null)("the authenticated key cache across replicas on Postgres", () => {
  const replicas = twoReplicas(url, recordingProvisioner().provisioner)

  it(
    "roles, a suspension and a logout made on replica B reach replica A's next request",
    { timeout: 60_000 },
    async () => {
      const { a, b, owner } = replicas
      const member = await createUser(owner)
      const onA = member.client
      const ownerOnB = new Client(`${b.url}/api/v2`, owner.token)
      const memberOnB = new Client(`${b.url}/api/v2`, onA.token)
      expect(onA.baseUrl.startsWith(a.url)).toBe(true)
      /** Asks replica A until `check` holds: within 5 s, half the 10 s a kept read lives, so a signal did it. */
      const seenOnA = async (check: (r: Reply) => boolean) => {
        const t0 = Date.now()
        for (;;) {
          const r = await onA.get("/users/me")
          if (check(r)) break
          expect(Date.now() - t0).toBeLessThan(5_000)
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
      }
      const me = await onA.get("/users/me")
      expect(me.status).toBe(200)
      expect(me.body.roles).toEqual([])

      expect((await ownerOnB.put(`/users/${member.user.id}/roles`, { roles: ["auditor"] })).status).toBe(200)
      await seenOnA((r) => r.status === 200 && r.body.roles.some((x: { name: string }) => x.name === "auditor"))

      expect((await ownerOnB.put(`/users/${member.user.id}/status/suspend`)).status).toBe(200)
      await seenOnA((r) => r.status === 401)
      expect((await ownerOnB.put(`/users/${member.user.id}/status/activate`)).status).toBe(200)
      await seenOnA((r) => r.status === 200)

      expect((await memberOnB.post("/users/logout")).status).toBe(200)
      await seenOnA((r) => r.status === 401)
    }
  )
})
