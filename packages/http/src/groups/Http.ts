/** Handlers of the groups group. */
import { Groups, WorkspaceQuotas } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"

export const GroupsHttp = implement(WorkbayApi, "groups", {
  list: ({ urlParams }) => Effect.flatMap(Groups, (g) => g.list(urlParams)),
  get: ({ path, urlParams }) => Effect.flatMap(Groups, (g) => g.get(path.group, urlParams)),
  update: ({ path, payload }) => Effect.flatMap(Groups, (g) => g.update(path.group, payload)),
  delete: ({ path }) => Effect.flatMap(Groups, (g) => g.delete(path.group)),
  listMembers: ({ path, urlParams }) => Effect.flatMap(Groups, (g) => g.listMembers(path.group, urlParams)),
  getAiBudget: ({ path }) => Effect.flatMap(Groups, (g) => g.getAiBudget(path.group)),
  setAiBudget: ({ path, payload }) =>
    Effect.flatMap(Groups, (g) => g.setAiBudget(path.group, payload.spend_limit_micros)),
  deleteAiBudget: ({ path }) => Effect.flatMap(Groups, (g) => g.deleteAiBudget(path.group)),
  listByOrganization: ({ path }) => Effect.flatMap(Groups, (g) => g.listByOrganization(path.organization)),
  getByName: ({ path }) => Effect.flatMap(Groups, (g) => g.getByName(path.organization, path.groupName)),
  listMembersByName: ({ path, urlParams }) =>
    Effect.flatMap(Groups, (g) => g.listMembersByName(path.organization, path.groupName, urlParams)),
  listPaginated: ({ path, urlParams }) => Effect.flatMap(Groups, (g) => g.listPaginated(path.organization, urlParams)),
  create: ({ path, payload }) => Effect.flatMap(Groups, (g) => g.create(path.organization, payload)),
  workspaceQuota: ({ path }) => Effect.flatMap(WorkspaceQuotas, (q) => q.workspaceQuota(path.user)),
  workspaceQuotaByOrganization: ({ path }) =>
    Effect.flatMap(WorkspaceQuotas, (q) => q.workspaceQuotaByOrganization(path.organization, path.user))
})
