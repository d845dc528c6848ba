import { keepPreviousData, useQuery } from "@tanstack/react-query"
import { ErrorMessage } from "../ui/Form.tsx"
import { Pager } from "../ui/Pager.tsx"
import { SearchBox, useSearchPage } from "../ui/Search.tsx"
import { Time } from "../ui/Time.tsx"
import { auditApi as api, type AuditLog, describe } from "./api.ts"
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
export const AuditPage = () => {
  const { q, page, go } = useSearchPage()
  const list = useQuery({
    queryKey: ["audit", q, page],
    queryFn: () => api.logs(q, PAGE_SIZE, page * PAGE_SIZE),
    placeholderData: keepPreviousData
  })
  return (
    <>
      <h1>Audit log</h1>
      <SearchBox
        label="Filter the audit log"
        q={q}
        placeholder="action:delete resource_type:user username:admin"
        button="Filter"
        onSearch={(q) => go({ q, page: 0 })}
      />
      <ErrorMessage error={list.error} />
      {list.isPending ? <p role="status">Loading the audit log…</p> : null}
      {list.data !== undefined && list.data.audit_logs.length === 0
        ? <p className="empty">{q === "" ? "No audit entries yet." : `No entries match “${q}”.`}</p>
        : null}
      {list.data !== undefined && list.data.audit_logs.length > 0
        ? (
          <table className="audit">
            <caption className="visually-hidden">Audit log, {list.data.count} entries</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Entry</th>
                <th scope="col">Resource</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {list.data.audit_logs.map((log) => (
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
        )
        : null}
      <Pager page={page} size={PAGE_SIZE} count={list.data?.count ?? 0} onPage={(p) => go({ page: p })} />
    </>
  )
}
