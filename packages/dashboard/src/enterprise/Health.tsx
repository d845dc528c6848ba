import { useQuery } from "@tanstack/react-query"
import { ErrorMessage } from "../ui/Form.tsx"
import { Time } from "../ui/Time.tsx"
import { healthQuery } from "./queries.ts"
import "./admin.css"

type Section = {
  severity: "ok" | "warning" | "error"
  healthy: boolean
  dismissed: boolean
  error?: string
  warnings: ReadonlyArray<{ code: string; message: string }>
}

const SECTIONS = [
  ["access_url", "Access URL"],
  ["database", "Database"],
  ["websocket", "WebSocket"],
  ["derp", "Relays (DERP)"],
  ["workspace_proxy", "Workspace proxies"],
  ["provisioner_daemons", "Provisioner daemons"]
] as const

/** The deployment's health report (`GET /debug/health`): its overall severity and each check's. */
export const HealthPage = () => {
  const health = useQuery(healthQuery)
  if (health.data === undefined) {
    return (
      <>
        <h1>Health</h1>
        {health.isError ? <ErrorMessage error={health.error} /> : <p role="status">Checking…</p>}
      </>
    )
  }
  const h = health.data
  return (
    <>
      <h1>Health</h1>
      <p>
        <span role="status" aria-label="Deployment health" className={`severity-${h.severity}`}>
          {h.healthy ? (h.severity === "ok" ? "Healthy" : "Healthy, with warnings") : "Unhealthy"}
        </span>{" "}
        · checked <Time value={h.time} /> · version {h.coder_version}
      </p>
      <table>
        <caption className="visually-hidden">Health checks</caption>
        <thead>
          <tr>
            <th scope="col">Check</th>
            <th scope="col">Severity</th>
            <th scope="col">Warnings</th>
          </tr>
        </thead>
        <tbody>
          {SECTIONS.map(([key, label]) => {
            const s = h[key] as Section
            return (
              <tr key={key}>
                <th scope="row">{label}</th>
                <td className={`severity-${s.severity}`}>{s.severity}{s.dismissed ? " (dismissed)" : ""}</td>
                <td>
                  {s.error === undefined && s.warnings.length === 0 ? "—" : (
                    <ul className="warnings">
                      {s.error === undefined ? null : <li>{s.error}</li>}
                      {s.warnings.map((w) => <li key={w.code + w.message}>{w.code}: {w.message}</li>)}
                    </ul>
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </>
  )
}
