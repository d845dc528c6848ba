/**
 * Provisioner keys (docs/provisioner-daemons.md): the credential an external provisioner daemon
 * of one organization connects with (`Coder-Provisioner-Daemon-Key`). A key has a name unique in
 * its organization and the tags its daemons run with; its secret is shown once, when created,
 * and only its SHA-256 is stored. The record, the wire shapes (`codersdk.ProvisionerKey`,
 * `CreateProvisionerKeyResponse`, `ProvisionerKeyDaemons`) and the `ProvisionerKeyRepo` port.
 */
import { Context, type Effect, type Option, Schema } from "effect"
import type { UniqueViolation } from "../Repositories.js"
import { ProvisionerDaemon } from "./ProvisionerDaemon.js"
import type { ProvisionerTags } from "./ProvisionerJob.js"

/** The header a daemon sends its key in (the described system's name). */
export const PROVISIONER_KEY_HEADER = "Coder-Provisioner-Daemon-Key"

/** Names of the described system's built-in keys; no stored key may take them (case-insensitive). */
export const RESERVED_PROVISIONER_KEY_NAMES: ReadonlyArray<string> = ["built-in", "user-auth", "psk"]

/** The longest key name (the described system's). */
export const MAX_PROVISIONER_KEY_NAME = 64

export interface ProvisionerKeyRecord {
  readonly id: string
  readonly organization_id: string
  readonly name: string
  /** SHA-256 (hex) of the secret; the secret itself is never stored. */
  readonly hashed_secret: string
  readonly tags: ProvisionerTags
  readonly created_at: Date
}

export class ProvisionerKeyRepo extends Context.Tag("@workbay/core/ProvisionerKeyRepo")<ProvisionerKeyRepo, {
  /** Fails with `UniqueViolation` when the organization has a key of that name (case-insensitive). */
  readonly insert: (key: ProvisionerKeyRecord) => Effect.Effect<void, UniqueViolation>
  /** The organization's keys, oldest first. */
  readonly listByOrganization: (organizationId: string) => Effect.Effect<ReadonlyArray<ProvisionerKeyRecord>>
  readonly findByName: (organizationId: string, name: string) => Effect.Effect<Option.Option<ProvisionerKeyRecord>>
  readonly findById: (id: string) => Effect.Effect<Option.Option<ProvisionerKeyRecord>>
  readonly findByHashedSecret: (hashed: string) => Effect.Effect<Option.Option<ProvisionerKeyRecord>>
  /** Answers whether a key was deleted. */
  readonly delete: (id: string) => Effect.Effect<boolean>
}>() {}

// Wire records.

/** A key on the wire (`codersdk.ProvisionerKey`): never its secret. */
export class ProvisionerKey extends Schema.Class<ProvisionerKey>("ProvisionerKey")({
  id: Schema.UUID,
  created_at: Schema.Date,
  organization: Schema.UUID,
  name: Schema.String,
  tags: Schema.Record({ key: Schema.String, value: Schema.String })
}) {}

/** The answer of a create: the key, shown this once (`codersdk.CreateProvisionerKeyResponse`). */
export class CreateProvisionerKeyResponse
  extends Schema.Class<CreateProvisionerKeyResponse>("CreateProvisionerKeyResponse")({
    key: Schema.String
  })
{}

/** A key and its recent daemons (`codersdk.ProvisionerKeyDaemons`). */
export class ProvisionerKeyDaemons extends Schema.Class<ProvisionerKeyDaemons>("ProvisionerKeyDaemons")({
  key: ProvisionerKey,
  daemons: Schema.Array(ProvisionerDaemon)
}) {}

export const toProvisionerKey = (k: ProvisionerKeyRecord): ProvisionerKey =>
  new ProvisionerKey({
    id: k.id,
    created_at: k.created_at,
    organization: k.organization_id,
    name: k.name,
    tags: k.tags
  }, true)
