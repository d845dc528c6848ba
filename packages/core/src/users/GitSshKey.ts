/** Git SSH keys and quiet-hours schedules of a user. */
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
