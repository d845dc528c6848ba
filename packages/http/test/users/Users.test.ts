/**
 * Black-box tests of the `users` group (without API keys, see ApiKeys.test.ts):
 * listing and search, creation, lookup, deletion, appearance, git SSH key,
 * quiet hours and autofill parameters.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectFields, REDUCED_USER_OPTIONAL, USER_FIELDS } from "../shapes.js"
import {
  type Client,
  createUser,
  expectNoServerErrors,
  expectResponse,
  expectValidations,
  ISO_DATE_PATTERN,
  login,
  startWithOwner,
  STRONG_PASSWORD,
  type TestServer,
  type TestUser,
  tokenClient,
  UNKNOWN_ID,
  UUID_PATTERN
} from "../support.js"

const TEMPLATE_ID = "11111111-1111-4111-8111-111111111111"

/** Every field of a full User, checked against the spec; name, avatar, theme and service flag are absent when empty. */
const expectUser = (u: any) => {
  expectFields(u, USER_FIELDS, REDUCED_USER_OPTIONAL)
  expect(u.id).toMatch(UUID_PATTERN)
  expect(typeof u.username).toBe("string")
  expect(u.email).toMatch(/@/)
  if ("name" in u) expect(typeof u.name).toBe("string")
  expect(u.created_at).toMatch(ISO_DATE_PATTERN)
  expect(u.updated_at).toMatch(ISO_DATE_PATTERN)
  expect(u.last_seen_at).toMatch(ISO_DATE_PATTERN)
  expect(["", "github", "none", "oidc", "password", "token"]).toContain(u.login_type)
  expect(["active", "suspended"]).toContain(u.status)
  expect(typeof u.has_ai_seat).toBe("boolean")
  for (const id of u.organization_ids) expect(id).toMatch(UUID_PATTERN)
  // Site roles have no organization: the field is absent.
  for (const role of u.roles) expect(Object.keys(role).sort()).toEqual(["display_name", "name"])
}

describe("users", () => {
  let srv: TestServer
  let owner: Client
  let ownerId: string
  let orgId: string
  let member: TestUser
  let other: TestUser
  beforeAll(async () => {
    ;({ srv, owner, ownerId, orgId } = await startWithOwner())
    member = await createUser(owner, { username: "member-one" })
    other = await createUser(owner, { username: "member-two" })
  })
  afterAll(() => srv.close())

  describe("POST /users", () => {
    it("creates a user and answers 201 with the User", async () => {
      const r = await owner.post("/users", {
        email: "Carol@Example.com",
        username: "carol",
        name: "Carol C",
        password: STRONG_PASSWORD
      })
      expect(r.status).toBe(201)
      expectUser(r.body)
      expect(r.body).toMatchObject({
        email: "Carol@Example.com",
        username: "carol",
        name: "Carol C",
        login_type: "password",
        status: "active",
        has_ai_seat: false,
        roles: [],
        organization_ids: [orgId]
      })
      // No avatar, theme or service flag: absent rather than "" or false.
      for (const k of ["avatar_url", "theme_preference", "is_service_account"]) expect(r.body).not.toHaveProperty(k)
      const fetched = await owner.get(`/users/${r.body.id}`)
      expect(fetched.body).toEqual(r.body)
      expect((await login(srv, "carol@example.com")).status).toBe(201)
    })

    it("creates a user with site roles, a status and a service-account flag", async () => {
      const r = await owner.post("/users", {
        email: "auditor@example.com",
        username: "auditor",
        password: STRONG_PASSWORD,
        roles: ["auditor"],
        organization_ids: [orgId],
        service_account: true,
        user_status: "suspended"
      })
      expect(r.status).toBe(201)
      expect(r.body.roles).toEqual([{ name: "auditor", display_name: "Auditor" }])
      expect(r.body.is_service_account).toBe(true)
      expect(r.body.status).toBe("suspended")
    })

    it("creates a user without a password as login type none", async () => {
      const r = await owner.post("/users", { email: "bot@example.com", username: "bot", login_type: "none" })
      expect(r.status).toBe(201)
      expect(r.body.login_type).toBe("none")
    })

    it("answers 409 for a duplicate username, naming the field", async () => {
      const r = await owner.post("/users", {
        email: "fresh@example.com",
        username: "MEMBER-ONE",
        password: STRONG_PASSWORD
      })
      expectValidations(r, ["username"], 409)
    })

    it("answers 409 for a duplicate email, naming the field", async () => {
      const r = await owner.post("/users", {
        email: "Member-One@example.com",
        username: "fresh",
        password: STRONG_PASSWORD
      })
      expectValidations(r, ["email"], 409)
    })

    it("answers 400 on password for a weak password", async () => {
      const r = await owner.post("/users", { email: "weak@example.com", username: "weak", password: "password1" })
      expectValidations(r, ["password"])
    })

    it("answers 400 with one validation per bad field", async () => {
      expectValidations(await owner.post("/users", {}), ["email", "username"])
      expectValidations(
        await owner.post("/users", {
          email: "nope",
          username: "has space",
          name: "x".repeat(200),
          password: STRONG_PASSWORD
        }),
        ["email", "username", "name"]
      )
      expectValidations(
        await owner.post("/users", {
          email: "o@example.com",
          username: "o",
          password: STRONG_PASSWORD,
          organization_ids: ["nope"],
          user_status: "gone"
        }),
        ["organization_ids.0", "user_status"]
      )
    })

    it("answers 400 for a reserved username", async () => {
      expectValidations(
        await owner.post("/users", { email: "me@example.com", username: "me", password: STRONG_PASSWORD }),
        ["username"]
      )
    })

    it("accepts the implicit member role without storing it", async () => {
      const r = await owner.post("/users", {
        email: "im@example.com",
        username: "implicit-member",
        password: STRONG_PASSWORD,
        roles: ["member", "auditor"]
      })
      expect(r.status).toBe(201)
      expect(r.body.roles.map((x: any) => x.name)).toEqual(["auditor"])
    })

    it("answers 400 once for several unknown roles", async () => {
      const r = await owner.post("/users", {
        email: "r@example.com",
        username: "many-roles",
        password: STRONG_PASSWORD,
        roles: ["boss", "king"]
      })
      expectValidations(r, ["roles"])
    })

    it("answers 400 for a password with a non-password login type", async () => {
      const r = await owner.post("/users", {
        email: "g@example.com",
        username: "gh",
        password: STRONG_PASSWORD,
        login_type: "github"
      })
      expectValidations(r, ["password"])
    })

    it("answers 400 for login types that cannot be given to new users", async () => {
      for (const login_type of ["token", "oidc"]) {
        const r = await owner.post("/users", {
          email: `${login_type}@example.com`,
          username: `lt-${login_type}`,
          login_type
        })
        expectValidations(r, ["login_type"])
      }
    })

    it("answers 400 for an unknown organization", async () => {
      const r = await owner.post("/users", {
        email: "u@example.com",
        username: "orgless",
        password: STRONG_PASSWORD,
        organization_ids: [UNKNOWN_ID]
      })
      expectValidations(r, ["organization_ids"])
    })

    it("answers 403 to a plain member", async () => {
      const r = await member.client.post("/users", {
        email: "m@example.com",
        username: "bymember",
        password: STRONG_PASSWORD
      })
      expectResponse(r, 403)
    })

    it("does not let a user admin create an owner", async () => {
      const admin = await createUser(owner, { username: "useradmin", roles: ["user-admin"] })
      const denied = await admin.client.post("/users", {
        email: "o2@example.com",
        username: "newowner",
        password: STRONG_PASSWORD,
        roles: ["owner"]
      })
      expectResponse(denied, 403)
      const allowed = await admin.client.post("/users", {
        email: "ta@example.com",
        username: "tadmin",
        password: STRONG_PASSWORD,
        roles: ["template-admin"]
      })
      expect(allowed.status).toBe(201)
    })

    it("requires a token", async () => {
      expectResponse(
        await srv.anonymous.post("/users", { email: "x@example.com", username: "x", password: STRONG_PASSWORD }),
        401
      )
    })
  })

  describe("GET /users", () => {
    let listed: Array<TestUser>
    beforeAll(async () => {
      listed = []
      for (const name of ["zeta-search", "eta-search", "theta-search"]) {
        listed.push(await createUser(owner, { username: name }))
      }
    })

    it("lists users with a count", async () => {
      const r = await owner.get("/users")
      expect(r.status).toBe(200)
      expect(Object.keys(r.body).sort()).toEqual(["count", "users"])
      expect(r.body.count).toBe(r.body.users.length)
      for (const u of r.body.users) expectUser(u)
      const names = r.body.users.map((u: any) => u.username)
      expect(names).toContain("admin")
      expect(names).toContain("member-one")
      expect([...names]).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b)))
      const admin = r.body.users.find((u: any) => u.username === "admin")
      expect(admin.roles).toEqual([{ name: "owner", display_name: "Owner" }])
      expect(admin.organization_ids).toEqual([orgId])
    })

    it("lets a plain member list users", async () => {
      const r = await member.client.get("/users")
      expect(r.status).toBe(200)
      expect(r.body.users.length).toBeGreaterThan(1)
    })

    it("filters by username and email", async () => {
      const byName = await owner.get("/users?q=username:eta-search")
      expect(byName.status).toBe(200)
      expect(byName.body.users.map((u: any) => u.username)).toEqual(["eta-search"])
      expect(byName.body.count).toBe(1)
      const byEmail = await owner.get(`/users?q=${encodeURIComponent("email:ZETA-search@example.com")}`)
      expect(byEmail.body.users.map((u: any) => u.username)).toEqual(["zeta-search"])
    })

    it("filters by status", async () => {
      const suspended = await owner.get("/users?q=status:suspended")
      expect(suspended.status).toBe(200)
      expect(suspended.body.users.length).toBeGreaterThan(0)
      for (const u of suspended.body.users) expect(u.status).toBe("suspended")
      const active = await owner.get("/users?q=status:active")
      for (const u of active.body.users) expect(u.status).toBe("active")
      expect(active.body.count + suspended.body.count).toBe((await owner.get("/users")).body.count)
    })

    it("filters by role", async () => {
      const r = await owner.get("/users?q=role:owner")
      expect(r.status).toBe(200)
      expect(r.body.users.map((u: any) => u.id)).toEqual([ownerId])
    })

    it("searches free text in usernames and emails", async () => {
      const r = await owner.get("/users?q=search")
      expect(r.status).toBe(200)
      expect(r.body.users.map((u: any) => u.username)).toEqual(["eta-search", "theta-search", "zeta-search"])
      const combined = await owner.get(`/users?q=${encodeURIComponent("eta status:active")}`)
      expect(combined.body.users.map((u: any) => u.username)).toEqual(["eta-search", "theta-search", "zeta-search"])
      const none = await owner.get("/users?q=nothing-matches-this")
      expect(none.body).toEqual({ count: 0, users: [] })
    })

    it("pages with limit and offset", async () => {
      const all = (await owner.get("/users?q=search")).body.users.map((u: any) => u.username)
      const first = await owner.get("/users?q=search&limit=2")
      expect(first.body.users.map((u: any) => u.username)).toEqual(all.slice(0, 2))
      expect(first.body.count).toBe(3)
      const second = await owner.get("/users?q=search&limit=2&offset=2")
      expect(second.body.users.map((u: any) => u.username)).toEqual(all.slice(2))
    })

    it("pages after a cursor", async () => {
      const all = (await owner.get("/users?q=search")).body.users
      const r = await owner.get(`/users?q=search&after_id=${all[0].id}`)
      expect(r.status).toBe(200)
      expect(r.body.users.map((u: any) => u.username)).toEqual(all.slice(1).map((u: any) => u.username))
    })

    it("answers 400 for an unknown search key", async () => {
      const r = await owner.get("/users?q=color:blue")
      expectValidations(r, ["q"])
    })

    it("answers 400 for an unknown status", async () => {
      expectValidations(await owner.get("/users?q=status:sleeping"), ["q"])
    })

    it("answers 400 for bad pagination parameters", async () => {
      expectValidations(await owner.get("/users?limit=abc"), ["limit"])
      expectValidations(await owner.get("/users?limit=-1&offset=1.5"), ["limit", "offset"])
      expectValidations(await owner.get("/users?after_id=not-a-uuid"), ["after_id"])
      expectValidations(await owner.get(`/users?after_id=${UNKNOWN_ID}`), ["after_id"])
    })

    it("never fails on odd search text", async () => {
      for (const q of ["%", "_", "'", "\"unterminated", "a:b:c", "email:%"]) {
        const r = await owner.get(`/users?q=${encodeURIComponent(q)}`)
        expect([200, 400]).toContain(r.status)
      }
    })

    it("requires a token", async () => {
      expectResponse(await srv.anonymous.get("/users"), 401)
    })
  })

  describe("GET /users/{user}", () => {
    it("finds a user by id, username and me", async () => {
      const byId = await owner.get(`/users/${member.user.id}`)
      expect(byId.status).toBe(200)
      expectUser(byId.body)
      expect(byId.body.id).toBe(member.user.id)
      expect(byId.body.username).toBe("member-one")
      expect(byId.body.email).toBe(member.email)
      expect(byId.body.roles).toEqual([])
      expect(byId.body.organization_ids).toEqual([orgId])
      expect((await owner.get("/users/member-one")).body.id).toBe(member.user.id)
      expect((await owner.get("/users/MEMBER-ONE")).body.id).toBe(member.user.id)
      expect((await owner.get(`/users/${member.user.id.toUpperCase()}`)).body.id).toBe(member.user.id)
      const me = await member.client.get("/users/me")
      expect(me.body.id).toBe(member.user.id)
    })

    it("shows another user to a plain member", async () => {
      const r = await member.client.get(`/users/${other.username}`)
      expect(r.status).toBe(200)
      expect(r.body.id).toBe(other.user.id)
    })

    it("answers 404 for an unknown user", async () => {
      expectResponse(await owner.get("/users/nobody-here"), 404)
      expectResponse(await owner.get(`/users/${UNKNOWN_ID}`), 404)
    })

    it("requires a token", async () => {
      expectResponse(await srv.anonymous.get("/users/me"), 401)
    })
  })

  describe("DELETE /users/{user}", () => {
    it("deletes a user, who then disappears and whose tokens stop working", async () => {
      const doomed = await createUser(owner, { username: "doomed" })
      const token = await tokenClient(doomed.client, { token_name: "doomed-token" })
      expect((await token.get("/users/me")).status).toBe(200)

      const r = await owner.delete(`/users/${doomed.user.id}`)
      expect(r.status).toBe(200)
      expect(r.body).toBeUndefined()

      expectResponse(await owner.get(`/users/${doomed.user.id}`), 404)
      expectResponse(await owner.get("/users/doomed"), 404)
      expect((await owner.get("/users?q=username:doomed")).body.count).toBe(0)
      expectResponse(await doomed.client.get("/users/me"), 401)
      expectResponse(await token.get("/users/me"), 401)
      expectResponse(await login(srv, doomed.email), 401)
      expectResponse(await owner.delete(`/users/${doomed.user.id}`), 404)
    })

    it("frees the username and email of a deleted user", async () => {
      const first = await createUser(owner, { username: "reborn" })
      expect((await owner.delete("/users/reborn")).status).toBe(200)
      const again = await owner.post("/users", { email: first.email, username: "reborn", password: STRONG_PASSWORD })
      expect(again.status).toBe(201)
      expect(again.body.id).not.toBe(first.user.id)
    })

    it("refuses to delete the caller with 403", async () => {
      const r = await owner.delete("/users/me")
      expectResponse(r, 403)
      expect(r.body.message).toBe("You cannot delete yourself.")
      expect((await owner.get("/users/me")).status).toBe(200)
    })

    it("answers 403 to a plain member deleting someone else", async () => {
      expectResponse(await member.client.delete(`/users/${other.user.id}`), 403)
      expect((await owner.get(`/users/${other.user.id}`)).status).toBe(200)
    })

    it("answers 404 for an unknown user", async () => {
      expectResponse(await owner.delete(`/users/${UNKNOWN_ID}`), 404)
      expectResponse(await owner.delete("/users/nobody-here"), 404)
    })

    it("requires a token", async () => {
      expectResponse(await srv.anonymous.delete(`/users/${other.user.id}`), 401)
    })
  })

  describe("appearance", () => {
    it("starts empty", async () => {
      const r = await other.client.get("/users/me/appearance")
      expect(r.status).toBe(200)
      expect(r.body).toEqual({
        terminal_font: "",
        theme_dark: "",
        theme_light: "",
        theme_mode: "",
        theme_preference: ""
      })
    })

    it("stores and returns new settings", async () => {
      const settings = {
        terminal_font: "fira-code",
        theme_dark: "dark",
        theme_light: "light",
        theme_mode: "sync",
        theme_preference: "dark"
      }
      const r = await member.client.put("/users/me/appearance", settings)
      expect(r.status).toBe(200)
      expect(r.body).toEqual(settings)
      expect((await member.client.get("/users/me/appearance")).body).toEqual(settings)
      expect((await owner.get(`/users/${member.user.id}/appearance`)).body).toEqual(settings)
      expect((await member.client.get("/users/me")).body.theme_preference).toBe("dark")
    })

    it("lets the owner change another user's settings", async () => {
      const r = await owner.put(`/users/${other.username}/appearance`, { theme_preference: "light" })
      expect(r.status).toBe(200)
      expect(r.body.theme_preference).toBe("light")
      expect(r.body.terminal_font).toBe("")
    })

    it("hides another user's settings from a plain member with 404", async () => {
      expectResponse(await member.client.get(`/users/${other.user.id}/appearance`), 404)
    })

    it("refuses a plain member changing another user's settings with 403", async () => {
      expectResponse(await member.client.put(`/users/${other.user.id}/appearance`, { theme_preference: "light" }), 403)
    })

    it("answers 404 for an unknown user", async () => {
      expectResponse(await owner.get(`/users/${UNKNOWN_ID}/appearance`), 404)
      expectResponse(await owner.put("/users/nobody-here/appearance", { theme_preference: "light" }), 404)
    })

    it("answers 400 with one validation per bad field", async () => {
      expectValidations(
        await member.client.put("/users/me/appearance", { terminal_font: "comic-sans", theme_dark: "x".repeat(100) }),
        ["terminal_font", "theme_dark"]
      )
      expectValidations(await member.client.put("/users/me/appearance", { theme_preference: 5 }), ["theme_preference"])
    })

    it("requires a token", async () => {
      expectResponse(await srv.anonymous.get("/users/me/appearance"), 401)
      expectResponse(await srv.anonymous.put("/users/me/appearance", { theme_preference: "light" }), 401)
    })
  })

  describe("git SSH key", () => {
    it("makes an ed25519 key on first read and keeps it", async () => {
      const r = await member.client.get("/users/me/gitsshkey")
      expect(r.status).toBe(200)
      expect(Object.keys(r.body).sort()).toEqual(["created_at", "public_key", "updated_at", "user_id"])
      expect(r.body.user_id).toBe(member.user.id)
      expect(r.body.public_key.startsWith("ssh-ed25519 ")).toBe(true)
      expect(r.body.public_key).not.toMatch(/PRIVATE/)
      expect(r.body.created_at).toMatch(ISO_DATE_PATTERN)
      expect(r.body.updated_at).toMatch(ISO_DATE_PATTERN)
      const again = await member.client.get(`/users/${member.username}/gitsshkey`)
      expect(again.body).toEqual(r.body)
    })

    it("regenerates a different key on PUT", async () => {
      const before = (await member.client.get("/users/me/gitsshkey")).body
      const r = await member.client.put("/users/me/gitsshkey")
      expect(r.status).toBe(200)
      expect(r.body.user_id).toBe(member.user.id)
      expect(r.body.public_key.startsWith("ssh-ed25519 ")).toBe(true)
      expect(r.body.public_key).not.toBe(before.public_key)
      expect(r.body.created_at).toBe(before.created_at)
      expect(Date.parse(r.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.updated_at))
      expect((await member.client.get("/users/me/gitsshkey")).body.public_key).toBe(r.body.public_key)
    })

    it("lets the owner read another user's public key", async () => {
      const r = await owner.get(`/users/${member.user.id}/gitsshkey`)
      expect(r.status).toBe(200)
      expect(r.body.user_id).toBe(member.user.id)
    })

    it("hides another user's key from a plain member with 404", async () => {
      expectResponse(await member.client.get(`/users/${other.user.id}/gitsshkey`), 404)
    })

    it("refuses a plain member regenerating another user's key with 403", async () => {
      expectResponse(await member.client.put(`/users/${other.user.id}/gitsshkey`), 403)
    })

    it("answers 404 for an unknown user", async () => {
      expectResponse(await owner.get(`/users/${UNKNOWN_ID}/gitsshkey`), 404)
      expectResponse(await owner.put(`/users/${UNKNOWN_ID}/gitsshkey`), 404)
    })

    it("requires a token", async () => {
      expectResponse(await srv.anonymous.get("/users/me/gitsshkey"), 401)
      expectResponse(await srv.anonymous.put("/users/me/gitsshkey"), 401)
    })
  })

  describe("quiet hours", () => {
    it("reports the deployment default until the user sets one", async () => {
      const r = await member.client.get("/users/me/quiet-hours")
      expect(r.status).toBe(200)
      expect(r.body).toHaveLength(1)
      const [entry] = r.body
      expect(Object.keys(entry).sort()).toEqual([
        "next",
        "raw_schedule",
        "time",
        "timezone",
        "user_can_set",
        "user_set"
      ])
      expect(entry).toMatchObject({
        raw_schedule: "CRON_TZ=UTC 0 0 * * *",
        time: "00:00",
        timezone: "UTC",
        user_can_set: true,
        user_set: false
      })
      expect(entry.next).toMatch(ISO_DATE_PATTERN)
      const next = Date.parse(entry.next)
      expect(next).toBeGreaterThan(Date.now() - 1000)
      expect(next).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000)
      expect(new Date(next).getUTCHours()).toBe(0)
      expect(new Date(next).getUTCMinutes()).toBe(0)
    })

    it("sets a schedule with a time zone", async () => {
      const schedule = "CRON_TZ=Europe/Berlin 30 2 * * *"
      const r = await member.client.put("/users/me/quiet-hours", { schedule })
      expect(r.status).toBe(200)
      expect(r.body).toHaveLength(1)
      expect(r.body[0]).toMatchObject({
        raw_schedule: schedule,
        time: "02:30",
        timezone: "Europe/Berlin",
        user_can_set: true,
        user_set: true
      })
      const next = new Date(r.body[0].next)
      expect(next.getTime()).toBeGreaterThan(Date.now())
      expect(next.getTime()).toBeLessThanOrEqual(Date.now() + 25 * 3_600_000)
      const berlin = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Berlin", hour: "2-digit", minute: "2-digit" })
        .format(next)
      expect(berlin).toBe("02:30")
      expect((await member.client.get(`/users/${member.user.id}/quiet-hours`)).body[0].raw_schedule).toBe(schedule)
    })

    it("takes UTC when no time zone is given", async () => {
      const r = await member.client.put("/users/me/quiet-hours", { schedule: "15 22 * * *" })
      expect(r.status).toBe(200)
      expect(r.body[0]).toMatchObject({ time: "22:15", timezone: "UTC", user_set: true })
    })

    it("returns to the default with an empty schedule", async () => {
      const r = await member.client.put("/users/me/quiet-hours", { schedule: "" })
      expect(r.status).toBe(200)
      expect(r.body[0]).toMatchObject({ raw_schedule: "CRON_TZ=UTC 0 0 * * *", user_set: false })
    })

    it("answers 400 on schedule for a bad schedule", async () => {
      for (
        const schedule of [
          "not a cron",
          "60 25 * * *",
          "*/5 * * * *",
          "0 0 1 * *",
          "0 0 * * * *",
          "CRON_TZ=Mars/Olympus 0 0 * * *",
          "CRON_TZ=UTC+5 0 0 * * *"
        ]
      ) {
        const r = await member.client.put("/users/me/quiet-hours", { schedule })
        expectValidations(r, ["schedule"])
      }
    })

    it("says why a schedule is refused, in the described system's words (the workspaces' schedule rules)", async () => {
      const detail = async (schedule: string) => {
        const r = await member.client.put("/users/me/quiet-hours", { schedule })
        expectValidations(r, ["schedule"])
        expect(r.body.message).toBe("Invalid quiet hours schedule.")
        return r.body.validations[0].detail
      }
      expect(await detail("0 0 * * 1")).toBe(
        "parse daily schedule \"0 0 * * 1\": validate daily schedule: expected day-of-month, month and day-of-week to be *"
      )
      expect(await detail("CRON_TZ=Mars/Olympus 0 0 * * *")).toBe(
        "parse daily schedule \"CRON_TZ=Mars/Olympus 0 0 * * *\": parse schedule: provided bad location Mars/Olympus: unknown time zone Mars/Olympus"
      )
      expect(await detail("61 0 * * *")).toBe(
        "parse daily schedule \"61 0 * * *\": parse schedule: end of range (61) above maximum (59): 61"
      )
      expect(await detail("0,30 9 * * *")).toBe("daily schedule \"0,30 9 * * *\" has more than one time: cron(0,30 9)")
    })

    it("answers 400 on schedule when it is missing", async () => {
      expectValidations(await member.client.put("/users/me/quiet-hours", {}), ["schedule"])
    })

    it("hides another user's schedule from a plain member with 404", async () => {
      expectResponse(await member.client.get(`/users/${other.user.id}/quiet-hours`), 404)
    })

    it("refuses a plain member changing another user's schedule with 403", async () => {
      expectResponse(await member.client.put(`/users/${other.user.id}/quiet-hours`, { schedule: "0 1 * * *" }), 403)
    })

    it("lets the owner read and set another user's schedule", async () => {
      const r = await owner.put(`/users/${other.user.id}/quiet-hours`, { schedule: "0 3 * * *" })
      expect(r.status).toBe(200)
      expect((await owner.get(`/users/${other.user.id}/quiet-hours`)).body[0].time).toBe("03:00")
    })

    it("answers 404 for an unknown user", async () => {
      expectResponse(await owner.get(`/users/${UNKNOWN_ID}/quiet-hours`), 404)
      expectResponse(await owner.put(`/users/${UNKNOWN_ID}/quiet-hours`, { schedule: "0 1 * * *" }), 404)
    })

    it("requires a token", async () => {
      expectResponse(await srv.anonymous.get("/users/me/quiet-hours"), 401)
      expectResponse(await srv.anonymous.put("/users/me/quiet-hours", { schedule: "0 1 * * *" }), 401)
    })
  })

  describe("malformed input", () => {
    it("never answers with a server error", async () => {
      const paths = [
        "/users/me",
        `/users/${other.user.id}`,
        "/users/nobody-here",
        "/users/%20",
        "/users/me%00",
        "/users/..%2F.."
      ]
      const routes: Array<readonly [string, string]> = [
        ["GET", "/users"],
        ["POST", "/users"],
        ["GET", "/users?q=%00&limit=99999999999&offset=9007199254740991"],
        ["GET", `/users?q=${"a:".repeat(500)}`],
        ["GET", "/users?after_id=00000000-0000-0000-0000-000000000000"],
        ["GET", "/users?q=status:%20"]
      ]
      for (const p of paths) {
        routes.push(
          ["GET", p],
          ["GET", `${p}/appearance`],
          ["PUT", `${p}/appearance`],
          ["GET", `${p}/gitsshkey`],
          ["GET", `${p}/quiet-hours`],
          ["PUT", `${p}/quiet-hours`],
          ["GET", `${p}/autofill-parameters?template_id=&template_id=x`]
        )
      }
      await expectNoServerErrors(member.client, routes)
      await expectNoServerErrors(owner, routes.filter(([m]) => m !== "DELETE"))
      await expectNoServerErrors(owner, [["DELETE", "/users/nobody-here"], ["DELETE", "/users/%20"], [
        "DELETE",
        "/users/me%00"
      ]])
      expect((await member.client.get("/users/me")).status).toBe(200)
    })
  })

  describe("autofill parameters", () => {
    it("answers an empty list before any build", async () => {
      const r = await member.client.get(`/users/me/autofill-parameters?template_id=${TEMPLATE_ID}`)
      expect(r.status).toBe(200)
      expect(r.body).toEqual([])
    })

    it("answers 400 on template_id when it is missing or not a uuid", async () => {
      expectValidations(await member.client.get("/users/me/autofill-parameters"), ["template_id"])
      expectValidations(await member.client.get("/users/me/autofill-parameters?template_id=abc"), ["template_id"])
    })

    it("hides another user's parameters from a plain member with 404", async () => {
      expectResponse(
        await member.client.get(`/users/${other.user.id}/autofill-parameters?template_id=${TEMPLATE_ID}`),
        404
      )
    })

    it("answers 404 for an unknown user", async () => {
      expectResponse(await owner.get(`/users/${UNKNOWN_ID}/autofill-parameters?template_id=${TEMPLATE_ID}`), 404)
    })

    it("requires a token", async () => {
      expectResponse(await srv.anonymous.get(`/users/me/autofill-parameters?template_id=${TEMPLATE_ID}`), 401)
    })
  })
})
