/** Handlers of the insights group. */
import { Insights } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"

export const InsightsHttp = implement(WorkbayApi, "insights", {
  daus: ({ urlParams }) => Effect.flatMap(Insights, (i) => i.deploymentDaus(urlParams.tz_offset ?? 0)),
  templates: ({ urlParams }) => Effect.flatMap(Insights, (i) => i.templates(urlParams)),
  userActivity: ({ urlParams }) => Effect.flatMap(Insights, (i) => i.userActivity(urlParams)),
  userLatency: ({ urlParams }) => Effect.flatMap(Insights, (i) => i.userLatency(urlParams)),
  userStatusCounts: ({ urlParams }) => Effect.flatMap(Insights, (i) => i.userStatusCounts(urlParams)),
  templateDaus: ({ path, urlParams }) =>
    Effect.flatMap(Insights, (i) => i.templateDaus(path.template, urlParams.tz_offset ?? 0))
})
