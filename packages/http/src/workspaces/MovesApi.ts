/**
 * Moving a stopped workspace to another provisioner host (Workbay's own routes; docs/provisioner-daemons.md,
 * "Moving a workspace"): an operator's `POST`/`GET /workspaces/{workspace}/moves`, and the link
 * each of the two hosts' daemons opens to copy the volumes, authenticated by the daemon's
 * provisioner key and the one-time token its job was handed.
 */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { BadGateway, CreateWorkspaceMoveRequest, WorkspaceMove } from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, Conflict, Forbidden, NotFound, OrganizationPath, Unauthorized } from "../Common.js"
import { Authentication } from "../Security.js"
import { WebSocketUpgradeSchema } from "../WebSocket.js"

const WorkspacePath = Schema.Struct({
  workspace: Schema.UUID.annotations({
    message: () => ({ message: "Workspace id must be a valid UUID.", override: true })
  })
})

export class WorkspaceMovesApi extends HttpApiGroup.make("workspaceMoves")
  .add(
    HttpApiEndpoint.post("create", "/workspaces/:workspace/moves")
      .annotate(Audited, audit("workspace", { action: "write" }))
      .setPath(WorkspacePath)
      .setPayload(CreateWorkspaceMoveRequest)
      .addSuccess(WorkspaceMove, { status: 201 })
  )
  .add(
    HttpApiEndpoint.get("list", "/workspaces/:workspace/moves")
      .setPath(WorkspacePath)
      .addSuccess(Schema.Array(WorkspaceMove))
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .addError(Conflict)
  .middleware(Authentication)
  .prefix("/api/v2")
{}

/** The side of a move a link carries. */
export const MoveLinkQuery = Schema.Struct({ side: Schema.Literal("export", "import") })

export class WorkspaceMoveLinkApi extends HttpApiGroup.make("workspaceMoveLink")
  .add(
    // Not audited: a daemon's link, not a user's action (the move was audited when it was asked for).
    HttpApiEndpoint.get("link", "/organizations/:organization/workspacemoves/:move/stream").annotate(Audited, false)
      .setPath(Schema.Struct({ ...OrganizationPath.fields, move: Schema.String }))
      .setUrlParams(MoveLinkQuery)
      .addSuccess(WebSocketUpgradeSchema)
  )
  .addError(BadRequest)
  .addError(Unauthorized)
  .addError(Forbidden)
  .addError(NotFound)
  .addError(BadGateway)
  .prefix("/api/v2")
{}
