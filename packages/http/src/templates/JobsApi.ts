/** Provisioner job and daemon routes of an organization (see docs/provisioning.md). */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  isUuid,
  ProvisionerDaemon,
  provisionerDaemonStatuses,
  ProvisionerJob,
  provisionerJobStatuses
} from "@workbay/core"
import { Schema } from "effect"
import { BadRequest, Forbidden, IntParam, NotFound, optionalParam, Uuid } from "../Common.js"
import { Authentication } from "../Security.js"

/** `ids`: comma-separated ids (the dispatcher splits them); one validation for the parameter. */
const Ids = Schema.Array(Schema.String).pipe(
  Schema.filter((ids) => {
    const bad = ids.filter((id) => !isUuid(id))
    return bad.length === 0 || `Not a UUID: ${bad.map((b) => `"${b}"`).join(", ")}.`
  })
)

/** `status`: comma-separated values of `values`; one validation naming the bad ones. */
const Statuses = <const L extends ReadonlyArray<string>>(values: L) =>
  Schema.Array(Schema.String).pipe(
    Schema.filter((given) => {
      const bad = given.filter((s) => !values.includes(s))
      return bad.length === 0 ||
        `Unknown status ${bad.map((b) => `"${b}"`).join(", ")}: expected one of ${values.join(", ")}.`
    }),
    Schema.transform(Schema.Array(Schema.Literal(...values)), {
      strict: false,
      decode: (s) => s,
      encode: (s) => s
    })
  )

/** `tags`: a JSON object of strings, e.g. `{"scope":"organization"}`. */
const TagsParam = Schema.parseJson(Schema.Record({ key: Schema.String, value: Schema.String })).annotations({
  message: () => ({ message: `Must be a JSON object of strings, e.g. {"scope":"organization"}.`, override: true })
})

/** `limit`: a positive integer; 0 or none means 50, more than 1000 is cut to 1000. */
const Limit = IntParam.pipe(Schema.nonNegative({ message: () => "Must not be negative." }))

const OrganizationJobPath = Schema.Struct({
  organization: Schema.String,
  job: Uuid
})

export class ProvisionerJobsApi extends HttpApiGroup.make("provisionerJobs")
  .add(
    HttpApiEndpoint.get("list", "/organizations/:organization/provisionerjobs")
      .setPath(Schema.Struct({ organization: Schema.String }))
      .setUrlParams(Schema.Struct({
        limit: optionalParam(Limit),
        ids: optionalParam(Ids),
        status: optionalParam(Statuses(provisionerJobStatuses)),
        tags: optionalParam(TagsParam),
        initiator: optionalParam(Schema.String)
      }))
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
      .setUrlParams(Schema.Struct({
        limit: optionalParam(Limit),
        ids: optionalParam(Ids),
        status: optionalParam(Statuses(provisionerDaemonStatuses)),
        tags: optionalParam(TagsParam)
      }))
      .addSuccess(Schema.Array(ProvisionerDaemon))
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
