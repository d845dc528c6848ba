/** Handlers of the instance identity routes. */
import { InstanceIdentity } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"

export const AgentIdentityHttp = implement(WorkbayApi, "agentIdentity", {
  aws: ({ payload }) => Effect.flatMap(InstanceIdentity, (s) => s.aws(payload)),
  azure: ({ payload }) => Effect.flatMap(InstanceIdentity, (s) => s.azure(payload)),
  google: ({ payload }) => Effect.flatMap(InstanceIdentity, (s) => s.google(payload))
})
