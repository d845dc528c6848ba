import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { ErrorMessage } from "../../ui/Form.tsx"
import { settingsApi } from "./api.ts"
import { appearanceQuery, settingsKeys } from "./queries.ts"
import { SettingsHeader } from "./Settings.tsx"

const THEMES = [
  { value: "auto", label: "Auto (as the system)" },
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" }
] as const

/**
 * The theme (`theme_preference` of `PUT /users/me/appearance`), saved and applied as soon as it
 * is picked: the frame applies the cached appearance to the page.
 */
export const AppearancePage = () => {
  const queryClient = useQueryClient()
  const appearance = useQuery(appearanceQuery)
  // The choice shows at once (state set in the click's own handler, so the controlled radio
  // never flips back while the request runs); a refused change shows the saved one again.
  const [picked, setPicked] = useState<string | undefined>(undefined)
  const save = useMutation({
    mutationFn: settingsApi.updateAppearance,
    onSuccess: (a) => queryClient.setQueryData(settingsKeys.appearance, a),
    onSettled: () => setPicked(undefined)
  })
  const current = picked ?? appearance.data?.theme_preference
  const chosen = current === "light" || current === "dark" ? current : "auto"
  return (
    <>
      <SettingsHeader title="Appearance" description="How the dashboard looks to you, on every device." />
      {appearance.isPending ? <p role="status">Loading…</p> : (
        <form onSubmit={(e) => e.preventDefault()}>
          <fieldset>
            <legend>Theme</legend>
            {THEMES.map((t) => (
              <label key={t.value} className="choice">
                <input
                  type="radio"
                  name="theme"
                  value={t.value}
                  checked={chosen === t.value}
                  onChange={() => {
                    setPicked(t.value)
                    save.mutate(t.value)
                  }}
                />
                {t.label}
              </label>
            ))}
          </fieldset>
        </form>
      )}
      <ErrorMessage error={appearance.error ?? save.error} />
    </>
  )
}
