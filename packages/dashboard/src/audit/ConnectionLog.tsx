import { Link } from "react-router"
import { SearchedList } from "../ui/Search.tsx"
import { Time } from "../ui/Time.tsx"
import { type ConnectionLog, connectionTypeName } from "./api.ts"
import { connectionLogsQuery } from "./queries.ts"
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
export const ConnectionLogPage = () => (
  <SearchedList
    title="Connection log"
    searchLabel="Filter the connection log"
    placeholder="type:ssh workspace_owner:admin status:ongoing"
    pageSize={PAGE_SIZE}
    query={connectionLogsQuery}
    items={(d) => d.connection_logs}
    count={(d) => d.count}
    loading="Loading the connection log…"
    empty={(q) => (q === "" ? "No connections yet." : `No connections match “${q}”.`)}
  >
    {(items, data) => (
      <table className="audit">
        <caption className="visually-hidden">Connection log, {data.count} entries</caption>
        <thead>
          <tr>
            <th scope="col">Connected</th>
            <th scope="col">Connection</th>
            <th scope="col">Workspace</th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {items.map((log) => (
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
    )}
  </SearchedList>
)
