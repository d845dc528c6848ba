import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { ErrorMessage, formValues } from "../ui/Form.tsx"
import { enterpriseApi as api } from "./api.ts"
import { enterpriseKeys } from "./queries.ts"
import { useAppearance } from "./ServiceBanner.tsx"
import "./admin.css"

/**
 * The deployment's appearance (`GET /appearance`, `PUT /appearance`): the application name, the
 * logo's address and the service banner (on or off, its message and background colour), shown
 * above every signed-in page once saved.
 */
export const AppearancePage = () => {
  const appearance = useAppearance()
  const queryClient = useQueryClient()
  const [saved, setSaved] = useState(false)
  const save = useMutation({
    mutationFn: api.updateAppearance,
    onSuccess: async () => {
      setSaved(true)
      await queryClient.invalidateQueries({ queryKey: enterpriseKeys.appearance })
    }
  })
  if (appearance.data === undefined) {
    return appearance.isError ? <ErrorMessage error={appearance.error} /> : <p role="status">Loading…</p>
  }
  const a = appearance.data
  return (
    <>
      <h1>Appearance</h1>
      <form
        className="inline-form"
        key={JSON.stringify(a)}
        onSubmit={(e) => {
          e.preventDefault()
          setSaved(false)
          const v = formValues(e.currentTarget)
          save.mutate({
            application_name: v.application_name ?? "",
            logo_url: v.logo_url ?? "",
            service_banner: {
              enabled: v.banner_enabled === "on",
              message: v.banner_message ?? "",
              background_color: v.banner_color ?? "#004852"
            }
          })
        }}
      >
        <div className="field">
          <label htmlFor="application_name">Application name</label>
          <input id="application_name" name="application_name" defaultValue={a.application_name} />
        </div>
        <div className="field">
          <label htmlFor="logo_url">Logo URL</label>
          <input id="logo_url" name="logo_url" type="url" defaultValue={a.logo_url} aria-describedby="logo_url-hint" />
          <p id="logo_url-hint" className="hint">An https:// address of an image, shown on the sign-in page.</p>
        </div>
        <fieldset>
          <legend>Service banner</legend>
          <label className="check">
            <input type="checkbox" name="banner_enabled" defaultChecked={a.service_banner.enabled} />
            Show the service banner
          </label>
          <div className="field">
            <label htmlFor="banner_message">Banner message</label>
            <textarea id="banner_message" name="banner_message" defaultValue={a.service_banner.message ?? ""} />
          </div>
          <div className="field">
            <label htmlFor="banner_color">Banner background colour</label>
            <input
              id="banner_color"
              name="banner_color"
              type="color"
              defaultValue={a.service_banner.background_color || "#004852"}
            />
          </div>
        </fieldset>
        <ErrorMessage error={save.error} />
        <div className="actions">
          <button type="submit" disabled={save.isPending}>Save appearance</button>
          <p role="status" aria-live="polite">{saved ? "Saved." : ""}</p>
        </div>
      </form>
    </>
  )
}
