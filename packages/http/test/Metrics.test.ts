/**
 * Prometheus metrics through real HTTP: a service with `makePrometheusMetrics()`, real traffic
 * (requests of every outcome, a template import and a workspace build by the built-in workers, a
 * webhook notification, a WebSocket watcher, prebuilt workspaces built, claimed and failed), then a
 * scrape of the registry served on node:http as an embedder would, and the series and labels in it
 * (docs/operations.md, "Metrics").
 */
import { type MetricsSnapshot, Notifier, PrebuildsReconciler, TemplateIds, workspaceStatuses } from "@workbay/core"
import { Effect } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makePrometheusMetrics, type PrometheusMetrics } from "../src/index.js"
import { parseExposition, type Sample } from "./exposition.js"
import { startWebhook } from "./notifications/fixtures.js"
import {
  type Client,
  createUser,
  type ServiceTestServer,
  SESSION_HEADER,
  startWithOwner,
  UNKNOWN_ID
} from "./support.js"
import { runJobs } from "./templates/versions.js"
import { connect } from "./websocket.js"
import { FREE_TEMPLATE, makeTemplate, makeWorkspace } from "./workspaces/fixtures.js"

const parse = parseExposition

describe("Prometheus metrics", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let metrics: PrometheusMetrics
  let scrapeServer: Server
  let scrapeUrl: string
  let hook: Awaited<ReturnType<typeof startWebhook>>

  const scrape = async () => {
    const res = await fetch(scrapeUrl)
    expect(res.status).toBe(200)
    return parse(await res.text())
  }
  const find = (samples: Array<Sample>, name: string, labels: Record<string, string> = {}) =>
    samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
  const value = (samples: Array<Sample>, name: string, labels: Record<string, string> = {}) =>
    find(samples, name, labels).reduce((n, s) => n + s.value, 0)

  beforeAll(async () => {
    hook = await startWebhook()
    metrics = makePrometheusMetrics({ processMetrics: false, cacheMillis: 0 })
    ;({ srv, owner, orgId } = await startWithOwner({
      metrics,
      notifier: false,
      settings: { notificationsWebhookEndpoint: hook.url }
    }))
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
    await hook.close()
  })

  it("counts requests by status, method and route template, never the raw URL, with latency histograms", async () => {
    expect((await owner.get("/users/me")).status).toBe(200)
    expect((await owner.get(`/users/${UNKNOWN_ID}`)).status).toBe(404)
    expect((await srv.anonymous.get("/users/me")).status).toBe(401)
    expect((await owner.post("/users", { email: 12 })).status).toBe(400)
    expect((await owner.get("/no-such-route/abc")).status).toBe(404)
    expect((await owner.request("HEAD", "/buildinfo")).status).toBe(200)
    const samples = await scrape()
    const total = "coderd_api_requests_processed_total"
    expect(value(samples, total, { code: "200", method: "GET", path: "/api/v2/users/{user}" })).toBeGreaterThanOrEqual(
      1
    )
    expect(value(samples, total, { code: "404", method: "GET", path: "/api/v2/users/{user}" })).toBe(1)
    expect(value(samples, total, { code: "401", method: "GET", path: "/api/v2/users/{user}" })).toBe(1)
    expect(value(samples, total, { code: "400", method: "POST", path: "/api/v2/users" })).toBe(1)
    expect(value(samples, total, { code: "404", method: "GET", path: "unknown" })).toBe(1)
    expect(value(samples, total, { code: "200", method: "HEAD", path: "/api/v2/buildinfo" })).toBe(1)
    // Bounded labels: no sample names an id or a raw path.
    for (const s of find(samples, total)) expect(s.labels.path).not.toMatch(/[0-9a-f]{8}-|no-such-route/)
    expect(
      value(samples, "coderd_api_request_latencies_seconds_count", { method: "GET", path: "/api/v2/users/{user}" })
    ).toBeGreaterThanOrEqual(3)
    expect(
      find(samples, "coderd_api_request_latencies_seconds_bucket", {
        method: "GET",
        path: "/api/v2/users/{user}",
        le: "+Inf"
      })
    ).toHaveLength(1)
    // The scrape itself is not an API request; nothing is in flight between requests.
    expect(value(samples, "coderd_api_concurrent_requests")).toBe(0)
    expect(value(samples, "coderd_db_query_latencies_seconds_count")).toBeGreaterThan(0)
    // Of those statements, the writes (the requests above wrote the API key's last use at least).
    const writes = value(samples, "workbay_db_writes_total")
    expect(writes).toBeGreaterThan(0)
    expect(writes).toBeLessThan(value(samples, "coderd_db_query_latencies_seconds_count"))
    // The pool's waits are a series of their own; SQLite has no pool, so none (Postgres:
    // storage-postgres's Metrics test).
    expect(find(samples, "workbay_db_connection_wait_seconds_bucket", { le: "+Inf" })).toHaveLength(1)
    expect(value(samples, "workbay_db_connection_wait_seconds_count")).toBe(0)
  })

  it("times provisioner jobs, and reads the queue, builds and workspaces gauges from the database", async () => {
    const template = await makeTemplate(srv, owner, orgId, FREE_TEMPLATE)
    const workspace = await makeWorkspace(srv, owner, orgId, template.id)
    expect(workspace.latest_build.job.status).toBe("succeeded")
    const samples = await scrape()
    const timings = "coderd_provisionerd_job_timings_seconds_count"
    expect(value(samples, timings, { provisioner: "workbay", status: "succeeded" })).toBe(2)
    expect(value(samples, "coderd_provisionerd_jobs_current", { provisioner: "workbay" })).toBe(0)
    // Every status has its series, zero when none; coderd's gauge is by the latest build's job status.
    expect(find(samples, "workbay_workspaces").map((s) => [s.labels.status, s.value]).sort()).toEqual([
      ["canceled", 0],
      ["canceling", 0],
      ["deleted", 0],
      ["deleting", 0],
      ["failed", 0],
      ["pending", 0],
      ["running", 1],
      ["starting", 0],
      ["stopped", 0],
      ["stopping", 0]
    ])
    expect(find(samples, "coderd_api_workspace_latest_build").map((s) => [s.labels.status, s.value]).sort()).toEqual([
      ["canceled", 0],
      ["canceling", 0],
      ["failed", 0],
      ["pending", 0],
      ["running", 0],
      ["succeeded", 1]
    ])
    expect(find(samples, "workbay_workspace_builds_in_flight").map((s) => [s.labels.status, s.value]).sort())
      .toEqual([["canceling", 0], ["pending", 0], ["running", 0]])
    expect(find(samples, "workbay_provisioner_jobs_pending")).toEqual([])
    expect(value(samples, "workbay_agents_connected")).toBe(0)

    // A stop build, and a second workspace: two more jobs timed; one workspace started, one not.
    const stop = await owner.post(`/workspaces/${workspace.id}/builds`, { transition: "stop" })
    expect(stop.status).toBe(200)
    await makeWorkspace(srv, owner, orgId, template.id)
    const after = await scrape()
    expect(value(after, timings, { provisioner: "workbay", status: "succeeded" })).toBe(4)
    expect(value(after, "workbay_workspaces", { status: "running" })).toBe(1)
    expect(value(after, "workbay_workspaces", { status: "stopped" })).toBe(1)
    expect(value(after, "workbay_workspaces")).toBe(2)
    expect(value(after, "coderd_api_workspace_latest_build", { status: "succeeded" })).toBe(2)
  })

  it("counts notification dispatches by method, template and result, with send times", async () => {
    expect(
      (await owner.put(`/notifications/templates/${TemplateIds.customNotification}/method`, { method: "webhook" }))
        .status
    ).toBe(200)
    try {
      expect((await owner.post("/notifications/custom", { content: { title: "Hello", message: "Metrics" } })).status)
        .toBe(204)
      expect((await srv.run(Effect.flatMap(Notifier, (n) => n.dispatchOnce))).sent).toBeGreaterThanOrEqual(1)
      hook.answer(500)
      expect((await owner.post("/notifications/custom", { content: { title: "Doomed", message: "Metrics" } })).status)
        .toBe(204)
      expect((await srv.run(Effect.flatMap(Notifier, (n) => n.dispatchOnce))).failed).toBeGreaterThanOrEqual(1)
    } finally {
      hook.answer(200)
      await owner.put(`/notifications/templates/${TemplateIds.customNotification}/method`, { method: "" })
    }
    const samples = await scrape()
    const attempts = "coderd_notifications_dispatch_attempts_total"
    const labels = { method: "webhook", notification_template_id: TemplateIds.customNotification }
    expect(value(samples, attempts, { ...labels, result: "success" })).toBe(1)
    expect(value(samples, attempts, { ...labels, result: "temporary_failure" })).toBe(1)
    expect(value(samples, attempts, { ...labels, result: "permanent_failure" })).toBe(0)
    expect(value(samples, "coderd_notifications_dispatcher_send_seconds_count", { method: "webhook" })).toBe(2)
  })

  it("counts open WebSockets and times them by route template once closed", async () => {
    const template = await makeTemplate(srv, owner, orgId, FREE_TEMPLATE)
    const workspace = await makeWorkspace(srv, owner, orgId, template.id)
    const socket = await connect(`${srv.wsUrl}/api/v2/workspaces/${workspace.id}/watch-ws`, {
      [SESSION_HEADER]: owner.token!
    })
    const path = "/api/v2/workspaces/{workspace}/watch-ws"
    const open = await scrape()
    expect(value(open, "coderd_api_concurrent_websockets")).toBe(1)
    expect(value(open, "coderd_api_requests_processed_total", { code: "101", method: "GET", path })).toBe(1)
    expect(value(open, "coderd_api_websocket_durations_seconds_count", { path })).toBe(0)
    socket.socket.close()
    await socket.closed
    let closed = open
    for (let i = 0; i < 200 && value(closed, "coderd_api_websocket_durations_seconds_count", { path }) === 0; i++) {
      await new Promise((r) => setTimeout(r, 10))
      closed = await scrape()
    }
    expect(value(closed, "coderd_api_websocket_durations_seconds_count", { path })).toBe(1)
    expect(value(closed, "coderd_api_concurrent_websockets")).toBe(0)
  })
})

describe("the scrape-time gauges", () => {
  const snapshotOf = (counts: Partial<Record<(typeof workspaceStatuses)[number], number>>): MetricsSnapshot => ({
    pendingJobs: [],
    buildsInFlight: [],
    workspaces: workspaceStatuses.map((status) => ({ status, count: counts[status] ?? 0 })),
    connectedAgents: 2
  })

  it("split the workspaces by status and by their latest build's job status, from one read per cache period", async () => {
    const metrics = makePrometheusMetrics({ processMetrics: false, cacheMillis: 60_000 })
    let reads = 0
    const snapshot = snapshotOf({
      pending: 1,
      starting: 2,
      stopping: 3,
      deleting: 4,
      running: 5,
      stopped: 6,
      failed: 7,
      canceling: 8,
      canceled: 9
    })
    metrics.bind({ webSockets: () => 0, snapshot: async () => (reads++, snapshot) })
    const [samples] = await Promise.all([metrics.text().then(parse), metrics.text(), metrics.text()])
    const series = (name: string) =>
      Object.fromEntries(samples!.filter((s) => s.name === name).map((s) => [s.labels.status, s.value]))
    expect(series("workbay_workspaces")).toEqual({
      pending: 1,
      starting: 2,
      stopping: 3,
      deleting: 4,
      running: 5,
      stopped: 6,
      failed: 7,
      canceling: 8,
      canceled: 9,
      deleted: 0
    })
    expect(series("coderd_api_workspace_latest_build")).toEqual({
      pending: 1,
      running: 9,
      succeeded: 11,
      failed: 7,
      canceling: 8,
      canceled: 9
    })
    expect(samples!.find((s) => s.name === "workbay_agents_connected")?.value).toBe(2)
    // Three scrapes, each of five database gauges: one read.
    await metrics.text()
    expect(reads).toBe(1)
    // A new source is read at once.
    metrics.bind({ webSockets: () => 0, snapshot: async () => (reads++, snapshotOf({ running: 1 })) })
    expect(
      parse(await metrics.text()).find((s) => s.name === "workbay_workspaces" && s.labels.status === "running")?.value
    ).toBe(1)
    expect(reads).toBe(2)
  })

  it("keep their last values when a read fails", async () => {
    const metrics = makePrometheusMetrics({ processMetrics: false, cacheMillis: 0 })
    let fail = false
    metrics.bind({
      webSockets: () => 0,
      snapshot: async () => (fail ? Promise.reject(new Error("down")) : snapshotOf({ stopped: 3 }))
    })
    const stopped = async () =>
      parse(await metrics.text()).find((s) => s.name === "workbay_workspaces" && s.labels.status === "stopped")?.value
    expect(await stopped()).toBe(3)
    fail = true
    expect(await stopped()).toBe(3)
  })
})

describe("the prebuilt workspaces' metrics", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let metrics: PrometheusMetrics
  let scrapeServer: Server
  let scrapeUrl: string

  beforeAll(async () => {
    metrics = makePrometheusMetrics({ processMetrics: false, cacheMillis: 0 }) // Ticks by hand: no background reconciler or lifecycle executor.
    ;({ srv, owner, orgId } = await startWithOwner({ metrics, lifecycle: false, prebuilds: false }))
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
    return parse(await res.text())
  }
  const tick = () => srv.run(Effect.flatMap(PrebuildsReconciler, (r) => r.tick()))
  const template = (instances: number, extra = "") =>
    `presets:
  - name: big
    prebuilds: { instances: ${instances} }
resources:
  - name: box
    type: machine
${extra}`
  /** The preset's six series, by their name's last part. */
  const seriesOf = (samples: Array<Sample>, templateName: string, org: string) => {
    const labels = { template_name: templateName, preset_name: "big", organization_name: org }
    const one = (name: string) => {
      const found = samples.filter((s) =>
        s.name === `coderd_prebuilt_workspaces_${name}` && Object.entries(labels).every(([k, v]) => s.labels[k] === v)
      )
      expect(found, name).toHaveLength(1)
      return found[0]!.value
    }
    return {
      created: one("created_total"),
      failed: one("failed_total"),
      claimed: one("claimed_total"),
      desired: one("desired"),
      running: one("running"),
      eligible: one("eligible")
    }
  }

  it("count creations, failures and claims and gauge the desired, running and eligible ones by template, preset and organization", async () => {
    const org = (await owner.get(`/organizations/${orgId}`)).body.name as string
    const good = await makeTemplate(srv, owner, orgId, template(2))
    expect((await tick()).created).toHaveLength(2)
    await runJobs(srv)
    let samples = await scrape()
    expect(seriesOf(samples, good.name, org)).toEqual({
      created: 2,
      failed: 0,
      claimed: 0,
      desired: 2,
      running: 2,
      eligible: 2
    })
    expect(samples.find((s) => s.name === "coderd_prebuilt_workspaces_reconciliation_paused")?.value).toBe(0)

    // A claim, and a template whose prebuilds fail.
    const preset = (await owner.get(`/templateversions/${good.active_version_id}/presets`)).body[0].ID as string
    const dev = await createUser(owner)
    const claimed = await dev.client.post("/users/me/workspaces", {
      name: "mine",
      template_id: good.id,
      template_version_preset_id: preset
    })
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200)
    await runJobs(srv)
    const bad = await makeTemplate(
      srv,
      owner,
      orgId,
      template(1, "build:\n  fail: { transition: start, message: no capacity }\n")
    )
    expect((await tick()).created).toHaveLength(2) // the claimed one's replacement, and the failing one
    await runJobs(srv)
    samples = await scrape()
    expect(seriesOf(samples, good.name, org)).toEqual({
      created: 3,
      failed: 0,
      claimed: 1,
      desired: 2,
      running: 2,
      eligible: 2
    })
    expect(seriesOf(samples, bad.name, org)).toEqual({
      created: 1,
      failed: 1,
      claimed: 0,
      desired: 1,
      running: 0,
      eligible: 0
    })
    expect(samples.find((s) => s.name === "coderd_prebuilt_workspaces_created_total")?.labels).toEqual({
      template_name: expect.any(String),
      preset_name: "big",
      organization_name: org
    })

    expect((await owner.put("/prebuilds/settings", { reconciliation_paused: true })).status).toBe(200)
    samples = await scrape()
    expect(samples.find((s) => s.name === "coderd_prebuilt_workspaces_reconciliation_paused")?.value).toBe(1)
  })
})
