import { useQuery } from "@tanstack/react-query"
import { useId, useState } from "react"
import { ErrorMessage } from "../ui/Form.tsx"
import { deploymentConfigQuery } from "./queries.ts"
import "./styles.css"

/** A value as read: durations in nanoseconds stay numbers; lists and objects as JSON; secrets hidden. */
const show = (value: unknown, annotations?: Record<string, string>) => {
  if (annotations?.secret === "true") return value === "" || value === undefined ? "—" : "(secret)"
  if (value === undefined || value === null || value === "") return "—"
  if (typeof value === "string") return value
  return JSON.stringify(value)
}

/**
 * The deployment's settings (`GET /deployment/config`), read only: each option (not hidden) with
 * its value, where it came from, its flag and environment variable, filtered by a box.
 */
export const GeneralPage = () => {
  const config = useQuery(deploymentConfigQuery)
  const [filter, setFilter] = useState("")
  const filterId = useId()
  const options = (config.data?.options ?? []).filter((o) =>
    o.hidden !== true && (filter === "" || `${o.name} ${o.flag} ${o.env}`.toLowerCase().includes(filter.toLowerCase()))
  )
  return (
    <>
      <h1>Deployment settings</h1>
      <p className="hint">Set by the server's flags, environment and configuration file; shown read only.</p>
      <div className="search">
        <label htmlFor={filterId}>Filter settings</label>
        <input id={filterId} type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
      </div>
      <ErrorMessage error={config.error} />
      {config.data === undefined ? <p role="status">Loading settings…</p> : (
        <table className="settings">
          <caption className="visually-hidden">Deployment settings, {options.length} shown</caption>
          <thead>
            <tr>
              <th scope="col">Setting</th>
              <th scope="col">Value</th>
              <th scope="col">Source</th>
            </tr>
          </thead>
          <tbody>
            {options.map((o) => (
              <tr key={o.name ?? o.flag}>
                <th scope="row">
                  {o.name}
                  <span className="owner">{o.description}</span>
                  <span className="owner flag">
                    {[o.flag ? `--${o.flag}` : "", o.env ? `$${o.env}` : ""].filter(Boolean).join(" · ")}
                  </span>
                </th>
                <td className="value">{show(o.value, o.annotations)}</td>
                <td>{o.value_source || "default"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  )
}
