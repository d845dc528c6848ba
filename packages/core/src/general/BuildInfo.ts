/** Deployment records: build info, update check, SSH settings, statistics. */
import { Schema } from "effect"
import { omitEmpty } from "../Wire.js"

export class BuildInfo extends Schema.Class<BuildInfo>("BuildInfoResponse")({
  agent_api_version: Schema.String,
  dashboard_url: Schema.String,
  deployment_id: Schema.String,
  external_url: Schema.String,
  provisioner_api_version: Schema.String,
  telemetry: Schema.Boolean,
  upgrade_message: Schema.String,
  version: Schema.String,
  /** Absent while no Web Push key is configured (as in the described system). */
  webpush_public_key: omitEmpty(Schema.String),
  workspace_proxy: Schema.Boolean
}) {}

export class UpdateCheck extends Schema.Class<UpdateCheck>("UpdateCheckResponse")({
  current: Schema.Boolean,
  url: Schema.String,
  version: Schema.String
}) {}

/** SSH settings clients use to write their SSH config (`GET /deployment/ssh`). */
export class DeploymentSsh extends Schema.Class<DeploymentSsh>("SSHConfigResponse")({
  hostname_prefix: Schema.String,
  hostname_suffix: Schema.String,
  ssh_config_options: Schema.Record({ key: Schema.String, value: Schema.String })
}) {}

/** `GET /deployment/stats`: the workspaces by status and the agents' sessions and traffic of the last window. */
export class DeploymentStats extends Schema.Class<DeploymentStats>("DeploymentStats")({
  aggregated_from: Schema.Date,
  collected_at: Schema.Date,
  next_update_at: Schema.Date,
  session_count: Schema.Struct({
    jetbrains: Schema.Int,
    reconnecting_pty: Schema.Int,
    ssh: Schema.Int,
    vscode: Schema.Int
  }),
  workspaces: Schema.Struct({
    building: Schema.Int,
    failed: Schema.Int,
    pending: Schema.Int,
    running: Schema.Int,
    stopped: Schema.Int,
    rx_bytes: Schema.Int,
    tx_bytes: Schema.Int,
    // The described system's WorkspaceConnectionLatencyMS has no json tags: its keys are the Go field names.
    connection_latency_ms: Schema.Struct({ P50: Schema.Number, P95: Schema.Number })
  })
}) {}
