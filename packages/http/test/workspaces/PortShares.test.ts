/** Black-box tests of port sharing over real HTTP and a fresh SQLite database. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  addMemberWithRoles,
  type Client,
  createUser,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  startWithOwner,
  type TestUser,
  tokenClient,
  uniqueName,
  UNKNOWN_ID
} from "../support.js"
import { addBuild, portShareTemplate, seedWorkspace } from "./portShareFixtures.js"

describe("port sharing", () => {
  let srv: ServiceTestServer
  let owner: Client
  let ownerId: string
  let orgId: string
  /** Owns the workspaces below. */
  let dev: TestUser
  /** Another member of the organization. */
  let stranger: TestUser
  let templateAdmin: TestUser
  /** A template whose ports may be shared publicly. */
  let open: { id: string; active_version_id: string }

  const path = (ws: { id: string }) => `/workspaces/${ws.id}/port-share`
  const share = (extra: Record<string, unknown> = {}) => ({
    agent_name: "main",
    port: 8080,
    share_level: "authenticated",
    protocol: "http",
    ...extra
  })

  const workspace = (init: Partial<Parameters<typeof seedWorkspace>[1]> = {}) =>
    seedWorkspace(srv, {
      ownerId: dev.user.id,
      organizationId: orgId,
      template: open,
      agents: ["main", "sidecar"],
      ...init
    })

  beforeAll(async () => {
    ;({ srv, owner, ownerId, orgId } = await startWithOwner())
    dev = await createUser(owner, { username: "ps-dev" })
    stranger = await createUser(owner, { username: "ps-stranger" })
    templateAdmin = await createUser(owner, { username: "ps-tadmin", roles: ["template-admin"] })
    open = await portShareTemplate(srv, owner, { organizationId: orgId, createdBy: ownerId, maxLevel: "public" })
  })
  afterAll(() => srv.close())

  describe("list", () => {
    it("answers {shares: []} for a workspace with none", async () => {
      const ws = await workspace()
      const r = await dev.client.get(path(ws))
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toEqual({ shares: [] })
    })

    it("lists the shares by port", async () => {
      const ws = await workspace()
      for (const port of [8080, 3000, 65535, 9]) {
        expect((await dev.client.post(path(ws), share({ port }))).status).toBe(200)
      }
      expect((await dev.client.post(path(ws), share({ agent_name: "sidecar", port: 3000 }))).status).toBe(200)
      const r = await dev.client.get(path(ws))
      expect(r.body.shares.map((s: any) => `${s.agent_name}:${s.port}`)).toEqual([
        "main:9",
        "main:3000",
        "sidecar:3000",
        "main:8080",
        "main:65535"
      ])
    })
  })

  describe("upsert", () => {
    it("answers 200 with the share, then changes its level and protocol in place", async () => {
      const ws = await workspace()
      const r = await dev.client.post(path(ws), share())
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toEqual({
        workspace_id: ws.id,
        agent_name: "main",
        port: 8080,
        share_level: "authenticated",
        protocol: "http"
      })
      const changed = await dev.client.post(path(ws), share({ share_level: "public", protocol: "https" }))
      expect(changed.status).toBe(200)
      expect(changed.body).toMatchObject({ share_level: "public", protocol: "https" })
      expect((await dev.client.get(path(ws))).body.shares).toEqual([changed.body])
    })

    it("is audited as a change of the workspace, with the share before and after", async () => {
      const ws = await workspace()
      await dev.client.post(path(ws), share({ port: 4000 }))
      await dev.client.post(path(ws), share({ port: 4000, share_level: "organization" }))
      const logs = await owner.get(`/audit?q=${encodeURIComponent(`resource_id:${ws.id}`)}&limit=10`)
      expect(logs.status, JSON.stringify(logs.body)).toBe(200)
      const entries = logs.body.audit_logs as Array<any>
      expect(entries.map((e) => [e.action, e.resource_type, e.resource_target, e.status_code])).toEqual([
        ["write", "workspace", ws.name, 200],
        ["write", "workspace", ws.name, 200]
      ])
      const port = { agent_name: "main", port: 4000, protocol: "http" }
      expect(entries[0].diff.port_share).toEqual({
        old: { ...port, share_level: "authenticated" },
        new: { ...port, share_level: "organization" },
        secret: false
      })
      expect(entries[1].diff.port_share).toEqual({
        old: null,
        new: { ...port, share_level: "authenticated" },
        secret: false
      })
    })

    it("refuses a level above the template's max_port_share_level (400 on share_level)", async () => {
      const cases: ReadonlyArray<[string | undefined, ReadonlyArray<string>, ReadonlyArray<string>]> = [
        [undefined, [], ["organization", "authenticated", "public"]],
        ["organization", ["organization"], ["authenticated", "public"]],
        ["authenticated", ["organization", "authenticated"], ["public"]],
        ["public", ["organization", "authenticated", "public"], []]
      ]
      for (const [maxLevel, allowed, refused] of cases) {
        const t = await portShareTemplate(srv, owner, {
          organizationId: orgId,
          createdBy: ownerId,
          ...(maxLevel ? { maxLevel } : {})
        })
        const ws = await workspace({ template: t })
        for (const level of allowed) {
          expect((await dev.client.post(path(ws), share({ share_level: level }))).status, `${maxLevel} ${level}`).toBe(
            200
          )
        }
        for (const level of refused) {
          const r = await dev.client.post(path(ws), share({ share_level: level }))
          expectValidations(r, ["share_level"])
          expect(r.body.message).toBe("Port sharing level not allowed.")
          expect(r.body.validations[0].detail).toContain(`"${maxLevel ?? "owner"}"`)
        }
      }
    })

    it("needs an agent of the workspace's latest build (400 on agent_name)", async () => {
      const ws = await workspace({ agents: ["main", "old"] })
      expect((await dev.client.post(path(ws), share({ agent_name: "old" }))).status).toBe(200)
      await addBuild(srv, ws, 2, ["main"])
      const gone = await dev.client.post(path(ws), share({ agent_name: "old", port: 9000 }))
      expectValidations(gone, ["agent_name"])
      expect(gone.body.message).toBe("Agent not found.")
      expectValidations(await dev.client.post(path(ws), share({ agent_name: "Main" })), ["agent_name"])
      const unbuilt = await workspace({ agents: null })
      expectValidations(await dev.client.post(path(unbuilt), share()), ["agent_name"])
    })

    it("answers 400 with one validation per bad field", async () => {
      const ws = await workspace()
      const all = await dev.client.post(path(ws), { agent_name: "", port: 8, share_level: "owner", protocol: "ftp" })
      expectValidations(all, ["agent_name", "port", "share_level", "protocol"])
      expectValidations(await dev.client.post(path(ws), {}), ["agent_name", "port", "share_level", "protocol"])
      expectValidations(await dev.client.post(path(ws), share({ port: 65536 })), ["port"])
      expectValidations(await dev.client.post(path(ws), share({ port: 80.5 })), ["port"])
      expectValidations(await dev.client.post(path(ws), share({ port: "8080" })), ["port"])
      expectValidations(await dev.client.post(path(ws), share({ share_level: "everyone" })), ["share_level"])
      expectValidations(await dev.client.post(path(ws), share({ protocol: "HTTP" })), ["protocol"])
      expectValidations(await dev.client.post(path(ws), share({ agent_name: 7 })), ["agent_name"])
      expect((await dev.client.get(path(ws))).body.shares).toEqual([])
    })
  })

  describe("lowering the template's maximum", () => {
    /** Shares of `ws` as `agent:port=level/protocol`, by port. */
    const sharesOf = async (ws: { id: string }) =>
      ((await owner.get(path(ws))).body.shares as Array<any>).map((s) =>
        `${s.agent_name}:${s.port}=${s.share_level}/${s.protocol}`
      )
    const setMax = async (t: { id: string }, level: string) => {
      const r = await owner.patch(`/templates/${t.id}`, { max_port_share_level: level })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body.max_port_share_level).toBe(level)
    }
    /** A template whose ports may be shared publicly, two workspaces on it sharing at every level, and a bystander on another template. */
    const seeded = async () => {
      const t = await portShareTemplate(srv, owner, { organizationId: orgId, createdBy: ownerId, maxLevel: "public" })
      const first = await workspace({ template: t })
      const second = await workspace({ template: t })
      const other = await workspace()
      for (const [port, share_level] of [[3000, "organization"], [4000, "authenticated"], [8080, "public"]] as const) {
        expect((await dev.client.post(path(first), share({ port, share_level, protocol: "https" }))).status).toBe(200)
      }
      expect((await dev.client.post(path(second), share({ agent_name: "sidecar", share_level: "public" }))).status)
        .toBe(200)
      expect((await dev.client.post(path(other), share({ share_level: "public" }))).status).toBe(200)
      return { t, first, second, other }
    }

    it("lowers public shares to authenticated when the maximum goes to authenticated, on that template's workspaces only", async () => {
      const { t, first, second, other } = await seeded()
      await setMax(t, "authenticated")
      expect(await sharesOf(first)).toEqual([
        "main:3000=organization/https",
        "main:4000=authenticated/https",
        "main:8080=authenticated/https"
      ])
      expect(await sharesOf(second)).toEqual(["sidecar:8080=authenticated/http"])
      expect(await sharesOf(other)).toEqual(["main:8080=public/http"])
      // Shares keep working under the new maximum: one at it may be set again, one above it is refused.
      expect((await dev.client.post(path(second), share({ agent_name: "sidecar" }))).status).toBe(200)
      expectValidations(await dev.client.post(path(second), share({ share_level: "public" })), ["share_level"])
    })

    it("lowers every share above organization to organization when the maximum goes to organization", async () => {
      const { t, first, second } = await seeded()
      await setMax(t, "organization")
      expect(await sharesOf(first)).toEqual([
        "main:3000=organization/https",
        "main:4000=organization/https",
        "main:8080=organization/https"
      ])
      expect(await sharesOf(second)).toEqual(["sidecar:8080=organization/http"])
    })

    it("deletes the shares of the template's workspaces when the maximum goes to owner", async () => {
      const { t, first, second, other } = await seeded()
      await setMax(t, "owner")
      expect(await sharesOf(first)).toEqual([])
      expect(await sharesOf(second)).toEqual([])
      expect(await sharesOf(other)).toEqual(["main:8080=public/http"])
    })

    it("leaves shares alone when the maximum is raised or other settings change", async () => {
      const t = await portShareTemplate(srv, owner, {
        organizationId: orgId,
        createdBy: ownerId,
        maxLevel: "authenticated"
      })
      const ws = await workspace({ template: t })
      await dev.client.post(path(ws), share({ share_level: "authenticated" }))
      await setMax(t, "public")
      expect((await owner.patch(`/templates/${t.id}`, { display_name: "Renamed" })).status).toBe(200)
      expect(await sharesOf(ws)).toEqual(["main:8080=authenticated/http"])
    })

    it("changes nothing when the template update is refused", async () => {
      const { t, first } = await seeded()
      const taken = await portShareTemplate(srv, owner, { organizationId: orgId, createdBy: ownerId })
      expectValidations(await owner.patch(`/templates/${t.id}`, { name: taken.name, max_port_share_level: "owner" }), [
        "name"
      ], 409)
      expect((await owner.get(`/templates/${t.id}`)).body.max_port_share_level).toBe("public")
      expect(await sharesOf(first)).toEqual([
        "main:3000=organization/https",
        "main:4000=authenticated/https",
        "main:8080=public/https"
      ])
    })
  })

  describe("delete", () => {
    it("answers 200 with no body and removes the share; a second delete answers 404", async () => {
      const ws = await workspace()
      await dev.client.post(path(ws), share())
      await dev.client.post(path(ws), share({ port: 3000 }))
      const r = await dev.client.delete(path(ws), { agent_name: "main", port: 8080 })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toBeUndefined()
      expect((await dev.client.get(path(ws))).body.shares.map((s: any) => s.port)).toEqual([3000])
      const again = await dev.client.delete(path(ws), { agent_name: "main", port: 8080 })
      expectResponse(again, 404)
      expect(again.body.message).toBe("Port share not found.")
      const logs = await owner.get(`/audit?q=${encodeURIComponent(`resource_id:${ws.id}`)}&limit=10`)
      const latest = logs.body.audit_logs[0]
      expect([latest.action, latest.status_code]).toEqual(["write", 200])
      expect(latest.diff.port_share.new).toBeNull()
    })

    it("answers 404 for a port or agent with no share", async () => {
      const ws = await workspace()
      await dev.client.post(path(ws), share())
      expectResponse(await dev.client.delete(path(ws), { agent_name: "sidecar", port: 8080 }), 404)
      expectResponse(await dev.client.delete(path(ws), { agent_name: "main", port: 8081 }), 404)
      expect((await dev.client.get(path(ws))).body.shares).toHaveLength(1)
    })

    it("answers 400 with one validation per bad field", async () => {
      const ws = await workspace()
      expectValidations(await dev.client.delete(path(ws), { agent_name: 1, port: -1 }), ["agent_name", "port"])
      expectValidations(await dev.client.delete(path(ws), {}), ["agent_name", "port"])
      expectValidations(await dev.client.delete(path(ws), { agent_name: "main", port: 70000 }), ["port"])
    })
  })

  describe("who may", () => {
    it("answers 401 without credentials", async () => {
      const ws = await workspace()
      for (
        const r of [
          await srv.anonymous.get(path(ws)),
          await srv.anonymous.post(path(ws), share()),
          await srv.anonymous.delete(path(ws), { agent_name: "main", port: 8080 })
        ]
      ) expectResponse(r, 401)
    })

    it("hides a workspace the caller may not read (404), and refuses readers who may not change it (403)", async () => {
      const ws = await workspace()
      await dev.client.post(path(ws), share())
      for (
        const r of [
          await stranger.client.get(path(ws)),
          await stranger.client.post(path(ws), share({ port: 9999 })),
          await stranger.client.delete(path(ws), { agent_name: "main", port: 8080 })
        ]
      ) {
        expectResponse(r, 404)
        expect(r.body.message).toBe("Workspace not found.")
      }
      // Template admins read every workspace, and change none.
      expect((await templateAdmin.client.get(path(ws))).status).toBe(200)
      expectResponse(await templateAdmin.client.post(path(ws), share({ port: 9999 })), 403)
      expectResponse(await templateAdmin.client.delete(path(ws), { agent_name: "main", port: 8080 }), 403)
      expect((await dev.client.get(path(ws))).body.shares.map((s: any) => s.port)).toEqual([8080])
      // Owners and organization admins change any.
      expect((await owner.post(path(ws), share({ port: 9001 }))).status).toBe(200)
      const orgAdmin = await createUser(owner, { username: uniqueName("ps-oadmin") })
      await addMemberWithRoles(owner, orgId, orgAdmin.user.id, ["organization-admin"])
      expect((await orgAdmin.client.delete(path(ws), { agent_name: "main", port: 9001 })).status).toBe(200)
    })

    it("follows the workspace's sharing list: use reads, admin also changes", async () => {
      const user = await createUser(owner, { username: uniqueName("ps-user") })
      const admin = await createUser(owner, { username: uniqueName("ps-admin") })
      const ws = await workspace({ userAcl: { [user.user.id]: "use", [admin.user.id]: "admin" } })
      expect((await admin.client.post(path(ws), share())).status).toBe(200)
      expect((await user.client.get(path(ws))).body.shares).toHaveLength(1)
      expectResponse(await user.client.post(path(ws), share({ port: 9002 })), 403)
      expectResponse(await user.client.delete(path(ws), { agent_name: "main", port: 8080 }), 403)
      expect((await admin.client.delete(path(ws), { agent_name: "main", port: 8080 })).status).toBe(200)
    })

    it("asks the token's scopes: a token that may only read workspaces lists shares, and changes none (403)", async () => {
      const ws = await workspace()
      await dev.client.post(path(ws), share())
      const reader = await tokenClient(dev.client, { scopes: ["workspace:read"] })
      expect((await reader.get(path(ws))).body.shares).toHaveLength(1)
      expectResponse(await reader.post(path(ws), share({ port: 9003 })), 403)
      expectResponse(await reader.delete(path(ws), { agent_name: "main", port: 8080 }), 403)
    })

    it("answers 404 for an unknown workspace and 400 for an id that is not a UUID", async () => {
      for (
        const r of [
          await owner.get(`/workspaces/${UNKNOWN_ID}/port-share`),
          await owner.post(`/workspaces/${UNKNOWN_ID}/port-share`, share()),
          await owner.delete(`/workspaces/${UNKNOWN_ID}/port-share`, { agent_name: "main", port: 8080 })
        ]
      ) {
        expectResponse(r, 404)
        expect(r.body.message).toBe("Workspace not found.")
      }
      expectValidations(await owner.get("/workspaces/not-a-uuid/port-share"), ["workspace"])
    })
  })
})
