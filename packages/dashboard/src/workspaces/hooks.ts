/**
 * What other pages share with the workspace page, in a small module of its own (the workspace
 * page itself is a lazy chunk): the addresses of a workspace and its terminal, and the workspace
 * query kept live by its watch.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query"
import { useEffect } from "react"
import { watchWorkspace } from "./api.ts"
import { workspaceQuery } from "./queries.ts"

/** The owner of a `/@owner/...` path segment, or undefined when the segment has no `@`. */
export const ownerOf = (segment: string | undefined) =>
  segment !== undefined && segment.startsWith("@") && segment.length > 1 ? segment.slice(1) : undefined

/** The dashboard's address of a workspace (the described system's `/@owner/workspace`). */
export const workspacePath = (owner: string, name: string) =>
  `/@${encodeURIComponent(owner)}/${encodeURIComponent(name)}`

/** Its agent's terminal (`/@owner/workspace.agent/terminal`). */
export const terminalPath = (owner: string, workspace: string, agent: string) =>
  `/@${encodeURIComponent(owner)}/${encodeURIComponent(workspace)}.${encodeURIComponent(agent)}/terminal`

/** The workspace `owner/name` (`GET /users/{owner}/workspace/{name}`), kept live by its watch. */
export const useWorkspace = (owner: string, name: string) => {
  const options = workspaceQuery(owner, name)
  const query = useQuery(options)
  const queryClient = useQueryClient()
  const id = query.data?.id
  useEffect(() => {
    if (id === undefined) return
    return watchWorkspace(id, (changed) => queryClient.setQueryData(options.queryKey, changed))
  }, [id, owner, name])
  return query
}

/** "running" → "Running", "start_timeout" → "Start timeout". */
export const capitalized = (s: string) => (s === "" ? s : s.charAt(0).toUpperCase() + s.slice(1)).replaceAll("_", " ")
