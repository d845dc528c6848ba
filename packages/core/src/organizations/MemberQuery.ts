/**
 * The query of a member listing (`GET /organizations/{organization}/paginated-members`,
 * `GET /groups/{group}/members`): the user search terms of `q`, a keyset cursor and a page.
 */
import { Effect, Option } from "effect"
import { BadRequest } from "../Errors.js"
import type { SearchPageQuery } from "../Requests.js"
import { parseQuery } from "../SearchQuery.js"
import type { UserRepo } from "../users/Repositories.js"
import type { UserStatus } from "../users/User.js"
import { pageLimit } from "../users/Users.js"
import type { MemberFilter } from "./Repositories.js"

/** The filter `input` asks for: 400 on `q` for a bad status, on `after_id` for an unknown user. */
export const memberFilter = (users: typeof UserRepo.Service, input: typeof SearchPageQuery.Type) =>
  Effect.gen(function*() {
    const query = yield* parseQuery(input.q, ["username", "email", "status", "login_type"])
    const status = query.terms.get("status")
    if (status !== undefined && status !== "active" && status !== "suspended") {
      return yield* BadRequest.field(
        "q",
        `Status "${status}" is not one of active, suspended.`,
        "Invalid search query."
      )
    }
    const afterId = input.after_id?.toLowerCase()
    if (afterId !== undefined && Option.isNone(yield* users.findById(afterId))) {
      return yield* BadRequest.field("after_id", `User ${input.after_id} does not exist.`, "Invalid pagination cursor.")
    }
    const filter: MemberFilter = {
      search: query.text.length > 0 ? query.text.join(" ") : undefined,
      username: query.terms.get("username"),
      email: query.terms.get("email"),
      status: status as UserStatus | undefined,
      loginType: query.terms.get("login_type"),
      afterId,
      limit: pageLimit(input.limit),
      offset: input.offset ?? 0
    }
    return filter
  })
