/** An organization's groups: list, create, members, quota allowance, delete. */
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
  remove: (group: string) => unwrap(client.DELETE("/api/v2/groups/{group}", { params: { path: { group } } }))
}
