/** Handlers of the workspace proxy groups: decode, one service call, encode. */
import { PROXY_TOKEN_HEADER, WorkspaceProxies } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { RequestContext } from "../RequestContext.js"

const PROXY_TOKEN = PROXY_TOKEN_HEADER.toLowerCase()

export const WorkspaceProxiesHttp = implement(WorkbayApi, "workspaceProxies", {
  list: () => Effect.flatMap(WorkspaceProxies, (s) => s.list),
  create: ({ payload }) => Effect.flatMap(WorkspaceProxies, (s) => s.create(payload)),
  get: ({ path }) => Effect.flatMap(WorkspaceProxies, (s) => s.get(path.workspaceproxy)),
  update: ({ path, payload }) => Effect.flatMap(WorkspaceProxies, (s) => s.update(path.workspaceproxy, payload)),
  delete: ({ path }) => Effect.flatMap(WorkspaceProxies, (s) => s.delete(path.workspaceproxy)),
  regions: () => Effect.flatMap(WorkspaceProxies, (s) => s.regions)
})

export const WorkspaceProxyMeHttp = implement(WorkbayApi, "workspaceProxyMe", {
  register: ({ payload }) =>
    Effect.flatMap(
      RequestContext,
      (ctx) => Effect.flatMap(WorkspaceProxies, (s) => s.register(ctx.header(PROXY_TOKEN), payload))
    ),
  deregister: ({ payload }) =>
    Effect.flatMap(
      RequestContext,
      (ctx) => Effect.flatMap(WorkspaceProxies, (s) => s.deregister(ctx.header(PROXY_TOKEN), payload))
    )
})
