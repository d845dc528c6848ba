/** Enterprise routes: appearance, licenses and entitlements (docs/enterprise.md); the live replicas (docs/agents.md). */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  AddLicenseRequest,
  AppearanceConfig,
  Entitlements,
  License,
  PutAppearanceRequest,
  Replica,
  ResponseBody,
  UpdateAppearanceConfig
} from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, EmptyOk, Forbidden, NotFound } from "../Common.js"
import { Authentication } from "../Security.js"

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
  .add(HttpApiEndpoint.get("replicas", "/replicas").addSuccess(Schema.Array(Replica)))
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
