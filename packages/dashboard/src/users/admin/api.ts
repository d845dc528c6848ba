/** The administration of the deployment's users: list, create, roles, suspend and activate, delete. */
import { client, type Schemas, unwrap } from "../../api/client.ts"

export type User = Schemas["User"]
export type AssignableRole = Schemas["AssignableRoles"]
export type LoginType = NonNullable<Schemas["CreateUserRequestWithOrgs"]["login_type"]>

export const usersAdminApi = {
  users: (q: string, limit: number, offset: number) =>
    unwrap(client.GET("/api/v2/users", { params: { query: { q, limit: String(limit), offset: String(offset) } } })),
  create: (body: Schemas["CreateUserRequestWithOrgs"]) => unwrap(client.POST("/api/v2/users", { body })),
  /** The site-wide roles the caller may assign. */
  siteRoles: () => unwrap(client.GET("/api/v2/users/roles")),
  setRoles: (user: string, roles: ReadonlyArray<string>) =>
    unwrap(client.PUT("/api/v2/users/{user}/roles", { params: { path: { user } }, body: { roles: [...roles] } })),
  suspend: (user: string) => unwrap(client.PUT("/api/v2/users/{user}/status/suspend", { params: { path: { user } } })),
  activate: (user: string) =>
    unwrap(client.PUT("/api/v2/users/{user}/status/activate", { params: { path: { user } } })),
  remove: (user: string) => unwrap(client.DELETE("/api/v2/users/{user}", { params: { path: { user } } }))
}
