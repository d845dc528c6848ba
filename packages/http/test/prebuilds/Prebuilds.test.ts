/**
 * Prebuilt workspaces over real HTTP on SQLite (docs/prebuilds.md): the system prebuilds user
 * (hidden, unable to sign in) and the reconciler keeping a preset's instances on the template's
 * active version, ticked by hand (its background loop is off); the prebuilds settings pausing it.
 */
import { PREBUILDS_USER_ID, PrebuildsReconciler } from "@workbay/core"
import { Effect, TestClock, TestContext } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { licenseClaims, makeSigner } from "../enterprise/licenses.js"
import {
  type Client,
  createUser,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  startWithOwner
} from "../support.js"
import { createVersion, runJobs } from "../templates/versions.js"
import { makeTemplate } from "../workspaces/fixtures.js"

const template = (instances: number) =>
  `parameters:
  - name: size
    default: small
    mutable: true
presets:
  - name: big
    parameters: { size: large }
    prebuilds: { instances: ${instances} }
  - name: none
    parameters: { size: small }
resources:
  - name: box
    type: machine
`

describe("prebuilt workspaces", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({ lifecycle: false, prebuilds: false }))
  })
  afterAll(() => srv.close())

  const tick = () => srv.run(Effect.flatMap(PrebuildsReconciler, (r) => r.tick()))
  const prebuilt = async (templateId: string) => {
    const r = await owner.get(`/workspaces?q=${encodeURIComponent(`owner:prebuilds`)}&limit=100`)
    expect(r.status).toBe(200)
    return (r.body.workspaces as Array<any>).filter((w) => w.template_id === templateId)
  }

  it("the prebuilds user exists, is not listed and cannot sign in", async () => {
    const users = await owner.get("/users")
    expect(users.status).toBe(200)
    expect(users.body.users.map((u: any) => u.id)).not.toContain(PREBUILDS_USER_ID)
    expect(users.body.count).toBe(users.body.users.length)
    const login = await fetch(`${srv.url}/api/v2/users/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "prebuilds@system", password: "anything-at-all" })
    })
    // `prebuilds@system` is no valid address (400), and the user has no password (login type `none`).
    expect([400, 401]).toContain(login.status)
    expect(login.headers.get("set-cookie")).toBeNull()
    // Readable by id (workspaces show their owner), but not to be changed, deleted or given keys.
    expect((await owner.get(`/users/${PREBUILDS_USER_ID}`)).body.username).toBe("prebuilds")
    const refused = [
      await owner.put(`/users/${PREBUILDS_USER_ID}/status/suspend`),
      await owner.delete(`/users/${PREBUILDS_USER_ID}`),
      await owner.post(`/users/${PREBUILDS_USER_ID}/keys/tokens`, { token_name: "t" }),
      await owner.post(`/users/${PREBUILDS_USER_ID}/keys`),
      await owner.put(`/users/${PREBUILDS_USER_ID}/roles`, { roles: ["owner"] }),
      await owner.put(`/users/${PREBUILDS_USER_ID}/profile`, { username: "renamed" })
    ]
    for (const r of refused) expectResponse(r, 403)
    expect(refused[0]!.body.message).toBe("System users cannot be modified.")
    const still = await owner.get(`/users/${PREBUILDS_USER_ID}`)
    expect(still.body).toMatchObject({ status: "active", username: "prebuilds", roles: [] })
  })

  it("keeps the preset's instances on the active version and deletes those of older versions", async () => {
    const t = await makeTemplate(srv, owner, orgId, template(2))
    const presets = await owner.get(`/templateversions/${t.active_version_id}/presets`)
    expect(presets.body.find((p: any) => p.Name === "big").DesiredPrebuildInstances).toBe(2)
    expect(presets.body.find((p: any) => p.Name === "none").DesiredPrebuildInstances).toBeNull()

    const first = await tick()
    expect(first.ran).toBe(true)
    expect(first.created).toHaveLength(2)
    await runJobs(srv)
    let ws = await prebuilt(t.id)
    expect(ws).toHaveLength(2)
    for (const w of ws) {
      expect(w.name).toMatch(/^prebuild-[0-9a-f]{8}$/)
      expect(w.owner_id).toBe(PREBUILDS_USER_ID)
      expect(w.owner_name).toBe("prebuilds")
      expect(w.is_prebuild).toBe(true)
      expect(w.latest_build.status).toBe("running")
      expect(w.latest_build.template_version_id).toBe(t.active_version_id)
      const build = await owner.get(`/workspacebuilds/${w.latest_build.id}/parameters`)
      expect(build.body).toEqual([{ name: "size", value: "large" }])
    }
    // Steady: nothing to do.
    const steady = await tick()
    expect(steady.created).toEqual([])
    expect(steady.deleted).toEqual([])

    // A new active version with one instance: the old ones go, one new one comes.
    const v2 = await createVersion(srv, owner, orgId, template(1), { template_id: t.id })
    expect(v2.status).toBe(201)
    await runJobs(srv)
    expect((await owner.patch(`/templates/${t.id}/versions`, { id: v2.body.id })).status).toBe(200)
    const next = await tick()
    expect(next.created).toHaveLength(1)
    expect([...next.deleted].sort()).toEqual(ws.map((w) => w.id).sort())
    await runJobs(srv)
    ws = await prebuilt(t.id)
    expect(ws).toHaveLength(1)
    expect(ws[0].latest_build.template_version_id).toBe(v2.body.id)

    // The audit log names the prebuilds user's creations.
    const audit = await owner.get(`/audit?q=${encodeURIComponent("resource_type:workspace action:create")}&limit=50`)
    expect(audit.status).toBe(200)
    expect(audit.body.audit_logs.some((l: any) => l.user?.id === PREBUILDS_USER_ID || l.user_id === PREBUILDS_USER_ID))
      .toBe(true)
  })

  it("backs off after failed prebuilds, longer after each failure in the lookback (TestClock)", async () => {
    const failing = template(1) + `build:
  fail: { transition: start, message: "no capacity" }
`
    const t = await makeTemplate(srv, owner, orgId, failing)
    const presetId = (await owner.get(`/templateversions/${t.active_version_id}/presets`)).body
      .find((p: any) => p.Name === "big").ID as string
    const start = Date.parse("2030-01-01T00:00:00Z")
    const tickAt = (ms: number) =>
      srv.run(
        Effect.gen(function*() {
          yield* TestClock.setTime(ms)
          return yield* Effect.flatMap(PrebuildsReconciler, (r) => r.tick("1 minute"))
        }).pipe(Effect.provide(TestContext.TestContext))
      )
    const first = await tickAt(start)
    expect(first.created).toHaveLength(1)
    await runJobs(srv)
    // The build failed: the workspace is deleted, the preset waits one minute from the failed build.
    const second = await tickAt(start + 1_000)
    expect(second.deleted).toContain(first.created[0])
    expect(second.created).toEqual([])
    expect(second.backoff[presetId]).toEqual(new Date(start + 60_000))
    await runJobs(srv)
    expect((await tickAt(start + 30_000)).created).toEqual([])
    const retry = await tickAt(start + 61_001)
    expect(retry.created).toHaveLength(1)
    await runJobs(srv)
    // A second failure in the lookback: two minutes from the latest.
    const again = await tickAt(start + 62_000)
    expect(again.backoff[presetId]).toEqual(new Date(start + 61_001 + 120_000))
    await runJobs(srv)
    expect((await tickAt(start + 61_001 + 119_999)).created).toEqual([])
    expect((await tickAt(start + 61_001 + 120_000)).created).toHaveLength(1)
  })

  it("creating a workspace with the preset claims a ready prebuilt workspace, which is then replaced", async () => {
    const t = await makeTemplate(srv, owner, orgId, template(1))
    const presets = (await owner.get(`/templateversions/${t.active_version_id}/presets`)).body as Array<any>
    const big = presets.find((p) => p.Name === "big").ID as string
    const none = presets.find((p) => p.Name === "none").ID as string
    expect((await tick()).created).toHaveLength(1)
    await runJobs(srv)
    const [ready] = await prebuilt(t.id)
    const dev = await createUser(owner)
    // Prebuilt workspaces are not the template's users.
    expect((await owner.get(`/templates/${t.id}`)).body.active_user_count).toBe(0)

    // Another preset (no prebuilds) builds a new workspace.
    const plain = await dev.client.post(`/organizations/${orgId}/members/me/workspaces`, {
      name: "plain",
      template_id: t.id,
      template_version_preset_id: none
    })
    expect(plain.status, JSON.stringify(plain.body)).toBe(200)
    expect(plain.body.id).not.toBe(ready.id)

    const r = await dev.client.post(`/users/me/workspaces`, {
      name: "mine",
      template_id: t.id,
      template_version_preset_id: big
    })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.id).toBe(ready.id)
    expect(r.body.name).toBe("mine")
    expect(r.body.owner_id).toBe(dev.user.id)
    expect(r.body.is_prebuild).toBe(false)
    expect(r.body.latest_build.build_number).toBe(2)
    expect(r.body.latest_build.transition).toBe("start")
    expect(r.body.latest_build.initiator_id).toBe(dev.user.id)
    expect(r.body.latest_build.template_version_preset_id).toBe(big)
    await runJobs(srv)
    const mine = await dev.client.get(`/users/me/workspace/mine`)
    expect(mine.status).toBe(200)
    expect(mine.body.latest_build.status).toBe("running")
    expect(await prebuilt(t.id)).toEqual([])
    expect((await owner.get(`/templates/${t.id}`)).body.active_user_count).toBe(1)
    const audit = await owner.get(`/audit?q=${encodeURIComponent("resource_type:workspace action:create")}&limit=100`)
    expect(audit.status).toBe(200)
    const claim = (audit.body.audit_logs as Array<any>).find((l) =>
      l.resource_id === ready.id && l.additional_fields?.claimed_prebuild === true
    )
    expect(claim?.user?.id).toBe(dev.user.id)
    expect(claim?.diff?.name).toEqual({ old: ready.name, new: "mine", secret: false })

    // The name is taken: 409, the prebuilt one stays with the prebuilds user.
    expect((await tick()).created).toHaveLength(1)
    await runJobs(srv)
    const again = await dev.client.post(`/users/me/workspaces`, {
      name: "mine",
      template_id: t.id,
      template_version_preset_id: big
    })
    expect(again.status).toBe(409)
    expect(await prebuilt(t.id)).toHaveLength(1)
  })

  it("invalidation deletes the template's prebuilt workspaces; the next tick builds fresh ones", async () => {
    const t = await makeTemplate(srv, owner, orgId, template(2))
    expect((await tick()).created).toHaveLength(2)
    await runJobs(srv)
    const before = await prebuilt(t.id)
    expect(before).toHaveLength(2)
    const dev = await createUser(owner)
    expectResponse(await dev.client.post(`/templates/${t.id}/prebuilds/invalidate`), 403)
    expect(await prebuilt(t.id)).toHaveLength(2)
    const r = await owner.post(`/templates/${t.id}/prebuilds/invalidate`)
    expect(r.status).toBe(200)
    expect(r.body.invalidated).toEqual([
      { preset_name: "big", template_name: t.name, template_version_name: expect.any(String) }
    ])
    await runJobs(srv)
    expect(await prebuilt(t.id)).toEqual([])
    const next = await tick()
    expect(next.created).toHaveLength(2)
    await runJobs(srv)
    const after = await prebuilt(t.id)
    expect(after).toHaveLength(2)
    expect(after.map((w) => w.id)).not.toContain(before[0].id)
    expectResponse(await owner.post(`/templates/00000000-0000-0000-0000-000000000001/prebuilds/invalidate`), 404)
  })
})

describe("the prebuilds settings", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({ lifecycle: false, prebuilds: false }))
  })
  afterAll(() => srv.close())

  const tick = () => srv.run(Effect.flatMap(PrebuildsReconciler, (r) => r.tick()))

  it("are read by any signed-in user, changed by owners only, and a pause stops the reconciler", async () => {
    const dev = await createUser(owner)
    // Never set: not paused (the described system reads `{}`).
    expect((await dev.client.get("/prebuilds/settings")).body).toEqual({ reconciliation_paused: false })
    expect((await srv.anonymous.get("/prebuilds/settings")).status).toBe(401)
    expectResponse(await dev.client.put("/prebuilds/settings", { reconciliation_paused: true }), 403)
    expect((await srv.anonymous.put("/prebuilds/settings", { reconciliation_paused: true })).status).toBe(401)
    expectValidations(await owner.put("/prebuilds/settings", { reconciliation_paused: "yes" }), [
      "reconciliation_paused"
    ])
    expectValidations(await owner.put("/prebuilds/settings", {}), ["reconciliation_paused"])

    // The first write stores the settings (the stored `{}` differs), the same again is 304 with no body.
    const stored = await owner.put("/prebuilds/settings", { reconciliation_paused: false })
    expect(stored.status).toBe(200)
    expect(stored.body).toEqual({ reconciliation_paused: false })
    const same = await owner.put("/prebuilds/settings", { reconciliation_paused: false })
    expect(same.status).toBe(304)
    expect(same.body).toBeUndefined()

    const t = await makeTemplate(srv, owner, orgId, template(1))
    const paused = await owner.put("/prebuilds/settings", { reconciliation_paused: true })
    expect(paused.status).toBe(200)
    expect(paused.body).toEqual({ reconciliation_paused: true })
    expect((await dev.client.get("/prebuilds/settings")).body).toEqual({ reconciliation_paused: true })
    expect(await tick()).toMatchObject({ ran: false, paused: true, created: [] })
    const listed = await owner.get(`/workspaces?q=${encodeURIComponent("owner:prebuilds")}&limit=100`)
    expect((listed.body.workspaces as Array<any>).filter((w) => w.template_id === t.id)).toEqual([])

    // Audited as a write of the prebuilds settings, with the change in the diff.
    const audit = await owner.get(`/audit?q=${encodeURIComponent("resource_type:prebuilds_settings")}&limit=10`)
    expect(audit.status).toBe(200)
    const [latest] = audit.body.audit_logs as Array<any>
    expect(latest).toMatchObject({ action: "write", resource_type: "prebuilds_settings", status_code: 200 })
    expect(latest.diff.reconciliation_paused).toEqual({ old: false, new: true, secret: false })

    expect((await owner.put("/prebuilds/settings", { reconciliation_paused: false })).status).toBe(200)
    const resumed = await tick()
    expect(resumed.ran).toBe(true)
    expect(resumed.created).toHaveLength(1)
    await runJobs(srv)
  })
})

describe("prebuilt workspaces with a license key", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  const signer = makeSigner()

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({
      lifecycle: false,
      prebuilds: false,
      settings: { licensePublicKey: signer.publicKeyPem }
    }))
  })
  afterAll(() => srv.close())

  it("are neither built nor claimed, nor their settings served, until a license grants workspace_prebuilds", async () => {
    await makeTemplate(srv, owner, orgId, template(1))
    const tick = () => srv.run(Effect.flatMap(PrebuildsReconciler, (r) => r.tick()))
    expect(await tick()).toMatchObject({ ran: false, created: [] })
    for (
      const r of [
        await owner.get("/prebuilds/settings"),
        await owner.put("/prebuilds/settings", { reconciliation_paused: true })
      ]
    ) {
      expectResponse(r, 403)
      expect(r.body.message).toBe("Workspace Prebuilds is a Premium feature. Contact sales!")
    }
    const r = await owner.post("/licenses", { license: await signer.sign(licenseClaims()) })
    expect(r.status).toBe(201)
    expect((await owner.get("/prebuilds/settings")).body).toEqual({ reconciliation_paused: false })
    expect((await tick()).created).toHaveLength(1)
    await runJobs(srv)
  })
})
