/**
 * A template's settings (`/templates/:template/settings`): `PATCH /templates/{id}` with its
 * general fields and schedule defaults, the service's message shown under each field it refuses;
 * and deleting the template (`DELETE /templates/{id}`), confirmed first.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useNavigate, useParams } from "react-router"
import { ConfirmButton } from "../ui/Confirm.tsx"
import { ErrorMessage } from "../ui/Form.tsx"
import { fieldError, type Template, templatesApi as api, type UpdateTemplateMeta } from "./api.ts"
import { CheckField, FieldMessage, TextField } from "./Fields.tsx"
import { templatePath } from "./paths.ts"
import { templateKeys } from "./queries.ts"
import { useTemplate } from "./Template.tsx"

const HOUR = 3_600_000
const DAY = 24 * HOUR

const DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const
const dayName = (d: string) => d.charAt(0).toUpperCase() + d.slice(1)

/**
 * The required stop's choices, as the described system's dashboard offers them: none, every day,
 * or one weekend day (every `weeks` weeks).
 */
const STOPS = { off: [], daily: [...DAYS], saturday: ["saturday"], sunday: ["sunday"] } as const
type Stop = keyof typeof STOPS
const stopOf = (days: ReadonlyArray<string>): Stop =>
  days.length === 0 ? "off" : days.length === 7 ? "daily" : days[0] === "sunday" ? "sunday" : "saturday"

const LEVELS = ["owner", "authenticated", "organization", "public"] as const

/** Hours (or days) as the number field shows them (no trailing zeros), from milliseconds. */
const hours = (ms: number, unit = HOUR) => String(Math.round((ms / unit) * 1000) / 1000)

/** The form's values as an UpdateTemplateMeta (hours into milliseconds, checkboxes into booleans). */
export const settingsBody = (form: FormData): UpdateTemplateMeta => {
  const text = (name: string) => String(form.get(name) ?? "").trim()
  const ms = (name: string, unit = HOUR) => {
    const v = text(name)
    // Not a number: sent as it is, for the service to name the field.
    return v === "" ? 0 : Number.isFinite(Number(v)) ? Math.round(Number(v) * unit) : Number.NaN
  }
  const stop = (text("autostop_days") in STOPS ? text("autostop_days") : "off") as Stop
  const weeks = text("autostop_weeks")
  const level = text("max_port_share_level")
  return {
    name: text("name"),
    display_name: text("display_name"),
    description: text("description"),
    icon: text("icon"),
    default_ttl_ms: ms("default_ttl_ms"),
    activity_bump_ms: ms("activity_bump_ms"),
    allow_user_cancel_workspace_jobs: form.get("allow_user_cancel_workspace_jobs") !== null,
    allow_user_autostart: form.get("allow_user_autostart") !== null,
    allow_user_autostop: form.get("allow_user_autostop") !== null,
    require_active_version: form.get("require_active_version") !== null,
    autostart_requirement: { days_of_week: DAYS.filter((d) => form.get(`autostart_${d}`) !== null) },
    autostop_requirement: {
      days_of_week: [...STOPS[stop]],
      weeks: weeks === "" ? 1 : Number.isFinite(Number(weeks)) ? Number(weeks) : Number.NaN
    },
    failure_ttl_ms: ms("failure_ttl_ms", DAY),
    time_til_dormant_ms: ms("time_til_dormant_ms", DAY),
    time_til_dormant_autodelete_ms: ms("time_til_dormant_autodelete_ms", DAY),
    deprecation_message: text("deprecation_message"),
    ...(LEVELS.includes(level as (typeof LEVELS)[number])
      ? { max_port_share_level: level as (typeof LEVELS)[number] }
      : {})
  }
}

export const SettingsPage = () => {
  const t = useTemplate()
  const { organization } = useParams()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const save = useMutation({
    mutationFn: (body: UpdateTemplateMeta) => api.update(t.id, body),
    onSuccess: (updated) => {
      void queryClient.invalidateQueries({ queryKey: templateKeys.list })
      if (updated === undefined) return
      queryClient.setQueryData(templateKeys.template(updated.name, organization), updated)
      if (updated.name !== t.name) navigate(`${templatePath(updated.name, organization)}/settings`, { replace: true })
    }
  })
  const remove = useMutation({
    mutationFn: () => api.remove(t.id),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: templateKeys.template(t.name, organization) })
      void queryClient.invalidateQueries({ queryKey: templateKeys.list })
      navigate("/templates", { replace: true })
    }
  })
  const error = (field: string) => fieldError(save.error, field)
  const describedError = (field: string) => error(field) === undefined ? undefined : `${field}-error`
  return (
    <>
      <form
        noValidate
        aria-labelledby="settings"
        className="settings"
        onSubmit={(e) => {
          e.preventDefault()
          save.mutate(settingsBody(new FormData(e.currentTarget)))
        }}
        key={t.updated_at}
      >
        <h2 id="settings">Settings</h2>
        <fieldset>
          <legend>General</legend>
          <TextField label="Name" name="name" defaultValue={t.name} required error={error("name")} />
          <TextField
            label="Display name"
            name="display_name"
            defaultValue={t.display_name}
            error={error("display_name")}
          />
          <TextField
            label="Description"
            name="description"
            defaultValue={t.description}
            multiline
            error={error("description")}
          />
          <TextField
            label="Icon"
            name="icon"
            defaultValue={t.icon}
            hint="A URL or a path such as /icon/code.svg."
            error={error("icon")}
          />
          <TextField
            label="Deprecation message"
            name="deprecation_message"
            defaultValue={t.deprecation_message}
            hint="Deprecates the template when not empty: it is no longer listed for new workspaces."
            error={error("deprecation_message")}
          />
        </fieldset>
        <fieldset>
          <legend>Schedule</legend>
          <TextField
            label="Default autostop (hours)"
            name="default_ttl_ms"
            type="number"
            step="any"
            defaultValue={hours(t.default_ttl_ms)}
            hint="How long a workspace runs after it starts; 0 for no autostop."
            error={error("default_ttl_ms")}
          />
          <TextField
            label="Activity bump (hours)"
            name="activity_bump_ms"
            type="number"
            step="any"
            defaultValue={hours(t.activity_bump_ms)}
            hint="How much use of a workspace pushes its autostop back."
            error={error("activity_bump_ms")}
          />
          <CheckField
            label="Allow users to autostart workspaces"
            name="allow_user_autostart"
            defaultChecked={t.allow_user_autostart}
            error={error("allow_user_autostart")}
          />
          <CheckField
            label="Allow users to customize autostop"
            name="allow_user_autostop"
            defaultChecked={t.allow_user_autostop}
            error={error("allow_user_autostop")}
          />
          <fieldset className="days" aria-describedby={describedError("autostart_requirement.days_of_week")}>
            <legend>Days workspaces may autostart</legend>
            {DAYS.map((d) => (
              <label key={d}>
                <input
                  type="checkbox"
                  name={`autostart_${d}`}
                  defaultChecked={t.autostart_requirement.days_of_week.includes(d)}
                />{" "}
                {dayName(d)}
              </label>
            ))}
            <FieldMessage id="autostart_requirement.days_of_week" error={error("autostart_requirement.days_of_week")} />
          </fieldset>
          <div className="field">
            <label htmlFor="autostop_days">Required stop</label>
            <select
              id="autostop_days"
              name="autostop_days"
              defaultValue={stopOf(t.autostop_requirement.days_of_week)}
              aria-describedby="autostop_days-hint"
            >
              <option value="off">Off</option>
              <option value="daily">Daily</option>
              <option value="saturday">Saturday</option>
              <option value="sunday">Sunday</option>
            </select>
            <p id="autostop_days-hint" className="hint">
              Workspaces are stopped on this day at their owner's quiet hours, whatever their autostop.
            </p>
            <FieldMessage
              id="autostop_requirement.days_of_week"
              error={error("autostop_requirement.days_of_week")}
            />
          </div>
          <TextField
            label="Weeks between required stops"
            name="autostop_weeks"
            type="number"
            defaultValue={String(Math.max(1, t.autostop_requirement.weeks))}
            hint="1 for every week; more only with a single day."
            error={error("autostop_requirement.weeks")}
          />
        </fieldset>
        <fieldset>
          <legend>Dormancy and clean-up</legend>
          <TextField
            label="Failure clean-up (days)"
            name="failure_ttl_ms"
            type="number"
            step="any"
            defaultValue={hours(t.failure_ttl_ms, DAY)}
            hint="Stops a workspace whose start failed this long ago; 0 for never."
            error={error("failure_ttl_ms")}
          />
          <TextField
            label="Dormancy threshold (days)"
            name="time_til_dormant_ms"
            type="number"
            step="any"
            defaultValue={hours(t.time_til_dormant_ms, DAY)}
            hint="Makes a workspace unused this long dormant; 0 for never."
            error={error("time_til_dormant_ms")}
          />
          <TextField
            label="Dormancy auto-deletion (days)"
            name="time_til_dormant_autodelete_ms"
            type="number"
            step="any"
            defaultValue={hours(t.time_til_dormant_autodelete_ms, DAY)}
            hint="Deletes a workspace dormant this long; 0 for never."
            error={error("time_til_dormant_autodelete_ms")}
          />
        </fieldset>
        <fieldset>
          <legend>Operations</legend>
          <CheckField
            label="Allow users to cancel in-progress workspace jobs"
            name="allow_user_cancel_workspace_jobs"
            defaultChecked={t.allow_user_cancel_workspace_jobs}
            error={error("allow_user_cancel_workspace_jobs")}
          />
          <CheckField
            label="Require the active version for workspace builds"
            name="require_active_version"
            defaultChecked={t.require_active_version}
            error={error("require_active_version")}
          />
          <div className="field">
            <label htmlFor="max_port_share_level">Maximum port sharing level</label>
            <select id="max_port_share_level" name="max_port_share_level" defaultValue={t.max_port_share_level}>
              {LEVELS.map((l) => <option key={l} value={l}>{l.charAt(0).toUpperCase() + l.slice(1)}</option>)}
            </select>
          </div>
        </fieldset>
        <ErrorMessage error={save.error} />
        {save.isSuccess ? <p role="status">Settings saved.</p> : null}
        <button type="submit" disabled={save.isPending}>Save settings</button>
      </form>
      <DeleteTemplate template={t} pending={remove.isPending} onDelete={() => remove.mutate()} />
      <ErrorMessage error={remove.error} />
    </>
  )
}

const DeleteTemplate = (
  { template, pending, onDelete }: { template: Template; pending: boolean; onDelete: () => void }
) => (
  <section aria-labelledby="danger" className="danger-zone">
    <h2 id="danger">Delete this template</h2>
    <p>A template can be deleted once no workspace uses it.</p>
    <ConfirmButton
      label="Delete template"
      title={`Delete ${template.name}?`}
      danger
      disabled={pending}
      onConfirm={onDelete}
    >
      <p>The template {template.name} and its versions will be deleted. This cannot be undone.</p>
    </ConfirmButton>
  </section>
)
