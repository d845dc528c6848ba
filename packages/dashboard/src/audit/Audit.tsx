import { SearchedList } from "../ui/Search.tsx"
import { Time } from "../ui/Time.tsx"
import { type AuditLog, describe } from "./api.ts"
import { auditLogsQuery } from "./queries.ts"
import "./styles.css"

const PAGE_SIZE = 25

const show = (value: unknown) =>
  value === null || value === undefined ? "—" : typeof value === "string" ? value : JSON.stringify(value)

/** An entry's changes: each field's old and new value (secrets hidden). */
const Diff = ({ log }: { log: AuditLog }) => {
  const fields = Object.entries(log.diff)
  if (fields.length === 0) return null
  return (
    <details className="diff">
      <summary>Changes ({fields.length})</summary>
      <table>
        <caption className="visually-hidden">Changes of this entry</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Old</th>
            <th scope="col">New</th>
          </tr>
        </thead>
        <tbody>
          {fields.map(([field, change]) => (
            <tr key={field}>
              <th scope="row">{field}</th>
              <td className="old">{change.secret ? "••••••" : show(change.old)}</td>
              <td className="new">{change.secret ? "••••••" : show(change.new)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  )
}

/**
 * The audit log (`GET /audit?q=&limit=&offset=`), newest first, filtered by `q` (the described
 * system's filter: `action:`, `resource_type:`, `username:`, `email:`, `status:`...; in the URL)
 * and paged. Each entry: its time, who, what (the description), the resource, the answer's
 * status, and its changes to expand.
 */
export const AuditPage = () => (
  <SearchedList
    title="Audit log"
    searchLabel="Filter the audit log"
    placeholder="action:delete resource_type:user username:admin"
    pageSize={PAGE_SIZE}
    query={auditLogsQuery}
    items={(d) => d.audit_logs}
    count={(d) => d.count}
    loading="Loading the audit log…"
    empty={(q) => (q === "" ? "No audit entries yet." : `No entries match “${q}”.`)}
  >
    {(items, data) => (
      <table className="audit">
        <caption className="visually-hidden">Audit log, {data.count} entries</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Entry</th>
            <th scope="col">Resource</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {items.map((log) => (
            <tr key={log.id}>
              <td>
                <Time value={log.time} relative={false} />
              </td>
              <th scope="row">
                <span className="what">{describe(log)}</span>
                <span className="owner">
                  {log.user?.email ?? "—"} · {log.action} · {log.ip}
                </span>
                <Diff log={log} />
              </th>
              <td>
                {log.resource_type}
                <span className="owner">{log.resource_target}</span>
              </td>
              <td>
                <span className={log.status_code >= 400 ? "code failed" : "code"}>{log.status_code}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    )}
  </SearchedList>
)
