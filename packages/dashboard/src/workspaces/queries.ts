/**
 * The workspaces area's query keys and queries: lists, one workspace (which hooks.ts keeps live
 * by its watch), builds and their parameters and timings, sharing, port shares, the parameters of
 * a version, the quota of the create form, an agent's listening ports and the app host.
 */
import { queryOptions } from "@tanstack/react-query"
import { groupsApi } from "../groups/api.ts"
import { groupKeys } from "../groups/queries.ts"
import { workspacesApi as api } from "./api.ts"

export const workspaceKeys = {
  /** Every page of every search: what a change to a listed workspace invalidates. */
  lists: ["workspaces"] as const,
  list: (q: string, page: number) => ["workspaces", q, page] as const,
  workspace: (owner: string, name: string) => ["workspace", owner, name] as const,
  builds: (workspace: string) => ["builds", workspace] as const,
  /** A build's timings, asked again once it is done. */
  timings: (build: string, done: boolean) => ["timings", build, done] as const,
  buildParameters: (build: string) => ["build-parameters", build] as const,
  /** A template version's parameters as written (the classic form's). */
  richParameters: (version: string) => ["rich-parameters", version] as const,
  acl: (workspace: string) => ["acl", workspace] as const,
  portShares: (workspace: string) => ["port-shares", workspace] as const,
  listeningPorts: (agent: string) => ["listening-ports", agent] as const,
  template: (id: string) => ["workspace-template", id] as const,
  appHost: ["applications-host"] as const
}

/** Page `page` (from 0) of the workspaces `q` finds, `size` a page. */
export const workspacesQuery = (q: string, page: number, size: number) =>
  queryOptions({ queryKey: workspaceKeys.list(q, page), queryFn: () => api.workspaces(q, size, page * size) })

export const workspaceQuery = (owner: string, name: string) =>
  queryOptions({ queryKey: workspaceKeys.workspace(owner, name), queryFn: () => api.workspace(owner, name) })

export const buildsQuery = (workspace: string) =>
  queryOptions({ queryKey: workspaceKeys.builds(workspace), queryFn: () => api.builds(workspace) })

export const timingsQuery = (build: string, done: boolean) =>
  queryOptions({ queryKey: workspaceKeys.timings(build, done), queryFn: () => api.timings(build) })

export const buildParametersQuery = (build: string) =>
  queryOptions({ queryKey: workspaceKeys.buildParameters(build), queryFn: () => api.buildParameters(build) })

export const richParametersQuery = (version: string) =>
  queryOptions({ queryKey: workspaceKeys.richParameters(version), queryFn: () => api.parameters(version) })

export const aclQuery = (workspace: string) =>
  queryOptions({ queryKey: workspaceKeys.acl(workspace), queryFn: () => api.acl(workspace) })

export const portSharesQuery = (workspace: string) =>
  queryOptions({ queryKey: workspaceKeys.portShares(workspace), queryFn: () => api.portShares(workspace) })

/** The wildcard app host (it does not change while the page is open). */
/** How often an agent's listening ports are asked again while its page is open (the described system's dashboard: 5 s). */
export const LISTENING_PORTS_REFRESH_MS = 5_000

export const listeningPortsQuery = (agent: string) =>
  queryOptions({
    queryKey: workspaceKeys.listeningPorts(agent),
    queryFn: () => api.listeningPorts(agent),
    refetchInterval: LISTENING_PORTS_REFRESH_MS
  })

/** The workspace's template, by its id. */
export const templateByIdQuery = (id: string) =>
  queryOptions({ queryKey: workspaceKeys.template(id), queryFn: () => api.template(id) })

export const appHostQuery = queryOptions({ queryKey: workspaceKeys.appHost, queryFn: api.appHost, staleTime: Infinity })

/**
 * The signed-in user's quota in `organization`, or null when quotas do not apply there (under the
 * groups' key: a change of groups invalidates it). Asked each time the create form opens: an
 * allowance saved, or a workspace built, since the last visit counts.
 */
export const quotaQuery = (organization: string) =>
  queryOptions({
    queryKey: groupKeys.quota(organization),
    queryFn: async () => {
      const q = await api.quota(organization, "me")
      // A budget above 0 is an allowance of a group of the organization: quotas apply there.
      return q.budget > 0 || await groupsApi.quotasOn(organization) ? q : null
    },
    retry: false,
    refetchOnMount: "always"
  })
