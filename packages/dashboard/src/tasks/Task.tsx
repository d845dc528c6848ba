import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useId, useState } from "react"
import { Link, useNavigate, useParams } from "react-router"
import { ConfirmButton } from "../ui/Confirm.tsx"
import { ErrorMessage } from "../ui/Form.tsx"
import { Time } from "../ui/Time.tsx"
import { stateText, statusText, type Task, tasksApi } from "./api.ts"
import { useRefreshOnWorkspace } from "./live.ts"
import { taskKeys, taskLogsQuery, taskQuery } from "./queries.ts"
import "./styles.css"

/**
 * A task (`GET /tasks/{user}/{task}`): its status, the agent's last report, its prompt and
 * workspace, and its conversation (`GET .../logs`), both read again on each change of its
 * workspace (the workspace's watch: tasks have none). Its actions: a message sent to the running
 * agent (`POST .../send`), pause and resume (a stop or start build of its workspace), a new prompt
 * while it is paused (`PATCH .../input`, used by the next resume), and delete (after a confirmation).
 */
const useTaskLogs = (owner: string, id: string, enabled: boolean) => useQuery({ ...taskLogsQuery(owner, id), enabled })

export const TaskPage = () => {
  const { owner = "", task: id = "" } = useParams()
  const key = taskKeys.task(owner, id)
  const queryClient = useQueryClient()
  const task = useQuery(taskQuery(owner, id))
  const logs = useTaskLogs(owner, id, task.isSuccess)
  useRefreshOnWorkspace(task.data?.workspace_id, key)
  if (task.isPending) return <p role="status">Loading…</p>
  if (task.isError) return <ErrorMessage error={task.error} />
  const t = task.data
  return <TaskView task={t} refresh={() => queryClient.invalidateQueries({ queryKey: key })} logs={logs} />
}

const TaskView = ({ task: t, refresh, logs }: {
  task: Task
  refresh: () => Promise<void>
  logs: ReturnType<typeof useTaskLogs>
}) => {
  const navigate = useNavigate()
  const messageId = useId()
  const promptId = useId()
  const [message, setMessage] = useState("")
  const [prompt, setPrompt] = useState<string | undefined>()
  const user = t.owner_name
  const send = useMutation({
    mutationFn: (input: string) => tasksApi.send(user, t.id, input),
    onSuccess: () => {
      setMessage("")
      return refresh()
    }
  })
  const pause = useMutation({ mutationFn: () => tasksApi.pause(user, t.id), onSuccess: refresh })
  const resume = useMutation({ mutationFn: () => tasksApi.resume(user, t.id), onSuccess: refresh })
  const updateInput = useMutation({
    mutationFn: (input: string) => tasksApi.updateInput(user, t.id, input),
    onSuccess: () => {
      setPrompt(undefined)
      return refresh()
    }
  })
  const remove = useMutation({
    mutationFn: () => tasksApi.remove(user, t.id),
    onSuccess: () => navigate("/tasks")
  })
  const paused = t.status === "paused"
  const resumable = paused || t.status === "error" || t.status === "unknown"
  const pausable = t.status === "active" || t.status === "initializing" || t.status === "pending"
  const onSend = (e: FormEvent) => {
    e.preventDefault()
    if (message.trim() !== "") send.mutate(message)
  }
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
      <div className="actions" role="group" aria-label="Task actions">
        <button type="button" disabled={!pausable || pause.isPending} onClick={() => pause.mutate()}>Pause</button>
        <button type="button" disabled={!resumable || resume.isPending} onClick={() => resume.mutate()}>
          Resume
        </button>
        <ConfirmButton
          label="Delete"
          title={`Delete the task ${t.display_name || t.name}?`}
          confirm="Delete task"
          danger
          disabled={remove.isPending}
          onConfirm={() => remove.mutate()}
        >
          <p>The task and its workspace {t.workspace_name} will be deleted. This cannot be undone.</p>
        </ConfirmButton>
      </div>
      <ErrorMessage error={pause.error ?? resume.error ?? remove.error} />
      <h2>Prompt</h2>
      {prompt === undefined
        ? (
          <>
            <p className="prompt">{t.initial_prompt}</p>
            {paused
              ? <button type="button" onClick={() => setPrompt(t.initial_prompt)}>Change the prompt</button>
              : null}
          </>
        )
        : (
          <form
            onSubmit={(e) => {
              e.preventDefault()
              updateInput.mutate(prompt)
            }}
          >
            <div className="field">
              <label htmlFor={promptId}>New prompt</label>
              <textarea
                id={promptId}
                rows={4}
                value={prompt}
                onChange={(e) => setPrompt(e.currentTarget.value)}
              />
              <p className="hint">The next resume starts the agent with it.</p>
            </div>
            <ErrorMessage error={updateInput.error} />
            <div className="actions">
              <button type="submit" disabled={updateInput.isPending}>Save the prompt</button>
              <button type="button" className="secondary" onClick={() => setPrompt(undefined)}>Cancel</button>
            </div>
          </form>
        )}
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
      {t.status === "active"
        ? (
          <form onSubmit={onSend}>
            <div className="field">
              <label htmlFor={messageId}>Message to the agent</label>
              <textarea
                id={messageId}
                rows={3}
                value={message}
                onChange={(e) => {
                  setMessage(e.currentTarget.value)
                  send.reset()
                }}
              />
            </div>
            <ErrorMessage error={send.error} />
            <button type="submit" disabled={send.isPending || message.trim() === ""}>Send</button>
          </form>
        )
        : null}
    </>
  )
}
