/**
 * The response schema table's rows of the groups endpoints (packages/http/src/groups/), run by
 * ../responseSchemas.ts.
 */
import { GROUP_AVATAR, type Row, row, type World } from "../responseSchemas.js"
import { uniqueName } from "../support.js"

/** A group to change or delete in a row without touching the shared ones. */
const throwawayGroup = async (w: World, body: Record<string, unknown> = {}) => {
  const r = await w.owner.post(`/organizations/${w.orgId}/groups`, { name: uniqueName("tmp"), ...body })
  if (r.status !== 201) throw new Error(`group: ${r.status} ${JSON.stringify(r.body)}`)
  return r.body as { id: string; name: string }
}

export const responseRows: ReadonlyArray<Row> = [
  // groups
  row("groups.list", "GET /api/v2/groups", 200, "[Group]", async (w) => [
    await w.owner.get("/groups"),
    await w.bob.client.get("/groups")
  ]),
  row("groups.get", "GET /api/v2/groups/:group", 200, "Group", async (w) => [
    await w.owner.get(`/groups/${w.devs.id}`),
    await w.owner.get(`/groups/${w.bare.id}`),
    await w.owner.get(`/groups/${w.orgId}`),
    await w.owner.get(`/groups/${w.devs.id}?exclude_members=true`),
    await w.bob.client.get(`/groups/${w.devs.id}`)
  ]),
  row("groups.update", "PATCH /api/v2/groups/:group", 200, "Group", async (w) => {
    const g = await throwawayGroup(w, { avatar_url: GROUP_AVATAR })
    return [
      await w.owner.patch(`/groups/${g.id}`, { display_name: "Renamed", add_users: [w.alice.user.id, w.bob.username] }),
      await w.owner.patch(`/groups/${g.id}`, { avatar_url: "" })
    ]
  }),
  row(
    "groups.delete",
    "DELETE /api/v2/groups/:group",
    200,
    "Group",
    async (w) => w.owner.delete(`/groups/${(await throwawayGroup(w)).id}`)
  ),
  row("groups.listMembers", "GET /api/v2/groups/:group/members", 200, "GroupMembersResponse", async (w) => [
    await w.owner.get(`/groups/${w.devs.id}/members`),
    await w.owner.get(`/groups/${w.orgId}/members?limit=2`)
  ]),
  row(
    "groups.getAiBudget",
    "GET /api/v2/groups/:group/ai/budget",
    200,
    "GroupAIBudget",
    (w) => w.owner.get(`/groups/${w.devs.id}/ai/budget`)
  ),
  row(
    "groups.setAiBudget",
    "PUT /api/v2/groups/:group/ai/budget",
    200,
    "GroupAIBudget",
    (w) => w.owner.put(`/groups/${w.orgId}/ai/budget`, { spend_limit_micros: 0 })
  ),
  row("groups.deleteAiBudget", "DELETE /api/v2/groups/:group/ai/budget", 204, "none", async (w) => {
    const g = await throwawayGroup(w)
    await w.owner.put(`/groups/${g.id}/ai/budget`, { spend_limit_micros: 1 })
    return w.owner.delete(`/groups/${g.id}/ai/budget`)
  }),
  row("groups.getByName", "GET /api/v2/organizations/:organization/groups/:groupName", 200, "Group", async (w) => [
    await w.owner.get(`/organizations/${w.orgId}/groups/Everyone`),
    await w.owner.get(`/organizations/${w.orgId}/groups/${(await throwawayGroup(w)).name}`)
  ]),
  row("groups.listByOrganization", "GET /api/v2/organizations/:organization/groups", 200, "[Group]", async (w) => [
    await w.owner.get(`/organizations/${w.orgId}/groups`),
    await w.owner.get(`/organizations/${w.org.id}/groups`)
  ]),
  row(
    "groups.listPaginated",
    "GET /api/v2/organizations/:organization/paginated-groups",
    200,
    "PaginatedGroupsResponse",
    async (w) => [
      await w.owner.get(`/organizations/${w.orgId}/paginated-groups`),
      await w.owner.get(`/organizations/${w.org.id}/paginated-groups?limit=1`),
      await w.bob.client.get(`/organizations/${w.orgId}/paginated-groups?q=zzz-none`)
    ]
  ),
  row(
    "groups.listMembersByName",
    "GET /api/v2/organizations/:organization/groups/:groupName/members",
    200,
    "GroupMembersResponse",
    async (w) => [
      await w.owner.get(`/organizations/${w.orgId}/groups/Everyone/members`),
      await w.bob.client.get(`/organizations/${w.orgId}/groups/Everyone/members?limit=1`)
    ]
  ),
  row("groups.create", "POST /api/v2/organizations/:organization/groups", 201, "Group", async (w) => [
    await w.owner.post(`/organizations/${w.orgId}/groups`, { name: uniqueName("made") }),
    await w.owner.post(`/organizations/${w.org.id}/groups`, {
      name: uniqueName("made"),
      display_name: "Made",
      avatar_url: GROUP_AVATAR,
      quota_allowance: 3
    })
  ]),
  row(
    "groups.workspaceQuota",
    "GET /api/v2/workspace-quota/:user",
    200,
    "WorkspaceQuota",
    (w) => w.owner.get(`/workspace-quota/${w.alice.user.id}`)
  ),
  row(
    "groups.workspaceQuotaByOrganization",
    "GET /api/v2/organizations/:organization/members/:user/workspace-quota",
    200,
    "WorkspaceQuota",
    async (w) => [
      await w.owner.get(`/organizations/${w.orgId}/members/${w.alice.user.id}/workspace-quota`),
      await w.alice.client.get(`/organizations/${w.org.name}/members/me/workspace-quota`),
      await w.owner.get(`/organizations/${w.org.id}/members/${w.robotId}/workspace-quota`)
    ]
  )
]
