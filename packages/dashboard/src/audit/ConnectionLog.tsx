import { keepPreviousData, useQuery } from "@tanstack/react-query"
import { Link } from "react-router"
import { ErrorMessage } from "../ui/Form.tsx"
import { Pager } from "../ui/Pager.tsx"
import { SearchBox, useSearchPage } from "../ui/Search.tsx"
import { Time } from "../ui/Time.tsx"
import { auditApi as api, type ConnectionLog, connectionTypeName } from "./api.ts"
import "./styles.css"

const PAGE_SIZE = 25

/** How a connection ended: a session's disconnect (reason, exit code) or a web request's status. */
const Outcome = ({ log }: { log: ConnectionLog }) => {
  if (log.web_info !== undefined) {
    const code = log.web_info.status_code
    return <span className={code >= 400 ? "code failed" : "code"}>{code}</span>
  }
  const ssh = log.ssh_info
  if (ssh === undefined || ssh.disconnect_time === undefined) return <span className="ongoing">Ongoing</span>
  return (
    <>
      <span>
        Ended <Time value={ssh.disconnect_time} relative={false} />
      </span>
      {ssh.exit_code !== undefined
        ? <span className={ssh.exit_code === 0 ? "owner" : "owner failed"}>exit code {ssh.exit_code}</span>
        : null}
      {ssh.disconnect_reason !== undefined && ssh.disconnect_reason !== ""
        ? <span className="owner">{ssh.disconnect_reason}</span>
        : null}
    </>
  )
}

/**
 * The connection log (`GET /connectionlog?q=&limit=&offset=`), newest first: every session into a
 * workspace (SSH, terminals, editors) with its start and end, and every web request to an app or a
 * forwarded port with its status. Filtered by `q` (the described system's keys: `type:`,
 * `workspace_owner:`, `status:ongoing`...; in the URL) and paged.
 */
export const ConnectionLogPage = () => {
  const { q, page, go } = useSearchPage()
  const list = useQuery({
    queryKey: ["connectionlog", q, page],
    queryFn: () => api.connections(q, PAGE_SIZE, page * PAGE_SIZE),
    placeholderData: keepPreviousData
  })
  return (
    <>
      <h1>Connection log</h1>
      <SearchBox
        label="Filter the connection log"
        q={q}
        placeholder="type:ssh workspace_owner:admin status:ongoing"
        button="Filter"
        onSearch={(q) => go({ q, page: 0 })}
      />
      <ErrorMessage error={list.error} />
      {list.isPending ? <p role="status">Loading the connection log…</p> : null}
      {list.data !== undefined && list.data.connection_logs.length === 0
        ? <p className="empty">{q === "" ? "No connections yet." : `No connections match “${q}”.`}</p>
        : null}
      {list.data !== undefined && list.data.connection_logs.length > 0
        ? (
          <table className="audit">
            <caption className="visually-hidden">Connection log, {list.data.count} entries</caption>
            <thead>
              <tr>
                <th scope="col">Connected</th>
                <th scope="col">Connection</th>
                <th scope="col">Workspace</th>
                <th scope="col">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {list.data.connection_logs.map((log) => (
                <tr key={log.id}>
                  <td>
                    <Time value={log.connect_time} relative={false} />
                  </td>
                  <th scope="row">
                    <span className="what">
                      {connectionTypeName(log.type)}
                      {log.web_info !== undefined ? ` ${log.web_info.slug_or_port}` : ""}
                    </span>
                    <span className="owner">
                      {log.web_info?.user?.username ?? log.workspace_owner_username} · {log.ip}
                    </span>
                  </th>
                  <td>
                    <Link to={`/@${log.workspace_owner_username}/${log.workspace_name}`}>
                      {log.workspace_owner_username}/{log.workspace_name}
                    </Link>
                    <span className="owner">{log.agent_name}</span>
                  </td>
                  <td className="outcome">
                    <Outcome log={log} />
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
