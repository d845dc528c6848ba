/** Handlers of the workspaces group. */
import { WorkspaceBuilds, Workspaces } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { jobLogs } from "../provisioners/FollowLogs.js"

const withWorkspaces = <A, E, R>(f: (w: Workspaces) => Effect.Effect<A, E, R>) => Effect.flatMap(Workspaces, f)
const withBuilds = <A, E, R>(f: (b: WorkspaceBuilds) => Effect.Effect<A, E, R>) => Effect.flatMap(WorkspaceBuilds, f)

export const WorkspacesHttp = implement(WorkbayApi, "workspaces", {
  create: ({ path, payload }) => withWorkspaces((w) => w.create(path.organization, path.user, payload)),
  createForUser: ({ path, payload }) => withWorkspaces((w) => w.create(undefined, path.user, payload)),
  availableUsers: ({ path, urlParams }) =>
    withWorkspaces((w) => w.availableUsers(path.organization, path.user, urlParams)),
  list: ({ urlParams }) => withWorkspaces((w) => w.list(urlParams)),
  get: ({ path, urlParams }) => withWorkspaces((w) => w.get(path.workspace, urlParams.include_deleted === true)),
  getByOwnerAndName: ({ path, urlParams }) =>
    withWorkspaces((w) => w.getByOwnerAndName(path.user, path.workspacename, urlParams.include_deleted === true)),
  update: ({ path, payload }) => withWorkspaces((w) => w.update(path.workspace, payload)),
  favorite: ({ path }) => withWorkspaces((w) => w.setFavorite(path.workspace, true)),
  unfavorite: ({ path }) => withWorkspaces((w) => w.setFavorite(path.workspace, false)),
  createBuild: ({ path, payload }) => withBuilds((b) => b.create(path.workspace, payload)),
  listBuilds: ({ path, urlParams }) => withWorkspaces((w) => w.listBuilds(path.workspace, urlParams)),
  getBuild: ({ path }) => withBuilds((b) => b.get(path.workspacebuild)),
  buildByNumber: ({ path }) => withWorkspaces((w) => w.buildByNumber(path.user, path.workspacename, path.buildnumber)),
  buildLogs: ({ path, urlParams }) => withBuilds((b) => jobLogs(b.logsJob(path.workspacebuild), urlParams)),
  buildResources: ({ path }) => withBuilds((b) => b.resources(path.workspacebuild)),
  buildParameters: ({ path }) => withBuilds((b) => b.parameters(path.workspacebuild)),
  buildState: ({ path }) => withBuilds((b) => b.state(path.workspacebuild)),
  updateBuildState: ({ path, payload }) =>
    withBuilds((b) =>
      b.setState(
        path.workspacebuild,
        typeof payload.state === "string"
          ? new Uint8Array(Buffer.from(payload.state, "base64"))
          : Uint8Array.from(payload.state as ReadonlyArray<number>)
      )
    ),
  buildTimings: ({ path }) => withBuilds((b) => b.timings(path.workspacebuild)),
  workspaceTimings: ({ path }) => withBuilds((b) => b.workspaceTimings(path.workspace)),
  cancelBuild: ({ path, urlParams }) => withBuilds((b) => b.cancel(path.workspacebuild, urlParams.expect_status))
})
