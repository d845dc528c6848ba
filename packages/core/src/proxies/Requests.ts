/**
 * The request bodies of the workspace proxy routes (`/workspaceproxies/...`, and the proxy's own
 * `/workspaceproxies/me/...`). The routes in `http/src/proxies/` declare them; the services take
 * their decoded types (`typeof X.Type`).
 */
import { Schema } from "effect"
import { optional, Text, uuid, wireName } from "../Requests.js"
import { usernamePattern } from "../users/User.js"

/** A proxy's name: the rules of usernames (1-32 alphanumerics with single inner hyphens). */
const ProxyName = Schema.String.pipe(
  Schema.minLength(1, { message: () => "Name is required." }),
  Schema.maxLength(32, { message: () => "Name must be at most 32 characters." }),
  Schema.pattern(usernamePattern, {
    message: () => "Name must be alphanumeric with single hyphens, not starting or ending with a hyphen."
  })
)
/** A new name, or empty to keep the current one. */
const NameOrEmpty = Schema.Union(Schema.Literal(""), ProxyName)
  .annotations({
    message: () => ({ message: "Name must be 1-32 alphanumerics with single inner hyphens, or empty.", override: true })
  })

/** codersdk `CreateWorkspaceProxyRequest`. */
export class CreateWorkspaceProxyRequest
  extends Schema.Class<CreateWorkspaceProxyRequest>("CreateWorkspaceProxyRequest")({
    name: ProxyName,
    display_name: optional(Text(128)),
    icon: optional(Text(2048))
  }, wireName("CreateWorkspaceProxyRequest"))
{}

/** codersdk `PatchWorkspaceProxy`. `id` is accepted for the client's sake; the path names the proxy. */
export class PatchWorkspaceProxyRequest extends Schema.Class<PatchWorkspaceProxyRequest>("PatchWorkspaceProxy")({
  id: optional(Schema.Union(Schema.Literal(""), uuid("id"))),
  name: optional(NameOrEmpty),
  display_name: optional(Text(128)),
  icon: optional(Text(2048)),
  regenerate_token: optional(Schema.Boolean)
}, wireName("PatchWorkspaceProxy")) {}

/** wsproxysdk `RegisterWorkspaceProxyRequest`. */
export class RegisterWorkspaceProxyRequest
  extends Schema.Class<RegisterWorkspaceProxyRequest>("RegisterWorkspaceProxyRequest")({
    access_url: Text(2048),
    wildcard_hostname: optional(Text(512)),
    derp_enabled: optional(Schema.Boolean),
    derp_only: optional(Schema.Boolean),
    replica_id: uuid("replica_id"),
    replica_hostname: optional(Text(512)),
    replica_error: optional(Text(4096)),
    replica_relay_address: optional(Text(2048)),
    version: optional(Text(128))
  }, wireName("RegisterWorkspaceProxyRequest"))
{}

/** wsproxysdk `DeregisterWorkspaceProxyRequest`. */
export class DeregisterWorkspaceProxyRequest
  extends Schema.Class<DeregisterWorkspaceProxyRequest>("DeregisterWorkspaceProxyRequest")({
    replica_id: uuid("replica_id")
  }, wireName("DeregisterWorkspaceProxyRequest"))
{}
