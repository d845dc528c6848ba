/**
 * The deployment's appearance: application name, logo, service banner and announcement banners,
 * stored in `site_configs` under one key; the docs URL and support links come from the settings.
 * Every signed-in user reads it; owners (`deployment_config:update`) change it.
 */
import { Effect, Option } from "effect"
import { authorize } from "../Actor.js"
import { auditResource, NIL_UUID } from "../Audit.js"
import { BadRequest, Validation } from "../Errors.js"
import { Settings } from "../Settings.js"
import { span } from "../Tracing.js"
import {
  AppearanceConfig,
  type BannerConfig,
  LicenseRepo,
  LinkConfig,
  makeBanner,
  UpdateAppearanceConfig
} from "./License.js"
import type { PutAppearanceRequest } from "./Requests.js"

/** The `site_configs` key of the appearance (JSON). */
export const APPEARANCE_KEY = "appearance"

/** The most announcement banners one deployment shows. */
export const MAX_ANNOUNCEMENT_BANNERS = 20

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/

const emptyBanner = makeBanner(false, "", "")

export const defaultAppearance = new UpdateAppearanceConfig({
  application_name: "",
  logo_url: "",
  service_banner: emptyBanner,
  announcement_banners: []
}, true)

type BannerRequest = NonNullable<PutAppearanceRequest["service_banner"]>

const bannerOf = (b: BannerRequest | undefined) =>
  makeBanner(b?.enabled ?? false, b?.message ?? "", b?.background_color ?? "")

/** The appearance a `PUT /appearance` stores: a field left out is empty. */
const appearanceOf = (p: typeof PutAppearanceRequest.Type) =>
  new UpdateAppearanceConfig({
    application_name: p.application_name ?? "",
    logo_url: p.logo_url ?? "",
    service_banner: bannerOf(p.service_banner),
    announcement_banners: (p.announcement_banners ?? []).map(bannerOf)
  }, true)

/** The described system's support links when none are configured. */
export const defaultSupportLinks = (docsUrl: string, version: string): ReadonlyArray<LinkConfig> => [
  new LinkConfig({ name: "Documentation", target: docsUrl, icon: "docs" }, true),
  new LinkConfig({
    name: "Report a bug",
    target: `https://github.com/coder/coder/issues/new?labels=needs+grooming&body=${
      encodeURIComponent(`Version: \`${version}\``)
    }`,
    icon: "bug"
  }, true),
  new LinkConfig({
    name: "Join the Coder Discord",
    target: "https://coder.com/chat?utm_source=coder&utm_medium=coder&utm_campaign=server-footer",
    icon: "chat"
  }, true),
  new LinkConfig({ name: "Star the Repo", target: "https://github.com/coder/coder", icon: "star" }, true)
]

/** The problems of an appearance, one validation per bad field (banner colors are `#rrggbb`). */
export const appearanceProblems = (input: UpdateAppearanceConfig): ReadonlyArray<Validation> => {
  const problems: Array<Validation> = []
  const color = (field: string, banner: BannerConfig) => {
    const colour = banner.background_color ?? ""
    if (!HEX_COLOR.test(colour)) {
      problems.push(new Validation({ field, detail: `Invalid color format: "${colour.slice(0, 32)}" is not #rrggbb.` }))
    }
  }
  if (input.logo_url !== "" && !isUrl(input.logo_url)) {
    problems.push(
      new Validation({ field: "logo_url", detail: "Logo URL must be an absolute URL (http, https or data)." })
    )
  }
  if (input.service_banner.enabled) color("service_banner.background_color", input.service_banner)
  if (input.announcement_banners.length > MAX_ANNOUNCEMENT_BANNERS) {
    problems.push(
      new Validation({
        field: "announcement_banners",
        detail: `At most ${MAX_ANNOUNCEMENT_BANNERS} announcement banners.`
      })
    )
  } else {
    input.announcement_banners.forEach((b, i) => color(`announcement_banners.${i}.background_color`, b))
  }
  return problems
}

const isUrl = (text: string) => {
  try {
    return ["http:", "https:", "data:"].includes(new URL(text).protocol)
  } catch {
    return false
  }
}

const parseStored = (json: string): UpdateAppearanceConfig => {
  try {
    const v = JSON.parse(json) as Record<string, any>
    const banner = (b: any) =>
      makeBanner(b?.enabled === true, String(b?.message ?? ""), String(b?.background_color ?? ""))
    return new UpdateAppearanceConfig({
      application_name: String(v.application_name ?? ""),
      logo_url: String(v.logo_url ?? ""),
      service_banner: banner(v.service_banner),
      announcement_banners: Array.isArray(v.announcement_banners) ? v.announcement_banners.map(banner) : []
    }, true)
  } catch {
    return defaultAppearance
  }
}

export class Appearance extends Effect.Service<Appearance>()("@workbay/core/Appearance", {
  effect: Effect.gen(function*() {
    const repo = yield* LicenseRepo
    const settings = yield* Settings
    const supportLinks = settings.supportLinks.length > 0
      ? settings.supportLinks.map((l) =>
        new LinkConfig({
          name: l.name,
          target: l.target,
          icon: l.icon,
          ...(l.location ? { location: l.location } : {})
        }, true)
      )
      : defaultSupportLinks(settings.docsUrl, settings.version)

    const stored = Effect.map(
      repo.siteConfig(APPEARANCE_KEY),
      Option.match({ onNone: () => defaultAppearance, onSome: parseStored })
    )

    const get = Effect.map(stored, (a) =>
      new AppearanceConfig({
        application_name: a.application_name,
        logo_url: a.logo_url,
        docs_url: settings.docsUrl,
        service_banner: a.service_banner,
        announcement_banners: a.announcement_banners,
        support_links: supportLinks
      }, true)).pipe(span("Appearance.get"))

    const update = (request: typeof PutAppearanceRequest.Type) =>
      Effect.gen(function*() {
        yield* authorize("update", { type: "deployment_config" })
        const input = appearanceOf(request)
        const problems = appearanceProblems(input)
        if (problems.length > 0) {
          return yield* new BadRequest({ message: "Invalid appearance.", validations: [...problems] })
        }
        const before = yield* stored
        const next = new UpdateAppearanceConfig({
          application_name: input.application_name,
          logo_url: input.logo_url,
          service_banner: input.service_banner,
          announcement_banners: input.announcement_banners
        }, true)
        yield* repo.setSiteConfig(APPEARANCE_KEY, JSON.stringify(next))
        yield* auditResource({ type: "appearance", id: NIL_UUID, target: "appearance" }, { ...before }, { ...next })
        return next
      }).pipe(span("Appearance.update"))

    return { get, update } as const
  })
}) {}
