/**
 * Provisioner keys and the external daemons' serve route through real HTTP and a real `ws`
 * client: the key shown once and stored hashed, the rules of names, authorization, the audit
 * entries, and the protocol's refusals (bad key, bad message, a job the daemon does not hold,
 * a deleted key).
 */
import { SqlClient } from "@effect/sql"
import { hashSecret } from "@workbay/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createOrganization,
  createUser,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  startWithOwner,
  uniqueName,
  UNKNOWN_ID
} from "../support.js"
import { connect, eventually, refusal } from "../websocket.js"
import { capacityReport } from "./hosts.js"

let srv: ServiceTestServer
let owner: Client
let member: Client
let orgId: string

beforeAll(async () => {
  ;({ srv, owner, orgId } = await startWithOwner())
  member = (await createUser(owner)).client
})
afterAll(() => srv.close())

const keys = (org = orgId) => `/organizations/${org}/provisionerkeys`
const newKey = async (body: Record<string, unknown> = {}) => {
  const name = uniqueName("key")
  const r = await owner.post(keys(), { name, ...body })
  expect(r.status, JSON.stringify(r.body)).toBe(201)
  return { name, key: r.body.key as string }
}
const serveUrl = (query = "provisioner=script", org = orgId) =>
  `${srv.wsUrl}/api/v2/organizations/${org}/provisionerdaemons/serve?${query}`
const KEY_HEADER = "Coder-Provisioner-Daemon-Key"

const rows = (query: string) =>
  srv.run(
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<Record<string, unknown>>(query).pipe(Effect.orDie)) as any
  ) as Promise<
    ReadonlyArray<Record<string, unknown>>
  >

describe("provisioner keys", () => {
  it("creates a key shown once and stores only its hash", async () => {
    const { key, name } = await newKey({ tags: { pool: "gpu" } })
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const stored = await rows(`SELECT * FROM provisioner_keys WHERE name = '${name}'`)
    expect(stored).toHaveLength(1)
    expect(stored[0]!.hashed_secret).toBe(hashSecret(key))
    expect(JSON.stringify(stored)).not.toContain(key)
    const listed = await owner.get(keys())
    expect(listed.status).toBe(200)
    const found = listed.body.find((k: any) => k.name === name)
    expect(Object.keys(found).sort()).toEqual(["created_at", "id", "name", "organization", "tags"])
    expect(found).toMatchObject({ organization: orgId, tags: { pool: "gpu" } })
    expect(JSON.stringify(listed.body)).not.toContain(key)
  })

  it("is audited on create and delete, with the hash as a secret field", async () => {
    const { name } = await newKey()
    expect((await owner.delete(`${keys()}/${name}`)).status).toBe(204)
    const audit = await owner.get(`/audit?q=${encodeURIComponent("resource_type:provisioner_key")}&limit=50`)
    expect(audit.status).toBe(200)
    const mine = audit.body.audit_logs.filter((l: any) => l.resource_target === name)
    expect(mine.map((l: any) => l.action).sort()).toEqual(["create", "delete"])
    const created = mine.find((l: any) => l.action === "create")
    expect(created.diff.hashed_secret).toMatchObject({ secret: true })
  })

  it("refuses a duplicate name (409), also in another case", async () => {
    const { name } = await newKey()
    const again = await owner.post(keys(), { name: name.toUpperCase() })
    expectResponse(again, 409)
    expect(again.body.message).toBe(`Provisioner key with name '${name.toUpperCase()}' already exists in organization`)
  })

  it("answers 400 for an empty, long or reserved name and bad tags", async () => {
    expectValidations(await owner.post(keys(), { name: "" }), ["name"])
    expectValidations(await owner.post(keys(), { name: "x".repeat(65) }), ["name"])
    const reserved = await owner.post(keys(), { name: "User-Auth" })
    expectValidations(reserved, ["name"])
    expect(reserved.body.message).toBe("Name cannot be reserved name 'User-Auth'")
    expectValidations(await owner.post(keys(), { name: "ok", tags: { a: 1 } }), ["tags.a"])
    expectValidations(await owner.post(keys(), { name: 7 }), ["name"])
    const reservedDelete = await owner.delete(`${keys()}/built-in`)
    expectResponse(reservedDelete, 400)
    expect(reservedDelete.body.message).toBe("Cannot delete reserved 'built-in' provisioner key")
  })

  it("answers 401 without a session, 403 to a member, 404 for an unknown organization or key", async () => {
    expectResponse(await srv.anonymous.get(keys()), 401)
    expectResponse(await srv.anonymous.post(keys(), { name: "anon" }), 401)
    expectResponse(await member.post(keys(), { name: uniqueName("key") }), 403)
    const { name } = await newKey()
    expectResponse(await member.delete(`${keys()}/${name}`), 403)
    expect((await member.get(keys())).status).toBe(200)
    expectResponse(await owner.get(keys(UNKNOWN_ID)), 404)
    expectResponse(await owner.delete(`${keys()}/no-such-key`), 404)
    const other = await createOrganization(owner)
    expectResponse(await member.get(keys(other.id)), 404)
  })
})

describe("a daemon reading its own key", () => {
  const fetchKey = (path: string, headers: Record<string, string> = {}) =>
    srv.anonymous.request("GET", `/provisionerkeys/${encodeURIComponent(path)}`, undefined, { headers })

  it("answers the key the header holds, without its secret", async () => {
    const { key, name } = await newKey({ tags: { pool: "gpu" } })
    const r = await fetchKey(key, { [KEY_HEADER]: key })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(Object.keys(r.body).sort()).toEqual(["created_at", "id", "name", "organization", "tags"])
    expect(r.body).toMatchObject({ name, organization: orgId, tags: { pool: "gpu" } })
    expect(JSON.stringify(r.body)).not.toContain(key)
  })

  it("answers 401 for a missing, unknown or deleted key, 400 for one that cannot be a key or a long path", async () => {
    const { key, name } = await newKey()
    const missing = await fetchKey(key)
    expectResponse(missing, 401)
    expect(missing.body.message).toContain(KEY_HEADER)
    expectResponse(await fetchKey(key, { [KEY_HEADER]: "A".repeat(43) }), 401)
    expectValidations(await fetchKey("short", { [KEY_HEADER]: "short" }), [KEY_HEADER])
    expectValidations(await fetchKey("x".repeat(300), { [KEY_HEADER]: key }), ["provisionerkey"])
    expect((await owner.delete(`${keys()}/${name}`)).status).toBe(204)
    expectResponse(await fetchKey(key, { [KEY_HEADER]: key }), 401)
  })
})

describe("the serve route", () => {
  it("refuses a missing, unknown or other organization's key with 401 before the upgrade", async () => {
    const missing = await refusal(connect(serveUrl()))
    expect(missing.status).toBe(401)
    expect(missing.body.message).toContain("Coder-Provisioner-Daemon-Key")
    expect((await refusal(connect(serveUrl(), { [KEY_HEADER]: "not-a-key" }))).status).toBe(401)
    const other = await createOrganization(owner)
    const { key } = await newKey()
    expect((await refusal(connect(serveUrl("provisioner=script", other.id), { [KEY_HEADER]: key }))).status).toBe(401)
  })

  it("answers 400 naming the bad query fields, 403 for tags the key does not give", async () => {
    const { key } = await newKey({ tags: { pool: "a" } })
    const bad = await refusal(connect(serveUrl("tag=novalue&version=2.0"), { [KEY_HEADER]: key }))
    expect(bad.status).toBe(400)
    expect(bad.body.validations.map((v: any) => v.field).sort()).toEqual(["provisioner", "tag", "version"])
    const typed = await refusal(connect(serveUrl("provisioner=Bad Type!"), { [KEY_HEADER]: key }))
    expect(typed.status).toBe(400)
    const tags = await refusal(connect(serveUrl("provisioner=script&tag=pool=b"), { [KEY_HEADER]: key }))
    expect(tags.status).toBe(403)
    // The key's own tags may be repeated.
    const same = await connect(serveUrl("provisioner=script&tag=pool=a"), { [KEY_HEADER]: key })
    await eventually(() => same.messages.length > 0)
    expect(JSON.parse(same.messages[0]!).tags).toEqual({ pool: "a", scope: "organization" })
    same.socket.close()
  })

  it("refuses (409) a name held by a built-in worker or another organization's daemon", async () => {
    const { key } = await newKey()
    const builtIn = await refusal(connect(serveUrl("provisioner=script&name=built-in-1"), { [KEY_HEADER]: key }))
    expect(builtIn.status).toBe(409)
    const other = await createOrganization(owner)
    const made = await owner.post(keys(other.id), { name: "theirs" })
    const name = uniqueName("daemon")
    const theirs = await connect(serveUrl(`provisioner=script&name=${name}`, other.id), { [KEY_HEADER]: made.body.key })
    await eventually(() => theirs.messages.length > 0)
    const taken = await refusal(connect(serveUrl(`provisioner=script&name=${name}`), { [KEY_HEADER]: key }))
    expect(taken.status).toBe(409)
    expect(taken.body.message).toBe(`The provisioner daemon name "${name}" is taken.`)
    theirs.socket.close()
  })

  it("answers 426 to a plain request", async () => {
    const { key } = await newKey()
    const r = await fetch(serveUrl().replace("ws:", "http:"), { headers: { [KEY_HEADER]: key } })
    expect(r.status).toBe(426)
  })

  it("welcomes the daemon and lists it in the organization's daemons", async () => {
    const { key, name: keyName } = await newKey()
    const name = uniqueName("daemon")
    const ws = await connect(serveUrl(`provisioner=script,echo2&name=${name}`), {
      [KEY_HEADER]: key,
      "Coder-Build-Version": "v9.9.9"
    })
    await eventually(() => ws.messages.length > 0)
    const welcome = JSON.parse(ws.messages[0]!)
    expect(welcome).toMatchObject({
      type: "welcome",
      protocol: "1.3",
      name,
      organization_id: orgId,
      provisioners: ["script", "echo2"]
    })
    expect(welcome.heartbeat_interval_ms).toBeGreaterThan(0)
    const daemons = await member.get(`/organizations/${orgId}/provisionerdaemons`)
    const row = daemons.body.find((d: any) => d.name === name)
    expect(row).toMatchObject({
      id: welcome.daemon_id,
      key_name: keyName,
      version: "v9.9.9",
      api_version: "1.0",
      status: "idle"
    })
    ws.socket.close()
  })

  it("closes with 4400 on a message it cannot read", async () => {
    const { key } = await newKey()
    for (
      const text of [
        "not json",
        JSON.stringify({ type: "dance" }),
        JSON.stringify({ type: "log", job_id: "x", logs: [] })
      ]
    ) {
      const ws = await connect(serveUrl(), { [KEY_HEADER]: key })
      await eventually(() => ws.messages.length > 0)
      ws.socket.send(text)
      const closed = await ws.closed
      expect(closed.code).toBe(4400)
      expect(closed.reason).not.toBe("")
    }
  })

  it("closes with 4400 on a quota commit whose cost is not a whole number from 0 to 10^9", async () => {
    const { key } = await newKey()
    for (const cost of [-1, 1.5, 1e30, "5", null]) {
      const ws = await connect(serveUrl(), { [KEY_HEADER]: key })
      await eventually(() => ws.messages.length > 0)
      ws.socket.send(JSON.stringify({ type: "commit_quota", job_id: UNKNOWN_ID, daily_cost: cost }))
      const closed = await ws.closed
      expect(closed.code).toBe(4400)
      expect(closed.reason).toContain("daily_cost")
    }
  })

  it("refuses a quota commit about a job the daemon does not hold", async () => {
    const { key } = await newKey()
    const ws = await connect(serveUrl("provisioner=nobody-queues-this"), { [KEY_HEADER]: key })
    await eventually(() => ws.messages.length > 0)
    ws.socket.send(JSON.stringify({ type: "commit_quota", job_id: UNKNOWN_ID, daily_cost: 5 }))
    await eventually(() => ws.messages.length >= 2)
    expect(JSON.parse(ws.messages[1]!)).toEqual({
      type: "error",
      code: "not_held",
      message: `This daemon does not hold job ${UNKNOWN_ID}.`,
      job_id: UNKNOWN_ID
    })
    ws.socket.close()
  })

  it("refuses messages about a job the daemon does not hold, and a second acquire", async () => {
    const { key } = await newKey()
    const ws = await connect(serveUrl("provisioner=nobody-queues-this"), { [KEY_HEADER]: key })
    await eventually(() => ws.messages.length > 0)
    ws.socket.send(JSON.stringify({ type: "complete", job_id: UNKNOWN_ID, result: {} }))
    ws.socket.send(JSON.stringify({ type: "fail", job_id: UNKNOWN_ID, error: "x" }))
    ws.socket.send(JSON.stringify({ type: "acquire" }))
    ws.socket.send(JSON.stringify({ type: "acquire" }))
    await eventually(() => ws.messages.length >= 4)
    const answers = ws.messages.slice(1).map((m) => JSON.parse(m))
    expect(answers.slice(0, 2).map((a) => [a.type, a.code, a.job_id])).toEqual([["error", "not_held", UNKNOWN_ID], [
      "error",
      "not_held",
      UNKNOWN_ID
    ]])
    expect(answers[2]).toMatchObject({ type: "error", code: "busy" })
    ws.socket.close()
  })

  it("takes messages far above the 32 KiB WebSocket default, up to the template file limit", async () => {
    const { key } = await newKey()
    const ws = await connect(serveUrl("provisioner=nobody-queues-this"), { [KEY_HEADER]: key })
    await eventually(() => ws.messages.length > 0)
    const big = JSON.stringify({ type: "complete", job_id: UNKNOWN_ID, result: { padding: "x".repeat(512 * 1024) } })
    expect(big.length).toBeGreaterThan(32 * 1024)
    ws.socket.send(big)
    await eventually(() => ws.messages.length >= 2)
    expect(JSON.parse(ws.messages[1]!)).toMatchObject({ type: "error", code: "not_held", job_id: UNKNOWN_ID })
    // Past the limit (10 MiB by default) the socket is closed with 1009.
    ws.socket.send("x".repeat(10 * 1024 * 1024 + 1))
    expect((await ws.closed).code).toBe(1009)
  })

  it("closes a daemon's connection when its key is deleted, and refuses the key afterwards", async () => {
    const { key, name } = await newKey()
    const ws = await connect(serveUrl(), { [KEY_HEADER]: key })
    await eventually(() => ws.messages.length > 0)
    expect((await owner.delete(`${keys()}/${name}`)).status).toBe(204)
    const closed = await ws.closed
    expect(closed).toEqual({ code: 1001, reason: "provisioner key deleted" })
    expect((await refusal(connect(serveUrl(), { [KEY_HEADER]: key }))).status).toBe(401)
  })
})

describe("hosts and their capacity (protocol 1.2)", () => {
  const hosts = (org = orgId) => `/organizations/${org}/provisionerhosts`
  const capacity = capacityReport
  const hostNamed = async (name: string) => {
    for (let i = 0; i < 500; i++) {
      const found = (await member.get(hosts())).body.find((h: any) => h.name === name)
      if (found !== undefined) return found
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    throw new Error(`host ${name} not listed`)
  }

  it("asks a daemon that names its host for reports, and lists the host with its figures and daemons", async () => {
    const { key } = await newKey({ tags: { pool: "hosts" } })
    const host = uniqueName("host")
    const [a, b] = [uniqueName("d"), uniqueName("d")]
    const first = await connect(serveUrl(`provisioner=docker&name=${a}&host=${host}&version=1.2`), {
      [KEY_HEADER]: key
    })
    const second = await connect(serveUrl(`provisioner=docker&name=${b}&host=${host}`), { [KEY_HEADER]: key })
    await eventually(() => first.messages.length > 0 && second.messages.length > 0)
    expect(JSON.parse(first.messages[0]!).capacity_interval_ms).toBe(5000)
    first.socket.send(JSON.stringify(capacity()))
    const listed = await hostNamed(host)
    expect(listed).toMatchObject({
      name: host,
      organization_id: orgId,
      tags: { pool: "hosts", scope: "organization" },
      provisioners: ["docker"],
      status: "connected",
      cpus: 16,
      memory_bytes: 64 * 1024 ** 3,
      memory_promised_bytes: 8 * 1024 ** 3,
      cpus_promised: 4.5,
      containers: 3,
      disk_free_bytes: 500 * 1024 ** 3,
      daemons: [a, b].sort()
    })
    // A later report replaces the figures; an engine whose disk the daemon cannot see says null.
    second.socket.send(JSON.stringify(capacity({ containers: 4, disk_free_bytes: null })))
    for (let i = 0; i < 500 && (await hostNamed(host)).containers !== 4; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(await hostNamed(host)).toMatchObject({ containers: 4, disk_free_bytes: null })
    first.socket.close()
    second.socket.close()
  })

  it("answers 401 without a session, 404 for an organization the caller is not in or that does not exist", async () => {
    expectResponse(await srv.anonymous.get(hosts()), 401)
    expectResponse(await owner.get(hosts(UNKNOWN_ID)), 404)
    const other = await createOrganization(owner)
    expectResponse(await member.get(hosts(other.id)), 404)
    // A connection without a host gets no report request; a daemon without a host reports in vain.
    const { key } = await newKey()
    const ws = await connect(serveUrl(), { [KEY_HEADER]: key })
    await eventually(() => ws.messages.length > 0)
    expect(JSON.parse(ws.messages[0]!).capacity_interval_ms).toBeUndefined()
    ws.socket.send(JSON.stringify(capacity()))
    await eventually(() => ws.messages.length >= 2)
    expect(JSON.parse(ws.messages[1]!)).toMatchObject({ type: "error", code: "no_host" })
    ws.socket.close()
  })

  it("drains a host and takes it back: audited; 401, 403 to a member, 404 for an unknown host, 400 for a bad body", async () => {
    const { key } = await newKey()
    const host = uniqueName("host")
    const ws = await connect(serveUrl(`provisioner=docker&host=${host}`), { [KEY_HEADER]: key })
    await eventually(() => ws.messages.length > 0)
    ws.socket.send(JSON.stringify(capacity()))
    const path = `${hosts()}/${host}`
    let drained = await owner.patch(path, { draining: true })
    for (let i = 0; i < 500 && drained.status === 404; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      drained = await owner.patch(path, { draining: true })
    }
    expect(drained.status, JSON.stringify(drained.body)).toBe(200)
    expect(drained.body).toMatchObject({ name: host, draining: true, cpus: 16 })
    expect((await hostNamed(host)).draining).toBe(true)
    // A report never undoes it.
    ws.socket.send(JSON.stringify(capacity({ containers: 9 })))
    for (let i = 0; i < 500 && (await hostNamed(host)).containers !== 9; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(await hostNamed(host)).toMatchObject({ containers: 9, draining: true })
    expect((await owner.patch(path, { draining: false })).body.draining).toBe(false)
    const audit = await owner.get(`/audit?q=${encodeURIComponent("resource_type:provisioner_host")}&limit=50`)
    const mine = audit.body.audit_logs.filter((l: any) => l.resource_target === host)
    expect(mine).toHaveLength(2)
    expect(mine.map((l: any) => l.diff.draining)).toContainEqual({ old: false, new: true, secret: false })

    expectResponse(await srv.anonymous.patch(path, { draining: true }), 401)
    expectResponse(await member.patch(path, { draining: true }), 403)
    expectResponse(await owner.patch(`${hosts()}/no-such-host`, { draining: true }), 404)
    expectResponse(await owner.patch(`${hosts(UNKNOWN_ID)}/${host}`, { draining: true }), 404)
    expectValidations(await owner.patch(path, { draining: "yes" }), ["draining"])
    expectValidations(await owner.patch(path, {}), ["draining"])
    ws.socket.close()
  })

  it("answers 400 naming host for a host name that cannot be one", async () => {
    const { key } = await newKey()
    for (const bad of ["-lead", "a b", "x".repeat(65), "dots/slash", "%2F"]) {
      const r = await refusal(
        connect(serveUrl(`provisioner=docker&host=${encodeURIComponent(bad)}`), { [KEY_HEADER]: key })
      )
      expect(r.status, bad).toBe(400)
      expect(r.body.validations.map((v: any) => v.field), bad).toEqual(["host"])
    }
  })

  it("closes with 4400 naming the field of an absurd report", async () => {
    const { key } = await newKey()
    const cases: ReadonlyArray<[string, unknown]> = [
      ["cpus", 0],
      ["cpus", 1.5],
      ["cpus", 100_000],
      ["memory_bytes", -1],
      ["memory_bytes", 2 ** 60],
      ["memory_bytes", "16g"],
      ["memory_promised_bytes", 1e30],
      ["cpus_promised", -0.5],
      ["containers", 2.5],
      ["disk_free_bytes", -1],
      ["disk_free_bytes", 2 ** 70]
    ]
    for (const [field, value] of cases) {
      const ws = await connect(serveUrl(`provisioner=docker&host=${uniqueName("host")}`), { [KEY_HEADER]: key })
      await eventually(() => ws.messages.length > 0)
      ws.socket.send(JSON.stringify(capacity({ [field]: value })))
      const closed = await ws.closed
      expect(closed.code, `${field}=${value}`).toBe(4400)
      expect(closed.reason).toContain(field)
    }
    const missing = await connect(serveUrl(`provisioner=docker&host=${uniqueName("host")}`), { [KEY_HEADER]: key })
    await eventually(() => missing.messages.length > 0)
    const { cpus: _, ...withoutCpus } = capacity()
    missing.socket.send(JSON.stringify(withoutCpus))
    expect((await missing.closed).reason).toContain("cpus")
  })
})
