/** An organization's groups: list, create, members, quota allowance, delete; whether quotas apply. */
import { client, type Schemas, unwrap } from "../api/client.ts"

export type Group = Schemas["Group"]

export const groupsApi = {
  list: (organization: string) =>
    unwrap(client.GET("/api/v2/organizations/{organization}/groups", { params: { path: { organization } } })),
  byName: (organization: string, groupName: string) =>
    unwrap(
      client.GET("/api/v2/organizations/{organization}/groups/{groupName}", {
        params: { path: { organization, groupName } }
      })
    ),
  create: (organization: string, body: Schemas["CreateGroupRequest"]) =>
    unwrap(client.POST("/api/v2/organizations/{organization}/groups", { params: { path: { organization } }, body })),
  patch: (group: string, body: Schemas["PatchGroupRequest"]) =>
    unwrap(client.PATCH("/api/v2/groups/{group}", { params: { path: { group } }, body })),
  remove: (group: string) => unwrap(client.DELETE("/api/v2/groups/{group}", { params: { path: { group } } })),
  /**
   * Whether quotas apply in the organization: once any group of it has an allowance above 0
   * (docs/workspaces.md, Quotas). Its groups a page at a time, to the first allowance found.
   */
  quotasOn: async (organization: string): Promise<boolean> => {
    const limit = 1000
    let after: string | undefined
    for (;;) {
      const page = await unwrap(
        client.GET("/api/v2/organizations/{organization}/paginated-groups", {
          params: {
            path: { organization },
            query: { limit: String(limit), ...(after === undefined ? {} : { after_id: after }) }
          }
        })
      )
      if (page.groups.some((g) => g.quota_allowance > 0)) return true
      const last = page.groups.at(-1)
      if (page.groups.length < limit || last === undefined) return false
      after = last.id
    }
  }
}
