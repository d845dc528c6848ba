/**
 * Black-box tests of API keys: session keys, long-lived tokens (lifetimes in
 * nanoseconds), token config, lookup by name and id, deletion and expiry.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createUser,
  expectNoServerErrors,
  expectResponse,
  expectValidations,
  ISO_DATE_PATTERN,
  startWithOwner,
  type TestServer,
  type TestUser,
  tokenClient,
  UNKNOWN_ID,
  UUID_PATTERN
} from "../support.js"

const NS_PER_SECOND = 1_000_000_000
const DAY_NS = 86_400 * NS_PER_SECOND
const TOKEN_PATTERN = /^[A-Za-z0-9]{10}-[A-Za-z0-9]{22}$/

const keyIdOf = (token: string) => token.split("-")[0]!

const API_KEY_FIELDS = [
  "allow_list",
  "created_at",
  "expires_at",
  "id",
  "last_used",
  "lifetime_seconds",
  "login_type",
  "scope",
  "scopes",
  "token_name",
  "updated_at",
  "user_id"
]

/** Every field of an API key, checked against the spec; list items also name their owner. */
const expectApiKey = (k: any, withOwner = false) => {
  expect(Object.keys(k).sort()).toEqual([...API_KEY_FIELDS, ...(withOwner ? ["username"] : [])].sort())
  if (withOwner) expect(typeof k.username).toBe("string")
  expect(typeof k.id).toBe("string")
  expect(k.user_id).toMatch(UUID_PATTERN)
  for (const field of ["created_at", "updated_at", "expires_at", "last_used"]) {
    expect(k[field]).toMatch(ISO_DATE_PATTERN)
  }
  expect(Number.isInteger(k.lifetime_seconds)).toBe(true)
  expect(["github", "oidc", "password", "token"]).toContain(k.login_type)
  expect(["all", "application_connect"]).toContain(k.scope)
  expect(Array.isArray(k.scopes)).toBe(true)
  expect(typeof k.token_name).toBe("string")
  for (const entry of k.allow_list) expect(Object.keys(entry).sort()).toEqual(["id", "type"])
}

describe("api keys", () => {
  let srv: TestServer
  let owner: Client
  let member: TestUser
  let other: TestUser
  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner())
    member = await createUser(owner, { username: "keyholder" })
    other = await createUser(owner, { username: "bystander" })
  })
  afterAll(() => srv.close())

  describe("POST /users/{user}/keys", () => {
    it("answers 201 with a session key that authenticates", async () => {
      const r = await member.client.post("/users/me/keys")
      expect(r.status).toBe(201)
      expect(Object.keys(r.body)).toEqual(["key"])
      expect(r.body.key).toMatch(TOKEN_PATTERN)
      const me = await srv.anonymous.as(r.body.key).get("/users/me")
      expect(me.status).toBe(200)
      expect(me.body.id).toBe(member.user.id)
      const key = await member.client.get(`/users/me/keys/${keyIdOf(r.body.key)}`)
      expect(key.status).toBe(200)
      expect(key.body.login_type).toBe("password")
    })

    it("lets the owner make a key for another user", async () => {
      const r = await owner.post(`/users/${other.username}/keys`)
      expect(r.status).toBe(201)
      expect((await srv.anonymous.as(r.body.key).get("/users/me")).body.id).toBe(other.user.id)
    })

    it("refuses a plain member making a key for someone else with 403", async () => {
      expectResponse(await member.client.post(`/users/${other.user.id}/keys`), 403)
    })

    it("answers 404 for an unknown user", async () => {
      expectResponse(await owner.post(`/users/${UNKNOWN_ID}/keys`), 404)
    })

    it("requires a token", async () => {
      expectResponse(await srv.anonymous.post("/users/me/keys"), 401)
    })
  })

  describe("POST /users/{user}/keys/tokens", () => {
    it("answers 201 with a secret shown only once", async () => {
      const r = await member.client.post("/users/me/keys/tokens", { token_name: "ci", lifetime: 3600 * NS_PER_SECOND })
      expect(r.status).toBe(201)
      expect(Object.keys(r.body)).toEqual(["key"])
      expect(r.body.key).toMatch(TOKEN_PATTERN)
      const me = await srv.anonymous.as(r.body.key).get("/users/me")
      expect(me.status).toBe(200)
      expect(me.body.id).toBe(member.user.id)

      const listing = await member.client.get("/users/me/keys/tokens")
      const secret = r.body.key.split("-")[1]
      expect(JSON.stringify(listing.body)).not.toContain(secret)
      const byName = await member.client.get("/users/me/keys/tokens/ci")
      expect(JSON.stringify(byName.body)).not.toContain(secret)
      expect(byName.body.key).toBeUndefined()
    })

    it("records the token's fields, the lifetime given in nanoseconds", async () => {
      const before = Date.now()
      const r = await member.client.post("/users/me/keys/tokens", {
        token_name: "deploy.bot_1",
        lifetime: 7200 * NS_PER_SECOND,
        scopes: ["application_connect"],
        allow_list: [{ type: "workspace", id: UNKNOWN_ID }]
      })
      expect(r.status).toBe(201)
      const k = (await member.client.get("/users/me/keys/tokens/deploy.bot_1")).body
      expectApiKey(k)
      expect(k.id).toBe(keyIdOf(r.body.key))
      expect(k.user_id).toBe(member.user.id)
      expect(k.token_name).toBe("deploy.bot_1")
      expect(k.login_type).toBe("token")
      expect(k.lifetime_seconds).toBe(7200)
      expect(k.scopes).toEqual(["application_connect"])
      expect(k.scope).toBe("application_connect")
      expect(k.allow_list).toEqual([{ type: "workspace", id: UNKNOWN_ID }])
      const created = Date.parse(k.created_at)
      expect(created).toBeGreaterThanOrEqual(before - 1000)
      expect(Date.parse(k.expires_at) - created).toBe(7200 * 1000)
      expect(Date.parse(k.last_used)).toBeGreaterThanOrEqual(created)
    })

    it("takes defaults for name, lifetime, scope and allow list", async () => {
      const r = await member.client.post("/users/me/keys/tokens", {})
      expect(r.status).toBe(201)
      const k = (await member.client.get(`/users/me/keys/${keyIdOf(r.body.key)}`)).body
      expectApiKey(k)
      expect(k.token_name.length).toBeGreaterThan(0)
      expect(k.lifetime_seconds).toBe(30 * 86_400)
      expect(k.scope).toBe("all")
      expect(k.scopes).toEqual(["all"])
      expect(k.allow_list).toEqual([{ type: "*", id: "*" }])
    })

    it("accepts the deprecated scope field", async () => {
      const r = await member.client.post("/users/me/keys/tokens", {
        token_name: "legacy",
        scope: "application_connect"
      })
      expect(r.status).toBe(201)
      const k = (await member.client.get("/users/me/keys/tokens/legacy")).body
      expect(k.scopes).toEqual(["application_connect"])
      expect(k.scope).toBe("application_connect")
    })

    it("answers 409 for a duplicate token name", async () => {
      expect((await member.client.post("/users/me/keys/tokens", { token_name: "twice" })).status).toBe(201)
      const r = await member.client.post("/users/me/keys/tokens", { token_name: "twice" })
      expectValidations(r, ["token_name"], 409)
    })

    it("allows the same token name for different users", async () => {
      expect((await other.client.post("/users/me/keys/tokens", { token_name: "twice" })).status).toBe(201)
    })

    it("answers 400 on lifetime above the member's maximum", async () => {
      const r = await member.client.post("/users/me/keys/tokens", { token_name: "toolong", lifetime: 31 * DAY_NS })
      expectValidations(r, ["lifetime"])
      expect(r.body.validations[0].detail).toMatch(/at most/)
      expect(
        (await member.client.post("/users/me/keys/tokens", { token_name: "justright", lifetime: 30 * DAY_NS })).status
      ).toBe(201)
    })

    it("lets an owner use the longer admin maximum", async () => {
      const r = await owner.post("/users/me/keys/tokens", { token_name: "admin-long", lifetime: 200 * DAY_NS })
      expect(r.status).toBe(201)
      expect((await owner.get("/users/me/keys/tokens/admin-long")).body.lifetime_seconds).toBe(200 * 86_400)
      expectValidations(
        await owner.post("/users/me/keys/tokens", { token_name: "admin-too-long", lifetime: 400 * DAY_NS }),
        ["lifetime"]
      )
    })

    it("answers 400 on lifetime for negative, fractional, tiny or absurd values", async () => {
      for (const lifetime of [-1, 1.5, 1000, 1e30, "1h"]) {
        expectValidations(await member.client.post("/users/me/keys/tokens", { token_name: "bad-lifetime", lifetime }), [
          "lifetime"
        ])
      }
    })

    it("answers 400 with one validation per bad field", async () => {
      expectValidations(await member.client.post("/users/me/keys/tokens", { scopes: ["all", "root", "god"] }), [
        "scopes"
      ])
      expectValidations(await member.client.post("/users/me/keys/tokens", { scope: "root" }), ["scope"])
      expectValidations(
        await member.client.post("/users/me/keys/tokens", {
          token_name: "has space",
          allow_list: [{ type: "planet", id: "*" }]
        }),
        ["token_name", "allow_list.0.type"]
      )
      // An allow-list id is a UUID or "*".
      expectValidations(
        await member.client.post("/users/me/keys/tokens", {
          allow_list: [{ type: "user", id: "*" }, { type: "user", id: "bob" }]
        }),
        ["allow_list.1.id"]
      )
      expectValidations(await member.client.post("/users/me/keys/tokens", { token_name: "x".repeat(65) }), [
        "token_name"
      ])
    })

    it("lets the owner make a token for another user", async () => {
      const r = await owner.post(`/users/${other.user.id}/keys/tokens`, { token_name: "for-other" })
      expect(r.status).toBe(201)
      expect((await srv.anonymous.as(r.body.key).get("/users/me")).body.id).toBe(other.user.id)
    })

    it("refuses a plain member making a token for someone else with 403", async () => {
      expectResponse(await member.client.post(`/users/${other.user.id}/keys/tokens`, { token_name: "sneaky" }), 403)
    })

    it("answers 404 for an unknown user", async () => {
      expectResponse(await owner.post("/users/nobody-here/keys/tokens", { token_name: "x" }), 404)
    })

    it("requires a token", async () => {
      expectResponse(await srv.anonymous.post("/users/me/keys/tokens", { token_name: "x" }), 401)
    })
  })

  describe("GET /users/{user}/keys/tokens", () => {
    let lister: TestUser
    beforeAll(async () => {
      lister = await createUser(owner, { username: "lister" })
    })

    it("lists the user's tokens, newest first, without session keys", async () => {
      expect((await lister.client.post("/users/me/keys/tokens", { token_name: "first" })).status).toBe(201)
      await new Promise((resolve) => setTimeout(resolve, 5))
      expect((await lister.client.post("/users/me/keys/tokens", { token_name: "second" })).status).toBe(201)
      expect((await lister.client.post("/users/me/keys")).status).toBe(201)
      const r = await lister.client.get("/users/me/keys/tokens")
      expect(r.status).toBe(200)
      expect(r.body.map((k: any) => k.token_name)).toEqual(["second", "first"])
      for (const k of r.body) {
        expectApiKey(k, true)
        expect(k.login_type).toBe("token")
        expect(k.user_id).toBe(lister.user.id)
        expect(k.username).toBe("lister")
      }
    })

    it("reports last_used for each token", async () => {
      const r = await lister.client.get("/users/me/keys/tokens")
      for (const k of r.body) {
        expect(k.last_used).toMatch(ISO_DATE_PATTERN)
        expect(Date.parse(k.last_used)).toBeLessThanOrEqual(Date.now())
      }
    })

    it("lets the owner list another user's tokens", async () => {
      const r = await owner.get(`/users/${lister.username}/keys/tokens`)
      expect(r.status).toBe(200)
      expect(r.body.map((k: any) => k.token_name)).toEqual(["second", "first"])
      expect(r.body.map((k: any) => k.username)).toEqual(["lister", "lister"])
    })

    it("hides another user's tokens from a plain member with 404", async () => {
      expectResponse(await member.client.get(`/users/${lister.user.id}/keys/tokens`), 404)
    })

    it("answers 404 for an unknown user", async () => {
      expectResponse(await owner.get(`/users/${UNKNOWN_ID}/keys/tokens`), 404)
    })

    it("answers 400 for a bad include_expired", async () => {
      expectValidations(await lister.client.get("/users/me/keys/tokens?include_expired=maybe"), ["include_expired"])
    })

    it("answers 400 for a bad include_all, one validation per bad field", async () => {
      expectValidations(await lister.client.get("/users/me/keys/tokens?include_all=maybe"), ["include_all"])
      expectValidations(await owner.get("/users/me/keys/tokens?include_all=yes&include_expired=2"), [
        "include_all",
        "include_expired"
      ])
    })

    it("requires a token", async () => {
      expectResponse(await srv.anonymous.get("/users/me/keys/tokens"), 401)
    })
  })

  describe("GET /users/{user}/keys/tokens?include_all=true", () => {
    let alpha: TestUser
    let beta: TestUser
    let alphaToken: string
    let betaToken: string
    beforeAll(async () => {
      alpha = await createUser(owner, { username: "all-alpha" })
      beta = await createUser(owner, { username: "all-beta" })
      alphaToken = (await alpha.client.post("/users/me/keys/tokens", { token_name: "alpha-token" })).body.key
      betaToken = (await beta.client.post("/users/me/keys/tokens", { token_name: "beta-token" })).body.key
      expect((await beta.client.post("/users/me/keys")).status).toBe(201)
    })

    const idsOf = (body: any) => body.map((k: any) => k.id)

    it("lets the owner list every user's tokens, each with its owner's username, newest first", async () => {
      const r = await owner.get("/users/me/keys/tokens?include_all=true")
      expect(r.status).toBe(200)
      const byId = new Map(r.body.map((k: any) => [k.id, k]))
      expect(byId.get(keyIdOf(alphaToken))).toMatchObject({
        token_name: "alpha-token",
        user_id: alpha.user.id,
        username: "all-alpha"
      })
      expect(byId.get(keyIdOf(betaToken))).toMatchObject({
        token_name: "beta-token",
        user_id: beta.user.id,
        username: "all-beta"
      })
      for (const k of r.body) {
        expectApiKey(k, true)
        expect(k.login_type).toBe("token")
      }
      const created = r.body.map((k: any) => Date.parse(k.created_at))
      expect(created).toEqual([...created].sort((a, b) => b - a))
      // The path names whom to check, not whose tokens: any user the owner may read lists the same.
      expect(idsOf((await owner.get(`/users/${alpha.username}/keys/tokens?include_all=true`)).body)).toEqual(
        idsOf(r.body)
      )
    })

    it("lists only the member's own tokens to a plain member", async () => {
      const r = await alpha.client.get("/users/me/keys/tokens?include_all=true")
      expect(r.status).toBe(200)
      expect(r.body.map((k: any) => [k.token_name, k.username])).toEqual([["alpha-token", "all-alpha"]])
    })

    it("is the user's own list when false, empty or absent", async () => {
      const own = idsOf((await beta.client.get("/users/me/keys/tokens")).body)
      expect(own).toEqual([keyIdOf(betaToken)])
      for (const q of ["include_all=false", "include_all=", "include_all=0"]) {
        expect(idsOf((await beta.client.get(`/users/me/keys/tokens?${q}`)).body), q).toEqual(own)
      }
      const mine = await owner.get("/users/me/keys/tokens?include_all=false")
      expect(idsOf(mine.body)).not.toContain(keyIdOf(alphaToken))
    })

    it("lists another user's token exactly when authcheck says the caller may read it", async () => {
      const answers = new Set<boolean>()
      for (const role of ["owner", "auditor", "template-admin", "user-admin"]) {
        const who = await createUser(owner, { username: `all-${role}`, roles: [role] })
        const check = await who.client.post("/authcheck", {
          checks: { read: { action: "read", object: { resource_type: "api_key", owner_id: alpha.user.id } } }
        })
        const listed = await who.client.get("/users/me/keys/tokens?include_all=true")
        expect(listed.status).toBe(200)
        expect(idsOf(listed.body).includes(keyIdOf(alphaToken)), role).toBe(check.body.read)
        answers.add(check.body.read)
      }
      // Both answers occur, so the comparison means something.
      expect([...answers].sort()).toEqual([false, true])
    })

    it("leaves out expired tokens unless include_expired is given too", async () => {
      const r = await alpha.client.post("/users/me/keys/tokens", { token_name: "alpha-brief", lifetime: NS_PER_SECOND })
      expect(r.status).toBe(201)
      await new Promise((resolve) => setTimeout(resolve, 1100))
      expect(idsOf((await owner.get("/users/me/keys/tokens?include_all=true")).body)).not.toContain(keyIdOf(r.body.key))
      const both = await owner.get("/users/me/keys/tokens?include_all=true&include_expired=true")
      expect(idsOf(both.body)).toContain(keyIdOf(r.body.key))
      await owner.delete(`/users/${alpha.user.id}/keys/${keyIdOf(r.body.key)}`)
    })

    it("obeys the token's scopes: api_key:read lists all, a token without it gets 403", async () => {
      const reader = await tokenClient(owner, { token_name: "all-reader", scopes: ["api_key:read"] })
      const r = await reader.get("/users/me/keys/tokens?include_all=true")
      expect(r.status).toBe(200)
      expect(idsOf(r.body)).toEqual(expect.arrayContaining([keyIdOf(alphaToken), keyIdOf(betaToken)]))
      const userReader = await tokenClient(owner, { token_name: "all-user-reader", scopes: ["user:read"] })
      expectResponse(await userReader.get("/users/me/keys/tokens?include_all=true"), 403)
    })

    it("hides another user's path from a plain member with 404, as without include_all", async () => {
      expectResponse(await alpha.client.get(`/users/${beta.user.id}/keys/tokens?include_all=true`), 404)
    })

    it("answers 404 for an unknown user", async () => {
      expectResponse(await owner.get(`/users/${UNKNOWN_ID}/keys/tokens?include_all=true`), 404)
      expectResponse(await owner.get("/users/nobody-here/keys/tokens?include_all=true"), 404)
    })

    it("requires a token", async () => {
      expectResponse(await srv.anonymous.get("/users/me/keys/tokens?include_all=true"), 401)
    })
  })

  describe("token expiry", () => {
    it("rejects a token once its lifetime passes and lists it only with include_expired", async () => {
      const expirer = await createUser(owner, { username: "expirer" })
      const r = await expirer.client.post("/users/me/keys/tokens", { token_name: "brief", lifetime: NS_PER_SECOND })
      expect(r.status).toBe(201)
      const k = (await expirer.client.get("/users/me/keys/tokens/brief")).body
      expect(k.lifetime_seconds).toBe(1)
      expect(Date.parse(k.expires_at) - Date.parse(k.created_at)).toBe(1000)
      expect((await srv.anonymous.as(r.body.key).get("/users/me")).status).toBe(200)

      await new Promise((resolve) => setTimeout(resolve, 1200))

      const rejected = await srv.anonymous.as(r.body.key).get("/users/me")
      expectResponse(rejected, 401)
      expect(rejected.body.message).toBe("API key expired.")
      expect((await expirer.client.get("/users/me/keys/tokens")).body).toEqual([])
      const all = await expirer.client.get("/users/me/keys/tokens?include_expired=true")
      expect(all.status).toBe(200)
      expect(all.body.map((t: any) => t.token_name)).toEqual(["brief"])
      expect((await expirer.client.get("/users/me/keys/tokens?include_expired=false")).body).toEqual([])
    })
  })

  describe("GET /users/{user}/keys/tokens/tokenconfig", () => {
    it("reports a member's maximum lifetime in nanoseconds", async () => {
      const r = await member.client.get("/users/me/keys/tokens/tokenconfig")
      expect(r.status).toBe(200)
      expect(r.body).toEqual({ max_token_lifetime: 30 * DAY_NS })
    })

    it("reports the longer maximum of an owner", async () => {
      const r = await owner.get("/users/me/keys/tokens/tokenconfig")
      expect(r.status).toBe(200)
      expect(r.body).toEqual({ max_token_lifetime: 364 * DAY_NS })
    })

    it("hides another user's config from a plain member with 404", async () => {
      expectResponse(await member.client.get(`/users/${other.user.id}/keys/tokens/tokenconfig`), 404)
    })

    it("answers 404 for an unknown user", async () => {
      expectResponse(await owner.get(`/users/${UNKNOWN_ID}/keys/tokens/tokenconfig`), 404)
    })

    it("requires a token", async () => {
      expectResponse(await srv.anonymous.get("/users/me/keys/tokens/tokenconfig"), 401)
    })
  })

  describe("GET /users/{user}/keys/tokens/{keyname}", () => {
    it("finds a token by name", async () => {
      const created = await member.client.post("/users/me/keys/tokens", { token_name: "named" })
      const r = await member.client.get("/users/me/keys/tokens/named")
      expect(r.status).toBe(200)
      expectApiKey(r.body)
      expect(r.body.token_name).toBe("named")
      expect(r.body.id).toBe(keyIdOf(created.body.key))
      expect((await owner.get(`/users/${member.user.id}/keys/tokens/named`)).body.id).toBe(r.body.id)
    })

    it("answers 404 for an unknown name", async () => {
      expectResponse(await member.client.get("/users/me/keys/tokens/no-such-token"), 404)
    })

    it("hides another user's token from a plain member with 404", async () => {
      expect((await other.client.post("/users/me/keys/tokens", { token_name: "private" })).status).toBe(201)
      expectResponse(await member.client.get(`/users/${other.username}/keys/tokens/private`), 404)
    })

    it("answers 404 for an unknown user", async () => {
      expectResponse(await owner.get("/users/nobody-here/keys/tokens/named"), 404)
    })

    it("requires a token", async () => {
      expectResponse(await srv.anonymous.get("/users/me/keys/tokens/named"), 401)
    })
  })

  describe("GET /users/{user}/keys/{keyid}", () => {
    it("finds a token or a session key by id", async () => {
      const token = (await member.client.post("/users/me/keys/tokens", { token_name: "by-id" })).body.key
      const r = await member.client.get(`/users/me/keys/${keyIdOf(token)}`)
      expect(r.status).toBe(200)
      expectApiKey(r.body)
      expect(r.body.id).toBe(keyIdOf(token))
      expect(r.body.token_name).toBe("by-id")

      const session = await member.client.get(`/users/me/keys/${keyIdOf(member.client.token!)}`)
      expect(session.status).toBe(200)
      expectApiKey(session.body)
      expect(session.body.login_type).toBe("password")
      expect(session.body.user_id).toBe(member.user.id)
      expect(Date.parse(session.body.last_used)).toBeGreaterThanOrEqual(Date.parse(session.body.created_at))
    })

    it("answers 404 for an unknown key", async () => {
      expectResponse(await member.client.get("/users/me/keys/AAAAAAAAAA"), 404)
    })

    it("answers 404 for a key of another user, even to its id", async () => {
      const theirs = (await other.client.post("/users/me/keys/tokens", { token_name: "theirs" })).body.key
      expectResponse(await member.client.get(`/users/me/keys/${keyIdOf(theirs)}`), 404)
      expectResponse(await member.client.get(`/users/${other.user.id}/keys/${keyIdOf(theirs)}`), 404)
    })

    it("answers 404 for an unknown user", async () => {
      expectResponse(await owner.get(`/users/${UNKNOWN_ID}/keys/AAAAAAAAAA`), 404)
    })

    it("requires a token", async () => {
      expectResponse(await srv.anonymous.get("/users/me/keys/AAAAAAAAAA"), 401)
    })
  })

  describe("DELETE /users/{user}/keys/{keyid}", () => {
    it("deletes a token, which stops working", async () => {
      const token = (await member.client.post("/users/me/keys/tokens", { token_name: "delete-by-id" })).body.key
      const r = await member.client.delete(`/users/me/keys/${keyIdOf(token)}`)
      expect(r.status).toBe(204)
      expect(r.body).toBeUndefined()
      expectResponse(await srv.anonymous.as(token).get("/users/me"), 401)
      expectResponse(await member.client.get(`/users/me/keys/${keyIdOf(token)}`), 404)
      const names = (await member.client.get("/users/me/keys/tokens?include_expired=true")).body.map((k: any) =>
        k.token_name
      )
      expect(names).not.toContain("delete-by-id")
      expectResponse(await member.client.delete(`/users/me/keys/${keyIdOf(token)}`), 404)
    })

    it("deletes a session key", async () => {
      const key = (await member.client.post("/users/me/keys")).body.key
      expect((await member.client.delete(`/users/me/keys/${keyIdOf(key)}`)).status).toBe(204)
      expectResponse(await srv.anonymous.as(key).get("/users/me"), 401)
    })

    it("lets the owner delete another user's token", async () => {
      const token = (await other.client.post("/users/me/keys/tokens", { token_name: "owner-deletes" })).body.key
      expect((await owner.delete(`/users/${other.user.id}/keys/${keyIdOf(token)}`)).status).toBe(204)
      expectResponse(await srv.anonymous.as(token).get("/users/me"), 401)
    })

    it("hides another user's key from a plain member with 404 and keeps it", async () => {
      const token = (await other.client.post("/users/me/keys/tokens", { token_name: "keep-me" })).body.key
      expectResponse(await member.client.delete(`/users/${other.user.id}/keys/${keyIdOf(token)}`), 404)
      expectResponse(await member.client.delete(`/users/me/keys/${keyIdOf(token)}`), 404)
      expect((await srv.anonymous.as(token).get("/users/me")).status).toBe(200)
    })

    it("answers 404 for an unknown user", async () => {
      expectResponse(await owner.delete(`/users/${UNKNOWN_ID}/keys/AAAAAAAAAA`), 404)
    })

    it("requires a token", async () => {
      expectResponse(await srv.anonymous.delete("/users/me/keys/AAAAAAAAAA"), 401)
    })
  })

  describe("PUT /users/{user}/keys/{keyid}/expire", () => {
    it("expires a token now: it stops working and stays listed as expired", async () => {
      const token = (await member.client.post("/users/me/keys/tokens", { token_name: "expire-me" })).body.key
      const before = (await member.client.get(`/users/me/keys/${keyIdOf(token)}`)).body
      const r = await member.client.put(`/users/me/keys/${keyIdOf(token)}/expire`)
      expect(r.status).toBe(204)
      expect(r.body).toBeUndefined()
      expectResponse(await srv.anonymous.as(token).get("/users/me"), 401)
      const after = await member.client.get(`/users/me/keys/${keyIdOf(token)}`)
      expect(after.status).toBe(200)
      expectApiKey(after.body)
      expect(Date.parse(after.body.expires_at)).toBeLessThan(Date.parse(before.expires_at))
      expect(Date.parse(after.body.expires_at)).toBeLessThanOrEqual(Date.now())
      expect(after.body.updated_at).toBe(after.body.expires_at)
      const live = (await member.client.get("/users/me/keys/tokens")).body.map((k: any) => k.token_name)
      expect(live).not.toContain("expire-me")
      const all = (await member.client.get("/users/me/keys/tokens?include_expired=true")).body.map((k: any) =>
        k.token_name
      )
      expect(all).toContain("expire-me")
    })

    it("keeps the first expiry when expired again", async () => {
      const token = (await member.client.post("/users/me/keys/tokens", { token_name: "expire-twice" })).body.key
      expect((await member.client.put(`/users/me/keys/${keyIdOf(token)}/expire`)).status).toBe(204)
      const first = (await member.client.get(`/users/me/keys/${keyIdOf(token)}`)).body.expires_at
      expect((await member.client.put(`/users/me/keys/${keyIdOf(token)}/expire`)).status).toBe(204)
      expect((await member.client.get(`/users/me/keys/${keyIdOf(token)}`)).body.expires_at).toBe(first)
    })

    it("expires a session key", async () => {
      const key = (await member.client.post("/users/me/keys")).body.key
      expect((await member.client.put(`/users/me/keys/${keyIdOf(key)}/expire`)).status).toBe(204)
      expectResponse(await srv.anonymous.as(key).get("/users/me"), 401)
    })

    it("lets the owner expire another user's token", async () => {
      const token = (await other.client.post("/users/me/keys/tokens", { token_name: "owner-expires" })).body.key
      expect((await owner.put(`/users/${other.user.id}/keys/${keyIdOf(token)}/expire`)).status).toBe(204)
      expectResponse(await srv.anonymous.as(token).get("/users/me"), 401)
    })

    it("hides another user's key from a plain member with 404 and keeps it working", async () => {
      const token = (await other.client.post("/users/me/keys/tokens", { token_name: "not-yours" })).body.key
      expectResponse(await member.client.put(`/users/${other.user.id}/keys/${keyIdOf(token)}/expire`), 404)
      expectResponse(await member.client.put(`/users/me/keys/${keyIdOf(token)}/expire`), 404)
      expect((await srv.anonymous.as(token).get("/users/me")).status).toBe(200)
    })

    it("refuses a token limited to reading with 403", async () => {
      const target = (await member.client.post("/users/me/keys/tokens", { token_name: "expire-target" })).body.key
      const reader = await tokenClient(member.client, {
        token_name: "key-reader",
        scopes: ["api_key:read", "user:read"]
      })
      expectResponse(await reader.put(`/users/me/keys/${keyIdOf(target)}/expire`), 403)
      expect((await srv.anonymous.as(target).get("/users/me")).status).toBe(200)
    })

    it("answers 404 for an unknown key or user", async () => {
      expectResponse(await member.client.put("/users/me/keys/AAAAAAAAAA/expire"), 404)
      expectResponse(await owner.put(`/users/${UNKNOWN_ID}/keys/AAAAAAAAAA/expire`), 404)
    })

    it("answers 400 for a path that is not text", async () => {
      expectValidations(await member.client.put("/users/me/keys/%00/expire"), ["keyid"])
    })

    it("requires a token", async () => {
      expectResponse(await srv.anonymous.put("/users/me/keys/AAAAAAAAAA/expire"), 401)
    })

    it("writes an audit entry for the key", async () => {
      const token = (await member.client.post("/users/me/keys/tokens", { token_name: "expire-audited" })).body.key
      expect((await member.client.put(`/users/me/keys/${keyIdOf(token)}/expire`)).status).toBe(204)
      const log = await owner.get("/audit?limit=1")
      expect(log.status).toBe(200)
      const entry = log.body.audit_logs[0]
      expect(entry).toMatchObject({
        resource_type: "api_key",
        action: "write",
        resource_target: "expire-audited",
        status_code: 204
      })
      expect(Object.keys(entry.diff)).toContain("expires_at")
    })
  })

  describe("malformed input", () => {
    it("never answers with a server error", async () => {
      const routes: Array<readonly [string, string]> = []
      for (const p of ["/users/me", `/users/${other.user.id}`, "/users/nobody-here"]) {
        routes.push(
          ["POST", `${p}/keys`],
          ["GET", `${p}/keys/tokens`],
          ["GET", `${p}/keys/tokens?include_expired=`],
          ["GET", `${p}/keys/tokens?include_all=true&include_expired=true`],
          ["GET", `${p}/keys/tokens?include_all=%00`],
          ["POST", `${p}/keys/tokens`],
          ["GET", `${p}/keys/tokens/tokenconfig`],
          ["GET", `${p}/keys/tokens/%00`],
          ["GET", `${p}/keys/tokens/${"x".repeat(400)}`],
          ["GET", `${p}/keys/%20`],
          ["DELETE", `${p}/keys/tokens/%00`],
          ["DELETE", `${p}/keys/%27--`],
          ["PUT", `${p}/keys/%27--/expire`],
          ["PUT", `${p}/keys/${"x".repeat(400)}/expire`]
        )
      }
      await expectNoServerErrors(member.client, routes)
      await expectNoServerErrors(owner, routes)
      expect((await member.client.get("/users/me")).status).toBe(200)
    })
  })

  describe("DELETE /users/{user}/keys/tokens/{keyname}", () => {
    it("deletes a token by name, which stops working", async () => {
      const token = (await member.client.post("/users/me/keys/tokens", { token_name: "delete-by-name" })).body.key
      const r = await member.client.delete("/users/me/keys/tokens/delete-by-name")
      expect(r.status).toBe(204)
      expect(r.body).toBeUndefined()
      expectResponse(await srv.anonymous.as(token).get("/users/me"), 401)
      expectResponse(await member.client.get("/users/me/keys/tokens/delete-by-name"), 404)
      // The name is free again.
      expect((await member.client.post("/users/me/keys/tokens", { token_name: "delete-by-name" })).status).toBe(201)
    })

    it("answers 404 for an unknown name", async () => {
      expectResponse(await member.client.delete("/users/me/keys/tokens/no-such-token"), 404)
    })

    it("hides another user's token from a plain member with 404 and keeps it", async () => {
      const token = (await other.client.post("/users/me/keys/tokens", { token_name: "keep-me-too" })).body.key
      expectResponse(await member.client.delete(`/users/${other.username}/keys/tokens/keep-me-too`), 404)
      expect((await srv.anonymous.as(token).get("/users/me")).status).toBe(200)
    })

    it("answers 404 for an unknown user", async () => {
      expectResponse(await owner.delete("/users/nobody-here/keys/tokens/x"), 404)
    })

    it("requires a token", async () => {
      expectResponse(await srv.anonymous.delete("/users/me/keys/tokens/x"), 401)
    })
  })
})
