/** The JSON Schemas of the appearance, replicas, licenses and entitlements response types (see ../schemas/ResponseSchemas.ts). */
import {
  arrayOf,
  boolean,
  dateTime,
  integer,
  type JsonSchema,
  mapOf,
  object,
  omitted,
  optional,
  ref,
  string,
  uuid
} from "../schemas/jsonSchema.js"

/** The response types of the area's endpoints, by the reference's name. */
export const responseTypes: Record<string, JsonSchema> = {
  // Appearance, licenses and entitlements (typesGenerated: AppearanceConfig, BannerConfig, LinkConfig, License, Entitlements, Feature).
  BannerConfig: {
    ...object({ enabled: boolean, message: omitted(string), background_color: omitted(string) }, ["enabled"]),
    additionalProperties: false
  },
  LinkConfig: object({
    name: string,
    target: string,
    icon: { enum: ["bug", "chat", "docs", "star"] },
    location: omitted(string)
  }, ["name", "target", "icon"]),
  AppearanceConfig: object({
    application_name: string,
    logo_url: string,
    docs_url: string,
    service_banner: ref("BannerConfig"),
    announcement_banners: arrayOf(ref("BannerConfig")),
    support_links: arrayOf(ref("LinkConfig"))
  }, ["application_name", "logo_url", "docs_url", "service_banner", "announcement_banners"]),
  UpdateAppearanceConfig: object({
    application_name: string,
    logo_url: string,
    service_banner: ref("BannerConfig"),
    announcement_banners: arrayOf(ref("BannerConfig"))
  }, ["application_name", "logo_url", "service_banner", "announcement_banners"]),
  // codersdk Replica (enterprise `GET /replicas`); database_latency in microseconds.
  Replica: object({
    id: uuid,
    hostname: string,
    created_at: dateTime,
    relay_address: string,
    region_id: integer,
    error: string,
    database_latency: integer
  }, ["id", "hostname", "created_at", "relay_address", "region_id", "error", "database_latency"]),
  License: {
    ...object({ id: integer, uuid, uploaded_at: dateTime, claims: { type: "object" } }, [
      "id",
      "uuid",
      "uploaded_at",
      "claims"
    ]),
    additionalProperties: false
  },
  UsagePeriod: object({ issued_at: dateTime, start: dateTime, end: dateTime }, ["issued_at", "start", "end"]),
  Feature: {
    ...object({
      entitlement: { enum: ["entitled", "grace_period", "not_entitled"] },
      enabled: boolean,
      limit: optional(integer),
      actual: optional(integer),
      usage_period: optional(ref("UsagePeriod"))
    }, ["entitlement", "enabled"]),
    additionalProperties: false
  },
  Entitlements: object({
    features: mapOf(ref("Feature")),
    warnings: arrayOf(string),
    errors: arrayOf(string),
    has_license: boolean,
    trial: boolean,
    require_telemetry: boolean,
    refreshed_at: dateTime
  }, ["features", "warnings", "errors", "has_license", "trial", "require_telemetry", "refreshed_at"])
}
