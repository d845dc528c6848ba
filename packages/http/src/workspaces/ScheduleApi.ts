/**
 * Workspace schedule routes: autostart, time to live, extending the deadline, automatic
 * updates, dormancy, usage reports and whether an autostart would fail on parameters. Paths, bodies and answers as the described system's
 * (`docs/reference/api/workspaces.md`); see docs/workspaces.md "Schedules".
 */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  PostWorkspaceUsageBody,
  PutExtendWorkspaceRequest,
  ResolveAutostartResponse,
  ResponseBody,
  UpdateWorkspaceAutomaticUpdatesRequest,
  UpdateWorkspaceAutostartRequest,
  UpdateWorkspaceDormancy,
  UpdateWorkspaceTTLRequest,
  Workspace
} from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, Conflict, Forbidden, NoContent, NotFound, uuid } from "../Common.js"
import { AgentAuthentication, Authentication } from "../Security.js"

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
      .setPath(WorkspacePath).setPayload(PostWorkspaceUsageBody).addSuccess(NoContent)
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
