/**
 * The ports an agent's machine listens on (`GET /workspaceagents/{id}/listening-ports`, asked of
 * the agent itself, again every 5 s while the page is open), each with the way to it:
 * - "Open": a link through the app proxy in the subdomain port form (`{port}--{agent}--{workspace}--{owner}`
 *   under the wildcard app host, `{port}s--...` for HTTPS); without a wildcard app host the
 *   `workbay port-forward` command that reaches it instead;
 * - "Share": the port shared with the workspace's organization (`POST /workspaces/{id}/port-share`,
 *   the narrowest level beyond its owner), or the level it is shared at already (the workspace's
 *   "Shared ports" section widens it or removes it); none when the template's maximum port share
 *   level is `owner` (the described system's default), which the button says.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { ErrorMessage } from "../ui/Form.tsx"
import { type Workspace, type WorkspaceAgent, workspacesApi as api } from "./api.ts"
import { capitalized } from "./hooks.ts"
import { appHostQuery, listeningPortsQuery, portSharesQuery, templateByIdQuery, workspaceKeys } from "./queries.ts"

/** The address of `port` of `agent` under the wildcard app host, or undefined without one. */
export const portHref = (
  w: Workspace,
  agent: WorkspaceAgent,
  port: number,
  protocol: "http" | "https",
  appHost: string | undefined
): string | undefined => {
  if (appHost === undefined || appHost === "" || !appHost.includes("*")) return undefined
  const label = `${port}${protocol === "https" ? "s" : ""}--${agent.name}--${w.name}--${w.owner_name}`.toLowerCase()
  return `${window.location.protocol}//${appHost.replace("*", label)}/`
}

export const AgentPorts = ({ workspace: w, agent }: { workspace: Workspace; agent: WorkspaceAgent }) => {
  const ports = useQuery(listeningPortsQuery(agent.id))
  const shares = useQuery(portSharesQuery(w.id))
  const appHost = useQuery(appHostQuery).data?.host
  const maxLevel = useQuery(templateByIdQuery(w.template_id)).data?.max_port_share_level
  const sharing = maxLevel !== undefined && maxLevel !== "owner"
  const queryClient = useQueryClient()
  const share = useMutation({
    mutationFn: (port: number) =>
      api.sharePort(w.id, { agent_name: agent.name, port, protocol: "http", share_level: "organization" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workspaceKeys.portShares(w.id) })
  })
  const listed = (ports.data?.ports ?? []).filter((p) => p.network === "tcp" || p.network === "")
  const sharedAt = new Map(
    (shares.data?.shares ?? []).filter((s) => s.agent_name === agent.name).map((s) => [s.port, s])
  )
  return (
    <div role="group" aria-label={`Listening ports of ${agent.name}`}>
      <h4>Listening ports</h4>
      <ErrorMessage error={ports.error} />
      {ports.data === undefined ?
        (ports.isPending ? <p role="status">Asking the agent…</p> : null) :
        listed.length === 0
        ? <p className="empty">Nothing listens on a TCP port of {agent.name}'s machine.</p>
        : (
          <table>
            <caption className="visually-hidden">Listening ports of {agent.name}</caption>
            <thead>
              <tr>
                <th scope="col">Port</th>
                <th scope="col">Process</th>
                <th scope="col">Open</th>
                <th scope="col">Share</th>
              </tr>
            </thead>
            <tbody>
              {listed.map((p) => {
                const href = portHref(w, agent, p.port, "http", appHost)
                const shared = sharedAt.get(p.port)
                return (
                  <tr key={p.port}>
                    <th scope="row">{p.port}</th>
                    <td>{p.process_name === "" ? "—" : p.process_name}</td>
                    <td>
                      {href !== undefined
                        ? (
                          <a href={href} target="_blank" rel="noreferrer" aria-label={`Open port ${p.port}`}>
                            Open
                          </a>
                        )
                        : (
                          <code title="The deployment has no wildcard app host (wildcard_access_url): reach the port through the workbay command.">
                            workbay port-forward {w.name} --tcp {p.port}:{p.port}
                          </code>
                        )}
                    </td>
                    <td>
                      {shared !== undefined
                        ? <span>Shared: {capitalized(shared.share_level)}</span>
                        : (
                          <button
                            type="button"
                            className="secondary"
                            disabled={share.isPending || !sharing}
                            title={sharing
                              ? undefined
                              : "The template allows no port sharing (its maximum level is owner)."}
                            onClick={() => share.mutate(p.port)}
                            aria-label={`Share port ${p.port} with the organization`}
                          >
                            Share
                          </button>
                        )}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        )}
      <ErrorMessage error={share.error} />
    </div>
  )
}
