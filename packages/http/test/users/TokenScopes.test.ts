/**
 * Black-box tests of token limits through real routes: scopes (`all`, `application_connect`,
 * `<kind>:<action>` with `*` wildcards, the deprecated `scope` field) and allow-lists
 * (`{type, id}` with `*` wildcards). A token narrows what its owner's roles allow, never
 * widens it; outside its grant a route answers 403, while what the roles refuse answers as
 * without a token (403, or 404 for a hidden read).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createOrganization,
  createUser,
  expectResponse,
  expectValidations,
  startWithOwner,
  type TestServer,
  type TestUser,
  tokenClient,
  UNKNOWN_ID
} from "../support.js"

const TOKEN_DETAIL = /scopes or allow-list/

/** Asserts a 403 caused by the token's limits. */
const expectOutsideGrant = (r: { status: number; body: any }) => {
  expectResponse(r as any, 403)
  expect(r.body.detail).toMatch(TOKEN_DETAIL)
}

describe("token scopes and allow-lists", () => {
  let srv: TestServer
  let owner: Client
  let ownerId: string
  let defaultOrgId: string
  let alice: TestUser
  let bob: TestUser
  let otherOrg: { id: string; name: string }

  beforeAll(async () => {
    ;({ srv, owner, ownerId, orgId: defaultOrgId } = await startWithOwner())
    alice = await createUser(owner, { username: "scope-alice" })
    bob = await createUser(owner, { username: "scope-bob" })
    otherOrg = await createOrganization(owner)
  })
  afterAll(() => srv.close())

  const check = (client: Client, action: string, object: Record<string, unknown>) =>
    client.post("/authcheck", { checks: { c: { action, object } } }).then((r) => {
      expect(r.status).toBe(200)
      return r.body.c as boolean
    })

  describe("scopes", () => {
    it("user:read reads users and nothing else", async () => {
      const token = await tokenClient(owner, { scopes: ["user:read"] })
      expect((await token.get(`/users/${alice.user.id}`)).status).toBe(200)
      expect((await token.get("/users/me")).body.id).toBe(ownerId)
      expect((await token.get("/users")).status).toBe(200)
      expectOutsideGrant(await token.put("/users/me/appearance", { theme_preference: "dark" }))
      expectOutsideGrant(
        await token.post("/users", {
          email: "x1@example.com",
          username: "scoped-x1",
          password: "Correct-Horse-Battery-9"
        })
      )
      expectOutsideGrant(await token.get(`/organizations/${defaultOrgId}`))
      expectOutsideGrant(await token.get("/users/me/keys/tokens"))
      expectOutsideGrant(await token.post("/users/me/keys/tokens", {}))
      expectOutsideGrant(await token.get(`/users/${alice.user.id}/appearance`))
      // What does not exist is still a 404.
      expectResponse(await token.get(`/users/${UNKNOWN_ID}`), 404)
      expect(await check(token, "read", { resource_type: "user", resource_id: alice.user.id })).toBe(true)
      expect(await check(token, "update", { resource_type: "user", resource_id: alice.user.id })).toBe(false)
    })

    it("grants only inside the scopes, with * for any kind or action", async () => {
      const userAll = await tokenClient(owner, { scopes: ["user:*"] })
      expect((await userAll.put("/users/me/appearance", { theme_preference: "dark" })).status).toBe(200)
      expect((await userAll.get(`/users/${alice.user.id}/appearance`)).status).toBe(200)
      expectOutsideGrant(await userAll.get(`/organizations/${defaultOrgId}`))

      const readAll = await tokenClient(owner, { scopes: ["*:read"] })
      expect((await readAll.get(`/organizations/${defaultOrgId}`)).status).toBe(200)
      expect((await readAll.get(`/users/${bob.user.id}`)).status).toBe(200)
      expectOutsideGrant(await readAll.patch(`/organizations/${otherOrg.id}`, { display_name: "Nope" }))

      const two = await tokenClient(owner, { scopes: ["user:read", "organization:update"] })
      expect((await two.patch(`/organizations/${otherOrg.id}`, { display_name: "Scoped" })).status).toBe(200)
      expectOutsideGrant(await two.get(`/organizations/${otherOrg.id}`))

      const everything = await tokenClient(owner, { scopes: ["*:*"] })
      expect((await everything.get(`/organizations/${otherOrg.id}`)).status).toBe(200)
      expect((await everything.put("/users/me/appearance", { theme_preference: "light" })).status).toBe(200)
    })

    it("lets an api_key scope manage the caller's keys without reading users", async () => {
      const keys = await tokenClient(owner, { scopes: ["api_key:*"] })
      const made = await keys.post("/users/me/keys/tokens", { token_name: "made-by-scoped", scopes: ["api_key:read"] })
      expect(made.status).toBe(201)
      expect((await keys.get("/users/me/keys/tokens")).body.map((k: any) => k.token_name)).toContain("made-by-scoped")
      expect((await keys.delete("/users/me/keys/tokens/made-by-scoped")).status).toBe(204)
      expectOutsideGrant(await keys.get("/users/me"))
    })

    it("a token can only mint keys within its own scopes and allow-list", async () => {
      const keys = await tokenClient(owner, { scopes: ["api_key:*", "user:read"] })
      // Wider than itself: the default "all", another kind, a session key.
      expectOutsideGrant(await keys.post("/users/me/keys/tokens", { token_name: "wide" }))
      expectOutsideGrant(await keys.post("/users/me/keys/tokens", { token_name: "wide", scopes: ["workspace:read"] }))
      expectOutsideGrant(await keys.post("/users/me/keys/tokens", { token_name: "wide", scope: "application_connect" }))
      expectOutsideGrant(await keys.post("/users/me/keys"))
      // Within: a subset of its scopes.
      const narrow = await keys.post("/users/me/keys/tokens", {
        token_name: "narrow",
        scopes: ["user:read", "api_key:create"]
      })
      expect(narrow.status).toBe(201)
      // An allow-listed token mints only tokens listed within its own list.
      const listed = await tokenClient(owner, {
        scopes: ["all"],
        allow_list: [{ type: "user", id: "*" }, { type: "api_key", id: "*" }]
      })
      expectOutsideGrant(await listed.post("/users/me/keys/tokens", { token_name: "unlisted" }))
      expectOutsideGrant(
        await listed.post("/users/me/keys/tokens", {
          token_name: "other-kind",
          allow_list: [{ type: "workspace", id: "*" }]
        })
      )
      const within = await listed.post("/users/me/keys/tokens", {
        token_name: "one-user",
        allow_list: [{ type: "user", id: bob.user.id }]
      })
      expect(within.status).toBe(201)
      // A session (no limits) may mint anything its owner may.
      expect((await owner.post("/users/me/keys/tokens", { token_name: "from-session" })).status).toBe(201)
    })

    it("application_connect allows connecting to applications and nothing else", async () => {
      for (const body of [{ scopes: ["application_connect"] }, { scope: "application_connect" }]) {
        const token = await tokenClient(alice.client, body)
        expectOutsideGrant(await token.get("/users/me"))
        expectOutsideGrant(await token.get(`/users/${bob.user.id}`))
        expectOutsideGrant(await token.get(`/organizations/${defaultOrgId}`))
        expect(await check(token, "application_connect", { resource_type: "workspace", owner_id: "me" })).toBe(true)
        expect(await check(token, "read", { resource_type: "workspace", owner_id: "me" })).toBe(false)
        expect(await check(token, "read", { resource_type: "user", resource_id: alice.user.id })).toBe(false)
        // Inside the scope, the roles still decide: not someone else's workspace.
        expect(await check(token, "application_connect", { resource_type: "workspace", owner_id: bob.user.id })).toBe(
          false
        )
      }
      const listed = await alice.client.get("/users/me/keys/tokens")
      const connect = listed.body.filter((k: any) => k.scope === "application_connect")
      expect(connect.length).toBe(2)
      for (const k of connect) expect(k.scopes).toEqual(["application_connect"])
    })

    it("all grants what the roles grant", async () => {
      const token = await tokenClient(alice.client, { scopes: ["all"] })
      expect((await token.get("/users/me")).status).toBe(200)
      expect((await token.put("/users/me/appearance", { theme_preference: "dark" })).status).toBe(200)
      expect((await token.post("/users/me/keys/tokens", {})).status).toBe(201)
    })
  })

  describe("allow-lists", () => {
    it("a user entry covers that user only", async () => {
      const token = await tokenClient(owner, { allow_list: [{ type: "user", id: alice.user.id }] })
      expect((await token.get(`/users/${alice.user.id}`)).status).toBe(200)
      expect((await token.get(`/users/${alice.username}`)).status).toBe(200)
      expect((await token.get(`/users/${alice.user.id}/appearance`)).status).toBe(200)
      expectOutsideGrant(await token.get(`/users/${bob.user.id}`))
      expectOutsideGrant(await token.get("/users/me"))
      // A listing or a creation has no id: an id-specific entry does not cover it.
      expectOutsideGrant(await token.get("/users"))
      expectOutsideGrant(
        await token.post("/users", {
          email: "x2@example.com",
          username: "scoped-x2",
          password: "Correct-Horse-Battery-9"
        })
      )
      // Other kinds are outside the list.
      expectOutsideGrant(await token.get(`/organizations/${defaultOrgId}`))
      expectOutsideGrant(await token.get(`/users/${alice.user.id}/keys/tokens`))
      expectResponse(await token.get(`/users/${UNKNOWN_ID}`), 404)
      expect(await check(token, "read", { resource_type: "user", resource_id: alice.user.id })).toBe(true)
      expect(await check(token, "read", { resource_type: "user", resource_id: bob.user.id })).toBe(false)
      expect(await check(token, "read", { resource_type: "organization", resource_id: defaultOrgId })).toBe(false)
    })

    it("matches ids case-insensitively", async () => {
      const token = await tokenClient(owner, { allow_list: [{ type: "user", id: alice.user.id.toUpperCase() }] })
      expect((await token.get(`/users/${alice.user.id}`)).status).toBe(200)
      const keys = (await owner.get("/users/me/keys/tokens")).body
      expect(keys.some((k: any) => k.allow_list[0]?.id === alice.user.id)).toBe(true)
    })

    it("a * id covers every object of the kind, listings and creations included", async () => {
      const token = await tokenClient(owner, { allow_list: [{ type: "user", id: "*" }] })
      expect((await token.get(`/users/${bob.user.id}`)).status).toBe(200)
      expect((await token.get("/users")).status).toBe(200)
      const made = await token.post("/users", {
        email: "x3@example.com",
        username: "scoped-x3",
        password: "Correct-Horse-Battery-9"
      })
      expect(made.status).toBe(201)
      expectOutsideGrant(await token.get(`/organizations/${defaultOrgId}`))
    })

    it("a * type covers that id whatever its kind", async () => {
      const token = await tokenClient(owner, {
        allow_list: [{ type: "*", id: otherOrg.id }, { type: "*", id: alice.user.id }]
      })
      expect((await token.get(`/organizations/${otherOrg.id}`)).status).toBe(200)
      expect((await token.get(`/users/${alice.user.id}`)).status).toBe(200)
      expectOutsideGrant(await token.get(`/organizations/${defaultOrgId}`))
      expectOutsideGrant(await token.get(`/users/${bob.user.id}`))
    })

    it("several entries add up, and * * is everything", async () => {
      const token = await tokenClient(owner, {
        allow_list: [{ type: "user", id: alice.user.id }, { type: "organization", id: defaultOrgId }]
      })
      expect((await token.get(`/users/${alice.user.id}`)).status).toBe(200)
      expect((await token.get(`/organizations/${defaultOrgId}`)).status).toBe(200)
      expectOutsideGrant(await token.get(`/organizations/${otherOrg.id}`))
      const all = await tokenClient(owner, { allow_list: [{ type: "*", id: "*" }] })
      expect((await all.get(`/organizations/${otherOrg.id}`)).status).toBe(200)
      expect((await all.get("/users")).status).toBe(200)
    })

    it("combines with scopes: both must allow", async () => {
      const token = await tokenClient(owner, {
        scopes: ["user:read"],
        allow_list: [{ type: "user", id: alice.user.id }]
      })
      expect((await token.get(`/users/${alice.user.id}`)).status).toBe(200)
      expectOutsideGrant(await token.get(`/users/${bob.user.id}`))
      expectOutsideGrant(await token.put(`/users/${alice.user.id}/appearance`, { theme_preference: "dark" }))
    })
  })

  describe("a member's token", () => {
    it("cannot do what the member cannot, answering as without a token", async () => {
      const all = await tokenClient(alice.client, { scopes: ["all"] })
      const wide = await tokenClient(alice.client, { scopes: ["*:*"], allow_list: [{ type: "*", id: "*" }] })
      const targeted = await tokenClient(alice.client, {
        scopes: ["organization:read"],
        allow_list: [{ type: "organization", id: otherOrg.id }]
      })
      for (const token of [alice.client, all, wide]) {
        const create = await token.post("/users", {
          email: "x4@example.com",
          username: "scoped-x4",
          password: "Correct-Horse-Battery-9"
        })
        expectResponse(create, 403)
        expect(create.body.detail ?? "").not.toMatch(TOKEN_DETAIL)
        expectResponse(await token.get(`/organizations/${otherOrg.id}`), 404)
        expectResponse(await token.get(`/users/${bob.user.id}/appearance`), 404)
        expectResponse(await token.delete(`/users/${bob.user.id}`), 403)
        expect(await check(token, "create", { resource_type: "user" })).toBe(false)
      }
      // Reads the roles refuse stay hidden (404), even inside the token's grant.
      expectResponse(await targeted.get(`/organizations/${otherOrg.id}`), 404)
      expect(await check(targeted, "read", { resource_type: "organization", resource_id: otherOrg.id })).toBe(false)
    })
  })

  describe("GET /auth/scopes and token creation", () => {
    it("lists only names that POST .../keys/tokens accepts", async () => {
      const scopes = (await srv.anonymous.get("/auth/scopes")).body.external as Array<string>
      expect(scopes.length).toBeGreaterThan(10)
      for (const scope of scopes) {
        const r = await alice.client.post("/users/me/keys/tokens", { scopes: [scope] })
        expect(r.status, scope).toBe(201)
      }
      const r = await alice.client.post("/users/me/keys/tokens", { scopes })
      expect(r.status).toBe(201)
    })

    it("answers 400 on scopes or scope for unknown names", async () => {
      for (const scopes of [["user:fly"], ["planet:read"], ["root"], [""], ["user"], ["user:read", "user:"]]) {
        expectValidations(await alice.client.post("/users/me/keys/tokens", { scopes }), ["scopes"])
      }
      expectValidations(await alice.client.post("/users/me/keys/tokens", { scope: "everything" }), ["scope"])
      expectValidations(await alice.client.post("/users/me/keys/tokens", { scopes: [7] }), ["scopes.0"])
    })
  })
})
