/** Handlers of the workspace sharing group. */
import { WorkspaceSharing } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"

export const WorkspaceSharingHttp = implement(WorkbayApi, "workspaceSharing", {
  getAcl: ({ path }) => Effect.flatMap(WorkspaceSharing, (s) => s.getAcl(path.workspace)),
  updateAcl: ({ path, payload }) => Effect.flatMap(WorkspaceSharing, (s) => s.updateAcl(path.workspace, payload)),
  deleteAcl: ({ path }) => Effect.flatMap(WorkspaceSharing, (s) => s.deleteAcl(path.workspace))
})
