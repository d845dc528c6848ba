/**
 * The application routes (the described system's Applications group,
 * `docs/reference/api/applications.md`): the wildcard app host, and the hand-off of an
 * application key to an app host. See docs/external-auth.md, "Applications".
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { AppHostResponse, AuthRedirectQuery } from "@workbay/core"
import { audit, Audited } from "../Audit.js"
import { BadRequest, Forbidden, NotFound } from "../Common.js"
import { Authentication } from "../Security.js"

export class ApplicationsApi extends HttpApiGroup.make("applications")
  .add(HttpApiEndpoint.get("host", "/applications/host").addSuccess(AppHostResponse))
  .add(
    // Mints an application key: a change, audited though a GET.
    HttpApiEndpoint.get("authRedirect", "/applications/auth-redirect")
      .annotate(Audited, audit("api_key", { action: "create" }))
      .setUrlParams(AuthRedirectQuery)
      .addSuccess(HttpApiSchema.Empty(307))
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
