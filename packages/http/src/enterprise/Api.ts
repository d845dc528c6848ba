/** Enterprise routes: appearance, licenses and entitlements (docs/enterprise.md). */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { AppearanceConfig, Entitlements, License, ResponseBody, UpdateAppearanceConfig } from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, EmptyOk, Forbidden, NotFound, optional, wireName } from "../Common.js"
import { Authentication } from "../Security.js"

const Text = (max: number) =>
  Schema.String.pipe(Schema.maxLength(max, { message: () => `Must be at most ${max} characters.` }))

const Banner = Schema.Struct({
  enabled: optional(Schema.Boolean),
  message: optional(Text(2048)),
  background_color: optional(Text(32))
})

/**
 * `PUT /appearance`: the four stored fields (the described system's `UpdateAppearanceConfig`).
 * A field left out is stored empty, as the described system's decoding leaves it.
 */
export class PutAppearanceRequest extends Schema.Class<PutAppearanceRequest>("PutAppearanceRequest")({
  application_name: optional(Text(128)),
  logo_url: optional(Text(8192)),
  service_banner: optional(Banner),
  announcement_banners: optional(Schema.Array(Banner))
}, wireName("UpdateAppearanceConfig")) {}

/** `POST /licenses`: the described system's `AddLicenseRequest`. */
export class AddLicenseRequest extends Schema.Class<AddLicenseRequest>("AddLicenseRequest")({
  license: Schema.String.pipe(
    Schema.minLength(1, { message: () => "License is required." }),
    Schema.maxLength(32 * 1024, { message: () => "A license is at most 32768 characters." })
  )
}, wireName("AddLicenseRequest")) {}

const LicenseId = Schema.NumberFromString.pipe(
  Schema.int(),
  Schema.between(0, Number.MAX_SAFE_INTEGER),
  Schema.annotations({ message: () => ({ message: "License ID must be an integer.", override: true }) })
)

export class EnterpriseApi extends HttpApiGroup.make("enterprise")
  .add(HttpApiEndpoint.get("appearance", "/appearance").addSuccess(AppearanceConfig))
  .add(
    HttpApiEndpoint.put("updateAppearance", "/appearance").annotate(Audited, audit("appearance"))
      .setPayload(PutAppearanceRequest)
      .addSuccess(UpdateAppearanceConfig)
  )
  .add(HttpApiEndpoint.get("entitlements", "/entitlements").addSuccess(Entitlements))
  .add(HttpApiEndpoint.get("licenses", "/licenses").addSuccess(Schema.Array(License)))
  .add(
    HttpApiEndpoint.post("addLicense", "/licenses").annotate(Audited, audit("license"))
      .setPayload(AddLicenseRequest)
      .addSuccess(License, { status: 201 })
  )
  .add(
    HttpApiEndpoint.post("refreshEntitlements", "/licenses/refresh-entitlements").annotate(Audited, false)
      .addSuccess(ResponseBody)
  )
  .add(
    HttpApiEndpoint.del("deleteLicense", "/licenses/:id").annotate(Audited, audit("license"))
      .setPath(Schema.Struct({ id: LicenseId }))
      .addSuccess(EmptyOk)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
