/**
 * Workspace schedule routes through real HTTP (autostart, ttl, extend, autoupdates, dormant,
 * usage), build deadlines from the workspace's ttl, and a lifecycle tick stopping a workspace
 * whose deadline passed.
 */
import { SqlClient } from "@effect/sql"
import { LifecycleExecutor } from "@workbay/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createUser,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  startWithOwner,
  type TestUser,
  UNKNOWN_ID
} from "../support.js"
import { runJobs } from "../templates/versions.js"
import { FREE_TEMPLATE, makeTemplate, makeWorkspace } from "./fixtures.js"

const HOUR = 3_600_000

const status = (r: { status: number; body: unknown }, expected: number) =>
  expect(r.status, JSON.stringify(r.body)).toBe(expected)

describe("workspace schedules", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let member: TestUser
  let other: TestUser
  let template: { id: string }
  let locked: { id: string }

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({ lifecycle: false }))
    member = await createUser(owner)
    other = await createUser(owner)
    template = await makeTemplate(srv, owner, orgId, FREE_TEMPLATE, { activity_bump_ms: HOUR })
    locked = await makeTemplate(srv, owner, orgId, FREE_TEMPLATE, {
      allow_user_autostart: false,
      allow_user_autostop: false
    })
  })
  afterAll(() => srv.close())

  const mine = (body: Record<string, unknown> = {}) => makeWorkspace(srv, member.client, orgId, template.id, body)

  it("PUT autostart stores the schedule and next_start_at; 400 for a bad schedule or a template that forbids it", async () => {
    const w = await mine()
    status(
      await member.client.put(`/workspaces/${w.id}/autostart`, { schedule: "CRON_TZ=Europe/Paris 30 9 * * 1-5" }),
      204
    )
    const got = (await member.client.get(`/workspaces/${w.id}`)).body
    expect(got.autostart_schedule).toBe("CRON_TZ=Europe/Paris 30 9 * * 1-5")
    expect(typeof got.next_start_at).toBe("string")
    expectValidations(await member.client.put(`/workspaces/${w.id}/autostart`, { schedule: "0 9 1 * *" }), ["schedule"])
    status(await member.client.put(`/workspaces/${w.id}/autostart`, { schedule: "" }), 204)
    const cleared = (await member.client.get(`/workspaces/${w.id}`)).body
    expect(cleared.autostart_schedule ?? "").toBe("")
    expect(cleared.next_start_at ?? null).toBeNull()
    const l = await makeWorkspace(srv, member.client, orgId, locked.id)
    expectValidations(await member.client.put(`/workspaces/${l.id}/autostart`, { schedule: "0 9 * * *" }), ["schedule"])
  })

  it("refuses a schedule or a ttl with the same message on create as on the schedule routes (the described system's)", async () => {
    const w = await mine()
    const detail = (r: { body: any }) => r.body.validations?.[0]?.detail
    for (
      const [schedule, expected] of [
        ["30 8 1 * *", "validate weekly schedule: expected day-of-month and month to be *"],
        [
          "CRON_TZ=Nowhere/Land 30 8 * * *",
          "parse schedule: provided bad location Nowhere/Land: unknown time zone Nowhere/Land"
        ],
        ["0 9 * * 7", "parse schedule: end of range (7) above maximum (6): 7"],
        [
          "0 9 * *",
          "validate weekly schedule: expected schedule to consist of 5 fields with an optional CRON_TZ=<timezone> prefix"
        ]
      ]
    ) {
      const created = await member.client.post(`/organizations/${orgId}/members/me/workspaces`, {
        name: `bad-${Math.random().toString(36).slice(2, 8)}`,
        template_id: template.id,
        autostart_schedule: schedule
      })
      expectValidations(created, ["autostart_schedule"])
      expect(created.body.message).toBe("Invalid Autostart Schedule.")
      expect(detail(created), schedule).toBe(expected)
      const put = await member.client.put(`/workspaces/${w.id}/autostart`, { schedule })
      expectValidations(put, ["schedule"])
      expect(put.body.message).toBe("Invalid autostart schedule.")
      expect(detail(put), schedule).toBe(expected)
    }
    for (
      const [ttl, expected] of [
        [30_000, "time until shutdown must be at least one minute"],
        [31 * 24 * HOUR, "time until shutdown must be less than 30 days"]
      ] as const
    ) {
      const created = await member.client.post(`/organizations/${orgId}/members/me/workspaces`, {
        name: `bad-${Math.random().toString(36).slice(2, 8)}`,
        template_id: template.id,
        ttl_ms: ttl
      })
      expectValidations(created, ["ttl_ms"])
      expect(detail(created)).toBe(expected)
      const put = await member.client.put(`/workspaces/${w.id}/ttl`, { ttl_ms: ttl })
      expectValidations(put, ["ttl_ms"])
      expect(detail(put)).toBe(expected)
    }
  })

  it("PUT ttl sets the time to live, which gives the next start build its deadline", async () => {
    const w = await mine()
    status(await member.client.put(`/workspaces/${w.id}/ttl`, { ttl_ms: 2 * HOUR }), 204)
    expect((await member.client.get(`/workspaces/${w.id}`)).body.ttl_ms).toBe(2 * HOUR)
    status(await member.client.post(`/workspaces/${w.id}/builds`, { transition: "stop" }), 200)
    await runJobs(srv)
    status(await member.client.post(`/workspaces/${w.id}/builds`, { transition: "start" }), 200)
    await runJobs(srv)
    const b = (await member.client.get(`/workspaces/${w.id}`)).body.latest_build
    const left = Date.parse(b.deadline) - Date.now()
    expect(left).toBeGreaterThan(2 * HOUR - 60_000)
    expect(left).toBeLessThanOrEqual(2 * HOUR)
    expectValidations(await member.client.put(`/workspaces/${w.id}/ttl`, { ttl_ms: 1000 }), ["ttl_ms"])
    expectValidations(await member.client.put(`/workspaces/${w.id}/ttl`, { ttl_ms: -1 }), ["ttl_ms"])
    // Clearing it takes the deadline off the running build.
    status(await member.client.put(`/workspaces/${w.id}/ttl`, { ttl_ms: null }), 204)
    expect((await member.client.get(`/workspaces/${w.id}`)).body.latest_build.deadline ?? null).toBeNull()
    const l = await makeWorkspace(srv, member.client, orgId, locked.id)
    expectValidations(await member.client.put(`/workspaces/${l.id}/ttl`, { ttl_ms: HOUR }), ["ttl_ms"])
  })

  it("PUT extend moves the deadline (200 with the message); 400 too soon; 409 when shutdown is manual", async () => {
    const manual = await mine({ ttl_ms: 0 })
    const soon = new Date(Date.now() + 2 * HOUR).toISOString()
    expectResponse(await member.client.put(`/workspaces/${manual.id}/extend`, { deadline: soon }), 409)
    const w = await mine({ ttl_ms: HOUR })
    const r = await member.client.put(`/workspaces/${w.id}/extend`, { deadline: soon })
    status(r, 200)
    expect(r.body.message).toMatch(/^Deadline updated to \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\.$/)
    expect(Date.parse((await member.client.get(`/workspaces/${w.id}`)).body.latest_build.deadline)).toBe(
      Date.parse(soon.replace(/\.\d{3}Z$/, "Z")) + Number(soon.slice(20, 23))
    )
    expectResponse(
      await member.client.put(`/workspaces/${w.id}/extend`, { deadline: new Date(Date.now() + 60_000).toISOString() }),
      400
    )
    expectValidations(await member.client.put(`/workspaces/${w.id}/extend`, { deadline: "tomorrow" }), ["deadline"])
  })

  it("PUT autoupdates; PUT dormant answers the workspace with dormant_at and deleting_at", async () => {
    const w = await mine()
    status(await member.client.put(`/workspaces/${w.id}/autoupdates`, { automatic_updates: "always" }), 204)
    expect((await member.client.get(`/workspaces/${w.id}`)).body.automatic_updates).toBe("always")
    expectValidations(await member.client.put(`/workspaces/${w.id}/autoupdates`, { automatic_updates: "sometimes" }), [
      "automatic_updates"
    ])
    const d = await member.client.put(`/workspaces/${w.id}/dormant`, { dormant: true })
    status(d, 200)
    expect(d.body.id).toBe(w.id)
    expect(typeof d.body.dormant_at).toBe("string")
    const a = await member.client.put(`/workspaces/${w.id}/dormant`, { dormant: false })
    status(a, 200)
    expect(a.body.dormant_at ?? null).toBeNull()
    expectValidations(await member.client.put(`/workspaces/${w.id}/dormant`, {}), ["dormant"])
  })

  it("POST usage bumps last_used_at (with or without a body)", async () => {
    const w = await mine()
    const before = (await member.client.get(`/workspaces/${w.id}`)).body.last_used_at
    await new Promise((r) => setTimeout(r, 5))
    status(await member.client.post(`/workspaces/${w.id}/usage`, { agent_id: UNKNOWN_ID, app_name: "vscode" }), 204)
    status(await member.client.post(`/workspaces/${w.id}/usage`), 204)
    expect(Date.parse((await member.client.get(`/workspaces/${w.id}`)).body.last_used_at)).toBeGreaterThan(
      Date.parse(before)
    )
    expectValidations(await member.client.post(`/workspaces/${w.id}/usage`, { agent_id: "nope" }), ["agent_id"])
  })

  it("401 without a session, 404 for others' and unknown workspaces, 403 for a reader who may not update", async () => {
    const w = await mine()
    const anon = srv.anonymous
    const routes: ReadonlyArray<readonly [string, string, unknown]> = [
      ["put", "autostart", { schedule: "" }],
      ["put", "ttl", { ttl_ms: HOUR }],
      ["put", "extend", { deadline: new Date().toISOString() }],
      ["put", "autoupdates", { automatic_updates: "never" }],
      ["put", "dormant", { dormant: true }],
      ["post", "usage", {}]
    ]
    for (const [method, route, body] of routes) {
      const call = (c: Client, id: string) => (c as any)[method](`/workspaces/${id}/${route}`, body)
      expectResponse(await call(anon, w.id), 401)
      expectResponse(await call(other.client, w.id), 404)
      expectResponse(await call(member.client, UNKNOWN_ID), 404)
    }
    // Shared with `use`: may read, may not update.
    status(await member.client.patch(`/workspaces/${w.id}/acl`, { user_roles: { [other.user.id]: "use" } }), 204)
    expectResponse(await other.client.put(`/workspaces/${w.id}/ttl`, { ttl_ms: HOUR }), 403)
  })

  it("starting a dormant workspace needs update (403 for a use share) and makes it active", async () => {
    const w = await mine()
    status(await member.client.post(`/workspaces/${w.id}/builds`, { transition: "stop" }), 200)
    await runJobs(srv)
    status(await member.client.put(`/workspaces/${w.id}/dormant`, { dormant: true }), 200)
    // A `use` share may start an active workspace, not wake a dormant one (update); the workspace stays dormant.
    status(await member.client.patch(`/workspaces/${w.id}/acl`, { user_roles: { [other.user.id]: "use" } }), 204)
    const check = { action: "update", object: { resource_type: "workspace", resource_id: w.id } }
    expect((await other.client.post("/authcheck", { checks: { update: check } })).body.update).toBe(false)
    expectResponse(await other.client.post(`/workspaces/${w.id}/builds`, { transition: "start" }), 403)
    expect(typeof (await member.client.get(`/workspaces/${w.id}`)).body.dormant_at).toBe("string")
    // The owner's start clears dormant_at and deleting_at and queues the build.
    const started = await member.client.post(`/workspaces/${w.id}/builds`, { transition: "start" })
    status(started, 200)
    expect(started.body.transition).toBe("start")
    await runJobs(srv)
    const got = (await member.client.get(`/workspaces/${w.id}`)).body
    expect(got.dormant_at ?? null).toBeNull()
    expect(got.deleting_at ?? null).toBeNull()
    expect(got.latest_build.status).toBe("running")
    // Once active, the `use` share stops and starts it.
    status(await other.client.post(`/workspaces/${w.id}/builds`, { transition: "stop" }), 200)
  })

  it("a lifecycle tick stops a workspace whose deadline passed", async () => {
    const w = await mine({ ttl_ms: HOUR })
    await srv.run(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) =>
          sql`UPDATE workspace_builds SET deadline = ${
            new Date(Date.now() - 60_000).toISOString()
          } WHERE id = ${w.latest_build.id}`.pipe(Effect.orDie)
      ) as Effect.Effect<unknown>
    )
    const stats = await srv.run(Effect.flatMap(LifecycleExecutor, (e) => e.tick))
    expect(stats.transitions[w.id]).toBe("autostop")
    await runJobs(srv)
    const got = (await member.client.get(`/workspaces/${w.id}`)).body
    expect(got.latest_build.transition).toBe("stop")
    expect(got.latest_build.reason).toBe("autostop")
    expect(got.latest_build.status).toBe("stopped")
    const audits = await owner.get(`/audit?limit=50&q=${encodeURIComponent("build_reason:autostop")}`)
    status(audits, 200)
    expect(audits.body.audit_logs.some((l: any) => l.resource_target === w.name)).toBe(true)
  })
})
