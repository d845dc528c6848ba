/**
 * Watching a workspace over a real WebSocket (`ws`) and over server-sent events (a streaming
 * fetch): the workspace at once, then each change while it builds (start, running, stop),
 * renames; refusals before the upgrade or the stream.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readEvents } from "../sse.js"
import {
  type Client,
  createUser,
  type ServiceTestServer,
  SESSION_HEADER,
  startWithOwner,
  type TestUser,
  UNKNOWN_ID
} from "../support.js"
import { connect, eventually, refusal } from "../websocket.js"
import { makeTemplate, SLOW_TEMPLATE } from "./fixtures.js"

const statuses = (list: ReadonlyArray<any>) => list.map((w) => `${w.latest_build.transition}:${w.latest_build.status}`)

describe("watching workspaces", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let member: TestUser
  let other: TestUser
  let slow: { id: string }

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({ settings: { allowWorkspaceRenames: true } }))
    member = await createUser(owner)
    other = await createUser(owner)
    slow = await makeTemplate(srv, owner, orgId, SLOW_TEMPLATE)
  })
  afterAll(() => srv.close())

  it("sends the workspace at once and on each change, over a WebSocket and over server-sent events", async () => {
    const r = await member.client.post(`/organizations/${orgId}/members/me/workspaces`, {
      name: "watched",
      template_id: slow.id
    })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    const id = r.body.id
    const headers = { [SESSION_HEADER]: member.client.token! }
    const ws = await connect(`${srv.wsUrl}/api/v2/workspaces/${id}/watch-ws`, headers)
    const sse = await readEvents(`${srv.url}/api/v2/workspaces/${id}/watch`, headers)
    expect(sse.response.status).toBe(200)
    expect(sse.response.headers.get("content-type")).toBe("text/event-stream")
    const wsData = () => ws.messages.map((m) => JSON.parse(m)).filter((m) => m.type === "data").map((m) => m.data)
    const sseData = () => sse.events.filter((e) => e.event === "data").map((e) => e.data)
    // The described system's envelope; a ping first.
    await eventually(() => wsData().length >= 1 && sseData().length >= 1)
    expect(JSON.parse(ws.messages[0]!)).toEqual({ type: "ping", data: null })
    expect(sse.events[0]).toEqual({ event: "ping" })
    expect(wsData()[0]).toMatchObject({ id, name: "watched", latest_build: { build_number: 1 } })
    // The build runs (2 s): starting, then running.
    await eventually(() => wsData().at(-1)?.latest_build.status === "running")
    await eventually(() => sseData().at(-1)?.latest_build.status === "running")
    expect(statuses(wsData())).toContain("start:starting")
    expect(statuses(sseData())).toContain("start:starting")

    const stop = await member.client.post(`/workspaces/${id}/builds`, { transition: "stop" })
    expect(stop.status, JSON.stringify(stop.body)).toBe(200)
    await eventually(() => wsData().at(-1)?.latest_build.status === "stopped")
    await eventually(() => sseData().at(-1)?.latest_build.status === "stopped")
    for (const seen of [statuses(wsData()), statuses(sseData())]) {
      expect(seen).toContain("stop:stopping")
      expect(seen.at(-1)).toBe("stop:stopped")
    }
    // Each message is a change: never the same record twice in a row.
    const wsJson = ws.messages.filter((m) => JSON.parse(m).type === "data")
    for (let i = 1; i < wsJson.length; i++) expect(wsJson[i]).not.toBe(wsJson[i - 1])

    // A rename is a change too.
    expect((await member.client.patch(`/workspaces/${id}`, { name: "renamed" })).status).toBe(204)
    await eventually(() => wsData().at(-1)?.name === "renamed")
    await eventually(() => sseData().at(-1)?.name === "renamed")

    ws.socket.close()
    expect((await ws.closed).code).toBe(1005)
    await sse.stop()
  })

  it("names the workspace, its template and the transition in a build job's metadata", async () => {
    const r = await member.client.post(`/organizations/${orgId}/members/me/workspaces`, {
      name: "meta",
      template_id: slow.id
    })
    expect(r.status).toBe(200)
    const expected = {
      workspace_id: r.body.id,
      workspace_name: "meta",
      workspace_build_transition: "start",
      template_id: slow.id,
      template_name: r.body.template_name,
      template_version_name: r.body.latest_build.template_version_name
    }
    expect(r.body.latest_build.job.metadata).toMatchObject(expected)
    const job = await owner.get(`/organizations/${orgId}/provisionerjobs/${r.body.latest_build.job.id}`)
    expect(job.status).toBe(200)
    expect(job.body.metadata).toMatchObject(expected)
    expect(expected.template_version_name).not.toBe("")
  })

  it("refuses before upgrading or streaming: 401, 404 for others and unknown workspaces, 400 for a bad id", async () => {
    const r = await member.client.post(`/organizations/${orgId}/members/me/workspaces`, {
      name: "private",
      template_id: slow.id
    })
    expect(r.status).toBe(200)
    const id = r.body.id
    const base = `${srv.wsUrl}/api/v2/workspaces`
    expect((await refusal(connect(`${base}/${id}/watch-ws`))).status).toBe(401)
    expect((await refusal(connect(`${base}/${id}/watch-ws`, { [SESSION_HEADER]: other.client.token! }))).status).toBe(
      404
    )
    expect(
      (await refusal(connect(`${base}/${UNKNOWN_ID}/watch-ws`, { [SESSION_HEADER]: member.client.token! }))).status
    ).toBe(404)
    expect((await refusal(connect(`${base}/not-an-id/watch-ws`, { [SESSION_HEADER]: member.client.token! }))).status)
      .toBe(400)
    const http = `${srv.url}/api/v2/workspaces`
    expect((await fetch(`${http}/${id}/watch`)).status).toBe(401)
    const hidden = await fetch(`${http}/${id}/watch`, { headers: { [SESSION_HEADER]: other.client.token! } })
    expect(hidden.status).toBe(404)
    expect(await hidden.json()).toMatchObject({ message: expect.any(String) })
    expect((await fetch(`${http}/${UNKNOWN_ID}/watch`, { headers: { [SESSION_HEADER]: member.client.token! } })).status)
      .toBe(404)
    expect((await fetch(`${http}/not-an-id/watch`, { headers: { [SESSION_HEADER]: member.client.token! } })).status)
      .toBe(400)
    // A plain GET of the WebSocket route asks for the upgrade.
    expect((await member.client.get(`/workspaces/${id}/watch-ws`)).status).toBe(426)
    // The owner (an administrator) may watch it.
    const admin = await connect(`${base}/${id}/watch-ws`, { [SESSION_HEADER]: owner.token! })
    await eventually(() => admin.messages.length >= 2)
    admin.socket.close()
  })
})
