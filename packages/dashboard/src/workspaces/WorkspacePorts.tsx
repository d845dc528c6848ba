/**
 * The workspace's shared ports (`GET /workspaces/{id}/port-share`): one added (an agent, a port,
 * the protocol and who may reach it: `POST`), one removed (`DELETE` with the agent and port).
 * The template's maximum level is the service's to enforce; its refusal is shown.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useId } from "react"
import { ConfirmButton } from "../ui/Confirm.tsx"
import { ErrorMessage } from "../ui/Form.tsx"
import { type ShareLevel, type Workspace, workspacesApi as api } from "./api.ts"
import { capitalized } from "./hooks.ts"
import { portSharesQuery, workspaceKeys } from "./queries.ts"

export const WorkspacePorts = ({ workspace: w, agents }: { workspace: Workspace; agents: ReadonlyArray<string> }) => {
  const shares = useQuery(portSharesQuery(w.id))
  const queryClient = useQueryClient()
  const id = useId()
  const refresh = () => queryClient.invalidateQueries({ queryKey: workspaceKeys.portShares(w.id) })
  const add = useMutation({
    mutationFn: (body: Parameters<typeof api.sharePort>[1]) => api.sharePort(w.id, body),
    onSuccess: refresh
  })
  const remove = useMutation({
    mutationFn: (body: { agent_name: string; port: number }) => api.unsharePort(w.id, body),
    onSuccess: refresh
  })
  return (
    <section aria-labelledby="ports-heading">
      <h2 id="ports-heading">Shared ports</h2>
      <ErrorMessage error={shares.error} />
      {shares.data === undefined ? null : shares.data.shares.length === 0
        ? <p className="empty">No shared ports.</p>
        : (
          <table>
            <caption className="visually-hidden">Shared ports</caption>
            <thead>
              <tr>
                <th scope="col">Port</th>
                <th scope="col">Agent</th>
                <th scope="col">Protocol</th>
                <th scope="col">Shared with</th>
                <th scope="col">Remove</th>
              </tr>
            </thead>
            <tbody>
              {shares.data.shares.map((s) => (
                <tr key={`${s.agent_name}:${s.port}`}>
                  <th scope="row">{s.port}</th>
                  <td>{s.agent_name}</td>
                  <td>{s.protocol.toUpperCase()}</td>
                  <td>{capitalized(s.share_level)}</td>
                  <td>
                    <ConfirmButton
                      label={`Stop sharing port ${s.port}`}
                      title={`Stop sharing port ${s.port}?`}
                      confirm="Stop sharing"
                      danger
                      onConfirm={() => remove.mutate({ agent_name: s.agent_name, port: s.port })}
                    >
                      <p>Port {s.port} of {s.agent_name} will be reachable by its owner only.</p>
                    </ConfirmButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      {agents.length === 0 ? <p className="hint">The latest build has no agent whose ports could be shared.</p> : (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault()
            const form = e.currentTarget
            const data = new FormData(form)
            add.mutate({
              agent_name: String(data.get("agent")),
              port: Number(data.get("port")),
              protocol: String(data.get("protocol")) as "http" | "https",
              share_level: String(data.get("level")) as ShareLevel
            }, { onSuccess: () => form.reset() })
          }}
        >
          <div className="field">
            <label htmlFor={`${id}-agent`}>Agent</label>
            <select id={`${id}-agent`} name="agent">
              {agents.map((a) => <option key={a} value={a}>{a}</option>)}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-port`}>Port</label>
            <input id={`${id}-port`} name="port" type="number" min="1" max="65535" required />
          </div>
          <div className="field">
            <label htmlFor={`${id}-protocol`}>Protocol</label>
            <select id={`${id}-protocol`} name="protocol" defaultValue="http">
              <option value="http">HTTP</option>
              <option value="https">HTTPS</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-level`}>Shared with</label>
            <select id={`${id}-level`} name="level" defaultValue="authenticated">
              <option value="authenticated">Authenticated users</option>
              <option value="organization">The organization</option>
              <option value="public">Everyone (public)</option>
            </select>
          </div>
          <button type="submit" disabled={add.isPending}>Share port</button>
        </form>
      )}
      <ErrorMessage error={add.error ?? remove.error} />
    </section>
  )
}
