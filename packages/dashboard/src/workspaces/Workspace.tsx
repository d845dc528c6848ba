import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useEffect } from "react"
import { Link, Navigate, useParams } from "react-router"
import { ErrorMessage } from "../ui/Form.tsx"
import { agentsOf, watchWorkspace, type Workspace, workspacesApi as api } from "./api.ts"

const capitalized = (s: string) => (s === "" ? s : s.charAt(0).toUpperCase() + s.slice(1)).replaceAll("_", " ")

/** The owner of a `/@owner/...` path segment, or undefined when the segment has no `@`. */
export const ownerOf = (segment: string | undefined) =>
  segment !== undefined && segment.startsWith("@") && segment.length > 1 ? segment.slice(1) : undefined

/** The dashboard's address of a workspace (the described system's `/@owner/workspace`). */
export const workspacePath = (owner: string, name: string) =>
  `/@${encodeURIComponent(owner)}/${encodeURIComponent(name)}`

/** Its agent's terminal (`/@owner/workspace.agent/terminal`). */
export const terminalPath = (owner: string, workspace: string, agent: string) =>
  `/@${encodeURIComponent(owner)}/${encodeURIComponent(workspace)}.${encodeURIComponent(agent)}/terminal`

/** The workspace `owner/name` (`GET /users/{owner}/workspace/{name}`), kept live by its watch. */
export const useWorkspace = (owner: string, name: string) => {
  const queryKey = ["workspace", owner, name]
  const query = useQuery({ queryKey, queryFn: () => api.workspace(owner, name) })
  const queryClient = useQueryClient()
  const id = query.data?.id
  useEffect(() => {
    if (id === undefined) return
    return watchWorkspace(id, (changed) => queryClient.setQueryData<Workspace>(queryKey, changed))
  }, [id, owner, name])
  return query
}

/**
 * One workspace (`/@owner/workspace`): its owner, template and status (live), Start and Stop,
 * and the latest build's agents with a terminal link for each connected one.
 */
export const WorkspacePage = () => {
  const params = useParams()
  const owner = ownerOf(params.owner)
  if (owner === undefined || params.workspace === undefined) return <Navigate to="/workspaces" replace />
  return <WorkspaceView owner={owner} name={params.workspace} />
}

const WorkspaceView = ({ owner, name }: { owner: string; name: string }) => {
  const workspace = useWorkspace(owner, name)
  const build = useMutation({
    mutationFn: ({ id, transition }: { id: string; transition: "start" | "stop" }) => api.build(id, transition)
  })
  if (workspace.isPending) return <p role="status">Loading the workspace…</p>
  if (workspace.isError) {
    return (
      <>
        <h1>{name}</h1>
        <ErrorMessage error={workspace.error} />
        <p>
          <Link to="/workspaces">All workspaces</Link>
        </p>
      </>
    )
  }
  const w = workspace.data
  const status = w.latest_build.status
  const busy = build.isPending || ["pending", "starting", "stopping", "deleting", "canceling"].includes(status)
  const agents = agentsOf(w)
  return (
    <>
      <p>
        <Link to="/workspaces">All workspaces</Link>
      </p>
      <h1>{w.name}</h1>
      <dl className="facts">
        <dt>Owner</dt>
        <dd>{w.owner_name}</dd>
        <dt>Template</dt>
        <dd>
          {w.template_display_name !== undefined && w.template_display_name !== ""
            ? w.template_display_name
            : w.template_name}
        </dd>
        <dt>Status</dt>
        <dd>
          <span role="status" aria-label="Workspace status" className={`status status-${status}`}>
            {capitalized(status)}
          </span>
        </dd>
      </dl>
      <div className="actions">
        <button
          type="button"
          disabled={busy || status === "running"}
          onClick={() => build.mutate({ id: w.id, transition: "start" })}
        >
          Start
        </button>
        <button
          type="button"
          disabled={busy || status === "stopped"}
          onClick={() => build.mutate({ id: w.id, transition: "stop" })}
        >
          Stop
        </button>
      </div>
      <ErrorMessage error={build.error} />
      <h2>Agents</h2>
      {agents.length === 0
        ? <p className="empty">No agents in the latest build.</p>
        : (
          <table>
            <thead>
              <tr>
                <th scope="col">Agent</th>
                <th scope="col">Status</th>
                <th scope="col">Lifecycle</th>
                <th scope="col">Version</th>
                <th scope="col">Terminal</th>
              </tr>
            </thead>
            <tbody>
              {agents.map((a) => (
                <tr key={a.id}>
                  <th scope="row">{a.name}</th>
                  <td>{capitalized(a.status)}</td>
                  <td>{capitalized(a.lifecycle_state)}</td>
                  <td>{a.version === "" ? "—" : a.version}</td>
                  <td>
                    {a.status === "connected"
                      ? (
                        <Link to={terminalPath(w.owner_name, w.name, a.name)} aria-label={`Open terminal of ${a.name}`}>
                          Open terminal
                        </Link>
                      )
                      : "—"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
    </>
  )
}
