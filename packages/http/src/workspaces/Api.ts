/**
 * Workspace routes: creating workspaces (both forms), reading and listing them, renaming,
 * favorites, who the caller may create workspaces for, and builds (queue, read, logs with
 * follow over a WebSocket, resources, parameters, state, timings, cancel). Paths, bodies and answers as
 * the described system's; see docs/workspaces.md.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import {
  MinimalUser,
  ProvisionerJobLog,
  ResponseBody,
  Workspace,
  WorkspaceBuild,
  WorkspaceBuildParameter,
  WorkspaceBuildTimings,
  WorkspaceName,
  WorkspaceResource,
  WorkspacesResponse
} from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import {
  BadRequest,
  BooleanParam,
  Conflict,
  Forbidden,
  NoContent,
  NonNegativeIntParam,
  NotFound,
  optional,
  optionalParam,
  PreconditionFailed,
  uuid,
  wireName
} from "../Common.js"
import { Authentication } from "../Security.js"
import { JobLogsQuery } from "../templates/FollowLogs.js"
import { NameValue } from "../templates/VersionsApi.js"
import { WebSocketUpgradeSchema } from "../WebSocket.js"

const Schedule = Schema.String.pipe(Schema.maxLength(256, { message: () => "Must be at most 256 characters." }))

export class CreateWorkspaceRequest extends Schema.Class<CreateWorkspaceRequest>("CreateWorkspaceRequest")({
  name: WorkspaceName,
  template_id: optional(uuid("Template id")),
  template_version_id: optional(uuid("Template version id")),
  template_version_preset_id: optional(uuid("Template version preset id")),
  rich_parameter_values: optional(Schema.Array(NameValue)),
  autostart_schedule: optional(Schedule),
  ttl_ms: optional(Schema.Int.pipe(Schema.nonNegative({ message: () => "Must not be negative." }))),
  automatic_updates: optional(Schema.Literal("always", "never"))
}, wireName("CreateWorkspaceRequest")) {}

/** Why a client asked for a build (the described system's `CreateWorkspaceBuildReason`). */
export const buildRequestReasons = [
  "dashboard",
  "cli",
  "ssh_connection",
  "vscode_connection",
  "jetbrains_connection"
] as const

export class CreateWorkspaceBuildRequest
  extends Schema.Class<CreateWorkspaceBuildRequest>("CreateWorkspaceBuildRequest")({
    transition: Schema.Literal("start", "stop", "delete"),
    template_version_id: optional(uuid("Template version id")),
    dry_run: optional(Schema.Boolean),
    state: optional(Schema.Array(Schema.Int)),
    orphan: optional(Schema.Boolean),
    rich_parameter_values: optional(Schema.Array(NameValue)),
    log_level: optional(Schema.Literal("debug")),
    template_version_preset_id: optional(uuid("Template version preset id")),
    reason: optional(Schema.Literal(...buildRequestReasons))
  }, wireName("CreateWorkspaceBuildRequest"))
{}

export class UpdateWorkspaceRequest extends Schema.Class<UpdateWorkspaceRequest>("UpdateWorkspaceRequest")({
  name: optional(Schema.Union(Schema.Literal(""), WorkspaceName))
}, wireName("UpdateWorkspaceRequest")) {}

/** Base64 with padding, as the described system's Go client encodes bytes in JSON. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/
const isByte = (b: unknown) => typeof b === "number" && Number.isInteger(b) && b >= 0 && b <= 255

/** Bytes as a base64 string or an array of bytes; one validation at the field either way. */
const StateBytes = Schema.Union(Schema.String, Schema.Array(Schema.Unknown)).pipe(
  Schema.filter((s) => (typeof s === "string" ? BASE64.test(s) : s.every(isByte)), {
    message: () => "Must be base64 (standard alphabet, padded) or an array of bytes (0 to 255)."
  }),
  Schema.annotations({
    message: () => ({
      message: "Must be base64 (standard alphabet, padded) or an array of bytes (0 to 255).",
      override: true
    })
  })
)

/**
 * `UpdateWorkspaceBuildStateRequest`: `state` as the Go client sends bytes (a base64 string), or
 * as an array of bytes (the form `CreateWorkspaceBuildRequest.state` takes here). Required: a
 * missing or `null` state is refused rather than taken as "clear it"; `""` or `[]` clears it.
 */
export class UpdateWorkspaceBuildStateRequest
  extends Schema.Class<UpdateWorkspaceBuildStateRequest>("UpdateWorkspaceBuildStateRequest")({
    state: StateBytes
  }, wireName("UpdateWorkspaceBuildStateRequest"))
{}

const WorkspacePath = Schema.Struct({ workspace: uuid("Workspace id") })
const BuildPath = Schema.Struct({ workspacebuild: uuid("Workspace build id") })
const MemberPath = Schema.Struct({ organization: Schema.String, user: Schema.String })
const OwnerNamePath = Schema.Struct({ user: Schema.String, workspacename: Schema.String.pipe(Schema.maxLength(256)) })
const IncludeDeleted = Schema.Struct({ include_deleted: optionalParam(BooleanParam) })

const DateParam = Schema.Date.annotations({
  message: () => ({ message: "Must be an RFC 3339 date-time.", override: true })
})

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
      .setUrlParams(Schema.Struct({
        q: optionalParam(Schema.String.pipe(Schema.maxLength(1024))),
        limit: optionalParam(NonNegativeIntParam),
        offset: optionalParam(NonNegativeIntParam)
      }))
      .addSuccess(Schema.Array(MinimalUser))
  )
  .add(
    HttpApiEndpoint.get("list", "/workspaces")
      .setUrlParams(Schema.Struct({
        q: optionalParam(Schema.String.pipe(Schema.maxLength(4096))),
        limit: optionalParam(NonNegativeIntParam),
        offset: optionalParam(NonNegativeIntParam)
      }))
      .addSuccess(WorkspacesResponse)
  )
  .add(
    HttpApiEndpoint.get("get", "/workspaces/:workspace").setPath(WorkspacePath).setUrlParams(IncludeDeleted).addSuccess(
      Workspace
    )
  )
  .add(
    HttpApiEndpoint.get("getByOwnerAndName", "/users/:user/workspace/:workspacename")
      .setPath(OwnerNamePath)
      .setUrlParams(IncludeDeleted)
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
      .setUrlParams(Schema.Struct({
        after_id: optionalParam(uuid("after_id")),
        since: optionalParam(DateParam),
        limit: optionalParam(NonNegativeIntParam),
        offset: optionalParam(NonNegativeIntParam)
      }))
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
      .setUrlParams(Schema.Struct({ expect_status: optionalParam(Schema.Literal("pending", "running")) }))
      .addSuccess(ResponseBody)
      .addError(PreconditionFailed)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
