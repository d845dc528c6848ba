/**
 * The prebuilds' failure hard limit over real HTTP on SQLite (docs/prebuilds.md, "The
 * reconciler"): a preset whose latest creations failed `failure_hard_limit` (3) times in a row
 * creates nothing more; its template admins find "Prebuild Failure Limit Reached" in their inbox
 * once; a scrape shows `coderd_prebuilt_workspaces_preset_hard_limited`; a new active version
 * creates again. Ticks run by hand under the `TestClock` (the background loop is off), and the
 * notifier dispatches by hand.
 */
import { Notifier, PrebuildsReconciler, TemplateIds } from "@workbay/core"
import { Effect, TestClock, TestContext } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makePrometheusMetrics, type PrometheusMetrics } from "../../src/index.js"
import { parseExposition } from "../exposition.js"
import { type Client, createUser, type ServiceTestServer, startWithOwner } from "../support.js"
import { createVersion, runJobs } from "../templates/versions.js"
import { makeTemplate } from "../workspaces/fixtures.js"

const template = (extra = "") =>
  `presets:
  - name: big
    prebuilds: { instances: 1 }
resources:
  - name: box
    type: machine
${extra}`

const FAILING = template("build:\n  fail: { transition: start, message: no capacity }\n")

const HARD_LIMITED = "coderd_prebuilt_workspaces_preset_hard_limited"

const parse = parseExposition

describe("the prebuilds' failure hard limit", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let metrics: PrometheusMetrics
  let scrapeServer: Server
  let scrapeUrl: string

  beforeAll(async () => {
    metrics = makePrometheusMetrics({ processMetrics: false, cacheMillis: 0 })
    ;({ srv, owner, orgId } = await startWithOwner({ metrics, lifecycle: false, prebuilds: false, notifier: false }))
    scrapeServer = createServer((_req, res) => {
      metrics.text().then((text) => res.writeHead(200, { "content-type": metrics.contentType }).end(text))
    })
    await new Promise<void>((resolve) => scrapeServer.listen(0, "127.0.0.1", () => resolve()))
    scrapeUrl = `http://127.0.0.1:${(scrapeServer.address() as AddressInfo).port}/metrics`
  })
  afterAll(async () => {
    scrapeServer.closeAllConnections()
    await new Promise<void>((resolve) => scrapeServer.close(() => resolve()))
    await srv.close()
  })

  const scrape = async () => {
    const res = await fetch(scrapeUrl)
    expect(res.status).toBe(200)
    return parse(await res.text()).filter((s) => s.name === HARD_LIMITED)
  }
  const tickAt = (ms: number) =>
    srv.run(
      Effect.gen(function*() {
        yield* TestClock.setTime(ms)
        return yield* Effect.flatMap(PrebuildsReconciler, (r) => r.tick("1 minute"))
      }).pipe(Effect.provide(TestContext.TestContext))
    )
  /** Dispatches until nothing is left to lease. */
  const dispatch = async () => {
    for (;;) {
      const r = await srv.run(Effect.flatMap(Notifier, (n) => n.dispatchOnce))
      if (r.leased === 0) return
    }
  }

  it("stops creating after 3 failures in a row, tells the template admins once, gauges the preset, and a new version creates again", async () => {
    const tadmin = await createUser(owner, { username: "hl-tadmin", roles: ["template-admin"] })
    const member = await createUser(owner, { username: "hl-member" })
    const org = (await owner.get(`/organizations/${orgId}`)).body.name as string
    const t = await makeTemplate(srv, owner, orgId, FAILING)
    const version = (await owner.get(`/templateversions/${t.active_version_id}`)).body
    const presetId = (await owner.get(`/templateversions/${t.active_version_id}/presets`)).body[0].ID as string
    const start = Date.parse("2031-01-01T00:00:00Z")
    const minutes = (n: number) => start + n * 60_000

    // Three creations, ten minutes apart (past each backoff), each failing.
    for (const at of [0, 10, 20]) {
      const stats = await tickAt(minutes(at))
      expect(stats.created).toHaveLength(1)
      expect(stats.hardLimited).toEqual([])
      await runJobs(srv)
    }
    expect(await scrape()).toEqual([])
    const limited = await tickAt(minutes(30))
    expect(limited).toMatchObject({ ran: true, created: [], backoff: {}, hardLimited: [presetId] })
    expect(limited.deleted).toHaveLength(1) // the last failed one still goes
    await runJobs(srv)
    expect((await tickAt(minutes(40))).created).toEqual([])
    await dispatch()

    const inbox = await tadmin.client.get(`/notifications/inbox?templates=${TemplateIds.prebuildFailureLimitReached}`)
    expect(inbox.status).toBe(200)
    expect(inbox.body.notifications).toHaveLength(1)
    const [n] = inbox.body.notifications
    expect(n.title).toBe("There is a problem creating prebuilt workspaces")
    expect(n.content).toContain(
      `The number of failed prebuild attempts has reached the hard limit for template **${t.name}** and preset **big**.`
    )
    expect(n.actions).toEqual([
      {
        label: "View failed prebuilt workspaces",
        url: expect.stringMatching(
          new RegExp(`/workspaces\\?filter=owner:prebuilds\\+status:failed\\+template:${t.name}$`)
        )
      },
      {
        label: "View template version",
        url: expect.stringMatching(new RegExp(`/templates/${org}/${t.name}/versions/${version.name}$`))
      }
    ])
    // The owner is a template admin too; a plain member is not told.
    expect(
      (await owner.get(`/notifications/inbox?templates=${TemplateIds.prebuildFailureLimitReached}`)).body.notifications
    ).toHaveLength(1)
    expect(
      (await member.client.get(`/notifications/inbox?templates=${TemplateIds.prebuildFailureLimitReached}`)).body
        .notifications
    ).toEqual([])

    expect(await scrape()).toEqual([{
      name: HARD_LIMITED,
      labels: { template_name: t.name, preset_name: "big", organization_name: org },
      value: 1
    }])

    // A new active version that builds: its preset starts afresh; the gauge is gone.
    const v2 = await createVersion(srv, owner, orgId, template(), { template_id: t.id })
    expect(v2.status).toBe(201)
    await runJobs(srv)
    expect((await owner.patch(`/templates/${t.id}/versions`, { id: v2.body.id })).status).toBe(200)
    const fresh = await tickAt(minutes(50))
    expect(fresh.hardLimited).toEqual([])
    expect(fresh.created).toHaveLength(1)
    await runJobs(srv)
    expect(await scrape()).toEqual([])
    await dispatch()
    expect(
      (await tadmin.client.get(`/notifications/inbox?templates=${TemplateIds.prebuildFailureLimitReached}`)).body
        .notifications
    ).toHaveLength(1)
  })
})
