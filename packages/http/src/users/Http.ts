/** Handlers of the users group. */
import { Auth, AutofillParameters, Organizations, Users } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"

export const UsersHttp = implement(WorkbayApi, "users", {
  list: ({ urlParams }) => Effect.flatMap(Users, (u) => u.list(urlParams)),
  create: ({ payload }) => Effect.flatMap(Users, (u) => u.create(payload)),
  assignableRoles: () => Effect.flatMap(Users, (u) => u.assignableRoles),
  get: ({ path }) => Effect.flatMap(Users, (u) => u.get(path.user)),
  updateRoles: ({ path, payload }) => Effect.flatMap(Users, (u) => u.setRoles(path.user, payload.roles)),
  suspend: ({ path }) => Effect.flatMap(Users, (u) => u.setStatus(path.user, "suspended")),
  activate: ({ path }) => Effect.flatMap(Users, (u) => u.setStatus(path.user, "active")),
  delete: ({ path }) => Effect.flatMap(Users, (u) => u.delete(path.user)),
  roles: ({ path }) => Effect.flatMap(Users, (u) => u.rolesOf(path.user)),
  loginType: ({ path }) => Effect.flatMap(Users, (u) => u.loginType(path.user)),
  organizations: ({ path }) => Effect.flatMap(Organizations, (o) => o.organizationsOf(path.user)),
  organizationByName: ({ path }) =>
    Effect.flatMap(Organizations, (o) => o.organizationOf(path.user, path.organizationname)),
  updateProfile: ({ path, payload }) => Effect.flatMap(Users, (u) => u.updateProfile(path.user, payload)),
  updatePassword: ({ path, payload }) => Effect.flatMap(Users, (u) => u.updatePassword(path.user, payload)),
  getAppearance: ({ path }) => Effect.flatMap(Users, (u) => u.getAppearance(path.user)),
  updateAppearance: ({ path, payload }) => Effect.flatMap(Users, (u) => u.setAppearance(path.user, payload)),
  getPreferences: ({ path }) => Effect.flatMap(Users, (u) => u.getPreferences(path.user)),
  updatePreferences: ({ path, payload }) => Effect.flatMap(Users, (u) => u.setPreferences(path.user, payload)),
  autofillParameters: ({ path, urlParams }) =>
    Effect.flatMap(AutofillParameters, (a) => a.autofillParameters(path.user, urlParams.template_id)),
  getGitSshKey: ({ path }) => Effect.flatMap(Users, (u) => u.getGitSshKey(path.user)),
  regenerateGitSshKey: ({ path }) => Effect.flatMap(Users, (u) => u.regenerateGitSshKey(path.user)),
  getQuietHours: ({ path }) => Effect.flatMap(Users, (u) => u.getQuietHours(path.user)),
  updateQuietHours: ({ path, payload }) => Effect.flatMap(Users, (u) => u.setQuietHours(path.user, payload.schedule)),
  createSessionKey: ({ path }) => Effect.flatMap(Auth, (a) => a.createSessionKey(path.user)),
  listTokens: ({ path, urlParams }) => Effect.flatMap(Auth, (a) => a.listTokens(path.user, urlParams)),
  createToken: ({ path, payload }) => Effect.flatMap(Auth, (a) => a.createToken(path.user, payload)),
  tokenConfig: ({ path }) => Effect.flatMap(Auth, (a) => a.tokenConfig(path.user)),
  getTokenByName: ({ path }) => Effect.flatMap(Auth, (a) => a.getToken(path.user, path.keyname)),
  deleteTokenByName: ({ path }) => Effect.flatMap(Auth, (a) => a.deleteKey(path.user, path.keyname)),
  getKey: ({ path }) => Effect.flatMap(Auth, (a) => a.getToken(path.user, path.keyid)),
  deleteKey: ({ path }) => Effect.flatMap(Auth, (a) => a.deleteKey(path.user, path.keyid)),
  expireKey: ({ path }) => Effect.flatMap(Auth, (a) => a.expireKey(path.user, path.keyid))
})
