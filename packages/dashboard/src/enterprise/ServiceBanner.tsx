import { useQuery } from "@tanstack/react-query"
import "./styles.css"
import { appearanceQuery } from "./queries.ts"

/** The deployment's appearance (`GET /appearance`), shared by the frame and the appearance page. */
export const useAppearance = () => useQuery(appearanceQuery)

/**
 * The service banner an administrator set (appearance), above every signed-in page, as a named
 * region. Its colour is the administrator's; the text is chosen dark or light to stay readable.
 */
export const ServiceBanner = () => {
  const appearance = useAppearance()
  const banner = appearance.data?.service_banner
  if (banner === undefined || !banner.enabled || (banner.message ?? "") === "") return null
  const background = banner.background_color || "#004852"
  return (
    <section
      aria-label="Service banner"
      className="service-banner"
      style={{ background, color: readableOn(background) }}
    >
      {banner.message}
    </section>
  )
}

/** Black or white, whichever reads better on `hex` (#rgb or #rrggbb; white when not a colour). */
export const readableOn = (hex: string) => {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim())
  if (m === null) return "#ffffff"
  const full = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join("") : m[1]!
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255).map((c) =>
    c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  ) as [number, number, number]
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
  return luminance > 0.179 ? "#000000" : "#ffffff"
}
