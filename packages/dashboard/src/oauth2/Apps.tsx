/**
 * The OAuth2 applications (`/deployment/oauth2-provider/apps`, the described system's address):
 * the list (`GET /oauth2-provider/apps`) with each application's callback URL, and a new
 * application (`/deployment/oauth2-provider/apps/add`: name, callback URL, icon → `POST`), after
 * which its page offers its first client secret.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { Link, useNavigate } from "react-router"
import { fieldError } from "../templates/api.ts"
import { TextField } from "../templates/Fields.tsx"
import { ErrorMessage } from "../ui/Form.tsx"
import { appRequest, oauth2Api as api, type OAuth2App } from "./api.ts"
import { appsQuery, oauth2Keys, providerSettingsQuery } from "./queries.ts"
import "./styles.css"

export const APPS_PATH = "/deployment/oauth2-provider/apps"

export const AppsPage = () => {
  const apps = useQuery(appsQuery)
  return (
    <>
      <div className="heading">
        <h1>OAuth2 applications</h1>
        <Link className="button" to={`${APPS_PATH}/add`}>Create application</Link>
      </div>
      <p>Applications that sign people in with their Workbay account (Workbay is their authorization server).</p>
      <Registration />
      <ErrorMessage error={apps.error} />
      {apps.isPending ? <p role="status">Loading the applications…</p> : null}
      {apps.data !== undefined && apps.data.length === 0 ? <p className="empty">No OAuth2 applications yet.</p> : null}
      {apps.data !== undefined && apps.data.length > 0
        ? (
          <table>
            <caption className="visually-hidden">OAuth2 applications</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Callback URL</th>
              </tr>
            </thead>
            <tbody>
              {apps.data.map((a) => (
                <tr key={a.id}>
                  <th scope="row">
                    <Link to={`${APPS_PATH}/${a.id}`}>{a.name}</Link>
                  </th>
                  <td>{a.callback_url}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
        : null}
    </>
  )
}

/**
 * Whether clients may register themselves (`POST /oauth2/register`, RFC 7591): `GET/PUT
 * /oauth2-provider/settings`, changed at once by its checkbox.
 */
const Registration = () => {
  const queryClient = useQueryClient()
  const settings = useQuery(providerSettingsQuery)
  // The choice shows at once (set in the change's own handler), until the service's answer replaces it.
  const [choosing, setChoosing] = useState<boolean | undefined>()
  const save = useMutation({
    mutationFn: api.updateSettings,
    onSuccess: (s) => queryClient.setQueryData(oauth2Keys.settings, s),
    onSettled: () => setChoosing(undefined)
  })
  const enabled = choosing ?? settings.data?.dynamic_client_registration_enabled
  return (
    <div className="field check">
      <label>
        <input
          type="checkbox"
          checked={enabled === true}
          disabled={enabled === undefined}
          onChange={(e) => {
            const on = e.currentTarget.checked
            setChoosing(on)
            save.mutate(on)
          }}
        />{" "}
        Let clients register themselves (dynamic client registration)
      </label>
      <ErrorMessage error={settings.error ?? save.error} />
      <p role="status">{save.isSuccess ? "Registration setting saved." : ""}</p>
    </div>
  )
}

/** The fields of an application (new or changed), the service's message under each it refuses. */
export const AppFields = ({ app, error }: { app?: OAuth2App; error: Error | null }) => (
  <>
    <TextField label="Name" name="name" defaultValue={app?.name ?? ""} required error={fieldError(error, "name")} />
    <TextField
      label="Callback URL"
      name="callback_url"
      type="url"
      defaultValue={app?.callback_url ?? ""}
      required
      hint="Where people are sent back with the authorization code, e.g. https://app.example.com/oauth/callback."
      error={fieldError(error, "callback_url")}
    />
    <TextField
      label="Icon"
      name="icon"
      defaultValue={app?.icon ?? ""}
      hint="A URL or a path such as /icon/code.svg (optional)."
      error={fieldError(error, "icon")}
    />
  </>
)

export const CreateAppPage = () => {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const create = useMutation({
    mutationFn: api.create,
    onSuccess: (app) => {
      void queryClient.invalidateQueries({ queryKey: oauth2Keys.apps })
      navigate(`${APPS_PATH}/${app.id}`, { state: { created: true } })
    }
  })
  return (
    <>
      <p>
        <Link to={APPS_PATH}>All applications</Link>
      </p>
      <h1>Create an OAuth2 application</h1>
      <form
        noValidate
        aria-label="New OAuth2 application"
        className="settings"
        onSubmit={(e) => {
          e.preventDefault()
          create.mutate(appRequest(new FormData(e.currentTarget)))
        }}
      >
        <AppFields error={create.error} />
        <ErrorMessage error={create.error} />
        <button type="submit" disabled={create.isPending}>Create application</button>
      </form>
    </>
  )
}
