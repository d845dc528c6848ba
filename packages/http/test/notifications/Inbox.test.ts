/**
 * Black-box tests of the per-user inbox over real HTTP on a fresh SQLite database: listing with
 * each filter and the `starting_before` cursor, the unread count, marking read (one, all),
 * another user's notification, tokens without the kind, bad input, and the watch (a real
 * WebSocket) with its filters and formats. Notifications are delivered through the
 * `InboxDelivery` port, as the notifier does.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createUser,
  expectIsoDate,
  expectNoServerErrors,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  SESSION_HEADER,
  startWithOwner,
  type TestUser,
  tokenClient,
  UNKNOWN_ID
} from "../support.js"
import { connect, eventually, refusal } from "../websocket.js"
import { deliver, TEMPLATE_A, TEMPLATE_B } from "./InboxFixtures.js"

describe("inbox", () => {
  let srv: ServiceTestServer
  let owner: Client
  let ownerId: string

  beforeAll(async () => {
    ;({ srv, owner, ownerId } = await startWithOwner({ lifecycle: false }))
  })
  afterAll(() => srv.close())

  const fresh = () => createUser(owner)

  it("lists the caller's notifications newest first, with the wire fields and the unread count", async () => {
    const u = await fresh()
    const first = await deliver(srv, u.user.id, { targets: [randomUUID()], icon: "DEFAULT_WORKSPACE_ICON" })
    const second = await deliver(srv, u.user.id)
    await deliver(srv, ownerId)
    const r = await u.client.get("/notifications/inbox")
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.unread_count).toBe(2)
    expect(r.body.notifications.map((n: any) => n.id)).toEqual([second.id, first.id])
    const n = r.body.notifications[1]
    expect(n).toEqual({
      id: first.id,
      user_id: u.user.id,
      template_id: TEMPLATE_A,
      targets: first.targets,
      title: first.title,
      content: first.content,
      icon: "DEFAULT_WORKSPACE_ICON",
      actions: [{ label: "View workspaces", url: "http://example.com/workspaces" }],
      read_at: null,
      created_at: first.createdAt.toISOString()
    })
    expectIsoDate(n.created_at)
  })

  it("an empty inbox answers an empty list and zero", async () => {
    const u = await fresh()
    const r = await u.client.get("/notifications/inbox")
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ notifications: [], unread_count: 0 })
  })

  it("a retried delivery of the same message stores it once", async () => {
    const u = await fresh()
    const n = await deliver(srv, u.user.id)
    await deliver(srv, u.user.id, { ...n, title: "again" })
    const r = await u.client.get("/notifications/inbox")
    expect(r.body.notifications.length).toBe(1)
    expect(r.body.notifications[0].title).toBe(n.title)
    expect(r.body.unread_count).toBe(1)
  })

  it("pages of 25 with starting_before, until the oldest", async () => {
    const u = await fresh()
    const ids: Array<string> = []
    for (let i = 0; i < 30; i++) ids.push((await deliver(srv, u.user.id)).id)
    const newestFirst = [...ids].reverse()
    const p1 = await u.client.get("/notifications/inbox")
    expect(p1.body.notifications.map((n: any) => n.id)).toEqual(newestFirst.slice(0, 25))
    const p2 = await u.client.get(`/notifications/inbox?starting_before=${p1.body.notifications.at(-1).id}`)
    expect(p2.body.notifications.map((n: any) => n.id)).toEqual(newestFirst.slice(25))
    const p3 = await u.client.get(`/notifications/inbox?starting_before=${ids[0]}`)
    expect(p3.body.notifications).toEqual([])
    expect(p3.body.unread_count).toBe(30)
  })

  it("notifications created in the same millisecond page without loss or repeat", async () => {
    const u = await fresh()
    const at = new Date("2027-03-01T00:00:00.000Z")
    const ids = new Set<string>()
    for (let i = 0; i < 40; i++) ids.add((await deliver(srv, u.user.id, { createdAt: at })).id)
    const seen: Array<string> = []
    let cursor = ""
    for (;;) {
      const r = await u.client.get(`/notifications/inbox${cursor}`)
      if (r.body.notifications.length === 0) break
      seen.push(...r.body.notifications.map((n: any) => n.id))
      cursor = `?starting_before=${r.body.notifications.at(-1).id}`
    }
    expect(seen.length).toBe(40)
    expect(new Set(seen)).toEqual(ids)
  })

  it("starting_before of no notification of the caller starts at the newest, as the described system", async () => {
    const u = await fresh()
    const n = await deliver(srv, u.user.id)
    const theirs = await deliver(srv, ownerId)
    for (const id of [UNKNOWN_ID, theirs.id]) {
      const r = await u.client.get(`/notifications/inbox?starting_before=${id}`)
      expect(r.status).toBe(200)
      expect(r.body.notifications.map((x: any) => x.id)).toEqual([n.id])
    }
  })

  it("filters by templates (any), targets (all of them) and read status", async () => {
    const u = await fresh()
    const ws = randomUUID()
    const agent = randomUUID()
    const a = await deliver(srv, u.user.id, { templateId: TEMPLATE_A, targets: [ws] })
    const b = await deliver(srv, u.user.id, { templateId: TEMPLATE_B, targets: [ws, agent] })
    const c = await deliver(srv, u.user.id, { templateId: TEMPLATE_B, targets: [] })
    const ids = async (q: string) => {
      const r = await u.client.get(`/notifications/inbox?${q}`)
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      return r.body.notifications.map((n: any) => n.id)
    }
    expect(await ids(`templates=${TEMPLATE_A}`)).toEqual([a.id])
    expect(await ids(`templates=${TEMPLATE_B}`)).toEqual([c.id, b.id])
    expect(await ids(`templates=${TEMPLATE_A},${TEMPLATE_B}`)).toEqual([c.id, b.id, a.id])
    expect(await ids(`templates=${TEMPLATE_A.toUpperCase()}`)).toEqual([a.id])
    expect(await ids(`targets=${ws}`)).toEqual([b.id, a.id])
    expect(await ids(`targets=${ws},${agent}`)).toEqual([b.id])
    expect(await ids(`targets=${agent}&templates=${TEMPLATE_A}`)).toEqual([])
    expect(await ids(`targets=${ws}&templates=${TEMPLATE_A}`)).toEqual([a.id])
    expect(await ids(`targets=${randomUUID()}`)).toEqual([])
    await u.client.put(`/notifications/inbox/${b.id}/read-status`, { is_read: true })
    expect(await ids("read_status=read")).toEqual([b.id])
    expect(await ids("read_status=unread")).toEqual([c.id, a.id])
    expect(await ids("read_status=all")).toEqual([c.id, b.id, a.id])
    expect(await ids(`read_status=unread&templates=${TEMPLATE_B}`)).toEqual([c.id])
    expect(await ids(`read_status=read&targets=${ws}`)).toEqual([b.id])
    expect(await ids(`templates=${TEMPLATE_A},${TEMPLATE_B}&starting_before=${c.id}`)).toEqual([b.id, a.id])
    expect(await ids(`targets=${ws}&starting_before=${b.id}`)).toEqual([a.id])
    // Empty values mean "no filter", as the described system's query parser.
    expect(await ids("templates=&targets=&read_status=")).toEqual([c.id, b.id, a.id])
  })

  it("sets one notification read and unread, answering it and the unread count", async () => {
    const u = await fresh()
    const n = await deliver(srv, u.user.id)
    await deliver(srv, u.user.id)
    const read = await u.client.put(`/notifications/inbox/${n.id}/read-status`, { is_read: true })
    expect(read.status, JSON.stringify(read.body)).toBe(200)
    expect(read.body.unread_count).toBe(1)
    expect(read.body.notification.id).toBe(n.id)
    expectIsoDate(read.body.notification.read_at)
    // Read again: the count does not move and the first read time stays.
    const again = await u.client.put(`/notifications/inbox/${n.id}/read-status`, { is_read: true })
    expect(again.body.unread_count).toBe(1)
    expect(again.body.notification.read_at).toBe(read.body.notification.read_at)
    const unread = await u.client.put(`/notifications/inbox/${n.id.toUpperCase()}/read-status`, { is_read: false })
    expect(unread.status).toBe(200)
    expect(unread.body.notification.read_at).toBeNull()
    expect(unread.body.unread_count).toBe(2)
    const twice = await u.client.put(`/notifications/inbox/${n.id}/read-status`, { is_read: false })
    expect(twice.body.unread_count).toBe(2)
    expect((await u.client.get("/notifications/inbox")).body.unread_count).toBe(2)
  })

  it("marks every notification of the caller read, and no one else's", async () => {
    const u = await fresh()
    const other = await fresh()
    for (let i = 0; i < 3; i++) await deliver(srv, u.user.id)
    await deliver(srv, other.user.id)
    const r = await u.client.put("/notifications/inbox/mark-all-as-read")
    expect(r.status, JSON.stringify(r.body)).toBe(204)
    expect(r.body).toBeUndefined()
    const list = await u.client.get("/notifications/inbox")
    expect(list.body.unread_count).toBe(0)
    for (const n of list.body.notifications) expectIsoDate(n.read_at)
    expect((await other.client.get("/notifications/inbox")).body.unread_count).toBe(1)
    // New ones after it are unread.
    await deliver(srv, u.user.id)
    expect((await u.client.get("/notifications/inbox?read_status=unread")).body.notifications.length).toBe(1)
    expect((await u.client.put("/notifications/inbox/mark-all-as-read")).status).toBe(204)
    expect((await u.client.get("/notifications/inbox")).body.unread_count).toBe(0)
  })

  it("another user's notification, or none, answers 404, the owner's call included", async () => {
    const u = await fresh()
    const n = await deliver(srv, u.user.id)
    const other = await fresh()
    expectResponse(await other.client.put(`/notifications/inbox/${n.id}/read-status`, { is_read: true }), 404)
    expectResponse(await owner.put(`/notifications/inbox/${n.id}/read-status`, { is_read: true }), 404)
    expectResponse(await u.client.put(`/notifications/inbox/${UNKNOWN_ID}/read-status`, { is_read: true }), 404)
    expect((await u.client.get("/notifications/inbox")).body.notifications[0].read_at).toBeNull()
  })

  it("answers 401 without credentials", async () => {
    expectResponse(await srv.anonymous.get("/notifications/inbox"), 401)
    expectResponse(await srv.anonymous.put("/notifications/inbox/mark-all-as-read"), 401)
    expectResponse(await srv.anonymous.put(`/notifications/inbox/${UNKNOWN_ID}/read-status`, { is_read: true }), 401)
    const refused = await refusal(connect(`${srv.wsUrl}/api/v2/notifications/inbox/watch`))
    expect(refused.status).toBe(401)
  })

  it("a token whose scopes lack inbox_notification answers 403; one with them works", async () => {
    const u = await fresh()
    const n = await deliver(srv, u.user.id)
    const narrow = await tokenClient(u.client, { scopes: ["workspace:read"] })
    expectResponse(await narrow.get("/notifications/inbox"), 403)
    expectResponse(await narrow.put("/notifications/inbox/mark-all-as-read"), 403)
    expectResponse(await narrow.put(`/notifications/inbox/${n.id}/read-status`, { is_read: true }), 403)
    const refused = await refusal(
      connect(`${srv.wsUrl}/api/v2/notifications/inbox/watch`, { [SESSION_HEADER]: narrow.token! })
    )
    expect(refused.status).toBe(403)
    const readOnly = await tokenClient(u.client, { scopes: ["inbox_notification:read"] })
    expect((await readOnly.get("/notifications/inbox")).status).toBe(200)
    expectResponse(await readOnly.put("/notifications/inbox/mark-all-as-read"), 403)
    expectResponse(await readOnly.put(`/notifications/inbox/${n.id}/read-status`, { is_read: true }), 403)
    const full = await tokenClient(u.client, { scopes: ["inbox_notification:*"] })
    expect((await full.put(`/notifications/inbox/${n.id}/read-status`, { is_read: true })).status).toBe(200)
    expect((await full.put("/notifications/inbox/mark-all-as-read")).status).toBe(204)
  })

  it("answers 400 with one validation per bad field", async () => {
    const u = await fresh()
    expectValidations(await u.client.get("/notifications/inbox?targets=nope"), ["targets"])
    expectValidations(await u.client.get(`/notifications/inbox?templates=${TEMPLATE_A},bad`), ["templates"])
    expectValidations(await u.client.get("/notifications/inbox?read_status=maybe"), ["read_status"])
    expectValidations(await u.client.get("/notifications/inbox?starting_before=12"), ["starting_before"])
    expectValidations(
      await u.client.get("/notifications/inbox?targets=x&templates=y&read_status=z&starting_before=w"),
      ["targets", "templates", "read_status", "starting_before"]
    )
    expectValidations(await u.client.put("/notifications/inbox/not-a-uuid/read-status", { is_read: true }), ["id"])
    expectValidations(await u.client.put(`/notifications/inbox/${UNKNOWN_ID}/read-status`, { is_read: "yes" }), [
      "is_read"
    ])
    expectValidations(await u.client.put(`/notifications/inbox/${UNKNOWN_ID}/read-status`, {}), ["is_read"])
    const ws = await refusal(
      connect(`${srv.wsUrl}/api/v2/notifications/inbox/watch?format=html&read_status=x&targets=y`, {
        [SESSION_HEADER]: u.client.token!
      })
    )
    expect(ws.status).toBe(400)
    expect(ws.body.validations.map((v: any) => v.field).sort()).toEqual(["format", "read_status", "targets"])
  })

  it("never answers 500 to junk", async () => {
    const u = await fresh()
    await expectNoServerErrors(u.client, [
      ["GET", "/notifications/inbox?targets=%00,%ff&templates=,,,&starting_before=%20"],
      ["PUT", "/notifications/inbox/mark-all-as-read"],
      ["PUT", `/notifications/inbox/${UNKNOWN_ID}/read-status`]
    ])
  })

  describe("watch", () => {
    const watch = (u: TestUser, query = "") =>
      connect(`${srv.wsUrl}/api/v2/notifications/inbox/watch${query}`, { [SESSION_HEADER]: u.client.token! })
    const parsed = (ws: { messages: Array<string> }) => ws.messages.map((m) => JSON.parse(m))

    it("sends each new notification of the caller with the unread count, and no one else's", async () => {
      const u = await fresh()
      const other = await fresh()
      await deliver(srv, u.user.id)
      const ws = await watch(u)
      const n = await deliver(srv, u.user.id, { targets: [randomUUID()] })
      await deliver(srv, other.user.id)
      await eventually(() => ws.messages.length >= 1)
      const [m] = parsed(ws)
      expect(m.unread_count).toBe(2)
      expect(m.notification).toMatchObject({
        id: n.id,
        user_id: u.user.id,
        template_id: n.templateId,
        targets: n.targets,
        title: n.title,
        content: n.content,
        read_at: null,
        created_at: n.createdAt.toISOString(),
        actions: n.actions,
        icon: ""
      })
      // A later one arrives after it, in order; the other user's never does.
      const later = await deliver(srv, u.user.id)
      await eventually(() => ws.messages.length >= 2)
      expect(parsed(ws).map((x) => x.notification.id)).toEqual([n.id, later.id])
      expect(parsed(ws)[1].unread_count).toBe(3)
      ws.socket.close()
      await ws.closed
    })

    it("format=plaintext sends title and content without markdown", async () => {
      const u = await fresh()
      const md = await watch(u, "?format=markdown")
      const plain = await watch(u, "?format=plaintext")
      const n = await deliver(srv, u.user.id)
      await eventually(() => md.messages.length >= 1 && plain.messages.length >= 1)
      expect(parsed(md)[0].notification.title).toBe(n.title)
      expect(parsed(plain)[0].notification.title).toBe("Workspace dev was deleted")
      expect(parsed(plain)[0].notification.content).toBe(
        "Hi, your workspace dev (http://example.com/@me/dev) was deleted."
      )
      md.socket.close()
      plain.socket.close()
    })

    it("applies its filters: templates, targets, read status", async () => {
      const u = await fresh()
      const target = randomUUID()
      const byTemplate = await watch(u, `?templates=${TEMPLATE_B}`)
      const byTarget = await watch(u, `?targets=${target}`)
      const readOnly = await watch(u, "?read_status=read")
      const unread = await watch(u, "?read_status=unread")
      const all = await watch(u)
      const a = await deliver(srv, u.user.id, { templateId: TEMPLATE_A, targets: [target] })
      const b = await deliver(srv, u.user.id, { templateId: TEMPLATE_B })
      const last = await deliver(srv, u.user.id, { templateId: TEMPLATE_A })
      // The last delivery reaches the unfiltered watcher after every earlier one, on one reader.
      await eventually(() => parsed(all).some((m) => m.notification.id === last.id))
      await eventually(() => unread.messages.length >= 3)
      expect(parsed(byTemplate).map((m) => m.notification.id)).toEqual([b.id])
      expect(parsed(byTarget).map((m) => m.notification.id)).toEqual([a.id])
      expect(readOnly.messages).toEqual([])
      for (const ws of [byTemplate, byTarget, readOnly, unread, all]) ws.socket.close()
    })

    it("the editor extensions' request: plaintext, templates listed, targets empty", async () => {
      const u = await fresh()
      // coder's VS Code extension: `?format=plaintext&templates=${templates.join(",")}&targets=${targets.join(",")}`.
      const ws = await watch(u, `?format=plaintext&templates=${TEMPLATE_B}&targets=`)
      await deliver(srv, u.user.id, { templateId: TEMPLATE_A })
      const b = await deliver(srv, u.user.id, { templateId: TEMPLATE_B, targets: [randomUUID()] })
      await eventually(() => ws.messages.length >= 1)
      expect(parsed(ws).map((m) => m.notification.id)).toEqual([b.id])
      expect(parsed(ws)[0].notification.title).toBe("Workspace dev was deleted")
      ws.socket.close()
    })

    it("a plain GET of the watch (no upgrade) is refused with 426", async () => {
      const u = await fresh()
      const r = await u.client.get("/notifications/inbox/watch")
      expect(r.status).toBe(426)
    })

    it("a retried delivery is not sent again", async () => {
      const u = await fresh()
      const ws = await watch(u)
      const n = await deliver(srv, u.user.id)
      await deliver(srv, u.user.id, n)
      const marker = await deliver(srv, u.user.id)
      await eventually(() => parsed(ws).some((m) => m.notification.id === marker.id))
      expect(parsed(ws).map((m) => m.notification.id)).toEqual([n.id, marker.id])
      ws.socket.close()
    })
  })
})
