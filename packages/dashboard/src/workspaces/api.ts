/** The workspaces area's calls: lists, one workspace (kept live by its watch), builds. */
import { client, type Schemas, unwrap, watch } from "../api/client.ts"

export type Workspace = Schemas["Workspace"]
export type WorkspaceAgent = Schemas["WorkspaceAgent"]
export type WorkspacesPage = Schemas["WorkspacesResponse"]

/** The latest build's agents, in the order of its resources. */
export const agentsOf = (w: Workspace): ReadonlyArray<WorkspaceAgent> =>
  w.latest_build.resources.flatMap((r) => r.agents ?? [])

export const workspacesApi = {
  workspace: (user: string, workspacename: string) =>
    unwrap(client.GET("/api/v2/users/{user}/workspace/{workspacename}", { params: { path: { user, workspacename } } })),
  build: (workspace: string, transition: "start" | "stop") =>
    unwrap(
      client.POST("/api/v2/workspaces/{workspace}/builds", { params: { path: { workspace } }, body: { transition } })
    ),
  workspaces: (q: string, limit: number, offset: number) =>
    unwrap(client.GET("/api/v2/workspaces", { params: { query: { q, limit: String(limit), offset: String(offset) } } }))
}

/** Watches one workspace: `onChange` gets it at once and on each change. Returns the stop. */
export const watchWorkspace = (id: string, onChange: (workspace: Workspace) => void) =>
  watch<Workspace>(`/workspaces/${encodeURIComponent(id)}/watch-ws`, onChange)
