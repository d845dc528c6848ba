/**
 * The insights routes through real HTTP: reports computed from agent stats and app opens folded
 * into the hourly rollups by a rollup pass, the range rules of the described system (400 with one
 * validation), who may read them (401, 403, 404), and a template's DAUs.
 */
import { SqlClient } from "@effect/sql"
import { AgentReportRepo, AuditLogs, InsightsRollup, ProvisionerJobRepo } from "@workbay/core"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentStats as stats } from "../../../core/test/insights/fixtures.js"
import { type Client, createUser, type ServiceTestServer, startWithOwner, UNKNOWN_ID } from "../support.js"
import { makeTemplate, makeWorkspace } from "../workspaces/fixtures.js"
import { addBuild, portShareTemplate, type SeededWorkspace, seedWorkspace } from "../workspaces/portShareFixtures.js"

const HOUR = 3_600_000
const DAY = 24 * HOUR

const midnight = (ms: number) => ms - (ms % DAY)
const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z")

describe("insights", () => {
  let srv: ServiceTestServer
  let owner: Client
  let ownerId: string
  let orgId: string
  let member: Client
  let auditor: Client
  let template: { id: string; active_version_id: string }
  let other: { id: string; active_version_id: string }
  let ws: SeededWorkspace
  let memberWs: SeededWorkspace
  let start: string
  let end: string

  beforeAll(async () => {
    ;({ srv, owner, ownerId, orgId } = await startWithOwner({ insightsRollup: false }))
    const m = await createUser(owner, { username: "ins-member" })
    member = m.client
    const memberId = m.user.id as string
    auditor = (await createUser(owner, { username: "ins-auditor", roles: ["auditor"] })).client
    template = await portShareTemplate(srv, owner, { organizationId: orgId, createdBy: ownerId }) as any
    other = await portShareTemplate(srv, owner, { organizationId: orgId, createdBy: ownerId }) as any
    ws = await seedWorkspace(srv, { ownerId, template, organizationId: orgId, agents: null })
    memberWs = await seedWorkspace(srv, { ownerId: memberId, template: other, organizationId: orgId, agents: null })
    const now = Date.now()
    // The use below lies in one UTC day: in the day's first 25 minutes it is put just before
    // midnight, else the member's five minutes could fall on two days and count as two daily users.
    const base = now % DAY < 25 * 60_000 ? now - (now % DAY) - 60_000 : now
    // Ten minutes of SSH and VS Code use by the owner, five of SSH by the member, in the last half hour.
    for (let i = 0; i < 10; i++) {
      const at = new Date(base - (20 - i) * 60_000)
      await srv.run(
        Effect.flatMap(AgentReportRepo, (r) =>
          r.insertStats(
            randomUUID(),
            ws.id,
            stats({ session_count_ssh: 1, session_count_vscode: i < 4 ? 1 : 0, connection_median_latency_ms: 10 + i }),
            at
          ))
      )
      if (i < 5) {
        await srv.run(
          Effect.flatMap(AgentReportRepo, (r) =>
            r.insertStats(
              randomUUID(),
              memberWs.id,
              stats({ session_count_ssh: 1, connection_median_latency_ms: 50 }),
              at
            ))
        )
      }
    }
    // An app opened twice by the owner.
    for (let i = 0; i < 2; i++) {
      await srv.run(Effect.flatMap(AuditLogs, (a) =>
        a.connect({
          time: new Date(base - 5 * 60_000),
          organizationId: orgId,
          workspaceOwnerId: ownerId,
          workspaceId: ws.id,
          workspaceName: ws.name,
          agentName: "main",
          type: "workspace_app",
          ip: "127.0.0.1",
          userAgent: "test",
          userId: ownerId,
          slugOrPort: "code-server",
          statusCode: 200
        })))
    }
    const pass = await srv.run(Effect.flatMap(InsightsRollup, (r) => r.pass()))
    expect(pass.ran).toBe(true)
    start = isoSeconds(midnight(now) - 7 * DAY)
    const next = now - (now % HOUR) + HOUR
    end = isoSeconds(next)
  })
  afterAll(() => srv?.close())

  const q = (path: string, params: Record<string, string>) => `${path}?${new URLSearchParams(params).toString()}`

  it("reports template usage from the rollups", async () => {
    const r = await owner.get(q("/insights/templates", { start_time: start, end_time: end, interval: "day" }))
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    const report = r.body.report
    expect(report.active_users).toBe(2)
    expect(report.template_ids).toEqual([template.id, other.id].sort())
    const apps = Object.fromEntries(report.apps_usage.map((a: any) => [a.slug, a]))
    expect(apps.ssh.seconds).toBe(15 * 60)
    expect(apps.vscode.seconds).toBe(4 * 60)
    expect(apps["code-server"]).toMatchObject({ type: "app", times_used: 2, template_ids: [template.id] })
    expect(report.start_time).toBe(start)
    expect(r.body.interval_reports.length).toBeGreaterThanOrEqual(7)
    expect(r.body.interval_reports.reduce((n: number, i: any) => Math.max(n, i.active_users), 0)).toBe(2)
    const one = await owner.get(
      q("/insights/templates", { start_time: start, end_time: end, interval: "day", template_ids: other.id })
    )
    expect(one.body.report.active_users).toBe(1)
    expect(one.body.report.template_ids).toEqual([other.id])
  })

  it("reports week intervals", async () => {
    const now = Date.now()
    const s = isoSeconds(midnight(now) - 14 * DAY)
    const e = isoSeconds(midnight(now))
    const r = await owner.get(q("/insights/templates", { start_time: s, end_time: e, interval: "week" }))
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.interval_reports.map((i: any) => i.interval)).toEqual(["week", "week"])
  })

  it("reports user activity and latency", async () => {
    const a = await auditor.get(q("/insights/user-activity", { start_time: start, end_time: end }))
    expect(a.status, JSON.stringify(a.body)).toBe(200)
    const users = Object.fromEntries(a.body.report.users.map((u: any) => [u.username, u]))
    expect(users.admin).toMatchObject({ seconds: 600, template_ids: [template.id] })
    expect(users["ins-member"]).toMatchObject({ seconds: 300, template_ids: [other.id] })
    const l = await owner.get(q("/insights/user-latency", { start_time: start, end_time: end }))
    expect(l.status).toBe(200)
    const lat = Object.fromEntries(l.body.report.users.map((u: any) => [u.username, u]))
    expect(lat["ins-member"].latency_ms).toEqual({ p50: 50, p95: 50 })
    expect(lat.admin.latency_ms.p50).toBeGreaterThan(10)
  })

  it("counts daily active users of the deployment and of a template", async () => {
    const d = await owner.get("/insights/daus?tz_offset=0")
    expect(d.status).toBe(200)
    expect(d.body.tz_hour_offset).toBe(0)
    // From the start of the day of the next whole hour, 60 days back (the described system's): in
    // the last hour of a day the series starts a day later and has 60 entries, else 61.
    const nextHour = Date.now() - (Date.now() % HOUR) + HOUR
    expect(d.body.entries.length).toBe(nextHour % DAY === 0 ? 60 : 61)
    expect(d.body.entries.at(-1).amount + d.body.entries.at(-2).amount).toBeGreaterThanOrEqual(1)
    expect(d.body.entries.reduce((n: number, e: any) => n + e.amount, 0)).toBeGreaterThanOrEqual(2)
    const t = await owner.get(`/templates/${other.id}/daus`)
    expect(t.status).toBe(200)
    expect(t.body.entries.reduce((n: number, e: any) => n + e.amount, 0)).toBe(1)
    expect((await owner.get(`/insights/daus?tz_offset=-5`)).body.tz_hour_offset).toBe(-5)
  })

  it("counts users by status per day", async () => {
    const r = await owner.get("/insights/user-status-counts?timezone=Europe/Berlin")
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(Object.keys(r.body.status_counts).sort()).toEqual(["active", "dormant", "suspended"])
    expect(r.body.status_counts.active.at(-1).count).toBe(3)
    expect(r.body.status_counts.active[0].date).toMatch(/\+0[12]:00$/)
    expect((await owner.get("/insights/user-status-counts?tz_offset=2")).status).toBe(200)
  })

  it("gives templates their build time stats from recent successful builds", async () => {
    await addBuild(srv, ws, 1, ["main"])
    const now = Date.now()
    // The seeded builds' jobs run for 90 s and succeed through the job repository, as a worker's do.
    await srv.run(Effect.orDie(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const jobs = yield* ProvisionerJobRepo
      const rows = yield* sql<{ job_id: string }>`UPDATE provisioner_jobs SET started_at = ${
        new Date(now - 100_000).toISOString()
      },
        completed_at = NULL, worker_id = 'insights-test'
        WHERE id IN (SELECT job_id FROM workspace_builds WHERE workspace_id = ${ws.id}) RETURNING id AS job_id`
      for (const r of rows) yield* jobs.complete(r.job_id, "insights-test", {}, new Date(now - 10_000))
    })) as Effect.Effect<void>)
    const t = await owner.get(`/templates/${template.id}`)
    expect(t.body.build_time_stats).toEqual({
      start: { P50: 90_000, P95: 90_000 },
      stop: { P50: null, P95: null },
      delete: { P50: null, P95: null }
    })
    expect((await owner.get(`/templates/${other.id}`)).body.build_time_stats).toEqual({
      start: { P50: null, P95: null },
      stop: { P50: null, P95: null },
      delete: { P50: null, P95: null }
    })
  })

  it("answers 401 without a token", async () => {
    for (
      const path of [
        "/insights/daus",
        `/insights/user-activity?start_time=${start}&end_time=${end}`,
        `/templates/${template.id}/daus`
      ]
    ) {
      expect((await srv.anonymous.get(path)).status).toBe(401)
    }
  })

  it("answers 403 or 404 to callers without the permission", async () => {
    expect((await member.get("/insights/daus")).status).toBe(403)
    expect((await member.get(q("/insights/user-activity", { start_time: start, end_time: end }))).status).toBe(404)
    expect((await member.get(q("/insights/templates", { start_time: start, end_time: end, interval: "day" }))).status)
      .toBe(404)
    expect(
      (await member.get(q("/insights/user-latency", { start_time: start, end_time: end, template_ids: template.id })))
        .status
    ).toBe(404)
    expect((await auditor.get("/insights/daus")).status).toBe(200)
  })

  it("answers 404 for an unknown template", async () => {
    expect((await owner.get(`/templates/${UNKNOWN_ID}/daus`)).status).toBe(404)
    expect(
      (await owner.get(q("/insights/user-activity", { start_time: start, end_time: end, template_ids: UNKNOWN_ID })))
        .status
    ).toBe(200)
  })

  const expectOne = async (client: Client, path: string, field: string) => {
    const r = await client.get(path)
    expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(400)
    expect(r.body.validations.map((v: any) => v.field)).toEqual([field])
  }

  it("validates ranges as the described system does", async () => {
    const future = isoSeconds(midnight(Date.now()) + 3 * DAY)
    const notMidnight = isoSeconds(midnight(Date.now()) - 3 * DAY + 5 * HOUR)
    await expectOne(owner, q("/insights/user-activity", { start_time: "yesterday", end_time: end }), "start_time")
    await expectOne(owner, q("/insights/user-activity", { start_time: start, end_time: future }), "end_time")
    await expectOne(owner, q("/insights/user-activity", { start_time: notMidnight, end_time: end }), "start_time")
    await expectOne(
      owner,
      q("/insights/user-activity", { start_time: isoSeconds(midnight(Date.now())), end_time: start }),
      "end_time"
    )
    await expectOne(owner, q("/insights/user-activity", { end_time: end }), "start_time")
    await expectOne(
      owner,
      q("/insights/user-latency", { start_time: start, end_time: end, template_ids: "nope" }),
      "template_ids"
    )
    await expectOne(
      owner,
      q("/insights/templates", { start_time: start, end_time: end, interval: "month" }),
      "interval"
    )
    await expectOne(owner, q("/insights/templates", { start_time: start, end_time: end }), "interval")
    const s = isoSeconds(midnight(Date.now()) - 10 * DAY)
    await expectOne(
      owner,
      q("/insights/templates", { start_time: s, end_time: isoSeconds(midnight(Date.now())), interval: "week" }),
      "interval"
    )
    await expectOne(owner, "/insights/daus?tz_offset=abc", "tz_offset")
    await expectOne(owner, "/insights/daus?tz_offset=99", "tz_offset")
    await expectOne(owner, "/insights/user-status-counts?timezone=Mars/Olympus", "timezone")
    await expectOne(owner, "/templates/not-a-uuid/daus", "template")
  })

  it("keeps the caller's offset in report times", async () => {
    const now = Date.now()
    // Midnight in +02:00 a few days ago.
    const local = midnight(now + 2 * HOUR) - 3 * DAY - 2 * HOUR
    const s = new Date(local + 2 * HOUR).toISOString().slice(0, 10) + "T00:00:00+02:00"
    const e = new Date(local + 2 * HOUR + 2 * DAY).toISOString().slice(0, 10) + "T00:00:00+02:00"
    const r = await owner.get(q("/insights/templates", { start_time: s, end_time: e, interval: "day" }))
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.report.start_time).toBe(s)
    expect(r.body.interval_reports[0].start_time).toBe(s)
    expect(r.body.interval_reports[1].end_time).toBe(e)
  })
})

describe("template insights from real builds", () => {
  let srv: ServiceTestServer
  let owner: Client
  let ownerId: string
  let orgId: string

  const TEMPLATE = `parameters:
  - name: region
    display_name: Region
    description: "Where the **workspace** runs."
    default: eu
    options:
      - { name: Europe, value: eu }
      - { name: America, value: us }
  - name: cpus
    type: number
    default: 2
resources:
  - name: dev
    type: machine
    agents:
      - name: main
        apps:
          - slug: code
            display_name: Code Server
            icon: /icon/code.svg
            url: http://localhost:8080
`

  beforeAll(async () => {
    ;({ srv, owner, ownerId, orgId } = await startWithOwner({ insightsRollup: false }))
  })
  afterAll(() => srv?.close())

  it("counts the parameter values of the latest builds and names apps as their agents declare them", async () => {
    const template = await makeTemplate(srv, owner, orgId, TEMPLATE)
    const parameters = (region: string) => ({ rich_parameter_values: [{ name: "region", value: region }] })
    const eu = await makeWorkspace(srv, owner, orgId, template.id, parameters("eu"))
    await makeWorkspace(srv, owner, orgId, template.id, parameters("us"))
    await makeWorkspace(srv, owner, orgId, template.id, parameters("us"))
    // Opened two hours ago, before any agent stats exist: the first pass starts from the oldest raw
    // row of either kind (it once started from the stats alone, and missed an open made in the
    // previous hour, as this test did whenever it ran in an hour's first minute).
    await srv.run(Effect.flatMap(AuditLogs, (a) =>
      a.connect({
        time: new Date(Date.now() - 2 * HOUR),
        organizationId: orgId,
        workspaceOwnerId: ownerId,
        workspaceId: eu.id,
        workspaceName: eu.name,
        agentName: "main",
        type: "workspace_app",
        ip: "127.0.0.1",
        userAgent: "test",
        userId: ownerId,
        slugOrPort: "code",
        statusCode: 200
      })))
    expect((await srv.run(Effect.flatMap(InsightsRollup, (r) => r.pass()))).ran).toBe(true)
    const now = Date.now()
    const r = await owner.get(`/insights/templates?${new URLSearchParams({
      start_time: isoSeconds(midnight(now) - DAY),
      end_time: isoSeconds(now - (now % HOUR) + HOUR),
      interval: "day",
      template_ids: template.id
    })}`)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    const usage = r.body.report.parameters_usage
    expect(usage.map((p: any) => p.name)).toEqual(["cpus", "region"])
    expect(usage[1]).toEqual({
      template_ids: [template.id],
      display_name: "Region",
      name: "region",
      type: "string",
      description: "Where the workspace runs.",
      options: [{ name: "Europe", description: "", value: "eu", icon: "" }, {
        name: "America",
        description: "",
        value: "us",
        icon: ""
      }],
      values: [{ value: "eu", count: 1 }, { value: "us", count: 2 }]
    })
    expect(usage[0]).not.toHaveProperty("options")
    expect(usage[0].values).toEqual([{ value: "2", count: 3 }])
    const app = r.body.report.apps_usage.find((a: any) => a.slug === "code")
    expect(app).toMatchObject({ type: "app", display_name: "Code Server", icon: "/icon/code.svg", times_used: 1 })
  })
})
