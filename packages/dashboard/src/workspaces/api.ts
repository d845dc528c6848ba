/**
 * The workspaces area's calls: lists, one workspace (kept live by its watch), creating one from a
 * template (its parameters and the quota), builds (history, parameters, timings, cancel), settings
 * (name, automatic updates, dormancy), schedule, sharing, port shares and favorites.
 */
import { client, type Schemas, unwrap, watch } from "../api/client.ts"

export type Workspace = Schemas["Workspace"]
export type WorkspaceAgent = Schemas["WorkspaceAgent"]
export type WorkspacesPage = Schemas["WorkspacesResponse"]
export type WorkspaceBuild = Schemas["WorkspaceBuild"]
export type Template = Schemas["Template"]
export type Parameter = Schemas["TemplateVersionParameter"]
export type Preset = Schemas["Preset"]
export type NameValue = Schemas["VariableValue"]
export type Transition = "start" | "stop" | "delete"
export type PortShare = Schemas["WorkspaceAgentPortShare"]
export type ListeningPort = Schemas["WorkspaceAgentListeningPort"]
export type ShareLevel = "authenticated" | "organization" | "public"

/** The latest build's agents, in the order of its resources. */
export const agentsOf = (w: Workspace): ReadonlyArray<WorkspaceAgent> =>
  w.latest_build.resources.flatMap((r) => r.agents ?? [])

const ws = (workspace: string) => ({ params: { path: { workspace } } })

export const workspacesApi = {
  /** The wildcard app host subdomain apps are served under (`""`: none). */
  appHost: () => unwrap(client.GET("/api/v2/applications/host")),
  workspace: (user: string, workspacename: string) =>
    unwrap(client.GET("/api/v2/users/{user}/workspace/{workspacename}", { params: { path: { user, workspacename } } })),
  build: (
    workspace: string,
    transition: Transition,
    extra: { template_version_id?: string; rich_parameter_values?: Array<NameValue> } = {}
  ) =>
    unwrap(
      client.POST("/api/v2/workspaces/{workspace}/builds", {
        params: { path: { workspace } },
        body: { transition, reason: "dashboard", ...extra }
      })
    ),
  workspaces: (q: string, limit: number, offset: number) =>
    unwrap(
      client.GET("/api/v2/workspaces", { params: { query: { q, limit: String(limit), offset: String(offset) } } })
    ),
  builds: (workspace: string) =>
    unwrap(
      client.GET("/api/v2/workspaces/{workspace}/builds", { params: { path: { workspace }, query: { limit: "25" } } })
    ),
  cancel: (workspacebuild: string) =>
    unwrap(client.PATCH("/api/v2/workspacebuilds/{workspacebuild}/cancel", { params: { path: { workspacebuild } } })),
  /** The values build `workspacebuild` was made with. */
  buildParameters: (workspacebuild: string) =>
    unwrap(client.GET("/api/v2/workspacebuilds/{workspacebuild}/parameters", { params: { path: { workspacebuild } } })),
  timings: (workspacebuild: string) =>
    unwrap(client.GET("/api/v2/workspacebuilds/{workspacebuild}/timings", { params: { path: { workspacebuild } } })),
  favorite: (workspace: string, on: boolean) =>
    unwrap(
      on
        ? client.PUT("/api/v2/workspaces/{workspace}/favorite", ws(workspace))
        : client.DELETE("/api/v2/workspaces/{workspace}/favorite", ws(workspace))
    ),
  autostart: (workspace: string, schedule: string) =>
    unwrap(client.PUT("/api/v2/workspaces/{workspace}/autostart", { ...ws(workspace), body: { schedule } })),
  rename: (workspace: string, name: string) =>
    unwrap(client.PATCH("/api/v2/workspaces/{workspace}", { ...ws(workspace), body: { name } })),
  /** "always": updated to the template's active version at each start. */
  autoUpdates: (workspace: string, automatic_updates: "always" | "never") =>
    unwrap(client.PUT("/api/v2/workspaces/{workspace}/autoupdates", { ...ws(workspace), body: { automatic_updates } })),
  dormant: (workspace: string, dormant: boolean) =>
    unwrap(client.PUT("/api/v2/workspaces/{workspace}/dormant", { ...ws(workspace), body: { dormant } })),
  ttl: (workspace: string, ttl_ms: number | null) =>
    unwrap(client.PUT("/api/v2/workspaces/{workspace}/ttl", { ...ws(workspace), body: { ttl_ms } })),
  acl: (workspace: string) => unwrap(client.GET("/api/v2/workspaces/{workspace}/acl", ws(workspace))),
  /** Sets each user's and group's role (`""` removes one). */
  updateAcl: (
    workspace: string,
    body: { user_roles?: Record<string, string>; group_roles?: Record<string, string> }
  ) => unwrap(client.PATCH("/api/v2/workspaces/{workspace}/acl", { ...ws(workspace), body })),
  /** A template by its id (the workspace's: its port sharing limit). */
  template: (template: string) =>
    unwrap(client.GET("/api/v2/templates/{template}", { params: { path: { template } } })),
  /** The TCP ports the agent's machine listens on (asked of the agent itself). */
  listeningPorts: (workspaceagent: string) =>
    unwrap(
      client.GET("/api/v2/workspaceagents/{workspaceagent}/listening-ports", { params: { path: { workspaceagent } } })
    ),
  portShares: (workspace: string) => unwrap(client.GET("/api/v2/workspaces/{workspace}/port-share", ws(workspace))),
  sharePort: (
    workspace: string,
    body: { agent_name: string; port: number; protocol: "http" | "https"; share_level: ShareLevel }
  ) => unwrap(client.POST("/api/v2/workspaces/{workspace}/port-share", { ...ws(workspace), body })),
  unsharePort: (workspace: string, body: { agent_name: string; port: number }) =>
    unwrap(client.DELETE("/api/v2/workspaces/{workspace}/port-share", { ...ws(workspace), body })),
  parameters: (templateversion: string) =>
    unwrap(
      client.GET("/api/v2/templateversions/{templateversion}/rich-parameters", {
        params: { path: { templateversion } }
      })
    ),
  quota: (organization: string, user: string) =>
    unwrap(
      client.GET("/api/v2/organizations/{organization}/members/{user}/workspace-quota", {
        params: { path: { organization, user } }
      })
    ),
  create: (
    body: {
      name: string
      template_id: string
      rich_parameter_values: Array<NameValue>
      template_version_preset_id?: string
    }
  ) => unwrap(client.POST("/api/v2/users/{user}/workspaces", { params: { path: { user: "me" } }, body }))
}

/** Watches one workspace: `onChange` gets it at once and on each change. Returns the stop. */
export const watchWorkspace = (id: string, onChange: (workspace: Workspace) => void) =>
  watch<Workspace>(`/workspaces/${encodeURIComponent(id)}/watch-ws`, onChange)

/**
 * Resolves once build `build` is the watched workspace's latest and no longer under way (the
 * workspace then). The watch sends the workspace at once, then on each change.
 */
export const settled = (id: string, build: string) =>
  new Promise<Workspace>((resolve) => {
    const stop = watchWorkspace(id, (w) => {
      const done = !["pending", "starting", "stopping", "deleting", "canceling"].includes(w.latest_build.status)
      if (w.latest_build.id === build && done) {
        stop()
        resolve(w)
      }
    })
  })
