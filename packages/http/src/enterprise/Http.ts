/** Handlers of the enterprise group. */
import { Appearance, Licenses, makeBanner, UpdateAppearanceConfig } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import type { PutAppearanceRequest } from "./Api.js"

type BannerInput = NonNullable<PutAppearanceRequest["service_banner"]>

const banner = (b: BannerInput | undefined) =>
  makeBanner(b?.enabled ?? false, b?.message ?? "", b?.background_color ?? "")

const appearanceOf = (p: PutAppearanceRequest) =>
  new UpdateAppearanceConfig({
    application_name: p.application_name ?? "",
    logo_url: p.logo_url ?? "",
    service_banner: banner(p.service_banner),
    announcement_banners: (p.announcement_banners ?? []).map(banner)
  }, true)

export const EnterpriseHttp = implement(WorkbayApi, "enterprise", {
  appearance: () => Effect.flatMap(Appearance, (a) => a.get),
  updateAppearance: ({ payload }) => Effect.flatMap(Appearance, (a) => a.update(appearanceOf(payload))),
  entitlements: () => Effect.flatMap(Licenses, (l) => l.entitlements),
  licenses: () => Effect.flatMap(Licenses, (l) => l.list),
  addLicense: ({ payload }) => Effect.flatMap(Licenses, (l) => l.add(payload.license)),
  refreshEntitlements: () => Effect.flatMap(Licenses, (l) => l.refresh),
  deleteLicense: ({ path }) => Effect.flatMap(Licenses, (l) => l.remove(path.id))
})
