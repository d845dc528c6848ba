/**
 * The latest build's resources (type and name, hidden ones left out) and, for each, its agents:
 * status, lifecycle, health, version, latency (its preferred region's), the last connection, the terminal of a connected one, and
 * its apps as links: path-based through the app proxy (`/@owner/workspace.agent/apps/<slug>/`), a
 * subdomain app on its own host under the wildcard app host (`GET /applications/host`), or the
 * app's own address when it is external; under them each agent's own part (AgentDetails.tsx):
 * metadata, VS Code, listening ports, logs.
 */
import { useQuery } from "@tanstack/react-query"
import { Link } from "react-router"
import { Time } from "../ui/Time.tsx"
import { AgentDetails } from "./AgentDetails.tsx"
import type { Workspace, WorkspaceAgent } from "./api.ts"
import { capitalized, terminalPath } from "./hooks.ts"
import { appHostQuery } from "./queries.ts"

/**
 * Where an app opens: its own address when external; a subdomain app on its host under the
 * wildcard app host (`*` replaced by its `subdomain_name`, the dashboard's scheme, as the
 * described system's); else its path through the app proxy. Undefined: a subdomain app with no
 * wildcard app host to be served on.
 */
const appHref = (
  w: Workspace,
  agent: WorkspaceAgent,
  app: WorkspaceAgent["apps"][number],
  appHost: string | undefined
): string | undefined => {
  if (app.external) return app.url
  if (app.subdomain) {
    if (appHost === undefined || appHost === "" || app.subdomain_name === undefined) return undefined
    return `${window.location.protocol}//${appHost.replace("*", app.subdomain_name)}/`
  }
  return `/@${encodeURIComponent(w.owner_name)}/${encodeURIComponent(w.name)}.${encodeURIComponent(agent.name)}/apps/${
    encodeURIComponent(app.slug)
  }/`
}

/** The latency of the agent's preferred relay region (the described system shows that one), e.g. "3 ms". */
const latencyOf = (agent: WorkspaceAgent): string => {
  const regions = Object.values(agent.latency ?? {})
  const preferred = regions.find((r) => r.preferred) ?? regions[0]
  if (preferred === undefined) return "—"
  return `${preferred.latency_ms < 10 ? preferred.latency_ms.toFixed(1) : Math.round(preferred.latency_ms)} ms`
}

export const WorkspaceResources = ({ workspace: w }: { workspace: Workspace }) => {
  const resources = w.latest_build.resources.filter((r) => !r.hide)
  const hasSubdomainApps = resources.some((r) => (r.agents ?? []).some((a) => a.apps.some((app) => app.subdomain)))
  const appHost = useQuery({ ...appHostQuery, enabled: hasSubdomainApps }).data?.host
  return (
    <section aria-labelledby="resources-heading">
      <h2 id="resources-heading">Resources</h2>
      {resources.length === 0 ? <p className="empty">No resources in the latest build.</p> : (
        <ul className="resources">
          {resources.map((r) => (
            <li key={r.id} className="resource">
              <h3>
                {r.name} <span className="hint">{r.type}</span>
              </h3>
              {(r.metadata ?? []).length > 0
                ? (
                  <dl className="facts">
                    {(r.metadata ?? []).map((m) => (
                      <div key={m.key} className="contents">
                        <dt>{m.key}</dt>
                        <dd>{m.sensitive ? "(sensitive)" : m.value}</dd>
                      </div>
                    ))}
                  </dl>
                )
                : null}
              {(r.agents ?? []).length === 0 ? null : (
                <table>
                  <caption className="visually-hidden">Agents of {r.name}</caption>
                  <thead>
                    <tr>
                      <th scope="col">Agent</th>
                      <th scope="col">Status</th>
                      <th scope="col">Lifecycle</th>
                      <th scope="col">Health</th>
                      <th scope="col">Version</th>
                      <th scope="col">Latency</th>
                      <th scope="col">Last connected</th>
                      <th scope="col">Apps</th>
                      <th scope="col">Terminal</th>
                    </tr>
                  </thead>
                  <tbody>
                    {(r.agents ?? []).map((a) => (
                      <tr key={a.id}>
                        <th scope="row">{a.name}</th>
                        <td>{capitalized(a.status)}</td>
                        <td>{capitalized(a.lifecycle_state)}</td>
                        <td>{a.health.healthy ? "Healthy" : a.health.reason ?? "Unhealthy"}</td>
                        <td>{a.version === "" ? "—" : a.version}</td>
                        <td>{latencyOf(a)}</td>
                        <td>{a.last_connected_at === undefined ? "—" : <Time value={a.last_connected_at} />}</td>
                        <td>
                          {a.apps.filter((app) => !app.hidden && (app.url ?? "") !== "").length === 0 ?
                            "—" :
                            (
                              <ul className="apps">
                                {a.apps.filter((app) => !app.hidden && (app.url ?? "") !== "").map((app) => (
                                  <li key={app.id}>
                                    {((href, name) =>
                                      href === undefined
                                        ? (
                                          <span title="Subdomain apps need a wildcard app host (wildcard_access_url).">
                                            {name} <span className="hint">(no wildcard app host)</span>
                                          </span>
                                        )
                                        : <a href={href} target="_blank" rel="noreferrer">{name}</a>)(
                                        appHref(w, a, app, appHost),
                                        app.display_name !== undefined && app.display_name !== ""
                                          ? app.display_name
                                          : app.slug
                                      )}
                                  </li>
                                ))}
                              </ul>
                            )}
                        </td>
                        <td>
                          {a.status === "connected"
                            ? (
                              <Link
                                to={terminalPath(w.owner_name, w.name, a.name)}
                                aria-label={`Open terminal of ${a.name}`}
                              >
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
              {(r.agents ?? []).map((a) => <AgentDetails key={a.id} workspace={w} agent={a} />)}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
