import { type QueryKey, useQueryClient } from "@tanstack/react-query"
import { useEffect } from "react"
import { watchWorkspace } from "../workspaces/api.ts"

/**
 * Tasks have no watch of their own; their workspace's does (`/workspaces/{id}/watch-ws`): each
 * change after the first frame (the state at connection, already known) reads `key` again.
 */
export const useRefreshOnWorkspace = (workspace: { uuid: string; valid: boolean } | undefined, key: QueryKey) => {
  const workspaceId = workspace?.valid === true ? workspace.uuid : undefined
  const queryClient = useQueryClient()
  const keyText = JSON.stringify(key)
  useEffect(() => {
    if (workspaceId === undefined) return
    let first = true
    return watchWorkspace(workspaceId, () => {
      if (first) first = false
      else void queryClient.invalidateQueries({ queryKey: JSON.parse(keyText) as QueryKey })
    })
  }, [workspaceId, keyText, queryClient])
}
