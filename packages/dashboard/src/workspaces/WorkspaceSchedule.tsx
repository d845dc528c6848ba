/**
 * The workspace's schedule: autostart (days, a time and a time zone, saved as the weekly cron line
 * of `PUT /workspaces/{id}/autostart`; off is an empty schedule) and autostop (the hours a start
 * lasts, `PUT /workspaces/{id}/ttl`; off is null). The watch brings the saved values back.
 */
import { useMutation } from "@tanstack/react-query"
import { useId, useState } from "react"
import { ErrorMessage } from "../ui/Form.tsx"
import { Time } from "../ui/Time.tsx"
import { type Workspace, workspacesApi as api } from "./api.ts"
import { type Autostart, DAYS, describe, describeTtl, fromCron, toCron } from "./schedule.ts"

const zones = (): ReadonlyArray<string> => {
  try {
    return Intl.supportedValuesOf("timeZone")
  } catch {
    return ["UTC"]
  }
}

const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone

export const WorkspaceSchedule = ({ workspace: w }: { workspace: Workspace }) => {
  const current = fromCron(w.autostart_schedule)
  const ttl = w.ttl_ms ?? 0
  const [editing, setEditing] = useState(false)
  return (
    <section aria-labelledby="schedule-heading">
      <h2 id="schedule-heading">Schedule</h2>
      <dl className="facts">
        <dt>Autostart</dt>
        <dd>
          <span role="status" aria-label="Autostart">
            {current === undefined ? (w.autostart_schedule ? w.autostart_schedule : "Off") : describe(current)}
          </span>
        </dd>
        {w.next_start_at !== null
          ? (
            <>
              <dt>Next start</dt>
              <dd>
                <Time value={w.next_start_at} relative={false} />
              </dd>
            </>
          )
          : null}
        <dt>Autostop</dt>
        <dd>
          <span role="status" aria-label="Autostop">{ttl > 0 ? `After ${describeTtl(ttl)}` : "Off"}</span>
        </dd>
        {w.latest_build.deadline !== undefined && w.latest_build.status === "running"
          ? (
            <>
              <dt>Stops</dt>
              <dd>
                <Time value={w.latest_build.deadline} />
              </dd>
            </>
          )
          : null}
      </dl>
      {editing
        ? <ScheduleForm workspace={w} current={current} ttl={ttl} onDone={() => setEditing(false)} />
        : (
          <button type="button" className="secondary" onClick={() => setEditing(true)}>
            Edit schedule
          </button>
        )}
    </section>
  )
}

const ScheduleForm = ({ workspace: w, current, ttl, onDone }: {
  workspace: Workspace
  current: Autostart | undefined
  ttl: number
  onDone: () => void
}) => {
  const id = useId()
  const [on, setOn] = useState(current !== undefined)
  const [days, setDays] = useState<ReadonlySet<number>>(new Set(current?.days ?? [1, 2, 3, 4, 5]))
  const [time, setTime] = useState(current?.time ?? "09:00")
  const [timezone, setTimezone] = useState(current?.timezone ?? localZone())
  const [hours, setHours] = useState(ttl > 0 ? String(ttl / 3_600_000) : "")
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const save = useMutation({
    mutationFn: async () => {
      await api.autostart(w.id, on ? toCron({ days: [...days], time, timezone }) : "")
      const h = Number(hours)
      await api.ttl(w.id, hours.trim() === "" || h === 0 ? null : Math.round(h * 3_600_000))
    },
    onSuccess: onDone
  })
  return (
    <form
      className="schedule"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        const h = Number(hours)
        const bad = on && days.size === 0
          ? "Choose at least one day for autostart."
          : on && !/^\d{2}:\d{2}$/.test(time)
          ? "Choose a time for autostart."
          : hours.trim() !== "" && (!Number.isFinite(h) || h < 0)
          ? "Autostop must be a number of hours."
          : undefined
        setProblem(bad)
        if (bad === undefined) save.mutate()
      }}
    >
      <label className="choice">
        <input type="checkbox" checked={on} onChange={(e) => setOn(e.currentTarget.checked)} />
        Start automatically
      </label>
      <fieldset disabled={!on}>
        <legend>Autostart days</legend>
        <div className="choices">
          {DAYS.map((day, i) => (
            <label key={day} className="choice">
              <input
                type="checkbox"
                checked={days.has(i)}
                onChange={(e) => {
                  const next = new Set(days)
                  if (e.currentTarget.checked) next.add(i)
                  else next.delete(i)
                  setDays(next)
                }}
              />
              {day}
            </label>
          ))}
        </div>
        <div className="field">
          <label htmlFor={`${id}-time`}>Start time</label>
          <input id={`${id}-time`} type="time" value={time} onChange={(e) => setTime(e.currentTarget.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-zone`}>Time zone</label>
          <select id={`${id}-zone`} value={timezone} onChange={(e) => setTimezone(e.currentTarget.value)}>
            {[...new Set([timezone, "UTC", ...zones()])].map((z) => <option key={z} value={z}>{z}</option>)}
          </select>
        </div>
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-ttl`}>Stop after (hours)</label>
        <input
          id={`${id}-ttl`}
          type="number"
          min="0"
          step="0.5"
          value={hours}
          aria-describedby={`${id}-ttl-hint`}
          onChange={(e) => setHours(e.currentTarget.value)}
        />
        <p id={`${id}-ttl-hint`} className="hint">Empty or 0: no autostop.</p>
      </div>
      {problem !== undefined ? <p role="alert" className="error">{problem}</p> : null}
      <ErrorMessage error={save.error} />
      <div className="actions">
        <button type="submit" disabled={save.isPending}>Save schedule</button>
        <button type="button" className="secondary" onClick={onDone}>Cancel</button>
      </div>
    </form>
  )
}
