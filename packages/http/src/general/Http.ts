/** Handlers of the general and deployment groups. */
import { Deployment, ResponseBody } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"

export const GeneralHttp = implement(WorkbayApi, "general", {
  root: () => Effect.succeed(new ResponseBody({ message: "👋" }, true)),
  buildInfo: () => Effect.flatMap(Deployment, (d) => d.buildInfo),
  updateCheck: () => Effect.flatMap(Deployment, (d) => d.updateCheck)
})

export const DeploymentHttp = implement(WorkbayApi, "deployment", {
  cspReport: ({ payload }) => Effect.logWarning("CSP violation reported", payload["csp-report"]),
  config: () => Effect.flatMap(Deployment, (d) => d.config),
  ssh: () => Effect.flatMap(Deployment, (d) => d.ssh),
  stats: () => Effect.flatMap(Deployment, (d) => d.stats),
  experiments: () => Effect.flatMap(Deployment, (d) => d.experiments),
  availableExperiments: () => Effect.flatMap(Deployment, (d) => d.availableExperiments)
})
