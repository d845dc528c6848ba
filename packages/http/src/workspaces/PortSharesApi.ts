/** Port sharing routes: a workspace's shared agent ports (the described system's PortSharing group). */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  DeleteWorkspaceAgentPortShareRequest,
  UpsertWorkspaceAgentPortShareRequest,
  WorkspaceAgentPortShare,
  WorkspaceAgentPortShares
} from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, EmptyOk, Forbidden, NotFound } from "../Common.js"
import { Authentication } from "../Security.js"

const WorkspacePath = Schema.Struct({
  workspace: Schema.UUID.annotations({
    message: () => ({ message: "Workspace id must be a valid UUID.", override: true })
  })
})

/** Changes are audited as changes of the workspace (the described system has no port share resource type). */
const workspaceWrite = audit("workspace", { action: "write" })

export class PortSharesApi extends HttpApiGroup.make("portShares")
  .add(
    HttpApiEndpoint.get("list", "/workspaces/:workspace/port-share")
      .setPath(WorkspacePath)
      .addSuccess(WorkspaceAgentPortShares)
  )
  .add(
    HttpApiEndpoint.post("upsert", "/workspaces/:workspace/port-share").annotate(Audited, workspaceWrite)
      .setPath(WorkspacePath)
      .setPayload(UpsertWorkspaceAgentPortShareRequest)
      .addSuccess(WorkspaceAgentPortShare)
  )
  .add(
    HttpApiEndpoint.del("delete", "/workspaces/:workspace/port-share").annotate(Audited, workspaceWrite)
      .setPath(WorkspacePath)
      .setPayload(DeleteWorkspaceAgentPortShareRequest)
      .addSuccess(EmptyOk)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
