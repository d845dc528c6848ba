/** Port sharing routes: a workspace's shared agent ports (the described system's PortSharing group). */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  MAX_SHARED_PORT,
  MIN_SHARED_PORT,
  PortShareProtocol,
  shareableLevels,
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

/** codersdk `UpsertWorkspaceAgentPortShareRequest`: every field required. */
export class UpsertWorkspaceAgentPortShareRequest extends Schema.Class<UpsertWorkspaceAgentPortShareRequest>(
  "UpsertWorkspaceAgentPortShareRequest"
)({
  agent_name: AgentName,
  port: SharedPort,
  share_level: ShareLevel,
  protocol: Protocol
}) {}

/** codersdk `DeleteWorkspaceAgentPortShareRequest`. */
export class DeleteWorkspaceAgentPortShareRequest extends Schema.Class<DeleteWorkspaceAgentPortShareRequest>(
  "DeleteWorkspaceAgentPortShareRequest"
)({
  agent_name: AgentName,
  port: AnyPort
}) {}

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
