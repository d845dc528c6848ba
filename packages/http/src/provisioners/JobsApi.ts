/** Provisioner job and daemon routes of an organization (see docs/provisioning.md). */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  ListProvisionerDaemonsQuery,
  ListProvisionerJobsQuery,
  PatchProvisionerHostRequest,
  ProvisionerDaemon,
  ProvisionerHost,
  ProvisionerJob
} from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, Forbidden, NotFound, Uuid } from "../Common.js"
import { Authentication } from "../Security.js"

const OrganizationJobPath = Schema.Struct({
  organization: Schema.String,
  job: Uuid
})

export class ProvisionerJobsApi extends HttpApiGroup.make("provisionerJobs")
  .add(
    HttpApiEndpoint.get("list", "/organizations/:organization/provisionerjobs")
      .setPath(Schema.Struct({ organization: Schema.String }))
      .setUrlParams(ListProvisionerJobsQuery)
      .addSuccess(Schema.Array(ProvisionerJob))
  )
  .add(
    HttpApiEndpoint.get("get", "/organizations/:organization/provisionerjobs/:job")
      .setPath(OrganizationJobPath)
      .addSuccess(ProvisionerJob)
  )
  .add(
    HttpApiEndpoint.get("listDaemons", "/organizations/:organization/provisionerdaemons")
      .setPath(Schema.Struct({ organization: Schema.String }))
      .setUrlParams(ListProvisionerDaemonsQuery)
      .addSuccess(Schema.Array(ProvisionerDaemon))
  )
  .add(
    // Workbay's: the hosts external daemons run workspaces on, with their capacity (docs/provisioner-daemons.md).
    HttpApiEndpoint.get("listHosts", "/organizations/:organization/provisionerhosts")
      .setPath(Schema.Struct({ organization: Schema.String }))
      .addSuccess(Schema.Array(ProvisionerHost))
  )
  .add(
    // Workbay's: drain a host (no new workspace is placed on it) or take it back.
    HttpApiEndpoint.patch("patchHost", "/organizations/:organization/provisionerhosts/:host")
      .annotate(Audited, audit("provisioner_host"))
      .setPath(Schema.Struct({ organization: Schema.String, host: Schema.String }))
      .setPayload(PatchProvisionerHostRequest)
      .addSuccess(ProvisionerHost)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
