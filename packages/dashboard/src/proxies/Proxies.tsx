/**
 * Workspace proxies (`/deployment/workspace-proxies`, the described system's address): every region
 * (`GET /workspaceproxies`: the primary, then the proxies) with its health (`status.status`, the
 * checker's last look), and for a proxy: a new token (`PATCH` with `regenerate_token`, shown once)
 * and deleting it (confirmed). A new proxy (`POST`: name, display name, icon) answers its token,
 * shown once, which the proxy registers with ([workspace-proxies.md]).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { fieldError } from "../templates/api.ts"
import { TextField } from "../templates/Fields.tsx"
import { ConfirmButton } from "../ui/Confirm.tsx"
import { ErrorMessage } from "../ui/Form.tsx"
import { SecretOnce } from "../ui/SecretOnce.tsx"
import { Time } from "../ui/Time.tsx"
import { proxiesApi as api, type WorkspaceProxy } from "./api.ts"
import { proxiesQuery, proxyKeys } from "./queries.ts"

/** A proxy's health in words: the primary is the deployment itself. */
const health = (p: WorkspaceProxy, primary: boolean) => {
  if (primary) return "Healthy (this deployment)"
  const status = p.status?.status
  return status === "ok"
    ? "Healthy"
    : status === "unregistered"
    ? "Not registered yet"
    : status === "unreachable"
    ? "Unreachable"
    : status === "unhealthy"
    ? "Unhealthy"
    : "Unknown"
}

export const ProxiesPage = () => {
  const queryClient = useQueryClient()
  const proxies = useQuery(proxiesQuery)
  const refresh = () => queryClient.invalidateQueries({ queryKey: proxyKeys.list })
  const [token, setToken] = useState<{ name: string; token: string } | undefined>()
  const create = useMutation({
    mutationFn: api.create,
    onSuccess: (answer, _body) => {
      setToken({ name: answer.proxy.name, token: answer.proxy_token })
      void refresh()
    }
  })
  const regenerate = useMutation({
    mutationFn: api.regenerateToken,
    onSuccess: (answer) => setToken({ name: answer.proxy.name, token: answer.proxy_token })
  })
  const remove = useMutation({ mutationFn: api.remove, onSuccess: refresh })
  const error = (field: string) => fieldError(create.error, field)
  return (
    <>
      <h1>Workspace proxies</h1>
      <p>Proxies serve apps and terminals close to the people who use them, in regions of their own.</p>
      <ErrorMessage error={proxies.error ?? regenerate.error ?? remove.error} />
      {token === undefined ? null : (
        <SecretOnce
          title={`The token of ${token.name}`}
          label="Proxy token"
          secret={token.token}
          onDone={() => setToken(undefined)}
        >
          <p>Give it to the proxy now (its proxy session token): it will not be shown again.</p>
        </SecretOnce>
      )}
      {proxies.isPending ? <p role="status">Loading the proxies…</p> : null}
      {proxies.data === undefined ? null : (
        <table>
          <caption className="visually-hidden">Regions</caption>
          <thead>
            <tr>
              <th scope="col">Region</th>
              <th scope="col">Address</th>
              <th scope="col">Health</th>
              <th scope="col">Checked</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {proxies.data.map((p, i) => {
              const primary = i === 0 && p.name === "primary"
              return (
                <tr key={p.id}>
                  <th scope="row">
                    {p.display_name || p.name}
                    <span className="owner">{p.name}</span>
                  </th>
                  <td>{p.path_app_url === "" ? "—" : p.path_app_url}</td>
                  <td>{health(p, primary)}</td>
                  <td>{p.status === undefined || primary ? "—" : <Time value={p.status.checked_at} />}</td>
                  <td>
                    {primary ? null : (
                      <div className="row-actions">
                        <button
                          type="button"
                          className="secondary"
                          aria-label={`New token for ${p.name}`}
                          disabled={regenerate.isPending}
                          onClick={() => regenerate.mutate(p)}
                        >
                          New token
                        </button>
                        <ConfirmButton
                          label={`Delete ${p.name}`}
                          title={`Delete the proxy ${p.name}?`}
                          danger
                          disabled={remove.isPending}
                          onConfirm={() => remove.mutate(p.id)}
                        >
                          <p>Its token stops working and its region is no longer offered.</p>
                        </ConfirmButton>
                      </div>
                    )}
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
      <form
        noValidate
        aria-labelledby="new-proxy"
        className="settings"
        onSubmit={(e) => {
          e.preventDefault()
          const form = new FormData(e.currentTarget)
          const text = (name: string) => String(form.get(name) ?? "").trim()
          create.mutate(
            { name: text("name"), display_name: text("display_name"), icon: text("icon") },
            { onSuccess: () => (e.target as HTMLFormElement).reset() }
          )
        }}
      >
        <h2 id="new-proxy">New proxy</h2>
        <TextField label="Name" name="name" required hint="Letters, digits and dashes." error={error("name")} />
        <TextField label="Display name" name="display_name" error={error("display_name")} />
        <TextField
          label="Icon"
          name="icon"
          hint="A URL or a path such as /emojis/1f1fa-1f1f8.png."
          error={error("icon")}
        />
        <ErrorMessage error={create.error} />
        <button type="submit" disabled={create.isPending}>Create proxy</button>
      </form>
    </>
  )
}
