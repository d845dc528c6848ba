import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { ErrorMessage } from "../ui/Form.tsx"
import { inboxApi as api } from "./api.ts"
import { dispatchMethodsQuery, notificationKeys, notificationSettingsQuery, systemTemplatesQuery } from "./queries.ts"
import "./styles.css"

/** A method as people say it. */
const methodName = (method: string) =>
  ({ smtp: "Email", webhook: "Webhook", inbox: "Inbox" } as Record<string, string>)[method] ?? method

/**
 * The deployment's notifications (administrators): pause or resume the notifier
 * (`GET/PUT /notifications/settings`: paused, messages wait in the queue), each system template's
 * delivery method (`PUT /notifications/templates/{id}/method`; empty is the deployment's default,
 * `GET /notifications/dispatch-methods`), and a test notification to oneself
 * (`POST /notifications/test`).
 */
export const NotificationsSettingsPage = () => {
  const queryClient = useQueryClient()
  const settings = useQuery(notificationSettingsQuery)
  const methods = useQuery(dispatchMethodsQuery)
  const templates = useQuery(systemTemplatesQuery)
  // A choice shows at once (set in the change's own handler), until the service's answer replaces it.
  const [choosing, setChoosing] = useState<Record<string, string>>({})
  const pause = useMutation({
    mutationFn: api.updateSettings,
    onSuccess: (s) => queryClient.setQueryData(notificationKeys.settings, s)
  })
  const method = useMutation({
    mutationFn: ({ id, value }: { id: string; value: string }) => api.updateMethod(id, value),
    onSettled: async (_r, _e, { id }) => {
      await queryClient.invalidateQueries({ queryKey: notificationKeys.systemTemplates })
      setChoosing((c) => Object.fromEntries(Object.entries(c).filter(([k]) => k !== id)))
    }
  })
  const test = useMutation({ mutationFn: api.sendTest })
  const groups = new Map<string, NonNullable<typeof templates.data>>()
  for (const t of [...(templates.data ?? [])].sort((a, b) => a.name.localeCompare(b.name))) {
    groups.set(t.group, [...(groups.get(t.group) ?? []), t])
  }
  const fallback = methods.data?.default ?? ""
  return (
    <>
      <h1>Notifications</h1>
      <ErrorMessage error={settings.error ?? methods.error ?? templates.error} />
      <section aria-labelledby="notifier" className="notifier">
        <h2 id="notifier">Delivery</h2>
        {settings.data === undefined ? <p role="status">Loading…</p> : (
          <>
            <p>
              {settings.data.notifier_paused
                ? "The notifier is paused: notifications wait in the queue and go out once it is resumed."
                : "The notifier is sending notifications."}
            </p>
            <button
              type="button"
              disabled={pause.isPending}
              onClick={() => pause.mutate(!settings.data.notifier_paused)}
            >
              {settings.data.notifier_paused ? "Resume the notifier" : "Pause the notifier"}
            </button>
          </>
        )}
        <ErrorMessage error={pause.error} />
        <p>
          <button type="button" disabled={test.isPending} onClick={() => test.mutate()}>
            Send a test notification
          </button>
        </p>
        <ErrorMessage error={test.error} />
        <p role="status">{test.isSuccess ? "A test notification is on its way to you." : ""}</p>
      </section>
      <section aria-labelledby="events">
        <h2 id="events">Events</h2>
        <p>
          How each notification is delivered. The default is{" "}
          {fallback === "" ? "the deployment's" : methodName(fallback)}.
        </p>
        {templates.isPending || methods.isPending ? <p role="status">Loading…</p> : null}
        {[...groups].sort(([a], [b]) => a.localeCompare(b)).map(([group, list]) => (
          <table key={group} className="methods">
            <caption>{group}</caption>
            <thead>
              <tr>
                <th scope="col">Notification</th>
                <th scope="col">Method</th>
              </tr>
            </thead>
            <tbody>
              {list.map((t) => (
                <tr key={t.id}>
                  <th scope="row">{t.name}</th>
                  <td>
                    <select
                      aria-label={`Method of ${t.name}`}
                      value={choosing[t.id] ?? t.method}
                      onChange={(e) => {
                        const value = e.currentTarget.value
                        setChoosing((c) => ({ ...c, [t.id]: value }))
                        method.mutate({ id: t.id, value })
                      }}
                    >
                      <option value="">Default ({methodName(fallback)})</option>
                      {(methods.data?.available ?? []).map((m) => <option key={m} value={m}>{methodName(m)}</option>)}
                    </select>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
        <ErrorMessage error={method.error} />
        <p role="status">{method.isSuccess ? "Method saved." : ""}</p>
      </section>
    </>
  )
}
