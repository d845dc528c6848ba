/**
 * The request bodies and queries of the workspaces area's routes (`/workspaces/...`,
 * `/workspacebuilds/...`, a member's workspaces, schedules, sharing, port sharing, and
 * `/users/{user}/autofill-parameters`). The routes in `http/src/workspaces/` (and that one in
 * `http/src/users/`) declare them; the services take their decoded types (`typeof X.Type`). A
 * build's logs take the templates' job logs query (`http/src/provisioners/FollowLogs.ts`).
 */
import { Schema } from "effect"
import { Uuid } from "../Ids.js"
import { workspaceTransitions } from "../provisioners/Provisioner.js"
import { BooleanParam, NonNegativeIntParam, optional, optionalParam, uuid, wireName } from "../Requests.js"
import { VariableValue } from "../templates/Requests.js"
import { MAX_SHARED_PORT, MIN_SHARED_PORT, PortShareProtocol, shareableLevels } from "./PortShare.js"
import { automaticUpdatesValues, WorkspaceName } from "./Workspace.js"

const Schedule = Schema.String.pipe(Schema.maxLength(256, { message: () => "Must be at most 256 characters." }))

/** POST /organizations/{organization}/members/{user}/workspaces and POST /users/{user}/workspaces. */
export class CreateWorkspaceRequest extends Schema.Class<CreateWorkspaceRequest>("CreateWorkspaceRequest")({
  name: WorkspaceName,
  template_id: optional(uuid("Template id")),
  template_version_id: optional(uuid("Template version id")),
  template_version_preset_id: optional(uuid("Template version preset id")),
  rich_parameter_values: optional(Schema.Array(VariableValue)),
  autostart_schedule: optional(Schedule),
  ttl_ms: optional(Schema.Int.pipe(Schema.nonNegative({ message: () => "Must not be negative." }))),
  automatic_updates: optional(Schema.Literal(...automaticUpdatesValues))
}, wireName("CreateWorkspaceRequest")) {}

/** Why a client asked for a build (the described system's `CreateWorkspaceBuildReason`). */
export const buildRequestReasons = [
  "dashboard",
  "cli",
  "ssh_connection",
  "vscode_connection",
  "jetbrains_connection"
] as const

/** POST /workspaces/{workspace}/builds. */
export class CreateWorkspaceBuildRequest
  extends Schema.Class<CreateWorkspaceBuildRequest>("CreateWorkspaceBuildRequest")({
    transition: Schema.Literal(...workspaceTransitions),
    template_version_id: optional(uuid("Template version id")),
    dry_run: optional(Schema.Boolean),
    state: optional(Schema.Array(Schema.Int)),
    orphan: optional(Schema.Boolean),
    rich_parameter_values: optional(Schema.Array(VariableValue)),
    log_level: optional(Schema.Literal("debug")),
    template_version_preset_id: optional(uuid("Template version preset id")),
    reason: optional(Schema.Literal(...buildRequestReasons))
  }, wireName("CreateWorkspaceBuildRequest"))
{}

/** PATCH /workspaces/{workspace}: a new name (an empty or absent one keeps the current). */
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
 * PUT /workspacebuilds/{workspacebuild}/state (`UpdateWorkspaceBuildStateRequest`): `state` as
 * the Go client sends bytes (a base64 string), or as an array of bytes (the form
 * `CreateWorkspaceBuildRequest.state` takes here). Required: a missing or `null` state is refused
 * rather than taken as "clear it"; `""` or `[]` clears it.
 */
export class UpdateWorkspaceBuildStateRequest
  extends Schema.Class<UpdateWorkspaceBuildStateRequest>("UpdateWorkspaceBuildStateRequest")({
    state: StateBytes
  }, wireName("UpdateWorkspaceBuildStateRequest"))
{}

/** The query of GET /organizations/{organization}/members/{user}/workspaces/available-users. */
export const AvailableUsersQuery = Schema.Struct({
  q: optionalParam(Schema.String.pipe(Schema.maxLength(1024))),
  limit: optionalParam(NonNegativeIntParam),
  offset: optionalParam(NonNegativeIntParam)
})

/** The query of GET /workspaces: the search terms `q` (see `workspaceSearchKeys`) and a page. */
export const ListWorkspacesQuery = Schema.Struct({
  q: optionalParam(Schema.String.pipe(Schema.maxLength(4096))),
  limit: optionalParam(NonNegativeIntParam),
  offset: optionalParam(NonNegativeIntParam)
})

/** The query of GET /workspaces/{workspace} and GET /users/{user}/workspace/{workspacename}. */
export const GetWorkspaceQuery = Schema.Struct({ include_deleted: optionalParam(BooleanParam) })

const DateParam = Schema.Date.annotations({
  message: () => ({ message: "Must be an RFC 3339 date-time.", override: true })
})

/** The query of GET /workspaces/{workspace}/builds: the keyset cursor `after_id`, `since`, and a page. */
export const ListBuildsQuery = Schema.Struct({
  after_id: optionalParam(uuid("after_id")),
  since: optionalParam(DateParam),
  limit: optionalParam(NonNegativeIntParam),
  offset: optionalParam(NonNegativeIntParam)
})

/** The query of PATCH /workspacebuilds/{workspacebuild}/cancel: the job status the caller expects. */
export const CancelBuildQuery = Schema.Struct({ expect_status: optionalParam(Schema.Literal("pending", "running")) })

/** The query of GET /users/{user}/autofill-parameters. */
export const AutofillParametersQuery = Schema.Struct({ template_id: Uuid })

// Schedules (`ScheduleApi`).

/** PUT /workspaces/{workspace}/autostart: a schedule, or none (absent, `null` or `""`) to turn it off. */
export class UpdateWorkspaceAutostartRequest
  extends Schema.Class<UpdateWorkspaceAutostartRequest>("UpdateWorkspaceAutostartRequest")({
    schedule: optional(Schema.String.pipe(Schema.maxLength(256, { message: () => "Must be at most 256 characters." })))
  }, wireName("UpdateWorkspaceAutostartRequest"))
{}

/** PUT /workspaces/{workspace}/ttl. */
export class UpdateWorkspaceTTLRequest extends Schema.Class<UpdateWorkspaceTTLRequest>("UpdateWorkspaceTTLRequest")({
  ttl_ms: optional(Schema.NullOr(Schema.Int.pipe(Schema.nonNegative({ message: () => "Must not be negative." }))))
}, wireName("UpdateWorkspaceTTLRequest")) {}

/** PUT /workspaces/{workspace}/extend. */
export class PutExtendWorkspaceRequest extends Schema.Class<PutExtendWorkspaceRequest>("PutExtendWorkspaceRequest")({
  deadline: Schema.Date.annotations({ message: () => ({ message: "Must be an RFC 3339 date-time.", override: true }) })
}, wireName("PutExtendWorkspaceRequest")) {}

/** PUT /workspaces/{workspace}/autoupdates. */
export class UpdateWorkspaceAutomaticUpdatesRequest
  extends Schema.Class<UpdateWorkspaceAutomaticUpdatesRequest>("UpdateWorkspaceAutomaticUpdatesRequest")({
    automatic_updates: Schema.Literal(...automaticUpdatesValues)
  }, wireName("UpdateWorkspaceAutomaticUpdatesRequest"))
{}

/** PUT /workspaces/{workspace}/dormant. */
export class UpdateWorkspaceDormancy extends Schema.Class<UpdateWorkspaceDormancy>("UpdateWorkspaceDormancy")({
  dormant: Schema.Boolean
}, wireName("UpdateWorkspaceDormancy")) {}

/** POST /workspaces/{workspace}/usage: the agent and app used, when the client names them. */
export class PostWorkspaceUsageRequest extends Schema.Class<PostWorkspaceUsageRequest>("PostWorkspaceUsageRequest")({
  agent_id: optional(uuid("Agent id")),
  app_name: optional(Schema.String.pipe(Schema.maxLength(64, { message: () => "Must be at most 64 characters." })))
}, wireName("PostWorkspaceUsageRequest")) {}

/** No body at all (the body of `usage` is optional); shown in OpenAPI as an empty schema. */
const NoBody = Schema.Undefined.annotations({ jsonSchema: { type: "null", description: "No body." } })

/** The body of POST /workspaces/{workspace}/usage: a `PostWorkspaceUsageRequest`, or none. */
export const PostWorkspaceUsageBody = Schema.Union(PostWorkspaceUsageRequest, NoBody)

// Sharing (`SharingApi`).

/** Id to role (`admin`, `use`, or `""` to remove); each bad entry is named by the service. */
const Roles = Schema.Record({
  key: Schema.String,
  value: Schema.String.pipe(Schema.maxLength(16, { message: () => "Must be at most 16 characters." }))
})

/** PATCH /workspaces/{workspace}/acl: users' and groups' roles to set (`""` removes one). */
export class UpdateWorkspaceACL extends Schema.Class<UpdateWorkspaceACL>("UpdateWorkspaceACL")({
  user_roles: optional(Roles),
  group_roles: optional(Roles)
}, wireName("UpdateWorkspaceACL")) {}

// Port sharing (`PortSharesApi`).

const AgentName = Schema.String.pipe(Schema.minLength(1, { message: () => "Agent name is required." }))

const WholeNumber = Schema.Int.annotations({ message: () => ({ message: "Must be a whole number.", override: true }) })

/** A port that may be shared: 9 to 65535, as the described system bounds it. */
const SharedPort = WholeNumber.pipe(
  Schema.between(MIN_SHARED_PORT, MAX_SHARED_PORT, {
    message: () => `Port must be between ${MIN_SHARED_PORT} and ${MAX_SHARED_PORT}.`
  })
)

/** Any TCP port, for naming a share to delete. */
const AnyPort = WholeNumber.pipe(
  Schema.between(0, MAX_SHARED_PORT, { message: () => `Port must be between 0 and ${MAX_SHARED_PORT}.` })
)

const ShareLevel = Schema.Literal(...shareableLevels).annotations({
  message: () => ({
    message: `Port sharing level not allowed: use "authenticated", "organization" or "public" ` +
      `(a port nobody shares is at "owner": delete its share instead).`,
    override: true
  })
})

const Protocol = PortShareProtocol.annotations({
  message: () => ({ message: `Protocol must be "http" or "https".`, override: true })
})

/** POST /workspaces/{workspace}/port-share (codersdk `UpsertWorkspaceAgentPortShareRequest`): every field required. */
export class UpsertWorkspaceAgentPortShareRequest extends Schema.Class<UpsertWorkspaceAgentPortShareRequest>(
  "UpsertWorkspaceAgentPortShareRequest"
)({
  agent_name: AgentName,
  port: SharedPort,
  share_level: ShareLevel,
  protocol: Protocol
}) {}

/** DELETE /workspaces/{workspace}/port-share (codersdk `DeleteWorkspaceAgentPortShareRequest`). */
export class DeleteWorkspaceAgentPortShareRequest extends Schema.Class<DeleteWorkspaceAgentPortShareRequest>(
  "DeleteWorkspaceAgentPortShareRequest"
)({
  agent_name: AgentName,
  port: AnyPort
}) {}

/**
 * `POST /workspaces/{workspace}/moves`: move a stopped workspace to another provisioner host
 * (Workbay's own route: docs/provisioner-daemons.md, "Moving a workspace").
 */
export class CreateWorkspaceMoveRequest extends Schema.Class<CreateWorkspaceMoveRequest>("CreateWorkspaceMoveRequest")({
  host: Schema.String.pipe(
    Schema.pattern(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, {
      message: () => "A host name: 1-64 letters, digits, \".\", \"_\" and \"-\", starting with a letter or digit."
    })
  )
}) {}
