/**
 * Provisioner keys and the external daemons' serve route (docs/provisioner-daemons.md).
 * Keys are managed by users with `provisioner_daemon` rights in the organization; the serve
 * route takes a provisioner key (`Coder-Provisioner-Daemon-Key`) instead of a user's session
 * and upgrades to the daemon protocol's WebSocket.
 */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  CreateProvisionerKeyRequest,
  CreateProvisionerKeyResponse,
  ProvisionerDaemonServeQuery,
  ProvisionerKey,
  ProvisionerKeyDaemons
} from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, Conflict, Forbidden, NoContent, NotFound, Unauthorized } from "../Common.js"
import { Authentication } from "../Security.js"
import { WebSocketUpgradeSchema } from "../WebSocket.js"

const Text = (max: number) =>
  Schema.String.pipe(Schema.maxLength(max, { message: () => `Must be at most ${max} characters.` }))

const OrganizationPath = Schema.Struct({ organization: Text(256) })
const KeyPath = Schema.Struct({ organization: Text(256), provisionerkey: Text(256) })

export class ProvisionerKeysApi extends HttpApiGroup.make("provisionerKeys")
  .add(
    HttpApiEndpoint.post("create", "/organizations/:organization/provisionerkeys").annotate(
      Audited,
      audit("provisioner_key")
    )
      .setPath(OrganizationPath)
      .setPayload(CreateProvisionerKeyRequest)
      .addSuccess(CreateProvisionerKeyResponse, { status: 201 })
      .addError(Conflict)
  )
  .add(
    HttpApiEndpoint.get("list", "/organizations/:organization/provisionerkeys").setPath(OrganizationPath)
      .addSuccess(Schema.Array(ProvisionerKey))
  )
  .add(
    HttpApiEndpoint.get("listDaemons", "/organizations/:organization/provisionerkeys/daemons").setPath(OrganizationPath)
      .addSuccess(Schema.Array(ProvisionerKeyDaemons))
  )
  .add(
    HttpApiEndpoint.del("delete", "/organizations/:organization/provisionerkeys/:provisionerkey").annotate(
      Audited,
      audit("provisioner_key")
    )
      .setPath(KeyPath)
      .addSuccess(NoContent)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}

/**
 * The routes a provisioner key authenticates (in `Coder-Provisioner-Daemon-Key`), not a user's
 * session: the daemons' serve route and a daemon reading its own key.
 */
export class ProvisionerDaemonServeApi extends HttpApiGroup.make("provisionerDaemonServe")
  .add(
    // Not audited: a daemon's connection is not a user's action (its daemon row records it).
    HttpApiEndpoint.get("serve", "/organizations/:organization/provisionerdaemons/serve").annotate(Audited, false)
      .setPath(OrganizationPath)
      .setUrlParams(ProvisionerDaemonServeQuery)
      .addSuccess(WebSocketUpgradeSchema)
  )
  .add(
    // The path holds the key itself, as the described system's client sends it; the header decides.
    HttpApiEndpoint.get("key", "/provisionerkeys/:provisionerkey")
      .setPath(Schema.Struct({ provisionerkey: Text(256) }))
      .addSuccess(ProvisionerKey)
  )
  .addError(BadRequest)
  .addError(Unauthorized)
  .addError(Forbidden)
  .addError(Conflict)
  .prefix("/api/v2")
{}
