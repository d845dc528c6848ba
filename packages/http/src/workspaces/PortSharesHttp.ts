/** Handlers of the port sharing group. */
import { PortShares } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"

export const PortSharesHttp = implement(WorkbayApi, "portShares", {
  list: ({ path }) => Effect.flatMap(PortShares, (s) => s.list(path.workspace)),
  upsert: ({ path, payload }) => Effect.flatMap(PortShares, (s) => s.upsert(path.workspace, payload)),
  delete: ({ path, payload }) => Effect.flatMap(PortShares, (s) => s.delete(path.workspace, payload))
})
