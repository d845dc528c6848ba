/**
 * The account's theme (`theme_preference` of `GET /users/{user}/appearance`: "light", "dark", or
 * "auto"/"" for the system's), applied to the whole page by `data-theme` on <html>, which
 * styles.css honours; without it the system's preference decides.
 */
import { useQuery } from "@tanstack/react-query"
import { useEffect } from "react"
import { appearanceQuery } from "./settings/queries.ts"

export const applyTheme = (preference: string | undefined) => {
  if (preference === "light" || preference === "dark") document.documentElement.dataset.theme = preference
  else delete document.documentElement.dataset.theme
}

/**
 * Applies the signed-in user's theme, now and whenever it changes (in the signed-in frame); the
 * system's again when the frame goes (signed out: the next person's sign-in page is not ours).
 */
export const useAppliedTheme = () => {
  const appearance = useQuery(appearanceQuery)
  const preference = appearance.data?.theme_preference
  useEffect(() => {
    if (preference === undefined) return
    applyTheme(preference)
    return () => applyTheme(undefined)
  }, [preference])
}

/** `useAppliedTheme` as an element of the signed-in frame (it renders nothing). */
export const AppliedTheme = () => {
  useAppliedTheme()
  return null
}
