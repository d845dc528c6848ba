import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useParams } from "react-router"
import { ErrorMessage } from "../ui/Form.tsx"
import { Time } from "../ui/Time.tsx"
import { organizationsApi as api } from "./api.ts"
import {
  daemonsQuery,
  hostsQuery,
  jobsQuery,
  organizationKeys,
  organizationQuery,
  provisionerPermissionsQuery
} from "./queries.ts"

const tags = (t: Record<string, string>) => Object.entries(t).map(([k, v]) => `${k}=${v}`).join(" ")

const figure = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 })
const sized = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 })
const BYTE_UNITS: ReadonlyArray<readonly [string, number]> = [
  ["TiB", 1024 ** 4],
  ["GiB", 1024 ** 3],
  ["MiB", 1024 ** 2],
  ["KiB", 1024]
]

/** "512 MiB", "1.5 GiB": in the largest binary unit the amount reaches. */
const bytes = (n: number) => {
  const unit = BYTE_UNITS.find(([, size]) => n >= size)
  return unit === undefined ? `${sized.format(n)} B` : `${sized.format(n / unit[1])} ${unit[0]}`
}

/**
 * An organization's provisioner daemons (`GET /organizations/{org}/provisionerdaemons`), the hosts
 * its external daemons run workspaces on with their latest capacity (`GET
 * /organizations/{org}/provisionerhosts`), each with "Drain" or "Undrain" (`PATCH
 * /organizations/{org}/provisionerhosts/{host}`) for who may manage the organization's daemons
 * (`POST /authcheck`), and its latest jobs (`GET /organizations/{org}/provisionerjobs?limit=50`).
 */
export const ProvisionersPage = () => {
  const { org = "" } = useParams()
  const organization = useQuery(organizationQuery(org))
  const daemons = useQuery(daemonsQuery(org))
  const hosts = useQuery(hostsQuery(org))
  const jobs = useQuery(jobsQuery(org))
  const may = useQuery(provisionerPermissionsQuery(organization.data?.id ?? ""))
  const queryClient = useQueryClient()
  const drain = useMutation({
    mutationFn: (h: { name: string; draining: boolean }) => api.setHostDraining(org, h.name, h.draining),
    // The answer is the host as it is now: shown at once, then the list is read again.
    onSuccess: (host) =>
      queryClient.setQueryData(hostsQuery(org).queryKey, (list) => list?.map((h) => h.name === host.name ? host : h)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: organizationKeys.hosts(org) })
  })
  const drains = may.data?.update === true
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
      <h2>Provisioner hosts</h2>
      <ErrorMessage error={hosts.error ?? may.error ?? drain.error} />
      {hosts.data === undefined ? <p role="status">Loading hosts…</p> : hosts.data.length === 0
        ? (
          <p className="empty">
            No provisioner hosts: a host appears here when a <code>workbay provisioner start</code>{" "}
            daemon connects and reports its capacity.
          </p>
        )
        : (
          <>
            <p className="hint">
              CPUs and memory: what the host's running workspace containers were promised (the sum of their limits), of
              the host's total. A drained host takes no new workspace; its workspaces stay.
            </p>
            <table className="hosts">
              <caption className="visually-hidden">Provisioner hosts</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                  <th scope="col">Tags</th>
                  <th scope="col">Version</th>
                  <th scope="col">CPUs</th>
                  <th scope="col">Memory</th>
                  <th scope="col">Containers</th>
                  <th scope="col">Free disk</th>
                  <th scope="col">Daemons</th>
                  <th scope="col">Last seen</th>
                  {drains ? <th scope="col">Actions</th> : null}
                </tr>
              </thead>
              <tbody>
                {hosts.data.map((h) => (
                  <tr key={h.name}>
                    <th scope="row">{h.name}</th>
                    <td>{h.draining ? `${h.status}, draining` : h.status}</td>
                    <td className="tags">{tags(h.tags)}</td>
                    <td>{h.version}</td>
                    <td className="figure">{`${figure.format(h.cpus_promised)} of ${figure.format(h.cpus)}`}</td>
                    <td className="figure">{`${bytes(h.memory_promised_bytes)} of ${bytes(h.memory_bytes)}`}</td>
                    <td>{figure.format(h.containers)}</td>
                    <td className="figure">{h.disk_free_bytes === null ? "unknown" : bytes(h.disk_free_bytes)}</td>
                    <td>{h.daemons.length === 0 ? "—" : h.daemons.join(", ")}</td>
                    <td>
                      <Time value={h.last_seen_at} />
                    </td>
                    {drains
                      ? (
                        <td className="row-actions">
                          <button
                            type="button"
                            aria-label={`${h.draining ? "Undrain" : "Drain"} ${h.name}`}
                            disabled={drain.isPending}
                            onClick={() => drain.mutate({ name: h.name, draining: !h.draining })}
                          >
                            {h.draining ? "Undrain" : "Drain"}
                          </button>
                        </td>
                      )
                      : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </>
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
