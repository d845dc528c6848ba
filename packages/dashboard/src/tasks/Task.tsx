import { useQuery } from "@tanstack/react-query"
import { Link, useParams } from "react-router"
import { ErrorMessage } from "../ui/Form.tsx"
import { Time } from "../ui/Time.tsx"
import { stateText, statusText, tasksApi } from "./api.ts"
import { useRefreshOnWorkspace } from "./live.ts"
import "./styles.css"

/**
 * A task (`GET /tasks/{user}/{task}`): its status, the agent's last report, its prompt and
 * workspace, and its conversation (`GET .../logs`), both read again on each change of its
 * workspace (the workspace's watch: tasks have none).
 */
export const TaskPage = () => {
  const { owner = "", task: id = "" } = useParams()
  const key = ["task", owner, id] as const
  const task = useQuery({ queryKey: key, queryFn: () => tasksApi.task(owner, id) })
  const logs = useQuery({
    queryKey: [...key, "logs"],
    queryFn: () => tasksApi.logs(owner, id),
    enabled: task.isSuccess
  })
  useRefreshOnWorkspace(task.data?.workspace_id, key)
  if (task.isPending) return <p role="status">Loading…</p>
  if (task.isError) return <ErrorMessage error={task.error} />
  const t = task.data
  return (
    <>
      <p>
        <Link to="/tasks">All tasks</Link>
      </p>
      <h1>{t.display_name || t.name}</h1>
      <dl className="facts">
        <dt>Status</dt>
        <dd>
          <span role="status" aria-label="Task status">{statusText(t.status)}</span>
        </dd>
        <dt>State</dt>
        <dd>
          <span role="status" aria-label="Task state">{stateText(t)}</span>
        </dd>
        <dt>Template</dt>
        <dd>{t.template_display_name || t.template_name}</dd>
        <dt>Workspace</dt>
        <dd>
          {t.workspace_name === ""
            ? "—"
            : (
              <Link to={`/@${encodeURIComponent(t.owner_name)}/${encodeURIComponent(t.workspace_name)}`}>
                {t.workspace_name}
              </Link>
            )}
          {t.workspace_status === undefined ? null : ` (${t.workspace_status})`}
        </dd>
        <dt>Created</dt>
        <dd>
          <Time value={t.created_at} />
        </dd>
      </dl>
      <h2>Prompt</h2>
      <p className="prompt">{t.initial_prompt}</p>
      <h2>Logs</h2>
      <ErrorMessage error={logs.error} />
      {logs.data === undefined ? (logs.isPending ? <p role="status">Loading…</p> : null) : logs.data.logs.length === 0
        ? <p className="empty">No logs yet.</p>
        : (
          <>
            {logs.data.snapshot === true && logs.data.snapshot_at !== undefined
              ? (
                <p className="hint">
                  As of <Time value={logs.data.snapshot_at} /> (the task is paused).
                </p>
              )
              : null}
            <ol className="task-logs" aria-label="Task logs">
              {logs.data.logs.map((l) => (
                <li key={l.id} className={l.type}>
                  <span className="who">{l.type === "input" ? "You" : "Agent"}</span>
                  <Time value={l.time} />
                  <p>{l.content}</p>
                </li>
              ))}
            </ol>
          </>
        )}
    </>
  )
}
