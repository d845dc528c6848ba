/** The tasks area's query keys and queries. */
import { queryOptions } from "@tanstack/react-query"
import { tasksApi as api } from "./api.ts"

export const taskKeys = {
  list: ["tasks"] as const,
  /** A task; a prefix of its logs' key, so refreshing the task refreshes its conversation too. */
  task: (owner: string, id: string) => ["task", owner, id] as const,
  logs: (owner: string, id: string) => [...taskKeys.task(owner, id), "logs"] as const
}

/** Read again on each visit: the rows' watches follow changes only while the list is shown. */
export const tasksQuery = queryOptions({ queryKey: taskKeys.list, queryFn: api.tasks, staleTime: 0 })

export const taskQuery = (owner: string, id: string) =>
  queryOptions({ queryKey: taskKeys.task(owner, id), queryFn: () => api.task(owner, id) })

export const taskLogsQuery = (owner: string, id: string) =>
  queryOptions({ queryKey: taskKeys.logs(owner, id), queryFn: () => api.logs(owner, id) })
