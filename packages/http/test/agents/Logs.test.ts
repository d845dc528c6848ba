/**
 * Agent reports over real HTTP and WebSockets: log sources, log batches up to the per-agent cap
 * (413 past it), the logs users read and follow, app statuses on the agent's apps and the
 * workspace, and connection reports in the connection log. Agents use the tokens the
 * provisioner was handed (a recording provisioner, as in Agents.test.ts).
 */
import { MAX_AGENT_LOG_BYTES } from "@workbay/core"
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createUser,
  expectNoServerErrors,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  SESSION_HEADER,
  startWithOwner,
  type TestUser,
  UNKNOWN_ID
} from "../support.js"
import { runJobs } from "../templates/versions.js"
import { connect, eventually, refusal } from "../websocket.js"
import { makeTemplate, makeWorkspace } from "../workspaces/fixtures.js"
import { recordingProvisioner, REPORTS_TEMPLATE as TEMPLATE } from "./fixtures.js"

describe("agent logs, app statuses and connection reports", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let dev: TestUser
  let stranger: TestUser
  let template: { id: string }
  const handed = new Map<string, Map<string, string>>()

  const recording = recordingProvisioner(["main", "side"], handed)

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({ provisioners: [recording], lifecycle: false }))
    dev = await createUser(owner, { username: "logs-dev" })
    stranger = await createUser(owner, { username: "logs-stranger" })
    template = await makeTemplate(srv, owner, orgId, TEMPLATE)
  })
  afterAll(() => srv.close())

  /** A new workspace of `dev`: its agents (wire), and a client per agent with its token. */
  const setup = async () => {
    const w = await makeWorkspace(srv, dev.client, orgId, template.id)
    const agents = Object.fromEntries(
      (w.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? []).map((a: any) => [a.name, a])
    )
    const tokens = handed.get(w.id)!
    return {
      w,
      main: agents.main,
      side: agents.side,
      asMain: dev.client.as(tokens.get("main")!),
      asSide: dev.client.as(tokens.get("side")!),
      mainToken: tokens.get("main")!
    }
  }
  const agent = async (id: string) => (await dev.client.get(`/workspaceagents/${id}`)).body
  const line = (output: string, level = "info") => ({ created_at: new Date().toISOString(), level, output })

  describe("POST /workspaceagents/me/log-source", () => {
    it("declares a source, idempotently by id, shown after the scripts' on the Agent record", async () => {
      const { main, asMain } = await setup()
      const id = randomUUID()
      const r = await asMain.post("/workspaceagents/me/log-source", {
        id,
        display_name: "Kubernetes",
        icon: "/icon/k8s.svg"
      })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(Object.keys(r.body).sort()).toEqual(["created_at", "display_name", "icon", "id", "workspace_agent_id"])
      expect(r.body).toMatchObject({
        id,
        display_name: "Kubernetes",
        icon: "/icon/k8s.svg",
        workspace_agent_id: main.id
      })
      // The same id again: the first declaration stays.
      const again = await asMain.post("/workspaceagents/me/log-source", { id, display_name: "Other" })
      expect(again.status).toBe(200)
      expect(again.body).toEqual(r.body)
      const sources = (await agent(main.id)).log_sources
      expect(sources.map((s: any) => s.display_name)).toEqual(["Install", "Kubernetes"])
      expect(sources[1]).toEqual(r.body)
    })

    it("401 without an agent token, 400 for bad fields", async () => {
      const { asMain } = await setup()
      const body = { id: randomUUID(), display_name: "x" }
      expectResponse(await dev.client.as(undefined).post("/workspaceagents/me/log-source", body), 401)
      expectResponse(await dev.client.post("/workspaceagents/me/log-source", body), 401)
      expectValidations(await asMain.post("/workspaceagents/me/log-source", { id: "nope", display_name: "" }), [
        "id",
        "display_name"
      ])
    })
  })

  describe("PATCH /workspaceagents/me/logs and GET /workspaceagents/{agent}/logs", () => {
    it("stores batches under a source; users read them with after and before; logs_length counts bytes", async () => {
      const { main, asMain } = await setup()
      const script = main.scripts[0].log_source_id
      const r = await asMain.patch("/workspaceagents/me/logs", {
        log_source_id: script,
        logs: [line("one"), line("two", "warn")]
      })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(typeof r.body.message).toBe("string")
      const source = randomUUID()
      expect((await asMain.post("/workspaceagents/me/log-source", { id: source, display_name: "Mine" })).status).toBe(
        200
      )
      expect(
        (await asMain.patch("/workspaceagents/me/logs", { log_source_id: source, logs: [line("héllo", "error")] }))
          .status
      ).toBe(200)

      const logs = await dev.client.get(`/workspaceagents/${main.id}/logs`)
      expect(logs.status).toBe(200)
      expect(logs.body.map((l: any) => [l.output, l.level, l.source_id])).toEqual([
        ["one", "info", script],
        ["two", "warn", script],
        ["héllo", "error", source]
      ])
      expect(Object.keys(logs.body[0]).sort()).toEqual(["created_at", "id", "level", "output", "source_id"])
      const [a, b, c] = logs.body.map((l: any) => l.id)
      expect(a < b && b < c).toBe(true)
      expect((await dev.client.get(`/workspaceagents/${main.id}/logs?after=${a}`)).body.map((l: any) => l.id)).toEqual([
        b,
        c
      ])
      expect((await dev.client.get(`/workspaceagents/${main.id}/logs?before=${c}`)).body.map((l: any) => l.id)).toEqual(
        [a, b]
      )
      expect(
        (await dev.client.get(`/workspaceagents/${main.id}/logs?after=${a}&before=${c}&no_compression=true`)).body.map((
          l: any
        ) => l.id)
      ).toEqual([b])
      // UTF-8 bytes plus one line end each: 4 + 4 + 7.
      expect((await agent(main.id)).logs_length).toBe(15)
      // The owner reads too.
      expect((await owner.get(`/workspaceagents/${main.id}/logs`)).body).toHaveLength(3)
    })

    it("400 for an unknown source, a bad level or time, no lines; 401 for users; agents' lines are their own", async () => {
      const { main, side, asMain, asSide } = await setup()
      const script = main.scripts[0].log_source_id
      expectValidations(
        await asMain.patch("/workspaceagents/me/logs", { log_source_id: randomUUID(), logs: [line("x")] }),
        ["log_source_id"]
      )
      expectValidations(await asMain.patch("/workspaceagents/me/logs", { log_source_id: script, logs: [] }), ["logs"])
      expectValidations(
        await asMain.patch("/workspaceagents/me/logs", {
          log_source_id: "x",
          logs: [{ created_at: "soon", level: "loud", output: 1 }]
        }),
        ["log_source_id", "logs.0.created_at", "logs.0.level", "logs.0.output"]
      )
      // Another agent's script source is not this agent's.
      expectValidations(await asSide.patch("/workspaceagents/me/logs", { log_source_id: script, logs: [line("x")] }), [
        "log_source_id"
      ])
      expectResponse(
        await dev.client.patch("/workspaceagents/me/logs", { log_source_id: script, logs: [line("x")] }),
        401
      )
      expect((await dev.client.get(`/workspaceagents/${side.id}/logs`)).body).toEqual([])
    })

    it("GET: 401 anonymous or with an agent token, 404 for a stranger or an unknown agent, 400 for bad parameters", async () => {
      const { main, mainToken } = await setup()
      expectResponse(await dev.client.as(undefined).get(`/workspaceagents/${main.id}/logs`), 401)
      expectResponse(await dev.client.as(mainToken).get(`/workspaceagents/${main.id}/logs`), 401)
      expectResponse(await stranger.client.get(`/workspaceagents/${main.id}/logs`), 404)
      expectResponse(await dev.client.get(`/workspaceagents/${UNKNOWN_ID}/logs`), 404)
      expectValidations(await dev.client.get("/workspaceagents/nope/logs"), ["workspaceagent"])
      expectValidations(
        await dev.client.get(`/workspaceagents/${main.id}/logs?after=x&before=y&follow=maybe&format=text`),
        [
          "after",
          "before",
          "follow",
          "format"
        ]
      )
    })

    it("past 1 MiB a batch answers 413 and stores nothing; the agent shows logs_overflowed", async () => {
      const { main, asMain } = await setup()
      const script = main.scripts[0].log_source_id
      const big = (n: number) => Array.from({ length: 8 }, (_, i) => line(String(i % 10).repeat(n)))
      // Two batches of 8 lines of 60,000 bytes (+1 each) fit: 960,016 bytes.
      for (let i = 0; i < 2; i++) {
        expect((await asMain.patch("/workspaceagents/me/logs", { log_source_id: script, logs: big(60_000) })).status)
          .toBe(200)
      }
      const stored = (await agent(main.id)).logs_length
      expect(stored).toBe(2 * 8 * 60_001)
      // The third would pass the cap: refused whole.
      const over = await asMain.patch("/workspaceagents/me/logs", { log_source_id: script, logs: big(60_000) })
      expectResponse(over, 413)
      expect(over.body.message).toBe("Logs limit exceeded.")
      const after = await agent(main.id)
      expect(after).toMatchObject({ logs_overflowed: true, logs_length: stored })
      expect(stored).toBeLessThanOrEqual(MAX_AGENT_LOG_BYTES)
      // Once overflowed, even a small batch is refused.
      expectResponse(
        await asMain.patch("/workspaceagents/me/logs", { log_source_id: script, logs: [line("tiny")] }),
        413
      )
      expect((await dev.client.get(`/workspaceagents/${main.id}/logs`)).body).toHaveLength(16)
    })

    it(
      "follow=true streams stored and new lines over a WebSocket, an array of lines a message, until a newer build replaces the agent",
      async () => {
        const { w, main, asMain } = await setup()
        const script = main.scripts[0].log_source_id
        await asMain.patch("/workspaceagents/me/logs", {
          log_source_id: script,
          logs: [line("before-1"), line("before-2")]
        })
        const first = (await dev.client.get(`/workspaceagents/${main.id}/logs`)).body[0]
        const ws = await connect(`${srv.wsUrl}/api/v2/workspaceagents/${main.id}/logs?follow=true&after=${first.id}`, {
          [SESSION_HEADER]: dev.client.token!
        })
        // Each message is a WorkspaceAgentLog[] (the client's type): the stored lines, then each new batch.
        const batches = () => ws.messages.map((m) => JSON.parse(m) as Array<{ output: string }>)
        await eventually(() => batches().length === 1)
        expect(batches().map((b) => b.map((l) => l.output))).toEqual([["before-2"]])
        await asMain.patch("/workspaceagents/me/logs", {
          log_source_id: script,
          logs: [line("live-1"), line("live-2", "debug")]
        })
        await eventually(() => batches().flat().length === 3)
        expect(batches().every(Array.isArray)).toBe(true)
        expect(batches().flat().map((l) => l.output)).toEqual(["before-2", "live-1", "live-2"])
        expect(Object.keys(batches().flat()[2]!).sort()).toEqual(["created_at", "id", "level", "output", "source_id"])
        // A stop build replaces the agent: the follow ends (within the fallback re-check).
        expect((await dev.client.post(`/workspaces/${w.id}/builds`, { transition: "stop" })).status).toBe(200)
        await runJobs(srv)
        expect((await ws.closed).code).toBe(1000)
      },
      20_000
    )

    it("follow=true is refused before the upgrade: 401 anonymous, 404 for a stranger", async () => {
      const { main } = await setup()
      const url = `${srv.wsUrl}/api/v2/workspaceagents/${main.id}/logs?follow=true`
      expect((await refusal(connect(url))).status).toBe(401)
      expect((await refusal(connect(url, { [SESSION_HEADER]: stranger.client.token! }))).status).toBe(404)
    })
  })

  describe("PATCH /workspaceagents/me/app-status", () => {
    it("keeps the app's statuses newest first and sets the workspace's latest_app_status", async () => {
      const { w, main, asMain } = await setup()
      const first = await asMain.patch("/workspaceagents/me/app-status", {
        app_slug: "code",
        state: "working",
        message: "Reading the repository",
        uri: "https://example.com/pr/1",
        icon: "/icon/ai.svg",
        needs_user_attention: false
      })
      expect(first.status, JSON.stringify(first.body)).toBe(200)
      expect(typeof first.body.message).toBe("string")
      expect(
        (await asMain.patch("/workspaceagents/me/app-status", { app_slug: "code", state: "complete", message: "Done" }))
          .status
      ).toBe(200)
      const code = (await agent(main.id)).apps.find((a: any) => a.slug === "code")
      expect(code.statuses.map((s: any) => s.state)).toEqual(["complete", "working"])
      expect(Object.keys(code.statuses[1]).sort()).toEqual([
        "agent_id",
        "app_id",
        "created_at",
        "icon",
        "id",
        "message",
        "needs_user_attention",
        "state",
        "uri",
        "workspace_id"
      ])
      expect(code.statuses[1]).toMatchObject({
        agent_id: main.id,
        app_id: code.id,
        workspace_id: w.id,
        message: "Reading the repository",
        uri: "https://example.com/pr/1",
        icon: "/icon/ai.svg",
        needs_user_attention: false
      })
      expect((await agent(main.id)).apps.find((a: any) => a.slug === "docs").statuses).toEqual([])
      const workspace = (await dev.client.get(`/workspaces/${w.id}`)).body
      expect(workspace.latest_app_status).toEqual(code.statuses[0])
      // The build's resources show the same.
      const resources = workspace.latest_build.resources.flatMap((r: any) => r.agents ?? [])
      expect(resources.find((a: any) => a.name === "main").apps[0].statuses).toHaveLength(2)
    })

    it("a watcher of the workspace sees the new latest_app_status at once", async () => {
      const { w, asMain } = await setup()
      const ws = await connect(`${srv.wsUrl}/api/v2/workspaces/${w.id}/watch-ws`, {
        [SESSION_HEADER]: dev.client.token!
      })
      const data = () => ws.messages.map((m) => JSON.parse(m)).filter((m) => m.type === "data").map((m) => m.data)
      await eventually(() => data().length >= 1)
      expect(data()[0].latest_app_status).toBeNull()
      expect(
        (await asMain.patch("/workspaceagents/me/app-status", { app_slug: "code", state: "idle", message: "Waiting" }))
          .status
      ).toBe(200)
      // Well within the watch's 10-second fallback re-read.
      await eventually(() => data().at(-1)?.latest_app_status?.message === "Waiting")
      expect(data().at(-1).latest_app_status).toMatchObject({ state: "idle", workspace_id: w.id })
      ws.socket.close()
    })

    it("a workspace without statuses shows latest_app_status null", async () => {
      const { w } = await setup()
      expect((await dev.client.get(`/workspaces/${w.id}`)).body.latest_app_status).toBeNull()
    })

    it("400 for an unknown slug, a bad state or a long message; 401 for users", async () => {
      const { asMain, asSide } = await setup()
      expectValidations(await asMain.patch("/workspaceagents/me/app-status", { app_slug: "ghost", state: "idle" }), [
        "app_slug"
      ])
      // Another agent's app is unknown to this one.
      expectValidations(await asSide.patch("/workspaceagents/me/app-status", { app_slug: "code", state: "idle" }), [
        "app_slug"
      ])
      expectValidations(
        await asMain.patch("/workspaceagents/me/app-status", {
          app_slug: 7,
          state: "sleeping",
          needs_user_attention: "yes"
        }),
        [
          "app_slug",
          "state",
          "needs_user_attention"
        ]
      )
      expectValidations(
        await asMain.patch("/workspaceagents/me/app-status", {
          app_slug: "code",
          state: "idle",
          message: "x".repeat(161)
        }),
        [
          "message"
        ]
      )
      expectResponse(await dev.client.patch("/workspaceagents/me/app-status", { app_slug: "code", state: "idle" }), 401)
    })
  })

  describe("POST /workspaceagents/me/connections", () => {
    const report = (asAgent: Client, connection: Record<string, unknown>) =>
      asAgent.post("/workspaceagents/me/connections", { connection })

    it("records sessions (connect, then disconnect with exit code and reason) and forwarded ports in the connection log", async () => {
      const { w, asMain } = await setup()
      const id = randomUUID()
      const at = new Date(Date.now() - 60_000).toISOString()
      const c = await report(asMain, { id, action: "connect", type: "ssh", timestamp: at, ip: "10.0.0.7" })
      expect(c.status, JSON.stringify(c.body)).toBe(200)
      const q = (extra = "") =>
        owner.get(`/connectionlog?limit=10&q=${encodeURIComponent(`workspace_id:${w.id}${extra}`)}`)
      let entry = (await q()).body.connection_logs[0]
      expect(entry).toMatchObject({
        type: "ssh",
        ip: "10.0.0.7",
        agent_name: "main",
        workspace_id: w.id,
        workspace_name: w.name,
        workspace_owner_id: dev.user.id,
        workspace_owner_username: dev.username,
        ssh_info: { connection_id: id }
      })
      expect(Date.parse(entry.connect_time)).toBe(Date.parse(at))
      expect(entry.ssh_info.disconnect_time).toBeUndefined()
      expect(
        (await report(asMain, { id, action: "disconnect", type: "ssh", status_code: 130, reason: "client hung up" }))
          .status
      ).toBe(200)
      entry = (await q()).body.connection_logs[0]
      expect(entry.ssh_info).toMatchObject({ connection_id: id, exit_code: 130, disconnect_reason: "client hung up" })
      expect(typeof entry.ssh_info.disconnect_time).toBe("string")
      for (const type of ["vscode", "jetbrains", "reconnecting_pty"]) {
        expect((await report(asMain, { id: randomUUID(), action: "connect", type })).status).toBe(200)
      }
      expect(
        (await report(asMain, {
          id: randomUUID(),
          action: "connect",
          type: "port_forwarding",
          status_code: 200,
          slug_or_port: "8080"
        })).status
      )
        .toBe(200)
      const all = (await q()).body
      expect(all.count).toBe(5)
      expect(all.connection_logs.find((e: any) => e.type === "port_forwarding").web_info).toMatchObject({
        slug_or_port: "8080",
        status_code: 200
      })
    })

    it("400 for bad fields and a forwarded port's disconnect; 401 for users", async () => {
      const { asMain } = await setup()
      expectValidations(await report(asMain, { id: "x", action: "open", type: "telnet", status_code: 1.5 }), [
        "connection.id",
        "connection.action",
        "connection.type",
        "connection.status_code"
      ])
      expectValidations(
        await report(asMain, { id: randomUUID(), action: "disconnect", type: "port_forwarding", status_code: 200 }),
        [
          "connection.action"
        ]
      )
      expectValidations(await report(asMain, { id: randomUUID(), action: "connect", type: "port_forwarding" }), [
        "connection.status_code"
      ])
      expectResponse(await report(dev.client, { id: randomUUID(), action: "connect", type: "ssh" }), 401)
    })
  })

  it("a body 3,000 levels deep answers 400 at the depth limit on every agent report route", async () => {
    const { asMain } = await setup()
    const deep = "{\"a\":".repeat(3000) + "1" + "}".repeat(3000)
    for (
      const [method, path] of [
        ["POST", "/workspaceagents/me/log-source"],
        ["PATCH", "/workspaceagents/me/logs"],
        ["PATCH", "/workspaceagents/me/app-status"],
        ["POST", "/workspaceagents/me/connections"]
      ] as const
    ) {
      const r = await asMain.request(method, path, undefined, { raw: deep })
      expect(r.status, path).toBe(400)
      expect(r.body.validations, path).toEqual([{
        field: Array(32).fill("a").join("."),
        detail: "Must not nest objects and arrays deeper than 32 levels."
      }])
    }
  })

  it("no junk body makes an agent route answer 5xx", async () => {
    const { asMain, main } = await setup()
    await expectNoServerErrors(asMain, [
      ["POST", "/workspaceagents/me/log-source"],
      ["PATCH", "/workspaceagents/me/logs"],
      ["PATCH", "/workspaceagents/me/app-status"],
      ["POST", "/workspaceagents/me/connections"]
    ])
    await expectNoServerErrors(dev.client, [[
      "GET",
      `/workspaceagents/${main.id}/logs?after=-1&before=99999999999999999999`
    ]])
  })
})
