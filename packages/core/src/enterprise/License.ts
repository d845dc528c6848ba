/**
 * Licenses, entitlements and the deployment's appearance: the stored records, their ports and
 * the wire shapes (the described system's `License`, `Entitlements`, `Feature` and
 * `AppearanceConfig`).
 */
import { Context, type Effect, type Option, Schema } from "effect"
import type { UniqueViolation } from "../Repositories.js"
import { omitEmpty } from "../Wire.js"

/** A stored license: the JWT as uploaded, its `exp` (the end of any grace period). */
export interface LicenseRecord {
  readonly id: number
  readonly uuid: string
  readonly uploaded_at: Date
  readonly jwt: string
  readonly exp: Date
}

export interface LicenseRepoShape {
  /** Stores a license; answers it with its new id. A second license of the same uuid clashes. */
  readonly insert: (license: Omit<LicenseRecord, "id">) => Effect.Effect<LicenseRecord, UniqueViolation>
  /** Every stored license, oldest first (bounded: a deployment holds a handful). */
  readonly list: Effect.Effect<ReadonlyArray<LicenseRecord>>
  /** Licenses whose `exp` is after `now`, oldest first. */
  readonly listUnexpired: (now: Date) => Effect.Effect<ReadonlyArray<LicenseRecord>>
  /** Deletes a license; false when there was none with that id. */
  readonly delete: (id: number) => Effect.Effect<boolean>
  /** Users a license counts: active, not deleted. */
  readonly activeUserCount: Effect.Effect<number>
  /** A value of the `site_configs` key/value store. */
  readonly siteConfig: (key: string) => Effect.Effect<Option.Option<string>>
  readonly setSiteConfig: (key: string, value: string) => Effect.Effect<void>
  /**
   * The value of `key`, stored as `value` first when there is none: of replicas racing on a new
   * database, all answer the one value stored first.
   */
  readonly initSiteConfig: (key: string, value: string) => Effect.Effect<string>
}

export class LicenseRepo extends Context.Tag("@workbay/core/LicenseRepo")<LicenseRepo, LicenseRepoShape>() {}

/** The most licenses a deployment stores (the described system sets none; a few are normal). */
export const MAX_LICENSES = 100

/** A license as the API shows it: the claims verbatim. */
export class License extends Schema.Class<License>("License")({
  id: Schema.Int,
  uuid: Schema.String,
  uploaded_at: Schema.Date,
  claims: Schema.Record({ key: Schema.String, value: Schema.Unknown })
}) {}

export class UsagePeriod extends Schema.Class<UsagePeriod>("UsagePeriod")({
  issued_at: Schema.Date,
  start: Schema.Date,
  end: Schema.Date
}) {}

export const Entitlement = Schema.Literal("entitled", "grace_period", "not_entitled")
export type Entitlement = typeof Entitlement.Type

/** One feature's standing; `limit`, `actual` and `usage_period` are left out when not known. */
export class Feature extends Schema.Class<Feature>("Feature")({
  entitlement: Entitlement,
  enabled: Schema.Boolean,
  limit: omitEmpty(Schema.Int),
  actual: omitEmpty(Schema.Int),
  usage_period: omitEmpty(UsagePeriod)
}) {}

export class Entitlements extends Schema.Class<Entitlements>("Entitlements")({
  features: Schema.Record({ key: Schema.String, value: Feature }),
  warnings: Schema.Array(Schema.String),
  errors: Schema.Array(Schema.String),
  has_license: Schema.Boolean,
  trial: Schema.Boolean,
  require_telemetry: Schema.Boolean,
  refreshed_at: Schema.Date
}) {}

/** A banner; `message` and `background_color` are left out when empty (the described system's omitempty). */
export class BannerConfig extends Schema.Class<BannerConfig>("BannerConfig")({
  enabled: Schema.Boolean,
  message: omitEmpty(Schema.String),
  background_color: omitEmpty(Schema.String)
}) {}

/** A banner with its empty fields left out. */
export const makeBanner = (enabled: boolean, message: string, background_color: string): BannerConfig =>
  new BannerConfig({
    enabled,
    ...(message !== "" ? { message } : {}),
    ...(background_color !== "" ? { background_color } : {})
  }, true)

export class LinkConfig extends Schema.Class<LinkConfig>("LinkConfig")({
  name: Schema.String,
  target: Schema.String,
  icon: Schema.String,
  location: omitEmpty(Schema.String)
}) {}

/** What `PUT /appearance` stores (and answers). */
export class UpdateAppearanceConfig extends Schema.Class<UpdateAppearanceConfig>("UpdateAppearanceConfig")({
  application_name: Schema.String,
  logo_url: Schema.String,
  service_banner: BannerConfig,
  announcement_banners: Schema.Array(BannerConfig)
}) {}

/** `GET /appearance`: the stored settings, with the docs URL and support links of the deployment. */
export class AppearanceConfig extends Schema.Class<AppearanceConfig>("AppearanceConfig")({
  application_name: Schema.String,
  logo_url: Schema.String,
  docs_url: Schema.String,
  service_banner: BannerConfig,
  announcement_banners: Schema.Array(BannerConfig),
  support_links: Schema.Array(LinkConfig)
}) {}
