/**
 * Workspace proxy routes (docs/workspace-proxies.md): the administrators' `/workspaceproxies`,
 * `/regions`, and the proxy's own registration (`/workspaceproxies/me/...`), authenticated by the
 * proxy's token in `Coder-External-Proxy-Session-Token` instead of a user's session.
 */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  CreateWorkspaceProxyRequest,
  DeregisterWorkspaceProxyRequest,
  PatchWorkspaceProxyRequest,
  RegionsResponse,
  RegisterWorkspaceProxyRequest,
  RegisterWorkspaceProxyResponse,
  ResponseBody,
  UpdateWorkspaceProxyResponse,
  WorkspaceProxiesResponse,
  WorkspaceProxy
} from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, Conflict, Forbidden, NoContent, NotFound, Unauthorized } from "../Common.js"
import { Authentication } from "../Security.js"

const Text = (max: number) =>
  Schema.String.pipe(Schema.maxLength(max, { message: () => `Must be at most ${max} characters.` }))

/** `{workspaceproxy}`: a proxy id or name. */
const ProxyPath = Schema.Struct({ workspaceproxy: Text(64) })

export class WorkspaceProxiesApi extends HttpApiGroup.make("workspaceProxies")
  .add(HttpApiEndpoint.get("list", "/workspaceproxies").addSuccess(WorkspaceProxiesResponse))
  .add(
    HttpApiEndpoint.post("create", "/workspaceproxies").annotate(Audited, audit("workspace_proxy"))
      .setPayload(CreateWorkspaceProxyRequest)
      .addSuccess(UpdateWorkspaceProxyResponse, { status: 201 })
      .addError(Conflict)
  )
  .add(HttpApiEndpoint.get("get", "/workspaceproxies/:workspaceproxy").setPath(ProxyPath).addSuccess(WorkspaceProxy))
  .add(
    HttpApiEndpoint.patch("update", "/workspaceproxies/:workspaceproxy").annotate(Audited, audit("workspace_proxy"))
      .setPath(ProxyPath)
      .setPayload(PatchWorkspaceProxyRequest)
      .addSuccess(UpdateWorkspaceProxyResponse)
      .addError(Conflict)
  )
  .add(
    HttpApiEndpoint.del("delete", "/workspaceproxies/:workspaceproxy").annotate(Audited, audit("workspace_proxy"))
      .setPath(ProxyPath)
      .addSuccess(ResponseBody)
  )
  .add(HttpApiEndpoint.get("regions", "/regions").addSuccess(RegionsResponse))
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}

/**
 * The routes a proxy calls with its own token. Not audited, as in the described system: no user
 * acts, and the health checker records what follows.
 */
export class WorkspaceProxyMeApi extends HttpApiGroup.make("workspaceProxyMe")
  .add(
    HttpApiEndpoint.post("register", "/workspaceproxies/me/register").annotate(Audited, false)
      .setPayload(RegisterWorkspaceProxyRequest)
      .addSuccess(RegisterWorkspaceProxyResponse, { status: 201 })
  )
  .add(
    HttpApiEndpoint.post("deregister", "/workspaceproxies/me/deregister").annotate(Audited, false)
      .setPayload(DeregisterWorkspaceProxyRequest)
      .addSuccess(NoContent)
  )
  .addError(BadRequest)
  .addError(Unauthorized)
  .prefix("/api/v2")
{}
