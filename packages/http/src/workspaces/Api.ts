/**
 * Workspace routes: creating workspaces (both forms), reading and listing them, renaming,
 * favorites, who the caller may create workspaces for, and builds (queue, read, logs with
 * follow over a WebSocket, resources, parameters, state, timings, cancel). Paths, bodies and answers as
 * the described system's; see docs/workspaces.md.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import {
  AvailableUsersQuery,
  CancelBuildQuery,
  CreateWorkspaceBuildRequest,
  CreateWorkspaceRequest,
  GetWorkspaceQuery,
  JobLogsQuery,
  ListBuildsQuery,
  ListWorkspacesQuery,
  MinimalUser,
  ProvisionerJobLog,
  ResponseBody,
  UpdateWorkspaceBuildStateRequest,
  UpdateWorkspaceRequest,
  Workspace,
  WorkspaceBuild,
  WorkspaceBuildParameter,
  WorkspaceBuildTimings,
  WorkspaceResource,
  WorkspacesResponse
} from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, Conflict, Forbidden, NoContent, NotFound, PreconditionFailed, uuid } from "../Common.js"
import { Authentication } from "../Security.js"
import { WebSocketUpgradeSchema } from "../WebSocket.js"

const WorkspacePath = Schema.Struct({ workspace: uuid("Workspace id") })
const BuildPath = Schema.Struct({ workspacebuild: uuid("Workspace build id") })
const MemberPath = Schema.Struct({ organization: Schema.String, user: Schema.String })
const OwnerNamePath = Schema.Struct({ user: Schema.String, workspacename: Schema.String.pipe(Schema.maxLength(256)) })

export class WorkspacesApi extends HttpApiGroup.make("workspaces")
  .add(
    HttpApiEndpoint.post("create", "/organizations/:organization/members/:user/workspaces").annotate(
      Audited,
      audit("workspace")
    )
      .setPath(MemberPath)
      .setPayload(CreateWorkspaceRequest)
      .addSuccess(Workspace)
      .addError(Conflict)
  )
  .add(
    HttpApiEndpoint.post("createForUser", "/users/:user/workspaces").annotate(Audited, audit("workspace"))
      .setPath(Schema.Struct({ user: Schema.String }))
      .setPayload(CreateWorkspaceRequest)
      .addSuccess(Workspace)
      .addError(Conflict)
  )
  .add(
    HttpApiEndpoint.get("availableUsers", "/organizations/:organization/members/:user/workspaces/available-users")
      .setPath(MemberPath)
      .setUrlParams(AvailableUsersQuery)
      .addSuccess(Schema.Array(MinimalUser))
  )
  .add(
    HttpApiEndpoint.get("list", "/workspaces")
      .setUrlParams(ListWorkspacesQuery)
      .addSuccess(WorkspacesResponse)
  )
  .add(
    HttpApiEndpoint.get("get", "/workspaces/:workspace").setPath(WorkspacePath).setUrlParams(GetWorkspaceQuery)
      .addSuccess(
        Workspace
      )
  )
  .add(
    HttpApiEndpoint.get("getByOwnerAndName", "/users/:user/workspace/:workspacename")
      .setPath(OwnerNamePath)
      .setUrlParams(GetWorkspaceQuery)
      .addSuccess(Workspace)
  )
  .add(
    HttpApiEndpoint.patch("update", "/workspaces/:workspace").annotate(Audited, audit("workspace"))
      .setPath(WorkspacePath)
      .setPayload(UpdateWorkspaceRequest)
      .addSuccess(NoContent)
      .addError(Conflict)
  )
  .add(
    HttpApiEndpoint.put("favorite", "/workspaces/:workspace/favorite").annotate(Audited, audit("workspace"))
      .setPath(WorkspacePath)
      .addSuccess(NoContent)
  )
  .add(
    HttpApiEndpoint.del("unfavorite", "/workspaces/:workspace/favorite").annotate(
      Audited,
      audit("workspace", { action: "write" })
    )
      .setPath(WorkspacePath)
      .addSuccess(NoContent)
  )
  .add(
    HttpApiEndpoint.post("createBuild", "/workspaces/:workspace/builds").annotate(
      Audited,
      audit("workspace_build", { action: "start" })
    )
      .setPath(WorkspacePath)
      .setPayload(CreateWorkspaceBuildRequest)
      .addSuccess(WorkspaceBuild)
      .addError(Conflict)
  )
  .add(
    HttpApiEndpoint.get("listBuilds", "/workspaces/:workspace/builds")
      .setPath(WorkspacePath)
      .setUrlParams(ListBuildsQuery)
      .addSuccess(Schema.Array(WorkspaceBuild))
  )
  .add(
    HttpApiEndpoint.get("getBuild", "/workspacebuilds/:workspacebuild").setPath(BuildPath).addSuccess(WorkspaceBuild)
  )
  .add(
    HttpApiEndpoint.get("buildByNumber", "/users/:user/workspace/:workspacename/builds/:buildnumber")
      .setPath(Schema.Struct({
        user: Schema.String,
        workspacename: Schema.String.pipe(Schema.maxLength(256)),
        buildnumber: Schema.NumberFromString.pipe(Schema.int(), Schema.positive()).annotations({
          message: () => ({ message: "Build number must be a positive integer.", override: true })
        })
      }))
      .addSuccess(WorkspaceBuild)
  )
  .add(
    HttpApiEndpoint.get("buildLogs", "/workspacebuilds/:workspacebuild/logs")
      .setPath(BuildPath)
      .setUrlParams(JobLogsQuery)
      .addSuccess(Schema.Array(ProvisionerJobLog))
      .addSuccess(WebSocketUpgradeSchema)
  )
  .add(
    HttpApiEndpoint.get("buildResources", "/workspacebuilds/:workspacebuild/resources")
      .setPath(BuildPath)
      .addSuccess(Schema.Array(WorkspaceResource))
  )
  .add(
    HttpApiEndpoint.get("buildParameters", "/workspacebuilds/:workspacebuild/parameters")
      .setPath(BuildPath)
      .addSuccess(Schema.Array(WorkspaceBuildParameter))
  )
  .add(
    // The provisioner's state as it stored it (JSON for the built-in provisioner).
    HttpApiEndpoint.get("buildState", "/workspacebuilds/:workspacebuild/state")
      .setPath(BuildPath)
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "application/json" }))
  )
  .add(
    // Overwrites the provisioner state (template administrators only); audited, the diff names its size and digest.
    HttpApiEndpoint.put("updateBuildState", "/workspacebuilds/:workspacebuild/state")
      .annotate(Audited, audit("workspace_build", { action: "write" }))
      .setPath(BuildPath)
      .setPayload(UpdateWorkspaceBuildStateRequest)
      .addSuccess(NoContent)
  )
  .add(
    HttpApiEndpoint.get("buildTimings", "/workspacebuilds/:workspacebuild/timings")
      .setPath(BuildPath)
      .addSuccess(WorkspaceBuildTimings)
  )
  .add(
    HttpApiEndpoint.get("workspaceTimings", "/workspaces/:workspace/timings")
      .setPath(WorkspacePath)
      .addSuccess(WorkspaceBuildTimings)
  )
  .add(
    // Not audited, as template version cancels: canceling changes the job, not the build.
    HttpApiEndpoint.patch("cancelBuild", "/workspacebuilds/:workspacebuild/cancel").annotate(Audited, false)
      .setPath(BuildPath)
      .setUrlParams(CancelBuildQuery)
      .addSuccess(ResponseBody)
      .addError(PreconditionFailed)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
