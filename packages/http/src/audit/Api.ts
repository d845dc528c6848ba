/** Audit and connection log routes. */
import { HttpApiGroup } from "@effect/platform"
import { BadRequest, Forbidden } from "../Common.js"
import { Authentication } from "../Security.js"

export class AuditApi extends HttpApiGroup.make("audit")
  .addError(BadRequest)
  .addError(Forbidden)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
