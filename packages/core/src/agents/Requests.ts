/**
 * The request bodies and queries of the agents area's routes: what users ask about agents (their
 * logs, an agent's connection watch), what agents report with their own token under
 * `/workspaceagents/me/`, and the instance identity exchanges. The routes in `http/src/agents/`
 * declare them; the services take their decoded types (`typeof X.Type`). The messages of the
 * agent connection are in `Reports.ts` and `Logs.ts` (`BatchCreateLogs`).
 */
import { Schema } from "effect"
import { BooleanParam, IntParam, optionalOr, optionalParam, uuid, wireName } from "../Requests.js"
import { appStatusStates } from "../templates/TemplateVersionWire.js"
import { agentLogLevels } from "./AgentLog.js"
import { agentConnectionTypes } from "./ConnectionEvents.js"

const text = (max: number) => Schema.String.pipe(Schema.maxLength(max, { message: () => `At most ${max} characters.` }))
const DateTime = Schema.Date.annotations({
  message: () => ({ message: "Must be an RFC 3339 date-time.", override: true })
})

/** The query of `GET /workspaceagents/{agent}/logs`: lines after `after` (and before `before`), or a follow. */
export const AgentLogsQuery = Schema.Struct({
  after: optionalParam(IntParam),
  before: optionalParam(IntParam),
  follow: optionalParam(BooleanParam),
  /** Accepted for the described system's clients; messages are never compressed. */
  no_compression: optionalParam(BooleanParam),
  format: optionalParam(
    Schema.Literal("json").annotations({ message: () => ({ message: "Only json is served.", override: true }) })
  )
})

/** `agent_name` picks the agent; without it (or empty) the workspace must have exactly one. */
export const AgentConnectionWatchQuery = Schema.Struct({
  agent_name: Schema.optional(Schema.String)
})

/** POST /workspaceagents/me/log-source: a log source the agent declares. */
export class LogSourceRequest extends Schema.Class<LogSourceRequest>("PostWorkspaceAgentLogSourceRequest")({
  id: uuid("Log source id"),
  display_name: text(128).pipe(Schema.minLength(1, { message: () => "Display name is required." })),
  icon: Schema.optionalWith(text(2048), { default: () => "" })
}) {}

/** PATCH /workspaceagents/me/logs: a batch of lines under one of the agent's log sources. */
export class PatchLogsRequest extends Schema.Class<PatchLogsRequest>("PatchWorkspaceAgentLogsRequest")({
  log_source_id: uuid("Log source id"),
  logs: Schema.Array(Schema.Struct({
    created_at: DateTime,
    level: Schema.Literal(...agentLogLevels).annotations({
      message: () => ({ message: `Level must be one of ${agentLogLevels.join(", ")}.`, override: true })
    }),
    output: Schema.String
  }))
}) {}

/** PATCH /workspaceagents/me/app-status: a status of one of the agent's apps. */
export class AppStatusRequest extends Schema.Class<AppStatusRequest>("PatchAppStatus")({
  app_slug: Schema.String,
  state: Schema.Literal(...appStatusStates).annotations({
    message: () => ({ message: `State must be one of ${appStatusStates.join(", ")}.`, override: true })
  }),
  message: Schema.optionalWith(Schema.String, { default: () => "" }),
  uri: Schema.optionalWith(text(2048), { default: () => "" }),
  icon: Schema.optionalWith(text(2048), { default: () => "" }),
  needs_user_attention: Schema.optionalWith(Schema.Boolean, { default: () => false })
}) {}

/** POST /workspaceagents/me/connections: Workbay's JSON form of the described system's agent `ReportConnectionRequest`. */
export class ConnectionReportRequest extends Schema.Class<ConnectionReportRequest>("ReportConnectionRequest")({
  connection: Schema.Struct({
    /** The session's id: a connect and its disconnect carry the same. */
    id: uuid("Connection id"),
    action: Schema.Literal("connect", "disconnect").annotations({
      message: () => ({ message: "Action must be connect or disconnect.", override: true })
    }),
    type: Schema.Literal(...agentConnectionTypes).annotations({
      message: () => ({ message: `Type must be one of ${agentConnectionTypes.join(", ")}.`, override: true })
    }),
    /** When it happened; default: when the report arrives. */
    timestamp: Schema.optional(DateTime),
    ip: Schema.optional(text(64)),
    /** A disconnect: the session's exit code. A forwarded port: the HTTP status served. */
    status_code: Schema.optional(
      Schema.Int.annotations({ message: () => ({ message: "Must be an integer.", override: true }) })
    ),
    /** A disconnect: why the session ended. */
    reason: Schema.optional(text(1024)),
    /** A forwarded port: the port. */
    slug_or_port: Schema.optional(text(256))
  })
}) {}

/** Signed material is a few KiB; anything far larger is not an identity document. */
const MAX_SIGNED = 65_536

const signed = (what: string) =>
  Schema.String.pipe(
    Schema.minLength(1, { message: () => `The ${what} is required.` }),
    Schema.maxLength(MAX_SIGNED, { message: () => `The ${what} must be at most ${MAX_SIGNED} characters.` })
  )

const AgentName = optionalOr(
  Schema.String.pipe(Schema.maxLength(64, { message: () => "Must be at most 64 characters." })),
  () => ""
)

/** POST /workspaceagents/aws-instance-identity: agentsdk `AWSInstanceIdentityToken`. */
export class AwsInstanceIdentityRequest extends Schema.Class<AwsInstanceIdentityRequest>("AWSInstanceIdentityToken")({
  agent_name: AgentName,
  document: signed("document"),
  signature: signed("signature")
}, wireName("AWSInstanceIdentityToken")) {}

/** POST /workspaceagents/azure-instance-identity: agentsdk `AzureInstanceIdentityToken`. */
export class AzureInstanceIdentityRequest
  extends Schema.Class<AzureInstanceIdentityRequest>("AzureInstanceIdentityToken")({
    agent_name: AgentName,
    encoding: Schema.Literal("pkcs7").annotations({
      message: () => ({ message: `The encoding must be "pkcs7".`, override: true })
    }),
    signature: signed("signature")
  }, wireName("AzureInstanceIdentityToken"))
{}

/** POST /workspaceagents/google-instance-identity: agentsdk `GoogleInstanceIdentityToken`. */
export class GoogleInstanceIdentityRequest
  extends Schema.Class<GoogleInstanceIdentityRequest>("GoogleInstanceIdentityToken")({
    agent_name: AgentName,
    json_web_token: signed("token")
  }, wireName("GoogleInstanceIdentityToken"))
{}

const between = (min: number, max: number) =>
  IntParam.pipe(Schema.between(min, max, { message: () => `Must be an integer from ${min} to ${max}.` }))

/**
 * The query of `GET /workspaceagents/{agent}/pty` (the described system's `terminalWebsocketUrl`):
 * the session's `reconnect` id, the terminal's size, a command instead of the login shell, a
 * container to enter (docs/agents.md, "The terminal").
 */
export const AgentPtyQuery = Schema.Struct({
  reconnect: optionalParam(uuid("Reconnect")),
  width: optionalParam(between(1, 1000)),
  height: optionalParam(between(1, 1000)),
  command: optionalParam(text(4096)),
  container: optionalParam(text(256)),
  container_user: optionalParam(text(256)),
  /** Accepted for the described system's clients (`buffered`, `screen`); one backend serves every terminal. */
  backend_type: optionalParam(text(32))
})

/** The query of `GET /workspaceagents/{agent}/tunnel`: the port inside the workspace. */
export const AgentTunnelQuery = Schema.Struct({
  port: between(1, 65535)
})

/** The query of `GET /workspaceagents/me/streams/{stream}`: the replica that waits for the stream. */
export const AgentStreamQuery = Schema.Struct({
  replica: optionalParam(text(64))
})

/** One `label` filter of the containers route: `key=value` (one `=`, as the described system splits it). */
const LabelFilter = Schema.String.pipe(
  Schema.maxLength(1024, { message: () => "Must be at most 1024 characters." }),
  Schema.pattern(/^[^=]*=[^=]*$/, { message: () => "Labels must be in the format key=value." })
)

/** The query of `GET /workspaceagents/{agent}/containers`: `label=key=value`, repeated (containers with all of them). */
export const AgentContainersQuery = Schema.Struct({
  label: Schema.optional(Schema.Union(LabelFilter, Schema.Array(LabelFilter).pipe(Schema.maxItems(64))))
})

/** The path of a dev container route: the agent and the dev container's id (as the agent names it). */
export const DevcontainerPath = Schema.Struct({
  workspaceagent: uuid("Workspace agent id"),
  devcontainer: Schema.String.pipe(
    Schema.minLength(1, { message: () => "Devcontainer id is required." }),
    Schema.maxLength(128, { message: () => "Must be at most 128 characters." })
  )
})
