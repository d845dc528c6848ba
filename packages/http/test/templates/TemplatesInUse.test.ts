/**
 * Templates that workspaces use, through real HTTP over a fresh SQLite database: deleting one is
 * refused while it has undeleted workspaces, `active_user_count` counts the users owning its
 * workspaces, and listings put the most used first.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Client, createUser, type ServiceTestServer, startWithOwner, type TestUser, uniqueName } from "../support.js"
import { FREE_TEMPLATE, makeTemplate, makeWorkspace } from "../workspaces/fixtures.js"
import { runJobs } from "./versions.js"

const status = (r: { status: number; body: unknown }, expected: number) => expect(r.status, JSON.stringify(r.body)).toBe(expected)

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
    expect(after.body.map((t: any) => [t.id, t.active_user_count])).toEqual([[some.id, 1], [popular.id, 1], [unused.id, 0]])
  })
})
