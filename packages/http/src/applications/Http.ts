/** Handlers of the application routes. */
import { Applications } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { redirectTo } from "../RequestContext.js"

export const ApplicationsHttp = implement(WorkbayApi, "applications", {
  host: () => Effect.flatMap(Applications, (a) => a.host),
  authRedirect: ({ urlParams }) =>
    Effect.flatMap(Applications, (a) => Effect.flatMap(a.authRedirect(urlParams.redirect_uri), redirectTo))
})
