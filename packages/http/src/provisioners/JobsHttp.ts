/** Handlers of the provisioner jobs group. */
import { ProvisionerHosts, ProvisionerJobViews } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"

export const ProvisionerJobsHttp = implement(WorkbayApi, "provisionerJobs", {
  list: ({ path, urlParams }) => Effect.flatMap(ProvisionerJobViews, (v) => v.list(path.organization, urlParams)),
  get: ({ path }) => Effect.flatMap(ProvisionerJobViews, (v) => v.get(path.organization, path.job)),
  listDaemons: ({ path, urlParams }) =>
    Effect.flatMap(ProvisionerJobViews, (v) => v.listDaemons(path.organization, urlParams)),
  listHosts: ({ path }) => Effect.flatMap(ProvisionerHosts, (h) => h.list(path.organization)),
  patchHost: ({ path, payload }) =>
    Effect.flatMap(ProvisionerHosts, (h) => h.setDraining(path.organization, path.host, payload))
})
