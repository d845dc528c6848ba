/**
 * Workspace proxies (docs/workspace-proxies.md): the stored record, the wire forms the described
 * system answers (`WorkspaceProxy`, `Region`, `RegionsResponse`, `UpdateWorkspaceProxyResponse`,
 * the register exchange) and the repository port. A proxy's token is `<id>:<secret>`; only the
 * SHA-256 of the secret is stored.
 */
import { Context, type Effect, type Option, Schema } from "effect"
import type { UniqueViolation } from "../Repositories.js"
import { omitEmpty } from "../Wire.js"

/** codersdk `ProxyHealthStatus`. */
export const ProxyHealthStatuses = ["ok", "unhealthy", "unreachable", "unregistered"] as const
export type ProxyHealthStatus = (typeof ProxyHealthStatuses)[number]

/** What a health check found. */
export interface ProxyHealthReportRecord {
  readonly errors: ReadonlyArray<string>
  readonly warnings: ReadonlyArray<string>
}

/** A stored proxy (never the primary, which is the deployment itself). */
export interface WorkspaceProxyRecord {
  readonly id: string
  readonly name: string
  readonly display_name: string
  readonly icon: string
  /** The access URL it registered; empty until it registers. */
  readonly url: string
  readonly wildcard_hostname: string
  readonly derp_enabled: boolean
  readonly derp_only: boolean
  readonly version: string
  readonly deleted: boolean
  /** SHA-256 (hex) of the token's secret part. */
  readonly token_hashed_secret: string
  readonly created_at: Date
  readonly updated_at: Date
  /** The last health check's verdict (`unregistered` until it registers). */
  readonly status: ProxyHealthStatus
  readonly status_report: ProxyHealthReportRecord
  readonly status_checked_at: Date
}

/** What registration sets. */
export interface ProxyRegistration {
  readonly url: string
  readonly wildcard_hostname: string
  readonly derp_enabled: boolean
  readonly derp_only: boolean
  readonly version: string
}

/** A health check's result for one proxy. */
export interface ProxyStatusUpdate {
  readonly id: string
  readonly status: ProxyHealthStatus
  readonly report: ProxyHealthReportRecord
  readonly checked_at: Date
}

/** The primary proxy's editable fields (display name and icon), kept in `site_configs`. */
export interface PrimaryProxyConfig {
  readonly display_name: string
  readonly icon: string
}

/** codersdk `ProxyHealthReport`. */
export class ProxyHealthReport extends Schema.Class<ProxyHealthReport>("ProxyHealthReport")({
  errors: Schema.Array(Schema.String),
  warnings: Schema.Array(Schema.String)
}) {}

/** codersdk `WorkspaceProxyStatus`. */
export class WorkspaceProxyStatus extends Schema.Class<WorkspaceProxyStatus>("WorkspaceProxyStatus")({
  status: Schema.Literal(...ProxyHealthStatuses),
  report: omitEmpty(ProxyHealthReport),
  checked_at: Schema.Date
}) {}

const regionFields = {
  /** A UUID; a string here because the primary's is the deployment id, which an embedder sets. */
  id: Schema.String,
  name: Schema.String,
  display_name: Schema.String,
  icon_url: Schema.String,
  healthy: Schema.Boolean,
  path_app_url: Schema.String,
  wildcard_hostname: Schema.String
}

/** codersdk `Region`: what `/regions` shows of a proxy. */
export class Region extends Schema.Class<Region>("Region")(regionFields) {}

/** codersdk `WorkspaceProxy`. `status` is left out for a deleted proxy. */
export class WorkspaceProxy extends Schema.Class<WorkspaceProxy>("WorkspaceProxy")({
  ...regionFields,
  derp_enabled: Schema.Boolean,
  derp_only: Schema.Boolean,
  status: omitEmpty(WorkspaceProxyStatus),
  created_at: Schema.Date,
  updated_at: Schema.Date,
  deleted: Schema.Boolean,
  version: Schema.String
}) {}

/** codersdk `RegionsResponse[Region]`. */
export class RegionsResponse extends Schema.Class<RegionsResponse>("RegionsResponse")({
  regions: Schema.Array(Region)
}) {}

/** codersdk `RegionsResponse[WorkspaceProxy]`: the answer of `GET /workspaceproxies`. */
export class WorkspaceProxiesResponse extends Schema.Class<WorkspaceProxiesResponse>("WorkspaceProxiesResponse")({
  regions: Schema.Array(WorkspaceProxy)
}) {}

/** codersdk `UpdateWorkspaceProxyResponse`: the proxy and, when one was made, its token (shown once). */
export class UpdateWorkspaceProxyResponse
  extends Schema.Class<UpdateWorkspaceProxyResponse>("UpdateWorkspaceProxyResponse")({
    proxy: WorkspaceProxy,
    proxy_token: Schema.String
  })
{}

/** wsproxysdk `RegisterWorkspaceProxyResponse`, without the keys Workbay has no use for (docs/workspace-proxies.md). */
export class RegisterWorkspaceProxyResponse
  extends Schema.Class<RegisterWorkspaceProxyResponse>("RegisterWorkspaceProxyResponse")({
    deployment_id: Schema.String,
    derp_mesh_key: Schema.String,
    derp_region_id: Schema.Int,
    derp_force_websockets: Schema.Boolean,
    sibling_replicas: Schema.Array(Schema.Unknown)
  })
{}

export class WorkspaceProxyRepo extends Context.Tag("@workbay/core/WorkspaceProxyRepo")<WorkspaceProxyRepo, {
  /** Fails with `UniqueViolation` when a live proxy has the name (case-insensitive). */
  readonly insert: (proxy: WorkspaceProxyRecord) => Effect.Effect<void, UniqueViolation>
  /** By id, deleted ones included. */
  readonly findById: (id: string) => Effect.Effect<Option.Option<WorkspaceProxyRecord>>
  /** A live proxy by name (case-insensitive). */
  readonly findByName: (name: string) => Effect.Effect<Option.Option<WorkspaceProxyRecord>>
  /** Live proxies by name, at most `limit`. */
  readonly list: (limit: number) => Effect.Effect<ReadonlyArray<WorkspaceProxyRecord>>
  /** Name, display name, icon, and the token hash when given; false when there is no live proxy `id`. */
  readonly update: (
    id: string,
    fields: {
      readonly name: string
      readonly display_name: string
      readonly icon: string
      readonly token_hashed_secret?: string | undefined
    },
    at: Date
  ) => Effect.Effect<Option.Option<WorkspaceProxyRecord>, UniqueViolation>
  /** Marks the proxy deleted (its status emptied); false when there was no live proxy `id`. */
  readonly markDeleted: (id: string, at: Date) => Effect.Effect<boolean>
  /** Sets what registration reports; none when there is no live proxy `id`. */
  readonly register: (
    id: string,
    registration: ProxyRegistration,
    at: Date
  ) => Effect.Effect<Option.Option<WorkspaceProxyRecord>>
  /** Writes health check results (of live proxies only). */
  readonly setStatuses: (updates: ReadonlyArray<ProxyStatusUpdate>) => Effect.Effect<void>
  readonly getPrimary: Effect.Effect<Option.Option<PrimaryProxyConfig>>
  readonly setPrimary: (config: PrimaryProxyConfig) => Effect.Effect<void>
}>() {}
