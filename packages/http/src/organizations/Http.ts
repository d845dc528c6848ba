/** Handlers of the organizations group. */
import { Organizations } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"

export const OrganizationsHttp = implement(WorkbayApi, "organizations", {
  list: () => Effect.flatMap(Organizations, (o) => o.list),
  create: ({ payload }) => Effect.flatMap(Organizations, (o) => o.create(payload)),
  get: ({ path }) => Effect.flatMap(Organizations, (o) => o.get(path.organization)),
  update: ({ path, payload }) => Effect.flatMap(Organizations, (o) => o.update(path.organization, payload)),
  delete: ({ path }) => Effect.flatMap(Organizations, (o) => o.delete(path.organization)),
  listMembers: ({ path, urlParams }) =>
    Effect.flatMap(Organizations, (o) => o.listMembers(path.organization, urlParams)),
  paginatedMembers: ({ path, urlParams }) =>
    Effect.flatMap(Organizations, (o) => o.paginatedMembers(path.organization, urlParams)),
  getWorkspaceSharing: ({ path }) => Effect.flatMap(Organizations, (o) => o.getWorkspaceSharing(path.organization)),
  updateWorkspaceSharing: ({ path, payload }) =>
    Effect.flatMap(Organizations, (o) => o.setWorkspaceSharing(path.organization, payload)),
  assignableRoles: ({ path }) => Effect.flatMap(Organizations, (o) => o.assignableRoles(path.organization)),
  createRole: ({ path, payload }) => Effect.flatMap(Organizations, (o) => o.createRole(path.organization, payload)),
  updateRole: ({ path, payload }) => Effect.flatMap(Organizations, (o) => o.updateRole(path.organization, payload)),
  deleteRole: ({ path }) => Effect.flatMap(Organizations, (o) => o.deleteRole(path.organization, path.roleName)),
  getMember: ({ path }) => Effect.flatMap(Organizations, (o) => o.getMember(path.organization, path.user)),
  updateMemberRoles: ({ path, payload }) =>
    Effect.flatMap(Organizations, (o) => o.setMemberRoles(path.organization, path.user, payload.roles)),
  addMember: ({ path }) => Effect.flatMap(Organizations, (o) => o.addMember(path.organization, path.user)),
  removeMember: ({ path }) => Effect.flatMap(Organizations, (o) => o.removeMember(path.organization, path.user))
})
