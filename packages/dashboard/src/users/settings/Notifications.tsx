import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { inboxApi } from "../../notifications/api.ts"
import { myPreferencesQuery, notificationKeys, systemTemplatesQuery } from "../../notifications/queries.ts"
import { ErrorMessage } from "../../ui/Form.tsx"
import { SettingsHeader } from "./Settings.tsx"

/**
 * Which notifications the user gets: every system template (`GET /notifications/templates/system`)
 * by group, each on unless turned off (`GET/PUT /users/me/notifications/preferences`); a template
 * the user never set follows its `enabled_by_default`.
 */
export const NotificationsPage = () => {
  const queryClient = useQueryClient()
  const templates = useQuery(systemTemplatesQuery)
  const prefs = useQuery(myPreferencesQuery)
  // Each change shows at once (state set in the click's own handler, so the controlled checkbox
  // never flips back while the request runs), until the service's answer takes its place.
  const [changing, setChanging] = useState<Record<string, boolean>>({})
  const save = useMutation({
    mutationFn: (change: Record<string, boolean>) => inboxApi.updatePreferences("me", change),
    onSuccess: (p) => queryClient.setQueryData(notificationKeys.preferences, p),
    onSettled: (_p, _e, change) =>
      setChanging((c) => Object.fromEntries(Object.entries(c).filter(([id]) => !(id in change))))
  })
  const disabled = new Map(prefs.data?.map((p) => [p.id, p.disabled]))
  const groups = new Map<string, NonNullable<typeof templates.data>>()
  for (const t of [...(templates.data ?? [])].sort((a, b) => a.name.localeCompare(b.name))) {
    groups.set(t.group, [...(groups.get(t.group) ?? []), t])
  }
  return (
    <>
      <SettingsHeader title="Notifications" description="Choose the notifications you get." />
      <ErrorMessage error={templates.error ?? prefs.error ?? save.error} />
      {templates.isPending || prefs.isPending ? <p role="status">Loading…</p> : (
        <div className="preferences">
          {[...groups].sort(([a], [b]) => a.localeCompare(b)).map(([group, list]) => (
            <section key={group} aria-labelledby={`group-${group}`}>
              <h2 id={`group-${group}`}>{group}</h2>
              <ul>
                {list.map((t) => {
                  const on = !(disabled.get(t.id) ?? !t.enabled_by_default)
                  return (
                    <li key={t.id}>
                      <label className="choice">
                        <input
                          type="checkbox"
                          checked={changing[t.id] !== undefined ? !changing[t.id] : on}
                          onChange={(e) => {
                            const change = { [t.id]: !e.currentTarget.checked }
                            setChanging((c) => ({ ...c, ...change }))
                            save.mutate(change)
                          }}
                        />
                        {t.name}
                      </label>
                    </li>
                  )
                })}
              </ul>
            </section>
          ))}
        </div>
      )}
      <p role="status">{save.isSuccess ? "Preferences saved." : ""}</p>
    </>
  )
}
