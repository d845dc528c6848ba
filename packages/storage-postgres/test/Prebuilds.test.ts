/**
 * The prebuilds reconciler of two server processes on one Postgres schema (docs/prebuilds.md):
 * both ticking at once create a preset's instances once (the advisory lock), and two creations
 * racing for the one prebuilt workspace claim it once (the guarded transfer): the other builds a
 * new workspace; the backoff after a failed prebuild is read from the database, so the other
 * replica continues it; a pause in the prebuilds settings stops both; a preset at the failure hard
 * limit tells its template admins once, whichever replica ticks; a claim built on one replica
 * reinitializes the agent connected to the other.
 */
import { startAgent } from "@workbay/agent"
import {
  NotificationRepo,
  PREBUILDS_USER_ID,
  PrebuildsReconciler,
  type PrebuildsTickStats,
  TemplateIds
} from "@workbay/core"
import * as Postgres from "@workbay/storage-postgres"
import { Effect, TestClock, TestContext } from "effect"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { readEvents } from "../../http/test/sse.js"
import {
  bootstrapOwner,
  type Client,
  createUser,
  type ServiceTestServer,
  SESSION_HEADER,
  startServiceTestServer
} from "../../http/test/support.js"
import { runJobs } from "../../http/test/templates/versions.js"
import { eventually } from "../../http/test/websocket.js"
import { makeTemplate } from "../../http/test/workspaces/fixtures.js"

const url = inject("workbayPgUrl")

const template = (instances: number, extra = "") =>
  `presets:
  - name: ready
    prebuilds: { instances: ${instances} }
resources:
  - name: box
    type: machine
${extra}`

describe.skipIf(url === null)("the prebuilds reconcilers of two replicas on Postgres", () => {
  const schema = `p_${randomBytes(6).toString("hex")}`
  let a: ServiceTestServer
  let b: ServiceTestServer
  let client: Client
  let organizationId: string

  beforeAll(async () => {
    // No background ticks: the tests tick each replica themselves.
    const options = { hangDetector: false, retention: false, lifecycle: false, prebuilds: false } as const
    a = await startServiceTestServer({ storage: Postgres.layer({ url: url!, schema, maxConnections: 5 }), ...options })
    b = await startServiceTestServer({ storage: Postgres.layer({ url: url!, schema, maxConnections: 5 }), ...options })
    ;({ client, organizationId } = await bootstrapOwner(a))
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
  })

  const tick = (srv: ServiceTestServer): Promise<PrebuildsTickStats> =>
    srv.run(Effect.flatMap(PrebuildsReconciler, (r) => r.tick()))
  const prebuilt = async (templateId: string) => {
    const r = await client.get(`/workspaces?q=${encodeURIComponent("owner:prebuilds")}&limit=100`)
    expect(r.status).toBe(200)
    return (r.body.workspaces as Array<any>).filter((w) => w.template_id === templateId)
  }

  it("both replicas ticking at once create the instances once; a claim race takes the one prebuilt once", async () => {
    const t = await makeTemplate(a, client, organizationId, template(1))
    const stats = await Promise.all([tick(a), tick(b)])
    expect(stats.flatMap((s) => s.created)).toHaveLength(1)
    await runJobs(a)
    const [ready] = await prebuilt(t.id)
    expect(ready.owner_id).toBe(PREBUILDS_USER_ID)
    const preset = (await client.get(`/templateversions/${t.active_version_id}/presets`)).body[0].ID
    const [x, y] = [await createUser(client), await createUser(client)]
    // Both on one process, each request on its own pool connections: the guarded update decides.
    const made = await Promise.all(
      [x, y].map((u) =>
        u.client.post(`/users/me/workspaces`, { name: "mine", template_id: t.id, template_version_preset_id: preset })
      )
    )
    expect(made.map((r) => r.status)).toEqual([200, 200])
    expect(made.filter((r) => r.body.id === ready.id)).toHaveLength(1)
    await runJobs(a)
    expect(await prebuilt(t.id)).toEqual([])
    expect((await Promise.all([tick(b), tick(a)])).flatMap((s) => s.created)).toHaveLength(1)
    await runJobs(a)
    expect(await prebuilt(t.id)).toHaveLength(1)
  })

  it("a replica taking over continues the other's backoff, and a pause stops both", async () => {
    const failing = await makeTemplate(
      a,
      client,
      organizationId,
      template(1, "build:\n  fail: { transition: start, message: no capacity }\n")
    )
    const preset = (await client.get(`/templateversions/${failing.active_version_id}/presets`)).body[0].ID as string
    const start = Date.parse("2031-01-01T00:00:00Z")
    const tickAt = (srv: ServiceTestServer, ms: number) =>
      srv.run(
        Effect.gen(function*() {
          yield* TestClock.setTime(ms)
          return yield* Effect.flatMap(PrebuildsReconciler, (r) => r.tick("1 minute"))
        }).pipe(Effect.provide(TestContext.TestContext))
      )
    expect((await tickAt(a, start)).created).toHaveLength(1)
    await runJobs(a)
    // Replica a saw the failure; b, which never ticked for it, reads the same backoff from the builds.
    const seen = await tickAt(a, start + 1_000)
    expect(seen.backoff[preset]).toEqual(new Date(start + 60_000))
    await runJobs(a)
    const other = await tickAt(b, start + 30_000)
    expect(other.created).toEqual([])
    expect(other.backoff[preset]).toEqual(new Date(start + 60_000))
    expect((await tickAt(b, start + 60_000)).created).toHaveLength(1)
    await runJobs(a)
    // The second failure, seen by b: a waits two minutes from it.
    expect((await tickAt(b, start + 61_000)).backoff[preset]).toEqual(new Date(start + 60_000 + 120_000))
    await runJobs(a)
    expect((await tickAt(a, start + 179_999)).created).toEqual([])

    // The pause, set through one replica, stops the other's ticks too.
    expect((await client.put("/prebuilds/settings", { reconciliation_paused: true })).status).toBe(200)
    expect(await tickAt(b, start + 180_000)).toMatchObject({ ran: false, paused: true, created: [] })
    expect(await tickAt(a, start + 180_000)).toMatchObject({ ran: false, paused: true, created: [] })
    expect((await client.put("/prebuilds/settings", { reconciliation_paused: false })).status).toBe(200)
    expect((await tickAt(b, start + 180_000)).created).toHaveLength(1)
    await runJobs(a)
  })

  it("a preset at the failure hard limit creates nothing on either replica, and its template admins hear of it once", async () => {
    const tadmin = await createUser(client, { roles: ["template-admin"] })
    const failing = await makeTemplate(
      a,
      client,
      organizationId,
      template(1, "build:\n  fail: { transition: start, message: no capacity }\n")
    )
    const preset = (await client.get(`/templateversions/${failing.active_version_id}/presets`)).body[0].ID as string
    const start = Date.parse("2032-01-01T00:00:00Z")
    const tickAt = (srv: ServiceTestServer, ms: number) =>
      srv.run(
        Effect.gen(function*() {
          yield* TestClock.setTime(ms)
          return yield* Effect.flatMap(PrebuildsReconciler, (r) => r.tick("1 minute"))
        }).pipe(Effect.provide(TestContext.TestContext))
      )
    const minutes = (n: number) => start + n * 60_000
    // Three failed creations, by either replica.
    for (const [srv, at] of [[a, 0], [b, 10], [a, 20]] as const) {
      expect((await tickAt(srv, minutes(at))).created).toHaveLength(1)
      await runJobs(a)
    }
    // Both tick at once: one runs (the lock) and finds the limit.
    const both = await Promise.all([tickAt(a, minutes(30)), tickAt(b, minutes(30))])
    // (The previous test's failing preset reached the limit too.)
    const ran = both.filter((s) => s.ran)
    expect(ran).toHaveLength(1)
    expect(ran[0]!.hardLimited).toContain(preset)
    expect(both.flatMap((s) => s.created)).toEqual([])
    await runJobs(a)
    // Later ticks of each: nothing created, nothing sent again.
    for (const [srv, at] of [[b, 40], [a, 50]] as const) {
      const later = await tickAt(srv, minutes(at))
      expect(later.created).toEqual([])
      expect(later.hardLimited).toContain(preset)
    }
    const told = (await b.run(Effect.flatMap(NotificationRepo, (r) => r.messagesOf(tadmin.user.id)))).filter((m) =>
      m.template_id === TemplateIds.prebuildFailureLimitReached && m.payload.labels["template"] === failing.name
    )
    expect(told.length).toBeGreaterThan(0)
    for (const m of told) {
      expect(m.payload.labels).toEqual({
        org: expect.any(String),
        template: failing.name,
        template_version: expect.any(String),
        preset: "ready"
      })
    }
    const methods = told.map((m) => m.method)
    expect(methods).toEqual([...new Set(methods)]) // once per delivery method
  })

  it("a claim built on one replica reinitializes the agent connected to the other", async () => {
    const t = await makeTemplate(
      a,
      client,
      organizationId,
      `presets:
  - name: ready
    prebuilds: { instances: 1 }
resources:
  - name: laptop
    type: machine
    agents:
      - name: main
        external: true
`
    )
    expect((await tick(a)).created).toHaveLength(1)
    await runJobs(a)
    const [ready] = await prebuilt(t.id)
    const token = (await client.get(`/workspaces/${ready.id}/external-agent/main/credentials`)).body.agent_token
    const before = (ready.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])[0].id
    // The agent and its reinitialization events on B; the claim and its build on A.
    const events = await readEvents(`${b.url}/api/v2/workspaceagents/me/reinit`, { [SESSION_HEADER]: token })
    expect(events.response.status).toBe(200)
    const dir = mkdtempSync(join(tmpdir(), "workbay-pg-claim-"))
    const agent = await startAgent({ url: b.url, token, auth: "token", directory: dir, logDir: dir, log: () => {} })
    try {
      expect(await agent.started).toBe("ready")
      const preset = (await client.get(`/templateversions/${t.active_version_id}/presets`)).body[0].ID
      const dev = await createUser(client)
      const claimed = await dev.client.post(`/users/me/workspaces`, {
        name: "claimed",
        template_id: t.id,
        template_version_preset_id: preset
      })
      expect(claimed.body.id).toBe(ready.id)
      await runJobs(a)
      await eventually(() => events.events.some((e) => e.event === "data"))
      expect(events.events.find((e) => e.event === "data")!.data).toEqual({
        WorkspaceID: ready.id,
        reason: "prebuild_claimed"
      })
      await eventually(() => agent.manifest()?.agent_id !== before && agent.lifecycle() === "ready")
      const now = (await dev.client.get(`/workspaces/${ready.id}`)).body
      const after = (now.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])[0]
      expect(agent.manifest()).toMatchObject({ agent_id: after.id, workspace_name: "claimed" })
    } finally {
      await events.stop()
      await agent.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
