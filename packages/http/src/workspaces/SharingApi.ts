/** Workspace sharing routes: the workspace's access list (`/workspaces/{workspace}/acl`). */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { UpdateWorkspaceACL, WorkspaceACL } from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, Forbidden, NoContent, NotFound } from "../Common.js"
import { Authentication } from "../Security.js"

const SharingPath = Schema.Struct({
  workspace: Schema.UUID.annotations({
    message: () => ({ message: "Workspace id must be a valid UUID.", override: true })
  })
})

export class WorkspaceSharingApi extends HttpApiGroup.make("workspaceSharing")
  .add(HttpApiEndpoint.get("getAcl", "/workspaces/:workspace/acl").setPath(SharingPath).addSuccess(WorkspaceACL))
  .add(
    HttpApiEndpoint.patch("updateAcl", "/workspaces/:workspace/acl").annotate(Audited, audit("workspace"))
      .setPath(SharingPath)
      .setPayload(UpdateWorkspaceACL)
      .addSuccess(NoContent)
  )
  .add(
    HttpApiEndpoint.del("deleteAcl", "/workspaces/:workspace/acl").annotate(
      Audited,
      audit("workspace", { action: "write" })
    )
      .setPath(SharingPath)
      .addSuccess(NoContent)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
