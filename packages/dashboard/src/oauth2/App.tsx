/**
 * An OAuth2 application (`/deployment/oauth2-provider/apps/:id`): its client id and the
 * authorization server's endpoints to configure it with, its fields (`PUT`), its client secrets
 * (`GET .../secrets`, truncated, with when each was last used; a new one `POST`, shown here once;
 * deleting one ends the tokens issued with it), and deleting the application (confirmed).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { Link, useLocation, useNavigate, useParams } from "react-router"
import { ConfirmButton } from "../ui/Confirm.tsx"
import { ErrorMessage } from "../ui/Form.tsx"
import { SecretOnce } from "../ui/SecretOnce.tsx"
import { Time } from "../ui/Time.tsx"
import { appRequest, oauth2Api as api, type OAuth2App } from "./api.ts"
import { AppFields, APPS_PATH } from "./Apps.tsx"
import { appQuery, oauth2Keys, secretsQuery } from "./queries.ts"
import "./styles.css"

export const AppPage = () => {
  const { app: id = "" } = useParams()
  const app = useQuery(appQuery(id))
  if (app.isPending) return <p role="status">Loading the application…</p>
  if (app.data === undefined) {
    return (
      <>
        <h1>OAuth2 application</h1>
        <ErrorMessage error={app.error} />
        <p>
          <Link to={APPS_PATH}>All applications</Link>
        </p>
      </>
    )
  }
  return <AppView app={app.data} />
}

const AppView = ({ app }: { app: OAuth2App }) => {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const created = (useLocation().state as { created?: boolean } | null)?.created === true
  const save = useMutation({
    mutationFn: (body: ReturnType<typeof appRequest>) => api.update(app.id, body),
    onSuccess: (updated) => {
      queryClient.setQueryData(oauth2Keys.app(app.id), updated)
      void queryClient.invalidateQueries({ queryKey: oauth2Keys.apps })
    }
  })
  const remove = useMutation({
    mutationFn: () => api.remove(app.id),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: oauth2Keys.app(app.id) })
      void queryClient.invalidateQueries({ queryKey: oauth2Keys.apps })
      navigate(APPS_PATH, { replace: true })
    }
  })
  const endpoints = [
    ["Client ID", app.id],
    ["Authorization endpoint", app.endpoints.authorization],
    ["Token endpoint", app.endpoints.token],
    ["Revocation endpoint", app.endpoints.token_revoke]
  ] as const
  return (
    <>
      <p>
        <Link to={APPS_PATH}>All applications</Link>
      </p>
      <h1>{app.name}</h1>
      {created ? <p role="status">Application created. Generate a client secret to finish its set-up.</p> : null}
      <section aria-labelledby="app-endpoints">
        <h2 id="app-endpoints">Set-up</h2>
        <dl className="facts">
          {endpoints.map(([name, value]) => (
            <div key={name} className="contents">
              <dt>{name}</dt>
              <dd>
                <code>{value}</code>
              </dd>
            </div>
          ))}
        </dl>
      </section>
      <Secrets app={app} />
      <form
        noValidate
        aria-labelledby="app-settings"
        className="settings"
        key={`${app.name} ${app.callback_url} ${app.icon}`}
        onSubmit={(e) => {
          e.preventDefault()
          save.mutate(appRequest(new FormData(e.currentTarget)))
        }}
      >
        <h2 id="app-settings">Settings</h2>
        <AppFields app={app} error={save.error} />
        <ErrorMessage error={save.error} />
        {save.isSuccess ? <p role="status">Application saved.</p> : null}
        <button type="submit" disabled={save.isPending}>Save application</button>
      </form>
      <section aria-labelledby="app-danger" className="danger-zone">
        <h2 id="app-danger">Delete this application</h2>
        <ConfirmButton
          label="Delete application"
          title={`Delete ${app.name}?`}
          danger
          disabled={remove.isPending}
          onConfirm={() => remove.mutate()}
        >
          <p>
            The application{" "}
            {app.name}, its secrets and every token issued to it will be deleted: people signed in through it are signed
            out of it. This cannot be undone.
          </p>
        </ConfirmButton>
        <ErrorMessage error={remove.error} />
      </section>
    </>
  )
}

const Secrets = ({ app }: { app: OAuth2App }) => {
  const queryClient = useQueryClient()
  const secrets = useQuery(secretsQuery(app.id))
  const refresh = () => queryClient.invalidateQueries({ queryKey: oauth2Keys.secrets(app.id) })
  const create = useMutation({ mutationFn: () => api.createSecret(app.id), onSuccess: refresh })
  const remove = useMutation({ mutationFn: (secret: string) => api.removeSecret(app.id, secret), onSuccess: refresh })
  return (
    <section aria-labelledby="app-secrets">
      <h2 id="app-secrets">Client secrets</h2>
      <button
        type="button"
        disabled={create.isPending}
        onClick={() => create.mutate()}
      >
        Generate a client secret
      </button>
      <ErrorMessage error={create.error ?? secrets.error ?? remove.error} />
      {create.data === undefined ? null : (
        <SecretOnce
          title="The new client secret"
          label="Client secret"
          level={3}
          secret={create.data.client_secret_full}
          onDone={() => create.reset()}
        />
      )}
      {secrets.data === undefined ? null : secrets.data.length === 0
        ? <p className="empty">No client secrets: the application cannot sign anyone in yet.</p>
        : (
          <table>
            <caption className="visually-hidden">Client secrets of {app.name}</caption>
            <thead>
              <tr>
                <th scope="col">Secret</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {secrets.data.map((s) => (
                <tr key={s.id}>
                  <th scope="row">
                    <code>{s.client_secret_truncated}</code>
                  </th>
                  <td>{s.last_used_at === null ? "Never" : <Time value={s.last_used_at} />}</td>
                  <td>
                    <ConfirmButton
                      label={`Delete secret ${s.client_secret_truncated}`}
                      title="Delete this client secret?"
                      confirm="Delete secret"
                      danger
                      disabled={remove.isPending}
                      onConfirm={() => remove.mutate(s.id)}
                    >
                      <p>The tokens issued with it end now, and the application can no longer use it.</p>
                    </ConfirmButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
    </section>
  )
}
