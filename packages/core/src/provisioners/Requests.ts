/**
 * The request bodies and queries of the provisioners area's routes: provisioner jobs (and the job
 * log query of template versions' imports and workspaces' builds), daemons and keys. The routes in
 * `http/src/provisioners/` declare them; the services take their decoded types (`typeof X.Type`).
 */
import { Schema } from "effect"
import { isUuid } from "../Ids.js"
import { BooleanParam, IntParam, optional, optionalParam, Text, wireName } from "../Requests.js"
import { provisionerDaemonStatuses } from "./ProvisionerDaemon.js"
import { provisionerJobStatuses } from "./ProvisionerJob.js"

/** Provisioner tags as bodies carry them: a template version's, a key's. */
export const TagsBody = Schema.Record({ key: Text(256), value: Text(256) })
const Tags = TagsBody

/**
 * The query of the API's job log routes (a template version's import and dry runs, and the
 * workspaces area's builds): `after`, `before` (log ids; only the lines between), and
 * `follow=true`, which the route answers by upgrading to a WebSocket that streams the lines.
 */
export const JobLogsQuery = Schema.Struct({
  after: optionalParam(IntParam),
  before: optionalParam(IntParam),
  follow: optionalParam(BooleanParam)
})

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

/** The query of GET /organizations/{organization}/provisionerjobs; `initiator` is a user id or username. */
export const ListProvisionerJobsQuery = Schema.Struct({
  limit: optionalParam(Limit),
  ids: optionalParam(Ids),
  status: optionalParam(Statuses(provisionerJobStatuses)),
  tags: optionalParam(TagsParam),
  initiator: optionalParam(Schema.String)
})

/** The query of GET /organizations/{organization}/provisionerdaemons. */
export const ListProvisionerDaemonsQuery = Schema.Struct({
  limit: optionalParam(Limit),
  ids: optionalParam(Ids),
  status: optionalParam(Statuses(provisionerDaemonStatuses)),
  tags: optionalParam(TagsParam)
})

/** codersdk `CreateProvisionerKeyRequest`. The name's rules (required, 64 characters, reserved names) are the service's. */
export class CreateProvisionerKeyRequest
  extends Schema.Class<CreateProvisionerKeyRequest>("CreateProvisionerKeyRequest")({
    name: Schema.String.pipe(Schema.maxLength(1024, { message: () => "Name must be at most 64 characters" })),
    tags: optional(Tags)
  }, wireName("CreateProvisionerKeyRequest"))
{}

/** A list query parameter: repeated, or comma-separated. */
const List = Schema.Array(Text(256)).pipe(Schema.maxItems(64, { message: () => "At most 64 values." }))

/**
 * The query of GET /organizations/{organization}/provisionerdaemons/serve, as the described
 * system's daemons send it: `provisioner` (repeated or comma-separated; `provisioners` too), `tag`
 * (`key=value`, repeated; `tags` too), `name`, `version` (the protocol version the daemon speaks,
 * default 1.0) and `id` (ignored). The route reads it (http `templates/KeysHttp.ts`).
 */
/** `PATCH /organizations/{organization}/provisionerhosts/{host}`: drain a host, or take it back. */
export class PatchProvisionerHostRequest
  extends Schema.Class<PatchProvisionerHostRequest>("PatchProvisionerHostRequest")({
    draining: Schema.Boolean
  })
{}

export const ProvisionerDaemonServeQuery = Schema.Struct({
  provisioner: optionalParam(List),
  provisioners: optionalParam(List),
  tag: optionalParam(List),
  tags: optionalParam(List),
  name: optionalParam(Text(64)),
  version: optionalParam(Text(32)),
  id: optionalParam(Text(64)),
  /** The host the daemon runs jobs on (1.2): its capacity reports are this host's. */
  host: optionalParam(Text(64))
})
