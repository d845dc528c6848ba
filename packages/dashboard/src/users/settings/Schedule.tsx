import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { ErrorMessage } from "../../ui/Form.tsx"
import { Time } from "../../ui/Time.tsx"
import { type QuietHours, settingsApi } from "./api.ts"
import { quietHoursQuery, settingsKeys } from "./queries.ts"
import { timeZones, toSchedule } from "./quietHours.ts"
import { SettingsHeader } from "./Settings.tsx"

/**
 * The quiet-hours form: a start time and a time zone, saved as the daily schedule
 * `CRON_TZ=<zone> <minute> <hour> * * *` (`onSave`); a bad time or zone is refused here, in words.
 */
export const QuietHoursForm = (props: {
  readonly time: string
  readonly timezone: string
  readonly disabled?: boolean
  readonly saving?: boolean
  readonly onSave: (schedule: string) => void
}) => {
  const [invalid, setInvalid] = useState<string | undefined>()
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        const data = new FormData(e.currentTarget)
        const r = toSchedule(String(data.get("time") ?? ""), String(data.get("timezone") ?? ""))
        if ("error" in r) {
          setInvalid(r.error)
          return
        }
        setInvalid(undefined)
        props.onSave(r.schedule)
      }}
    >
      <fieldset disabled={props.disabled}>
        <legend>Quiet hours start</legend>
        <div className="row">
          <div className="field">
            <label htmlFor="quiet-time">Start time</label>
            <input id="quiet-time" name="time" type="time" required defaultValue={props.time} />
          </div>
          <div className="field">
            <label htmlFor="quiet-timezone">Time zone</label>
            <select id="quiet-timezone" name="timezone" defaultValue={props.timezone}>
              {timeZones(props.timezone).map((z) => <option key={z} value={z}>{z}</option>)}
            </select>
          </div>
          <button type="submit" disabled={props.saving === true}>Save quiet hours</button>
        </div>
      </fieldset>
      {invalid === undefined ? null : <ErrorMessage error={new Error(invalid)} />}
    </form>
  )
}

/**
 * Quiet hours (`GET/PUT /users/me/quiet-hours`): when the workspaces' required stops may happen
 * (from the start time, daily), in the user's own time zone.
 */
export const SchedulePage = () => {
  const queryClient = useQueryClient()
  const hours = useQuery(quietHoursQuery)
  const save = useMutation({
    mutationFn: settingsApi.updateQuietHours,
    onSuccess: (h) => queryClient.setQueryData(settingsKeys.quietHours, h)
  })
  const entry: QuietHours | undefined = hours.data?.[0]
  return (
    <>
      <SettingsHeader
        title="Quiet hours"
        description="Workspaces that must be stopped by their template's rules are stopped in your quiet hours, which start daily at this time."
      />
      {entry === undefined ? (hours.isPending ? <p role="status">Loading…</p> : null) : (
        <>
          {entry.user_can_set ? null : <p>This deployment does not let users set their own quiet hours.</p>}
          <QuietHoursForm
            key={entry.raw_schedule}
            time={entry.time}
            timezone={entry.timezone}
            disabled={!entry.user_can_set}
            saving={save.isPending}
            onSave={(schedule) => save.mutate(schedule)}
          />
          <p>
            {entry.user_set ? "Your own schedule" : "The deployment's default"}:{" "}
            <code>{entry.raw_schedule}</code>. Next start: <Time value={entry.next} relative={false} />.
          </p>
        </>
      )}
      <p role="status">{save.isSuccess ? "Quiet hours saved." : ""}</p>
      <ErrorMessage error={hours.error ?? save.error} />
    </>
  )
}
