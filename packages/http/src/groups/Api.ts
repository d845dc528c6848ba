/** Group routes: groups, members, workspace quota, AI budgets. */
import { HttpApiGroup } from "@effect/platform"
import { BadRequest, Forbidden, NotFound } from "../Common.js"
import { Authentication } from "../Security.js"

export class GroupsApi extends HttpApiGroup.make("groups")
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
