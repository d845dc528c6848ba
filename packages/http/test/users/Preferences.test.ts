/** Black-box tests of a user's preference settings: GET and PUT /users/{user}/preferences. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createUser,
  expectNoServerErrors,
  expectResponse,
  expectValidations,
  startWithOwner,
  type TestServer,
  type TestUser,
  tokenClient,
  UNKNOWN_ID
} from "../support.js"

const DEFAULTS = {
  agent_chat_send_shortcut: "enter",
  code_diff_display_mode: "auto",
  collapse_assistant_steps: false,
  shell_tool_display_mode: "auto",
  thinking_display_mode: "auto"
}

describe("user preferences", () => {
  let srv: TestServer
  let owner: Client
  let alice: TestUser
  let bob: TestUser
  let userAdmin: TestUser
  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner())
    alice = await createUser(owner, { username: "pref-alice" })
    bob = await createUser(owner, { username: "pref-bob" })
    userAdmin = await createUser(owner, { username: "pref-admin", roles: ["user-admin"] })
  })
  afterAll(() => srv.close())

  describe("GET /users/{user}/preferences", () => {
    it("answers every setting, defaults for a user who set none", async () => {
      const r = await alice.client.get("/users/me/preferences")
      expect(r.status).toBe(200)
      expect(r.body).toEqual(DEFAULTS)
      expect((await alice.client.get(`/users/${alice.user.id}/preferences`)).body).toEqual(DEFAULTS)
    })

    it("lets an owner read anyone's; hides them from another member with 404", async () => {
      expect((await owner.get(`/users/${alice.username}/preferences`)).status).toBe(200)
      expectResponse(await bob.client.get(`/users/${alice.user.id}/preferences`), 404)
    })

    it("answers 404 for an unknown user and 401 without a token", async () => {
      expectResponse(await owner.get(`/users/${UNKNOWN_ID}/preferences`), 404)
      expectResponse(await owner.get("/users/nobody-here/preferences"), 404)
      expectResponse(await srv.anonymous.get("/users/me/preferences"), 401)
    })
  })

  describe("PUT /users/{user}/preferences", () => {
    it("changes the settings given and keeps the others", async () => {
      const first = await alice.client.put("/users/me/preferences", { collapse_assistant_steps: true })
      expect(first.status).toBe(200)
      expect(first.body).toEqual({ ...DEFAULTS, collapse_assistant_steps: true })
      const second = await alice.client.put("/users/me/preferences", {
        agent_chat_send_shortcut: "modifier_enter",
        thinking_display_mode: "always_expanded",
        shell_tool_display_mode: null
      })
      expect(second.body).toEqual({
        ...DEFAULTS,
        collapse_assistant_steps: true,
        agent_chat_send_shortcut: "modifier_enter",
        thinking_display_mode: "always_expanded"
      })
      expect((await alice.client.get("/users/me/preferences")).body).toEqual(second.body)
      // Another user's settings are their own.
      expect((await bob.client.get("/users/me/preferences")).body).toEqual(DEFAULTS)
      const back = await alice.client.put("/users/me/preferences", {
        collapse_assistant_steps: false,
        code_diff_display_mode: "always_collapsed"
      })
      expect(back.body).toMatchObject({
        collapse_assistant_steps: false,
        code_diff_display_mode: "always_collapsed",
        thinking_display_mode: "always_expanded"
      })
    })

    it("accepts an empty body, which changes nothing", async () => {
      const before = (await alice.client.get("/users/me/preferences")).body
      const r = await alice.client.put("/users/me/preferences", {})
      expect(r.status).toBe(200)
      expect(r.body).toEqual(before)
    })

    it("lets an owner or a user admin change another user's settings", async () => {
      expect(
        (await owner.put(`/users/${bob.user.id}/preferences`, { thinking_display_mode: "always_collapsed" })).status
      ).toBe(200)
      expect(
        (await userAdmin.client.put(`/users/${bob.username}/preferences`, {
          shell_tool_display_mode: "always_expanded"
        })).status
      )
        .toBe(200)
      expect((await bob.client.get("/users/me/preferences")).body).toMatchObject({
        thinking_display_mode: "always_collapsed",
        shell_tool_display_mode: "always_expanded"
      })
    })

    it("refuses a plain member changing another user's settings with 403 (a user they can see), changing nothing", async () => {
      const before = (await owner.get(`/users/${bob.user.id}/preferences`)).body
      expectResponse(
        await alice.client.put(`/users/${bob.user.id}/preferences`, { collapse_assistant_steps: true }),
        403
      )
      expect((await owner.get(`/users/${bob.user.id}/preferences`)).body).toEqual(before)
    })

    it("refuses a token that may only read with 403", async () => {
      const reader = await tokenClient(alice.client, { token_name: "pref-reader", scopes: ["user:read"] })
      expectResponse(await reader.put("/users/me/preferences", { collapse_assistant_steps: true }), 403)
    })

    it("answers 400 with one validation per bad field", async () => {
      expectValidations(
        await alice.client.put("/users/me/preferences", {
          agent_chat_send_shortcut: "space",
          thinking_display_mode: "sometimes",
          collapse_assistant_steps: "yes"
        }),
        ["agent_chat_send_shortcut", "collapse_assistant_steps", "thinking_display_mode"]
      )
      expectValidations(await alice.client.put("/users/me/preferences", { code_diff_display_mode: 3 }), [
        "code_diff_display_mode"
      ])
    })

    it("answers 404 for an unknown user and 401 without a token", async () => {
      expectResponse(await owner.put(`/users/${UNKNOWN_ID}/preferences`, {}), 404)
      expectResponse(await srv.anonymous.put("/users/me/preferences", { collapse_assistant_steps: true }), 401)
    })

    it("writes an audit entry naming the changed setting", async () => {
      expect((await alice.client.put("/users/me/preferences", { agent_chat_send_shortcut: "enter" })).status).toBe(200)
      const entry = (await owner.get("/audit?limit=1")).body.audit_logs[0]
      expect(entry).toMatchObject({
        resource_type: "user",
        action: "write",
        resource_target: "pref-alice",
        status_code: 200
      })
      expect(entry.diff.preferences).toBeDefined()
    })

    it("never answers with a server error", async () => {
      await expectNoServerErrors(alice.client, [
        ["GET", "/users/%00/preferences"],
        ["PUT", "/users/%00/preferences"],
        ["PUT", `/users/${"x".repeat(400)}/preferences`]
      ])
    })
  })
})
