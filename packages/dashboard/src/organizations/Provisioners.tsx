import { useQuery } from "@tanstack/react-query"
import { useParams } from "react-router"
import { ErrorMessage } from "../ui/Form.tsx"
import { Time } from "../ui/Time.tsx"
import { daemonsQuery, jobsQuery } from "./queries.ts"

const tags = (t: Record<string, string>) => Object.entries(t).map(([k, v]) => `${k}=${v}`).join(" ")

/**
 * An organization's provisioner daemons (`GET /organizations/{org}/provisionerdaemons`) and its
 * latest jobs (`GET /organizations/{org}/provisionerjobs?limit=50`).
 */
export const ProvisionersPage = () => {
  const { org = "" } = useParams()
  const daemons = useQuery(daemonsQuery(org))
  const jobs = useQuery(jobsQuery(org))
  return (
    <>
      <h2>Provisioner daemons</h2>
      <ErrorMessage error={daemons.error} />
      {daemons.data === undefined ? <p role="status">Loading daemons…</p> : daemons.data.length === 0
        ? <p className="empty">No provisioner daemons.</p>
        : (
          <table>
            <caption className="visually-hidden">Provisioner daemons</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Version</th>
                <th scope="col">Tags</th>
                <th scope="col">Last seen</th>
              </tr>
            </thead>
            <tbody>
              {daemons.data.map((d) => (
                <tr key={d.id}>
                  <th scope="row">
                    {d.name}
                    <span className="owner">{d.key_name ?? ""}</span>
                  </th>
                  <td>{d.status ?? "—"}</td>
                  <td>{d.version}</td>
                  <td className="tags">{tags(d.tags)}</td>
                  <td>{d.last_seen_at === undefined ? "—" : <Time value={d.last_seen_at} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      <h2>Provisioner jobs</h2>
      <ErrorMessage error={jobs.error} />
      {jobs.data === undefined ? <p role="status">Loading jobs…</p> : jobs.data.length === 0
        ? <p className="empty">No provisioner jobs yet.</p>
        : (
          <table>
            <caption className="visually-hidden">Provisioner jobs</caption>
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">Worker</th>
              </tr>
            </thead>
            <tbody>
              {jobs.data.map((j) => (
                <tr key={j.id}>
                  <th scope="row">
                    {j.type.replaceAll("_", " ")}
                    <span className="owner">{j.id}</span>
                  </th>
                  <td>{j.status}{j.error === undefined || j.error === "" ? "" : `: ${j.error}`}</td>
                  <td>
                    <Time value={j.created_at} />
                  </td>
                  <td>{j.worker_name ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
    </>
  )
}
