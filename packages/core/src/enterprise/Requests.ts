/**
 * The request bodies of the enterprise area's routes (`/appearance`, `/licenses`). The routes in
 * `http/src/enterprise/` declare them; the services take their decoded types (`typeof X.Type`).
 */
import { Schema } from "effect"
import { optional, Text, wireName } from "../Requests.js"

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
