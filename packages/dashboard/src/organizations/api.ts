/** Organizations: the list and creation, members and their roles, custom roles, provisioners. */
import { client, type Schemas, unwrap } from "../api/client.ts"

export type Organization = Schemas["Organization"]
export type Member = Schemas["OrganizationMemberWithUserData"]
export type Role = Schemas["AssignableRoles"]
export type CustomRole = Schemas["CustomRoleRequest"]

const org = (organization: string) => ({ params: { path: { organization } } })

export const organizationsApi = {
  list: () => unwrap(client.GET("/api/v2/organizations")),
  get: (organization: string) => unwrap(client.GET("/api/v2/organizations/{organization}", org(organization))),
  create: (body: Schemas["CreateOrganizationRequest"]) => unwrap(client.POST("/api/v2/organizations", { body })),
  members: (organization: string) =>
    unwrap(client.GET("/api/v2/organizations/{organization}/members", org(organization))),
  addMember: (organization: string, user: string) =>
    unwrap(
      client.POST("/api/v2/organizations/{organization}/members/{user}", { params: { path: { organization, user } } })
    ),
  removeMember: (organization: string, user: string) =>
    unwrap(
      client.DELETE("/api/v2/organizations/{organization}/members/{user}", { params: { path: { organization, user } } })
    ),
  setMemberRoles: (organization: string, user: string, roles: ReadonlyArray<string>) =>
    unwrap(
      client.PUT("/api/v2/organizations/{organization}/members/{user}/roles", {
        params: { path: { organization, user } },
        body: { roles: [...roles] }
      })
    ),
  /** The organization's roles: the built-in ones and its custom roles. */
  roles: (organization: string) =>
    unwrap(client.GET("/api/v2/organizations/{organization}/members/roles", org(organization))),
  createRole: (organization: string, body: CustomRole) =>
    unwrap(client.POST("/api/v2/organizations/{organization}/members/roles", { ...org(organization), body })),
  updateRole: (organization: string, body: CustomRole) =>
    unwrap(client.PUT("/api/v2/organizations/{organization}/members/roles", { ...org(organization), body })),
  deleteRole: (organization: string, roleName: string) =>
    unwrap(
      client.DELETE("/api/v2/organizations/{organization}/members/roles/{roleName}", {
        params: { path: { organization, roleName } }
      })
    ),
  daemons: (organization: string) =>
    unwrap(client.GET("/api/v2/organizations/{organization}/provisionerdaemons", org(organization))),
  /** The machines its external daemons run workspaces on, with their latest capacity (Workbay's own route). */
  hosts: (organization: string) =>
    unwrap(client.GET("/api/v2/organizations/{organization}/provisionerhosts", org(organization))),
  /** Drains a host (placement skips it; its workspaces stay) or takes it back: the host as it is then. */
  setHostDraining: (organization: string, host: string, draining: boolean) =>
    unwrap(
      client.PATCH("/api/v2/organizations/{organization}/provisionerhosts/{host}", {
        params: { path: { organization, host } },
        body: { draining }
      })
    ),
  /** The organization's checks of the one evaluator (`POST /authcheck`): may the user manage its provisioner daemons? */
  provisionerPermissions: async (organizationId: string) => {
    const answer = await unwrap(client.POST("/api/v2/authcheck", {
      body: {
        checks: {
          update: {
            object: { resource_type: "provisioner_daemon", organization_id: organizationId },
            action: "update"
          }
        }
      }
    }))
    return { update: answer["update"] === true }
  },
  jobs: (organization: string) =>
    unwrap(
      client.GET("/api/v2/organizations/{organization}/provisionerjobs", {
        params: { path: { organization }, query: { limit: "50" } }
      })
    )
}
