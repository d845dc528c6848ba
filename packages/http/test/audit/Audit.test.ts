/**
 * Black-box tests of the audit log: every state-changing request that exists writes exactly
 * one entry (found again by the response's x-request-id), GET requests write none, secrets
 * never reach the table or the API, and GET /audit searches, pages, counts and guards it.
 * The server runs on a SQLite file so the raw table can be read beside the API.
 */
import { AuditLogRepo, MemberRepo, NIL_UUID, Transactions } from "@workbay/core"
import * as Sqlite from "@workbay/storage-sqlite"
import Database from "better-sqlite3"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectFields, REDUCED_USER_OPTIONAL, USER_FIELDS } from "../shapes.js"
import {
  captureMail,
  type Client,
  createUser,
  expectIsoDate,
  expectNoServerErrors,
  expectResponse,
  expectValidations,
  type Reply,
  type ServiceTestServer,
  sessionClient,
  startServiceTestServer,
  STRONG_PASSWORD,
  type TestUser,
  UUID_PATTERN
} from "../support.js"

const UA = "workbay-audit-test/1.0"
const IP = "127.0.0.1"

/** The fields of the spec's Audit log entry; `organization` is absent on entries of no organization. */
const ENTRY_FIELDS = [
  "action",
  "additional_fields",
  "description",
  "diff",
  "id",
  "ip",
  "is_deleted",
  "organization",
  "organization_id",
  "request_id",
  "resource_icon",
  "resource_id",
  "resource_link",
  "resource_target",
  "resource_type",
  "status_code",
  "time",
  "user",
  "user_agent"
]

/** Checks every field of an entry against the spec's list, by type. */
const expectEntryShape = (e: any) => {
  const keys = Object.keys(e).sort()
  expect(keys).toEqual(e.organization === undefined ? ENTRY_FIELDS.filter((k) => k !== "organization") : ENTRY_FIELDS)
  expect(typeof e.action).toBe("string")
  expect(typeof e.additional_fields).toBe("object")
  expect(Array.isArray(e.additional_fields)).toBe(false)
  expect(typeof e.description).toBe("string")
  expect(typeof e.diff).toBe("object")
  for (const field of Object.values(e.diff) as Array<any>) {
    expect(Object.keys(field).sort()).toEqual(["new", "old", "secret"])
    expect(typeof field.secret).toBe("boolean")
  }
  expect(e.id).toMatch(UUID_PATTERN)
  expect(typeof e.ip).toBe("string")
  expect(typeof e.is_deleted).toBe("boolean")
  if (e.organization !== undefined) {
    expect(Object.keys(e.organization).sort()).toEqual(["display_name", "icon", "id", "name"])
    expect(e.organization.id).toBe(e.organization_id)
  }
  expect(e.organization_id).toMatch(UUID_PATTERN)
  expect(e.request_id).toMatch(UUID_PATTERN)
  expect(typeof e.resource_icon).toBe("string")
  // Always a UUID: the nil UUID when there is no resource, the owner's id for API keys.
  expect(e.resource_id).toMatch(UUID_PATTERN)
  expect(typeof e.resource_link).toBe("string")
  expect(typeof e.resource_target).toBe("string")
  expect(typeof e.resource_type).toBe("string")
  expect(Number.isInteger(e.status_code)).toBe(true)
  expectIsoDate(e.time)
  if (e.user !== null) {
    expectFields(e.user, USER_FIELDS, REDUCED_USER_OPTIONAL)
    for (const role of e.user.roles) expect(Object.keys(role).sort()).toEqual(["display_name", "name"])
  }
  expect(typeof e.user_agent).toBe("string")
}

/** A request with the test's user agent. */
const call = (client: Client, method: string, path: string, body?: unknown) =>
  client.request(method, path, body, { headers: { "user-agent": UA } })

const secretField = { old: "", new: "", secret: true }

describe("audit log", () => {
  let dir: string
  let file: string
  let srv: ServiceTestServer
  const mail = captureMail()
  let owner: Client
  let ownerId: string
  let orgId: string
  let firstUserReply: Reply
  let member: TestUser

  /** The entries with the request id of `reply` (as the owner sees them). */
  const entriesOf = async (reply: Reply) => {
    const requestId = reply.headers.get("x-request-id")
    expect(requestId, "the reply carries x-request-id").toMatch(UUID_PATTERN)
    const r = await owner.get(`/audit?limit=100&q=request_id:${requestId}`)
    expect(r.status).toBe(200)
    return r.body.audit_logs as Array<any>
  }

  /** Exactly one entry for `reply`, with the request's facts and `expected`. */
  const expectEntry = async (reply: Reply, expected: Record<string, unknown>) => {
    const entries = await entriesOf(reply)
    expect(entries, JSON.stringify(entries)).toHaveLength(1)
    const e = entries[0]
    expectEntryShape(e)
    expect(e).toMatchObject({
      request_id: reply.headers.get("x-request-id"),
      ip: IP,
      user_agent: UA,
      status_code: reply.status,
      ...expected
    })
    return e
  }

  const total = async () => (await owner.get("/audit?limit=1")).body.count as number

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "workbay-audit-"))
    file = join(dir, "workbay.db")
    srv = await startServiceTestServer({ storage: Sqlite.layer({ filename: file }), mail: mail.layer })
    firstUserReply = await call(srv.anonymous, "POST", "/users/first", {
      email: "admin@example.com",
      username: "admin",
      password: STRONG_PASSWORD
    })
    expect(firstUserReply.status).toBe(201)
    ownerId = firstUserReply.body.user_id
    orgId = firstUserReply.body.organization_id
    owner = await sessionClient(srv.anonymous, "admin@example.com")
    member = await createUser(owner, { username: "plain-member" })
  })
  afterAll(async () => {
    await srv.close()
    rmSync(dir, { recursive: true, force: true })
  })

  describe("one entry per state-changing request", () => {
    it("first user: create user, by the new user, with its secrets marked", async () => {
      const e = await expectEntry(firstUserReply, {
        action: "create",
        resource_type: "user",
        resource_id: ownerId,
        resource_target: "admin",
        organization_id: NIL_UUID,
        is_deleted: false,
        resource_link: "/@admin",
        description: "{user} created user {target}"
      })
      expect(e.organization).toBeUndefined()
      expect(e.user).toMatchObject({
        id: ownerId,
        username: "admin",
        roles: [{ name: "owner", display_name: "Owner" }]
      })
      expect(e.user.organization_ids).toEqual([orgId])
      expect(e.diff.hashed_password).toEqual(secretField)
      expect(e.diff.username).toEqual({ old: null, new: "admin", secret: false })
      expect(e.diff.rbac_roles).toEqual({ old: null, new: ["owner"], secret: false })
    })

    it("user create: the entry compared field by field with the spec's list", async () => {
      const r = await call(owner, "POST", "/users", {
        email: "carol@example.com",
        username: "carol",
        password: STRONG_PASSWORD
      })
      expect(r.status).toBe(201)
      const e = await expectEntry(r, {})
      const ownerNow = (await owner.get(`/users/${ownerId}`)).body
      expect(e).toEqual({
        action: "create",
        additional_fields: {},
        description: "{user} created user {target}",
        diff: expect.objectContaining({
          email: { old: null, new: "carol@example.com", secret: false },
          username: { old: null, new: "carol", secret: false },
          login_type: { old: null, new: "password", secret: false },
          hashed_password: secretField
        }),
        id: expect.stringMatching(UUID_PATTERN),
        ip: IP,
        is_deleted: false,
        organization_id: NIL_UUID,
        request_id: r.headers.get("x-request-id"),
        resource_icon: "",
        resource_id: r.body.id,
        resource_link: "/@carol",
        resource_target: "carol",
        resource_type: "user",
        status_code: 201,
        time: expect.any(String),
        user: ownerNow,
        user_agent: UA
      })
      expect(Date.now() - Date.parse(e.time)).toBeLessThan(60_000)
    })

    it("user create refused: 409 and 403 and 400 are recorded with their status", async () => {
      const dup = await call(owner, "POST", "/users", {
        email: "carol@example.com",
        username: "carol2",
        password: STRONG_PASSWORD
      })
      expect(dup.status).toBe(409)
      const e409 = await expectEntry(dup, {
        action: "create",
        resource_type: "user",
        resource_id: NIL_UUID,
        resource_target: "",
        is_deleted: false,
        description: "{user} unsuccessfully attempted to create user {target}"
      })
      expect(e409.user.id).toBe(ownerId)
      expect(e409.diff).toEqual({})
      const denied = await call(member.client, "POST", "/users", {
        email: "x@example.com",
        username: "x",
        password: STRONG_PASSWORD
      })
      expect(denied.status).toBe(403)
      const e403 = await expectEntry(denied, { action: "create", resource_type: "user" })
      expect(e403.user.id).toBe(member.user.id)
      const bad = await call(owner, "POST", "/users", { email: "not-an-email", username: "x" })
      expect(bad.status).toBe(400)
      await expectEntry(bad, { action: "create", resource_type: "user" })
    })

    it("user delete: the entry, and the resource shows as deleted from then on", async () => {
      const doomed = await createUser(owner, { username: "doomed" })
      const r = await call(owner, "DELETE", `/users/${doomed.user.id}`)
      expect(r.status).toBe(200)
      const e = await expectEntry(r, {
        action: "delete",
        resource_type: "user",
        resource_id: doomed.user.id,
        resource_target: "doomed",
        is_deleted: true,
        resource_link: "",
        description: "{user} deleted user {target}"
      })
      expect(e.diff.deleted).toEqual({ old: false, new: true, secret: false })
      // Entries about the user (its logins name it too, as resource_id of api_key entries).
      const history = await owner.get(
        `/audit?limit=10&q=${encodeURIComponent(`resource_type:user resource_id:${doomed.user.id}`)}`
      )
      expect(history.body.audit_logs.length).toBeGreaterThanOrEqual(2)
      for (const entry of history.body.audit_logs) expect(entry.is_deleted).toBe(true)
    })

    it("appearance, quiet hours and git SSH key: write entries with their diffs (the private key secret)", async () => {
      const appearance = await call(member.client, "PUT", "/users/me/appearance", { theme_preference: "dark" })
      expect(appearance.status).toBe(200)
      const a = await expectEntry(appearance, {
        action: "write",
        resource_type: "user",
        resource_id: member.user.id,
        resource_target: member.username
      })
      expect(a.user.id).toBe(member.user.id)
      expect(a.diff.appearance.new).toMatchObject({ theme_preference: "dark" })

      const quiet = await call(member.client, "PUT", "/users/me/quiet-hours", {
        schedule: "CRON_TZ=Europe/Berlin 30 9 * * *"
      })
      expect(quiet.status).toBe(200)
      const q = await expectEntry(quiet, { action: "write", resource_type: "user", resource_id: member.user.id })
      expect(q.diff.quiet_hours_schedule).toEqual({ old: "", new: "CRON_TZ=Europe/Berlin 30 9 * * *", secret: false })

      const key = await call(member.client, "PUT", "/users/me/gitsshkey")
      expect(key.status).toBe(200)
      const k = await expectEntry(key, {
        action: "write",
        resource_type: "git_ssh_key",
        resource_id: member.user.id,
        resource_target: member.username,
        description: "{user} updated the git ssh key"
      })
      expect(k.diff.private_key).toEqual(secretField)
    })

    it("tokens and session keys: create and delete entries; hashed secrets marked secret", async () => {
      const created = await call(member.client, "POST", "/users/me/keys/tokens", { token_name: "ci-token" })
      expect(created.status).toBe(201)
      // API key entries name the key's owner in resource_id (a UUID), as the described system does.
      const c = await expectEntry(created, {
        action: "create",
        resource_type: "api_key",
        resource_id: member.user.id,
        resource_target: "ci-token",
        description: "{user} created token {target}"
      })
      expect(c.diff.hashed_secret).toEqual(secretField)
      expect(c.diff.token_name).toEqual({ old: null, new: "ci-token", secret: false })

      const deleted = await call(member.client, "DELETE", "/users/me/keys/tokens/ci-token")
      expect(deleted.status).toBe(204)
      await expectEntry(deleted, {
        action: "delete",
        resource_type: "api_key",
        resource_id: member.user.id,
        resource_target: "ci-token"
      })

      const session = await call(member.client, "POST", "/users/me/keys")
      expect(session.status).toBe(201)
      await expectEntry(session, {
        action: "create",
        resource_type: "api_key",
        resource_id: member.user.id,
        resource_target: member.username
      })

      const missing = await call(member.client, "DELETE", "/users/me/keys/tokens/no-such-token")
      expect(missing.status).toBe(404)
      await expectEntry(missing, { action: "delete", resource_type: "api_key", resource_id: NIL_UUID })
    })

    it("login success and failure, and logout", async () => {
      const ok = await call(srv.anonymous, "POST", "/users/login", { email: member.email, password: STRONG_PASSWORD })
      expect(ok.status).toBe(201)
      const e = await expectEntry(ok, {
        action: "login",
        resource_type: "api_key",
        resource_id: member.user.id,
        description: "{user} logged in"
      })
      expect(e.user.id).toBe(member.user.id)

      const wrong = await call(srv.anonymous, "POST", "/users/login", {
        email: member.email,
        password: "Wrong-Password-123"
      })
      expect(wrong.status).toBe(401)
      const w = await expectEntry(wrong, {
        action: "login",
        resource_type: "api_key",
        resource_id: NIL_UUID,
        description: "{user} unsuccessfully attempted to login"
      })
      expect(w.user.id).toBe(member.user.id)

      const unknown = await call(srv.anonymous, "POST", "/users/login", {
        email: "nobody@example.com",
        password: "Whatever-123x"
      })
      expect(unknown.status).toBe(401)
      expect((await expectEntry(unknown, { action: "login" })).user).toBeNull()

      const session = srv.anonymous.as(ok.body.session_token)
      const out = await call(session, "POST", "/users/logout")
      expect(out.status).toBe(200)
      const l = await expectEntry(out, {
        action: "logout",
        resource_type: "api_key",
        resource_id: member.user.id,
        resource_target: member.username,
        description: "{user} logged out"
      })
      expect(l.user.id).toBe(member.user.id)
    })

    it("one-time passcode request and password change", async () => {
      const otpUser = await createUser(owner, { username: "forgetful" })
      const requested = await call(srv.anonymous, "POST", "/users/otp/request", { email: otpUser.email })
      expect(requested.status).toBe(204)
      const r = await expectEntry(requested, {
        action: "request_password_reset",
        resource_type: "user",
        resource_id: otpUser.user.id,
        resource_target: "forgetful",
        description: "password reset requested user {target}"
      })
      expect(r.user.id).toBe(otpUser.user.id)
      expect(r.diff).toEqual({})

      const passcode = mail.passcodeFor(otpUser.email)!
      const changed = await call(srv.anonymous, "POST", "/users/otp/change-password", {
        email: otpUser.email,
        one_time_passcode: passcode,
        password: "Brand-New-Password-42"
      })
      expect(changed.status).toBe(204)
      const c = await expectEntry(changed, { action: "write", resource_type: "user", resource_id: otpUser.user.id })
      expect(c.diff).toEqual({ hashed_password: secretField })

      const refused = await call(srv.anonymous, "POST", "/users/otp/change-password", {
        email: otpUser.email,
        one_time_passcode: passcode,
        password: "Another-New-Password-43"
      })
      expect(refused.status).toBe(401)
      await expectEntry(refused, { action: "write", resource_type: "user", resource_id: NIL_UUID })
    })

    it("organization create, update, delete: entries in the organization, then shown as deleted", async () => {
      const created = await call(owner, "POST", "/organizations", {
        name: "audited-org",
        display_name: "Audited",
        icon: "/o.svg"
      })
      expect(created.status).toBe(201)
      const id = created.body.id
      const c = await expectEntry(created, {
        action: "create",
        resource_type: "organization",
        resource_id: id,
        resource_target: "audited-org",
        resource_icon: "/o.svg",
        organization_id: id,
        resource_link: "/organizations/audited-org",
        is_deleted: false
      })
      expect(c.organization).toEqual({ id, name: "audited-org", display_name: "Audited", icon: "/o.svg" })

      const updated = await call(owner, "PATCH", "/organizations/audited-org", { display_name: "Audited Inc" })
      expect(updated.status).toBe(200)
      const u = await expectEntry(updated, { action: "write", resource_type: "organization", resource_id: id })
      expect(u.diff).toEqual({ display_name: { old: "Audited", new: "Audited Inc", secret: false } })

      const conflict = await call(owner, "POST", "/organizations", { name: "audited-org" })
      expect(conflict.status).toBe(409)
      await expectEntry(conflict, { action: "create", resource_type: "organization", resource_id: NIL_UUID })

      const deleted = await call(owner, "DELETE", "/organizations/audited-org")
      expect(deleted.status).toBe(200)
      const d = await expectEntry(deleted, {
        action: "delete",
        resource_type: "organization",
        resource_id: id,
        is_deleted: true,
        resource_link: "",
        organization_id: id
      })
      expect(d.organization).toBeUndefined()
      const history = await owner.get(`/audit?limit=10&q=resource_id:${id}`)
      expect(history.body.count).toBe(3)
      for (const e of history.body.audit_logs) expect(e).toMatchObject({ is_deleted: true, resource_link: "" })
    })

    it("member add and remove", async () => {
      const org = (await owner.post("/organizations", { name: "member-org" })).body
      const added = await call(owner, "POST", `/organizations/member-org/members/${member.username}`)
      expect(added.status).toBe(200)
      const a = await expectEntry(added, {
        action: "create",
        resource_type: "organization_member",
        resource_id: member.user.id,
        resource_target: member.username,
        organization_id: org.id,
        resource_link: "/organizations/member-org/members",
        description: "{user} created organization member {target}"
      })
      expect(a.organization.name).toBe("member-org")
      const again = await call(owner, "POST", `/organizations/member-org/members/${member.username}`)
      expect(again.status).toBe(409)
      await expectEntry(again, { action: "create", resource_type: "organization_member" })

      const removed = await call(owner, "DELETE", `/organizations/member-org/members/${member.username}`)
      expect(removed.status).toBe(204)
      await expectEntry(removed, {
        action: "delete",
        resource_type: "organization_member",
        resource_id: member.user.id,
        organization_id: org.id
      })
    })

    it("GET requests write nothing", async () => {
      const before = await total()
      for (
        const path of [
          "/users",
          "/users/me",
          `/users/${member.user.id}`,
          "/users/me/appearance",
          "/users/me/gitsshkey",
          "/users/me/quiet-hours",
          "/users/me/keys/tokens",
          "/organizations",
          `/organizations/${orgId}/members`,
          "/audit?limit=5",
          "/connectionlog?limit=5",
          "/buildinfo",
          "/users/first"
        ]
      ) {
        expect((await call(owner, "GET", path)).status, path).toBeLessThan(300)
      }
      expect(await total()).toBe(before)
    })
  })

  describe("secrets", () => {
    it("a planted password, token secret and one-time passcode reach neither the table nor GET /audit", async () => {
      const password = "Planted-Password-9931"
      const wrongPassword = "Wrong-Planted-Password-5512"
      const newPassword = "Planted-New-Password-7710"
      const planted = await createUser(owner, { username: "planted" })
      // A password set on creation, a wrong one tried, a token made, a passcode requested and used.
      const created = await owner.post("/users", { email: "planted2@example.com", username: "planted2", password })
      expect(created.status).toBe(201)
      await srv.anonymous.post("/users/login", { email: "planted2@example.com", password: wrongPassword })
      const session = (await srv.anonymous.post("/users/login", { email: "planted2@example.com", password })).body
        .session_token as string
      const token = (await planted.client.post("/users/me/keys/tokens", { token_name: "planted-token" })).body
        .key as string
      await srv.anonymous.post("/users/otp/request", { email: "planted2@example.com" })
      const passcode = mail.passcodeFor("planted2@example.com")!
      expect(passcode).toMatch(UUID_PATTERN)
      const changed = await srv.anonymous.post("/users/otp/change-password", {
        email: "planted2@example.com",
        one_time_passcode: passcode,
        password: newPassword
      })
      expect(changed.status).toBe(204)

      const db = new Database(file, { readonly: true, fileMustExist: true })
      try {
        const hashes = [
          ...db.prepare("SELECT hashed_password AS h FROM users WHERE hashed_password IS NOT NULL").all(),
          ...db.prepare("SELECT hashed_secret AS h FROM api_keys").all(),
          ...db.prepare("SELECT private_key AS h FROM gitsshkeys").all()
        ].map((r: any) => r.h as string)
        expect(hashes.length).toBeGreaterThan(3)
        const rows = db.prepare("SELECT * FROM audit_logs").all()
        expect(rows.length).toBeGreaterThan(20)
        const table = JSON.stringify(rows)
        const secrets = [
          password,
          wrongPassword,
          newPassword,
          STRONG_PASSWORD,
          token,
          token.split("-")[1]!,
          session,
          session.split("-")[1]!,
          passcode,
          ...hashes
        ]
        for (const secret of secrets) {
          expect(table.includes(secret), `audit_logs holds ${secret.slice(0, 12)}...`).toBe(false)
        }

        const pages: Array<string> = []
        for (let offset = 0;; offset += 1000) {
          const r = await owner.get(`/audit?limit=1000&offset=${offset}`)
          expect(r.status).toBe(200)
          pages.push(JSON.stringify(r.body))
          if (r.body.audit_logs.length < 1000) break
        }
        const api = pages.join("")
        for (const secret of secrets) {
          expect(api.includes(secret), `GET /audit shows ${secret.slice(0, 12)}...`).toBe(false)
        }
        // The secret fields are there, marked.
        const diffs = rows.map((r: any) => JSON.parse(r.diff) as Record<string, unknown>)
        expect(diffs.filter((d) => JSON.stringify(d.hashed_password) === JSON.stringify(secretField)).length)
          .toBeGreaterThan(3)
      } finally {
        db.close()
      }
    })
  })

  describe("GET /audit", () => {
    it("answers 401 without a token", async () => {
      expectResponse(await srv.anonymous.get("/audit?limit=10"), 401)
    })

    it("requires limit; limit and offset must be non-negative integers", async () => {
      expectValidations(await owner.get("/audit"), ["limit"])
      expectValidations(await owner.get("/audit?limit=abc"), ["limit"])
      expectValidations(await owner.get("/audit?limit=-1"), ["limit"])
      expectValidations(await owner.get("/audit?limit=2.5"), ["limit"])
      expectValidations(await owner.get("/audit?limit=5&offset=-3"), ["offset"])
    })

    it("answers 403 to members; auditors read everything", async () => {
      expectResponse(await member.client.get("/audit?limit=10"), 403)
      const auditor = await createUser(owner, { username: "site-auditor", roles: ["auditor"] })
      const mine = await owner.get("/audit?limit=1000")
      const theirs = await auditor.client.get("/audit?limit=1000")
      expect(theirs.status).toBe(200)
      expect(theirs.body.count).toBe(mine.body.count)
    })

    it("organization auditors and admins read only their organizations' entries", async () => {
      const org = (await owner.post("/organizations", { name: "watched-org" })).body
      const orgAuditor = await createUser(owner, { username: "org-auditor" })
      const orgAdmin = await createUser(owner, { username: "org-admin" })
      for (const u of [orgAuditor, orgAdmin]) {
        expect((await owner.post(`/organizations/watched-org/members/${u.username}`)).status).toBe(200)
      }
      await owner.patch("/organizations/watched-org", { display_name: "Watched" })
      await srv.run(Effect.flatMap(MemberRepo, (m) =>
        Effect.all([
          m.updateRoles(org.id, orgAuditor.user.id, ["organization-auditor"], new Date()),
          m.updateRoles(org.id, orgAdmin.user.id, ["organization-admin"], new Date())
        ])))
      const expected = (await owner.get(`/audit?limit=1000&q=organization:${org.id}`)).body
      expect(expected.count).toBe(4)
      for (const reader of [orgAuditor, orgAdmin]) {
        const r = await reader.client.get("/audit?limit=1000")
        expect(r.status).toBe(200)
        expect(r.body.count).toBe(4)
        expect(r.body.audit_logs.map((e: any) => e.id)).toEqual(expected.audit_logs.map((e: any) => e.id))
        for (const e of r.body.audit_logs) expect(e.organization_id).toBe(org.id)
        // Another organization's entries stay out of reach, searched or not.
        expect((await reader.client.get(`/audit?limit=10&q=organization:${orgId}`)).body.count).toBe(0)
        expect((await reader.client.get("/audit?limit=10&q=resource_type:user")).body.count).toBe(0)
      }
    })

    it("q filters by each key", async () => {
      const count = async (q: string) => {
        const r = await owner.get(`/audit?limit=1000&q=${encodeURIComponent(q)}`)
        expect(r.status, `${q}: ${JSON.stringify(r.body)}`).toBe(200)
        return r.body.audit_logs as Array<any>
      }
      const all = await count("")
      const every = (q: string, entries: Array<any>, check: (e: any) => boolean) => {
        expect(entries.length, q).toBeGreaterThan(0)
        for (const e of entries) expect(check(e), `${q}: ${JSON.stringify(e)}`).toBe(true)
        expect(entries.length).toBe(all.filter(check).length)
      }
      every(
        "resource_type:organization",
        await count("resource_type:organization"),
        (e) => e.resource_type === "organization"
      )
      every("organization (bare word)", await count("organization"), (e) => e.resource_type === "organization")
      every("action:login", await count("action:login"), (e) => e.action === "login")
      every("action:LOGIN", await count("action:LOGIN"), (e) => e.action === "login")
      every("resource_id", await count(`resource_id:${member.user.id}`), (e) => e.resource_id === member.user.id)
      every("resource_target", await count("resource_target:carol"), (e) => e.resource_target === "carol")
      every("username", await count("username:Plain-Member"), (e) => e.user?.id === member.user.id)
      every("email", await count(`email:${member.email.toUpperCase()}`), (e) => e.user?.id === member.user.id)
      const memberOrg = (await owner.get("/organizations/member-org")).body.id
      every("organization by name", await count("organization:Member-Org"), (e) => e.organization_id === memberOrg)
      every("organization by id", await count(`organization:${memberOrg}`), (e) => e.organization_id === memberOrg)
      every(
        "combined",
        await count(`action:create resource_type:user username:admin`),
        (e) => e.action === "create" && e.resource_type === "user" && e.user?.username === "admin"
      )
      const some = all[3]
      every("request_id", await count(`request_id:${some.request_id}`), (e) => e.request_id === some.request_id)
      // Dates are whole UTC days; date_to includes its day.
      const day = (offset: number) =>
        new Date(Date.parse(some.time.slice(0, 10)) + offset * 86_400_000).toISOString().slice(0, 10)
      expect((await count(`date_from:${day(0)} date_to:${day(0)}`)).map((e) => e.id)).toContain(some.id)
      expect((await count(`date_from:${day(1)}`)).map((e) => e.id)).not.toContain(some.id)
      expect((await count(`date_to:${day(-1)}`)).map((e) => e.id)).not.toContain(some.id)
    })

    it("date_from, date_to and build_reason on seeded entries at day edges", async () => {
      const seed = (time: string, buildReason: string) => ({
        id: randomUUID(),
        time: new Date(time),
        user_id: ownerId,
        organization_id: orgId,
        ip: "",
        user_agent: "",
        request_id: randomUUID(),
        action: "start",
        resource_type: "workspace_build",
        resource_id: randomUUID(),
        resource_target: "ws",
        resource_icon: "",
        diff: {},
        status_code: 200,
        additional_fields: { build_reason: buildReason },
        description: "",
        build_reason: buildReason
      })
      const late = seed("2020-01-15T23:59:59.999Z", "autostart")
      const early = seed("2020-01-16T00:00:00.000Z", "initiator")
      await srv.run(Effect.flatMap(AuditLogRepo, (repo) => Effect.all([repo.insert(late), repo.insert(early)])))
      const ids = async (q: string) =>
        ((await owner.get(`/audit?limit=100&q=${encodeURIComponent(q)}`)).body.audit_logs as Array<any>).map((e) =>
          e.id
        )
      expect(await ids("date_to:2020-01-15")).toEqual([late.id])
      expect(await ids("date_from:2020-01-16 date_to:2020-01-16")).toEqual([early.id])
      expect(await ids("date_from:2020-01-15 date_to:2020-01-16")).toEqual([early.id, late.id])
      expect(await ids("build_reason:autostart")).toEqual([late.id])
      expect(await ids("build_reason:initiator resource_type:workspace_build")).toEqual([early.id])
      const [entry] = (await owner.get(`/audit?limit=1&q=request_id:${late.request_id}`)).body.audit_logs
      expectEntryShape(entry)
      expect(entry).toMatchObject({
        additional_fields: { build_reason: "autostart" },
        description: "{user} started workspace build {target}",
        organization: { id: orgId, name: "coder" },
        is_deleted: false,
        resource_link: ""
      })
    })

    it("refuses unknown keys and bad values with one validation on q", async () => {
      for (
        const q of [
          "nope:1",
          "resource_type:spaceship",
          "action:explode",
          "date_from:2020-13-01",
          "date_to:yesterday",
          "request_id:123",
          "organization:no-such-org",
          "build_reason:whim",
          "resource_id:not!an!id",
          "user workspace",
          "username:"
        ]
      ) {
        const r = await owner.get(`/audit?limit=10&q=${encodeURIComponent(q)}`)
        expectValidations(r, ["q"])
      }
    })

    it("pages with limit and offset; count is capped at count_cap + 1", async () => {
      await srv.run(Effect.gen(function*() {
        const repo = yield* AuditLogRepo
        const tx = yield* Transactions
        const start = Date.UTC(2021, 0, 1)
        yield* tx.atomic(Effect.forEach(Array.from({ length: 2005 }, (_, i) => i), (i) =>
          repo.insert({
            id: randomUUID(),
            time: new Date(start + i * 1000),
            user_id: NIL_UUID,
            organization_id: NIL_UUID,
            ip: "",
            user_agent: "",
            request_id: randomUUID(),
            action: "create",
            resource_type: "template",
            resource_id: randomUUID(),
            resource_target: `t${i}`,
            resource_icon: "",
            diff: {},
            status_code: 201,
            additional_fields: {},
            description: "",
            build_reason: ""
          }), { discard: true }))
      }))
      const r = await owner.get("/audit?limit=5000&q=resource_type:template")
      expect(r.status).toBe(200)
      expect(r.body.count_cap).toBe(2000)
      // More than count_cap matches: the count stops at count_cap + 1.
      expect(r.body.count).toBe(2001)
      expect(r.body.audit_logs).toHaveLength(1000)
      expect(r.body.audit_logs[0].resource_target).toBe("t2004")
      const byDefault = await owner.get("/audit?limit=0&q=resource_type:template")
      expect(byDefault.body.audit_logs).toHaveLength(100)
      const paged = await owner.get("/audit?limit=3&offset=2&q=resource_type:template")
      expect(paged.body.audit_logs.map((e: any) => e.resource_target)).toEqual(["t2002", "t2001", "t2000"])
      const tail = await owner.get("/audit?limit=10&offset=2000&q=resource_type:template")
      expect(tail.body.audit_logs.map((e: any) => e.resource_target)).toEqual(["t4", "t3", "t2", "t1", "t0"])
      const few = await owner.get("/audit?limit=10&q=resource_type:template resource_target:t7")
      expect(few.body).toMatchObject({ count: 1, count_cap: 2000 })
      expect(few.body.audit_logs[0]).toMatchObject({
        user: null,
        organization_id: NIL_UUID,
        description: "{user} created template {target}"
      })
      expect(few.body.audit_logs[0].organization).toBeUndefined()
    })
  })

  it("never answers 5xx to junk queries, whoever asks", async () => {
    const junk = [
      "%00",
      "%ff",
      "%22",
      "a:b:c",
      "date_from:2024-13-45",
      "date_to:yesterday",
      "organization:%00x",
      "username:%22%22",
      "resource_type:" + "x".repeat(5000),
      "connected_after:not-a-date",
      "status:maybe",
      "type:%F0%9F%98%80",
      ":::",
      "q:q:q"
    ]
    const routes: Array<readonly [string, string]> = [
      ["GET", "/audit"],
      ["GET", "/audit?limit=-1"],
      ["GET", "/audit?limit=1e309"],
      ["GET", "/audit?limit=50&offset=-5"],
      ["GET", "/audit?limit=50&offset=99999999999999999999"],
      ["GET", "/audit?limit=%00"],
      ...junk.map((q) => ["GET", `/audit?limit=5&q=${q}`] as const)
    ]
    for (const client of [owner, member.client]) await expectNoServerErrors(client, routes)
  })
})
