import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { Link, useNavigate } from "react-router"
import { templatesQuery } from "../templates/queries.ts"
import { ErrorMessage } from "../ui/Form.tsx"
import { Time } from "../ui/Time.tsx"
import { stateText, statusText, type Task, tasksApi } from "./api.ts"
import { useRefreshOnWorkspace } from "./live.ts"
import { taskKeys, tasksQuery } from "./queries.ts"
import "./styles.css"

const TaskRow = ({ task }: { task: Task }) => {
  useRefreshOnWorkspace(task.workspace_id, taskKeys.list)
  return (
    <tr>
      <th scope="row">
        <Link to={`/tasks/${encodeURIComponent(task.owner_name)}/${task.id}`}>{task.display_name || task.name}</Link>
        <span className="owner">{task.initial_prompt}</span>
      </th>
      <td>{task.template_display_name || task.template_name}</td>
      <td>{statusText(task.status)}</td>
      <td>{stateText(task)}</td>
      <td>
        <Time value={task.created_at} />
      </td>
    </tr>
  )
}

/**
 * Tasks (`GET /tasks`): each row kept current by its workspace's watch; a new task from a prompt
 * and a template (`POST /tasks/me` with the template's active version), then its page.
 */
export const TasksPage = () => {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const tasks = useQuery(tasksQuery)
  const templates = useQuery(templatesQuery)
  const create = useMutation({
    mutationFn: tasksApi.create,
    onSuccess: (task) => {
      void queryClient.invalidateQueries({ queryKey: taskKeys.list })
      navigate(`/tasks/${encodeURIComponent(task.owner_name)}/${task.id}`)
    }
  })
  const usable = (templates.data ?? []).filter((t) => !t.deprecated)
  return (
    <>
      <h1>Tasks</h1>
      <form
        className="new-task"
        onSubmit={(e) => {
          e.preventDefault()
          const data = new FormData(e.currentTarget)
          create.mutate({
            input: String(data.get("prompt")),
            template_version_id: String(data.get("template"))
          })
        }}
      >
        <div className="field">
          <label htmlFor="prompt">Prompt</label>
          <textarea id="prompt" name="prompt" required rows={3} placeholder="What should the task do?" />
        </div>
        <div className="row">
          <div className="field">
            <label htmlFor="template">Template</label>
            <select id="template" name="template" required>
              {usable.map((t) => <option key={t.id} value={t.active_version_id}>{t.display_name || t.name}</option>)}
            </select>
          </div>
          <button type="submit" disabled={create.isPending || usable.length === 0}>Create task</button>
        </div>
        {templates.isSuccess && usable.length === 0
          ? <p className="empty">No template to run tasks with yet.</p>
          : null}
        <ErrorMessage error={create.error ?? templates.error} />
      </form>
      <ErrorMessage error={tasks.error} />
      {tasks.isPending ? <p role="status">Loading…</p> : tasks.data?.tasks.length === 0
        ? <p className="empty">No tasks yet.</p>
        : (
          <table aria-label="Tasks">
            <thead>
              <tr>
                <th scope="col">Task</th>
                <th scope="col">Template</th>
                <th scope="col">Status</th>
                <th scope="col">State</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {tasks.data?.tasks.map((t) => <TaskRow key={t.id} task={t} />)}
            </tbody>
          </table>
        )}
    </>
  )
}
