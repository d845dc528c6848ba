/**
 * Black-box tests of user status: PUT /users/{user}/status/suspend and /activate, what a
 * suspension does to the user's tokens and logins, and the guards that keep the deployment
 * with an active owner (the last owner cannot be deleted, suspended or demoted).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createUser,
  expectNoServerErrors,
  expectResponse,
  login,
  startWithOwner,
  STRONG_PASSWORD,
  type TestServer,
  type TestUser,
  tokenClient,
  UNKNOWN_ID
} from "../support.js"

describe("user status", () => {
  let srv: TestServer
  let owner: Client
  let ownerId: string
  let userAdmin: TestUser
  let member: TestUser

  beforeAll(async () => {
    ;({ srv, owner, ownerId } = await startWithOwner())
    userAdmin = await createUser(owner, { username: "status-useradmin", roles: ["user-admin"] })
    member = await createUser(owner, { username: "status-member" })
  })
  afterAll(() => srv.close())

  describe("PUT /users/{user}/status/suspend and /activate", () => {
    it("suspends a user, whose tokens and logins stop working, and activates them again", async () => {
      const target = await createUser(owner)
      const token = await tokenClient(target.client, { token_name: "before-suspension" })
      expect((await token.get("/users/me")).status).toBe(200)

      const suspended = await owner.put(`/users/${target.user.id}/status/suspend`)
      expect(suspended.status).toBe(200)
      expect(suspended.body.id).toBe(target.user.id)
      expect(suspended.body.status).toBe("suspended")
      expect(Date.parse(suspended.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(target.user.updated_at))
      expect((await owner.get(`/users/${target.user.id}`)).body.status).toBe("suspended")
      expect(
        (await owner.get(`/users?q=${encodeURIComponent(`status:suspended username:${target.username}`)}`)).body.count
      ).toBe(1)

      const session = await target.client.get("/users/me")
      expectResponse(session, 401)
      expect(session.body.message).toMatch(/not active/)
      expectResponse(await token.get("/users/me"), 401)
      expectResponse(await token.post("/users/me/keys/tokens", {}), 401)
      const refused = await login(srv, target.email)
      expectResponse(refused, 403)
      expect(refused.body.message).toMatch(/suspended/)
      // A wrong password still answers 401: suspension does not reveal the password was right.
      expectResponse(await login(srv, target.email, "Wrong-Password-123"), 401)

      const activated = await owner.put(`/users/${target.username}/status/activate`)
      expect(activated.status).toBe(200)
      expect(activated.body.status).toBe("active")
      expect((await target.client.get("/users/me")).status).toBe(200)
      expect((await token.get("/users/me")).status).toBe(200)
      expect((await login(srv, target.email)).status).toBe(201)
    })

    it("records suspension and activation in the audit log", async () => {
      const target = await createUser(owner)
      expect((await owner.put(`/users/${target.user.id}/status/suspend`)).status).toBe(200)
      expect((await owner.put(`/users/${target.user.id}/status/activate`)).status).toBe(200)
      const r = await owner.get(`/audit?limit=10&q=${encodeURIComponent(`resource_id:${target.user.id} action:write`)}`)
      expect(r.status).toBe(200)
      const diffs = r.body.audit_logs.map((e: any) => e.diff.status).filter((d: any) => d !== undefined)
      expect(diffs).toEqual(expect.arrayContaining([
        { old: "active", new: "suspended", secret: false },
        { old: "suspended", new: "active", secret: false }
      ]))
    })

    it("answers the user unchanged when the status is already the wanted one", async () => {
      const target = await createUser(owner)
      const active = await owner.put(`/users/${target.user.id}/status/activate`)
      expect(active.status).toBe(200)
      expect(active.body.status).toBe("active")
      expect((await owner.put(`/users/${target.user.id}/status/suspend`)).body.status).toBe("suspended")
      const again = await owner.put(`/users/${target.user.id}/status/suspend`)
      expect(again.status).toBe(200)
      expect(again.body.status).toBe("suspended")
    })

    it("activates a user created suspended", async () => {
      const created = await owner.post("/users", {
        email: "born-suspended@example.com",
        username: "born-suspended",
        password: STRONG_PASSWORD,
        user_status: "suspended"
      })
      expect(created.status).toBe(201)
      expectResponse(await login(srv, "born-suspended@example.com"), 403)
      expect((await userAdmin.client.put("/users/born-suspended/status/activate")).body.status).toBe("active")
      expect((await login(srv, "born-suspended@example.com")).status).toBe(201)
    })

    it("lets a user admin suspend and activate a member", async () => {
      const target = await createUser(owner)
      expect((await userAdmin.client.put(`/users/${target.user.id}/status/suspend`)).body.status).toBe("suspended")
      expect((await userAdmin.client.put(`/users/${target.user.id}/status/activate`)).body.status).toBe("active")
    })

    it("answers 400 to a user suspending themselves", async () => {
      for (
        const [client, ref] of [[owner, "me"], [owner, ownerId], [member.client, "me"], [
          userAdmin.client,
          userAdmin.user.id
        ]] as const
      ) {
        const r = await client.put(`/users/${ref}/status/suspend`)
        expectResponse(r, 400)
        expect(r.body.message).toBe("You cannot suspend yourself.")
      }
      expect((await owner.get("/users/me")).body.status).toBe("active")
      // Activating oneself changes nothing and is harmless.
      expect((await userAdmin.client.put("/users/me/status/activate")).status).toBe(200)
    })

    it("answers 403 to a plain member", async () => {
      const target = await createUser(owner)
      expectResponse(await member.client.put(`/users/${target.user.id}/status/suspend`), 403)
      expectResponse(await member.client.put(`/users/${target.user.id}/status/activate`), 403)
      expect((await owner.get(`/users/${target.user.id}`)).body.status).toBe("active")
    })

    it("answers 403 to a token whose scopes leave user update out", async () => {
      const target = await createUser(owner)
      const readOnly = await tokenClient(owner, { scopes: ["user:read"] })
      const r = await readOnly.put(`/users/${target.user.id}/status/suspend`)
      expectResponse(r, 403)
      expect(r.body.detail).toMatch(/scopes or allow-list/)
      const updater = await tokenClient(owner, { scopes: ["user:update"] })
      expect((await updater.put(`/users/${target.user.id}/status/suspend`)).status).toBe(200)
    })

    it("answers 404 for an unknown user", async () => {
      expectResponse(await owner.put(`/users/${UNKNOWN_ID}/status/suspend`), 404)
      expectResponse(await owner.put("/users/nobody-here/status/activate"), 404)
    })

    it("answers 404 for a deleted user", async () => {
      const target = await createUser(owner)
      expect((await owner.delete(`/users/${target.user.id}`)).status).toBe(200)
      expectResponse(await owner.put(`/users/${target.user.id}/status/activate`), 404)
    })

    it("requires a token", async () => {
      expectResponse(await srv.anonymous.put(`/users/${member.user.id}/status/suspend`), 401)
      expectResponse(await srv.anonymous.put(`/users/${member.user.id}/status/activate`), 401)
    })

    it("answers 405 for another method", async () => {
      const r = await owner.post(`/users/${member.user.id}/status/suspend`)
      expectResponse(r, 405)
      expect(r.headers.get("allow")).toBe("PUT")
    })
  })

  describe("the last owner", () => {
    it("cannot delete, suspend or demote themselves", async () => {
      const del = await owner.delete("/users/me")
      expectResponse(del, 403)
      expect(del.body.message).toBe("You cannot delete yourself.")
      expectResponse(await owner.put("/users/me/status/suspend"), 400)
      expectResponse(await owner.put("/users/me/roles", { roles: [] }), 400)
      const me = await owner.get("/users/me")
      expect(me.body.status).toBe("active")
      expect(me.body.roles.map((r: any) => r.name)).toEqual(["owner"])
    })

    it("cannot be deleted, suspended or demoted by a user admin", async () => {
      const del = await userAdmin.client.delete(`/users/${ownerId}`)
      expectResponse(del, 403)
      expect(del.body.message).toBe("The last owner cannot be deleted.")
      const suspend = await userAdmin.client.put(`/users/${ownerId}/status/suspend`)
      expectResponse(suspend, 403)
      expect(suspend.body.message).toBe("The last active owner cannot be suspended.")
      const demote = await userAdmin.client.put(`/users/${ownerId}/roles`, { roles: [] })
      expectResponse(demote, 403)
      expect(demote.body.message).toBe("You may not remove the role owner.")
      const me = await owner.get("/users/me")
      expect(me.status).toBe(200)
      expect(me.body.roles.map((r: any) => r.name)).toEqual(["owner"])
    })

    it("is the last active owner while the other owners are suspended", async () => {
      const second = await createUser(owner, { roles: ["owner"] })
      expect((await owner.put(`/users/${second.user.id}/status/suspend`)).status).toBe(200)
      const suspend = await userAdmin.client.put(`/users/${ownerId}/status/suspend`)
      expectResponse(suspend, 403)
      expect(suspend.body.message).toBe("The last active owner cannot be suspended.")
      expectResponse(await userAdmin.client.delete(`/users/${ownerId}`), 403)
      // The suspended owner can be activated again, then either owner may act on the other.
      expect((await owner.put(`/users/${second.user.id}/status/activate`)).status).toBe(200)
      expect((await second.client.get("/users/me")).status).toBe(200)
      expect((await owner.delete(`/users/${second.user.id}`)).status).toBe(200)
    })

    it("lets an owner suspend another owner, but not a user admin", async () => {
      const second = await createUser(owner, { roles: ["owner"] })
      const byAdmin = await userAdmin.client.put(`/users/${second.user.id}/status/suspend`)
      expectResponse(byAdmin, 403)
      expect(byAdmin.body.message).toBe("You may not suspend a user with the role owner.")
      expectResponse(await userAdmin.client.delete(`/users/${second.user.id}`), 403)
      expect((await owner.put(`/users/${second.user.id}/status/suspend`)).body.status).toBe("suspended")
      expectResponse(await userAdmin.client.put(`/users/${second.user.id}/status/activate`), 403)
      expect((await owner.put(`/users/${second.user.id}/status/activate`)).body.status).toBe("active")
      // With two active owners, either may demote the other.
      expect((await second.client.put(`/users/${ownerId}/roles`, { roles: ["owner", "auditor"] })).status).toBe(200)
      expect((await owner.put(`/users/${second.user.id}/roles`, { roles: [] })).status).toBe(200)
      expect((await owner.put("/users/me/roles", { roles: ["owner"] })).status).toBe(400)
    })
  })

  it("never answers with a server error", async () => {
    const routes: Array<readonly [string, string]> = []
    for (const u of ["me", member.user.id, "nobody-here", "%20", "..%2F..", UNKNOWN_ID]) {
      routes.push(["PUT", `/users/${u}/status/suspend`], ["PUT", `/users/${u}/status/activate`])
    }
    await expectNoServerErrors(member.client, routes)
    await expectNoServerErrors(owner, routes.filter(([, p]) => !p.includes(member.user.id)))
    expect((await owner.get("/users/me")).status).toBe(200)
  })
})
