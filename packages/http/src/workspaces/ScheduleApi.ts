/**
 * Workspace schedule routes: autostart, time to live, extending the deadline, automatic
 * updates, dormancy, usage reports and whether an autostart would fail on parameters. Paths, bodies and answers as the described system's
 * (`docs/reference/api/workspaces.md`); see docs/workspaces.md "Schedules".
 */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { ResolveAutostartResponse, ResponseBody, Workspace } from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, Conflict, Forbidden, NoContent, NotFound, optional, uuid, wireName } from "../Common.js"
import { AgentAuthentication, Authentication } from "../Security.js"

/** No body at all (the body of `usage` is optional); shown in OpenAPI as an empty schema. */
const NoBody = Schema.Undefined.annotations({ jsonSchema: { type: "null", description: "No body." } })

export class UpdateWorkspaceAutostartRequest
  extends Schema.Class<UpdateWorkspaceAutostartRequest>("UpdateWorkspaceAutostartRequest")({
    schedule: optional(Schema.String.pipe(Schema.maxLength(256, { message: () => "Must be at most 256 characters." })))
  }, wireName("UpdateWorkspaceAutostartRequest"))
{}

export class UpdateWorkspaceTTLRequest extends Schema.Class<UpdateWorkspaceTTLRequest>("UpdateWorkspaceTTLRequest")({
  ttl_ms: optional(Schema.NullOr(Schema.Int.pipe(Schema.nonNegative({ message: () => "Must not be negative." }))))
}, wireName("UpdateWorkspaceTTLRequest")) {}

export class PutExtendWorkspaceRequest extends Schema.Class<PutExtendWorkspaceRequest>("PutExtendWorkspaceRequest")({
  deadline: Schema.Date.annotations({ message: () => ({ message: "Must be an RFC 3339 date-time.", override: true }) })
}, wireName("PutExtendWorkspaceRequest")) {}

export class UpdateWorkspaceAutomaticUpdatesRequest
  extends Schema.Class<UpdateWorkspaceAutomaticUpdatesRequest>("UpdateWorkspaceAutomaticUpdatesRequest")({
    automatic_updates: Schema.Literal("always", "never")
  }, wireName("UpdateWorkspaceAutomaticUpdatesRequest"))
{}

export class UpdateWorkspaceDormancy extends Schema.Class<UpdateWorkspaceDormancy>("UpdateWorkspaceDormancy")({
  dormant: Schema.Boolean
}, wireName("UpdateWorkspaceDormancy")) {}

export class PostWorkspaceUsageRequest extends Schema.Class<PostWorkspaceUsageRequest>("PostWorkspaceUsageRequest")({
  agent_id: optional(uuid("Agent id")),
  app_name: optional(Schema.String.pipe(Schema.maxLength(64, { message: () => "Must be at most 64 characters." })))
}, wireName("PostWorkspaceUsageRequest")) {}

const WorkspacePath = Schema.Struct({ workspace: uuid("Workspace id") })

const write = audit("workspace", { action: "write" })

export class WorkspaceSchedulesApi extends HttpApiGroup.make("workspaceSchedules")
  .add(
    HttpApiEndpoint.put("setAutostart", "/workspaces/:workspace/autostart").annotate(Audited, write)
      .setPath(WorkspacePath).setPayload(UpdateWorkspaceAutostartRequest).addSuccess(NoContent)
  )
  .add(
    HttpApiEndpoint.put("setTtl", "/workspaces/:workspace/ttl").annotate(Audited, write)
      .setPath(WorkspacePath).setPayload(UpdateWorkspaceTTLRequest).addSuccess(NoContent)
  )
  .add(
    HttpApiEndpoint.put("extend", "/workspaces/:workspace/extend").annotate(Audited, write)
      // Agents may extend their own workspace with their token (spec rule 4).
      .middleware(AgentAuthentication)
      .setPath(WorkspacePath).setPayload(PutExtendWorkspaceRequest).addSuccess(ResponseBody).addError(Conflict)
  )
  .add(
    HttpApiEndpoint.put("setAutomaticUpdates", "/workspaces/:workspace/autoupdates").annotate(Audited, write)
      .setPath(WorkspacePath).setPayload(UpdateWorkspaceAutomaticUpdatesRequest).addSuccess(NoContent)
  )
  .add(
    HttpApiEndpoint.put("setDormant", "/workspaces/:workspace/dormant").annotate(Audited, write)
      .setPath(WorkspacePath).setPayload(UpdateWorkspaceDormancy).addSuccess(Workspace)
  )
  .add(
    HttpApiEndpoint.post("reportUsage", "/workspaces/:workspace/usage").annotate(Audited, write)
      .setPath(WorkspacePath).setPayload(Schema.Union(PostWorkspaceUsageRequest, NoBody)).addSuccess(NoContent)
  )
  .add(
    HttpApiEndpoint.get("resolveAutostart", "/workspaces/:workspace/resolve-autostart")
      .setPath(WorkspacePath).addSuccess(ResolveAutostartResponse)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
