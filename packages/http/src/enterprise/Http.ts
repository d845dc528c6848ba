/** Handlers of the enterprise group. */
import { Appearance, Licenses, Replicas } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"

export const EnterpriseHttp = implement(WorkbayApi, "enterprise", {
  appearance: () => Effect.flatMap(Appearance, (a) => a.get),
  updateAppearance: ({ payload }) => Effect.flatMap(Appearance, (a) => a.update(payload)),
  entitlements: () => Effect.flatMap(Licenses, (l) => l.entitlements),
  licenses: () => Effect.flatMap(Licenses, (l) => l.list),
  replicas: () => Effect.flatMap(Replicas, (r) => r.list),
  addLicense: ({ payload }) => Effect.flatMap(Licenses, (l) => l.add(payload.license)),
  refreshEntitlements: () => Effect.flatMap(Licenses, (l) => l.refresh),
  deleteLicense: ({ path }) => Effect.flatMap(Licenses, (l) => l.remove(path.id))
})
