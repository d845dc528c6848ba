/**
 * Templates that workspaces use, through real HTTP over a fresh SQLite database: deleting one is
 * refused while it has undeleted workspaces, `active_user_count` counts the users owning its
 * workspaces, listings put the most used first, the versions its workspaces use are not archived,
 * and a schedule change moves the times of its
 * workspaces (fixed past times written through the repository, then compared with the answers).
 */
import { type WorkspacePatch, WorkspaceRepo } from "@workbay/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createUser,
  type ServiceTestServer,
  startWithOwner,
  type TestUser,
  uniqueName
} from "../support.js"
import { FREE_TEMPLATE, makeTemplate, makeWorkspace } from "../workspaces/fixtures.js"
import { createVersion, runJobs } from "./versions.js"

const status = (r: { status: number; body: unknown }, expected: number) =>
  expect(r.status, JSON.stringify(r.body)).toBe(expected)

describe("templates in use by workspaces", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let member: TestUser
  let other: TestUser

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({ lifecycle: false }))
    member = await createUser(owner)
    other = await createUser(owner)
  })
  afterAll(() => srv.close())

  /** Queues a build of `transition` on workspace `id` as `client` and runs it. */
  const build = async (client: Client, id: string, transition: "start" | "stop" | "delete") => {
    status(await client.post(`/workspaces/${id}/builds`, { transition }), 200)
    await runJobs(srv)
  }

  it("DELETE answers 400 while an undeleted workspace uses the template, 200 once a delete build removed it", async () => {
    const t = await makeTemplate(srv, owner, orgId, FREE_TEMPLATE)
    const w = await makeWorkspace(srv, member.client, orgId, t.id)
    const refused = await owner.delete(`/templates/${t.id}`)
    status(refused, 400)
    expect(refused.body).toEqual({ message: "All workspaces must be deleted before a template can be removed." })
    status(await owner.get(`/templates/${t.id}`), 200)
    // A stopped workspace still uses it.
    await build(member.client, w.id, "stop")
    status(await owner.delete(`/templates/${t.id}`), 400)
    // A succeeded delete build marks the workspace deleted.
    await build(member.client, w.id, "delete")
    status(await member.client.get(`/workspaces/${w.id}`), 404)
    const deleted = await owner.delete(`/templates/${t.id}`)
    status(deleted, 200)
    expect(deleted.body).toEqual({ message: "Template has been deleted!" })
    status(await owner.get(`/templates/${t.id}`), 404)
  })

  it("active_user_count counts the distinct owners of undeleted workspaces; listings put the most used first", async () => {
    // Named so that the name order is the reverse of the use order.
    const popular = await makeTemplate(srv, owner, orgId, FREE_TEMPLATE, { name: uniqueName("zz-popular") })
    const some = await makeTemplate(srv, owner, orgId, FREE_TEMPLATE, { name: uniqueName("yy-some") })
    const unused = await makeTemplate(srv, owner, orgId, FREE_TEMPLATE, { name: uniqueName("aa-unused") })
    expect((await owner.get(`/templates/${popular.id}`)).body.active_user_count).toBe(0)
    await makeWorkspace(srv, member.client, orgId, popular.id)
    await makeWorkspace(srv, member.client, orgId, popular.id)
    const others = await makeWorkspace(srv, other.client, orgId, popular.id)
    await makeWorkspace(srv, member.client, orgId, some.id)

    const got = await owner.get(`/templates/${popular.id}`)
    status(got, 200)
    expect(got.body.active_user_count).toBe(2)
    expect((await member.client.get(`/templates/${some.id}`)).body.active_user_count).toBe(1)

    const ids = [unused.id, some.id, popular.id]
    const q = encodeURIComponent(`ids:${ids.join(",")}`)
    const expected = [[popular.id, 2], [some.id, 1], [unused.id, 0]]
    for (const path of [`/templates?q=${q}`, `/organizations/${orgId}/templates?q=${q}`]) {
      const list = await owner.get(path)
      status(list, 200)
      expect(list.body.map((t: any) => [t.id, t.active_user_count])).toEqual(expected)
    }

    // A deleted workspace's owner no longer counts.
    await build(other.client, others.id, "delete")
    expect((await owner.get(`/templates/${popular.id}`)).body.active_user_count).toBe(1)
    const after = await owner.get(`/organizations/${orgId}/templates?q=${q}`)
    // Equal counts keep the name order.
    expect(after.body.map((t: any) => [t.id, t.active_user_count])).toEqual([[some.id, 1], [popular.id, 1], [
      unused.id,
      0
    ]])
  })

  it("a version a workspace's latest build uses is not archived, alone (400) or in bulk (left out)", async () => {
    const t = await makeTemplate(srv, owner, orgId, FREE_TEMPLATE)
    const first = t.active_version_id
    const w = await makeWorkspace(srv, member.client, orgId, t.id)
    const newer = async () => {
      const v = await createVersion(srv, owner, orgId, FREE_TEMPLATE, { template_id: t.id })
      status(v, 201)
      await runJobs(srv)
      return v.body.id as string
    }
    const second = await newer()
    status(await owner.patch(`/templates/${t.id}/versions`, { id: second }), 200)
    const refused = await owner.post(`/templateversions/${first}/archive`)
    status(refused, 400)
    expect(refused.body.message).toBe("A template version in use by a workspace's latest build cannot be archived.")
    const unused = await newer()
    const bulk = await owner.post(`/templates/${t.id}/versions/archive`, { all: true })
    status(bulk, 200)
    expect(bulk.body).toEqual({ template_id: t.id, archived_ids: [unused] })
    // Once the workspace's latest build uses the active version, the first one is free.
    await build(member.client, w.id, "stop")
    status(
      await member.client.post(`/workspaces/${w.id}/builds`, { transition: "start", template_version_id: second }),
      200
    )
    await runJobs(srv)
    status(await owner.post(`/templateversions/${first}/archive`), 200)
    expect((await owner.get(`/templateversions/${first}`)).body.archived).toBe(true)
  })

  describe("PATCH with update_workspace_last_used_at and update_workspace_dormant_at", () => {
    const DAY = 86_400_000
    // Times long past, written through the repository, so that "now" is after them whatever the clock.
    const T0 = new Date(Date.UTC(2024, 0, 1, 8, 0, 0, 0))
    const T1 = new Date(Date.UTC(2024, 0, 2, 9, 30, 0, 500))

    const store = (id: string, patch: WorkspacePatch) =>
      srv.run(Effect.flatMap(WorkspaceRepo, (repo) => repo.update(id, patch)).pipe(Effect.orDie))
    const times = async (id: string) => {
      const w = (await owner.get(`/workspaces/${id}`)).body
      return { last_used_at: w.last_used_at, dormant_at: w.dormant_at ?? null, deleting_at: w.deleting_at ?? null }
    }

    /** A template with an active workspace last used at T0 and a dormant one since T1, and a workspace of another template. */
    const world = async () => {
      const t = await makeTemplate(srv, owner, orgId, FREE_TEMPLATE)
      const elsewhere = await makeTemplate(srv, owner, orgId, FREE_TEMPLATE)
      const active = await makeWorkspace(srv, member.client, orgId, t.id)
      const dormant = await makeWorkspace(srv, other.client, orgId, t.id)
      const outside = await makeWorkspace(srv, member.client, orgId, elsewhere.id)
      await store(active.id, { last_used_at: T0 })
      await store(dormant.id, { last_used_at: T0, dormant_at: T1, deleting_at: null })
      await store(outside.id, { last_used_at: T0, dormant_at: T1, deleting_at: null })
      return { t, active: active.id, dormant: dormant.id, outside: outside.id }
    }

    it("do nothing without a schedule change (304)", async () => {
      const w = await world()
      const r = await owner.patch(`/templates/${w.t.id}`, {
        update_workspace_last_used_at: true,
        update_workspace_dormant_at: true
      })
      status(r, 304)
      expect(await times(w.active)).toEqual({ last_used_at: T0.toISOString(), dormant_at: null, deleting_at: null })
      expect(await times(w.dormant)).toEqual({
        last_used_at: T0.toISOString(),
        dormant_at: T1.toISOString(),
        deleting_at: null
      })
      // Nor with a change outside the schedule.
      status(
        await owner.patch(`/templates/${w.t.id}`, { description: "new", update_workspace_last_used_at: true }),
        200
      )
      expect((await times(w.active)).last_used_at).toBe(T0.toISOString())
    })

    it("update_workspace_last_used_at sets last_used_at of every workspace of the template to now", async () => {
      const w = await world()
      const r = await owner.patch(`/templates/${w.t.id}`, {
        time_til_dormant_ms: 7 * DAY,
        update_workspace_last_used_at: true
      })
      status(r, 200)
      expect(r.body.time_til_dormant_ms).toBe(7 * DAY)
      const active = await times(w.active)
      const dormant = await times(w.dormant)
      // Both at the one "now" of the change (after the times written above); dormancy is not touched.
      expect(Date.parse(active.last_used_at)).toBeGreaterThan(T1.getTime())
      expect(dormant.last_used_at).toBe(active.last_used_at)
      expect(dormant).toMatchObject({ dormant_at: T1.toISOString(), deleting_at: null })
      expect(await times(w.outside)).toEqual({
        last_used_at: T0.toISOString(),
        dormant_at: T1.toISOString(),
        deleting_at: null
      })
    })

    it("a new time_til_dormant_autodelete_ms dates deletions from dormant_at, or from now with update_workspace_dormant_at", async () => {
      const w = await world()
      status(await owner.patch(`/templates/${w.t.id}`, { time_til_dormant_autodelete_ms: DAY }), 200)
      expect(await times(w.dormant)).toMatchObject({
        dormant_at: T1.toISOString(),
        deleting_at: new Date(T1.getTime() + DAY).toISOString()
      })
      expect(await times(w.active)).toMatchObject({ dormant_at: null, deleting_at: null })
      expect((await owner.get(`/workspaces/${w.dormant}`)).body.dormant_at).toBe(T1.toISOString())

      const r = await owner.patch(`/templates/${w.t.id}`, {
        time_til_dormant_autodelete_ms: 2 * DAY,
        update_workspace_dormant_at: true
      })
      status(r, 200)
      const moved = await times(w.dormant)
      expect(Date.parse(moved.dormant_at)).toBeGreaterThan(T1.getTime())
      expect(moved.deleting_at).toBe(new Date(Date.parse(moved.dormant_at) + 2 * DAY).toISOString())
      expect(moved.last_used_at).toBe(T0.toISOString())
      expect(await times(w.active)).toEqual({ last_used_at: T0.toISOString(), dormant_at: null, deleting_at: null })
      expect(await times(w.outside)).toEqual({
        last_used_at: T0.toISOString(),
        dormant_at: T1.toISOString(),
        deleting_at: null
      })

      // No autodelete: no deletion time.
      status(await owner.patch(`/templates/${w.t.id}`, { time_til_dormant_autodelete_ms: 0 }), 200)
      expect(await times(w.dormant)).toMatchObject({ dormant_at: moved.dormant_at, deleting_at: null })
      // The template's audit entry is the change's only one.
      const logs = await owner.get(`/audit?limit=5&q=${encodeURIComponent(`resource_id:${w.t.id}`)}`)
      expect(logs.body.audit_logs[0].diff.time_til_dormant_autodelete_ms).toEqual({
        old: 2 * DAY,
        new: 0,
        secret: false
      })
    })
  })
})
