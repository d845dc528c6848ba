/** Small records: git SSH keys, quiet hours, build info, update check, deployment records. */
import { Schema } from "effect"

/** A user's git SSH key (public form). The private key stays in storage for the agent form. */
export class GitSshKey extends Schema.Class<GitSshKey>("GitSSHKey")({
  created_at: Schema.Date,
  public_key: Schema.String,
  updated_at: Schema.Date,
  user_id: Schema.UUID
}) {}

export interface GitSshKeyRecord {
  readonly user_id: string
  readonly private_key: string
  readonly public_key: string
  readonly created_at: Date
  readonly updated_at: Date
}

/** One quiet-hours schedule entry. */
export class QuietHoursEntry extends Schema.Class<QuietHoursEntry>("UserQuietHoursScheduleResponse")({
  next: Schema.Date,
  raw_schedule: Schema.String,
  time: Schema.String,
  timezone: Schema.String,
  user_can_set: Schema.Boolean,
  user_set: Schema.Boolean
}) {}

export class BuildInfo extends Schema.Class<BuildInfo>("BuildInfoResponse")({
  agent_api_version: Schema.String,
  dashboard_url: Schema.String,
  deployment_id: Schema.String,
  external_url: Schema.String,
  provisioner_api_version: Schema.String,
  telemetry: Schema.Boolean,
  upgrade_message: Schema.String,
  version: Schema.String,
  webpush_public_key: Schema.String,
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
