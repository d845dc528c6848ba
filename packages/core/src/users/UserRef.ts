/**
 * `{user}` in a route: `me`, a user's id or their username, the one rule every area resolves it by.
 * Deleted users are not found.
 */
import { Effect, Option } from "effect"
import { CurrentActor } from "../Actor.js"
import { Forbidden, NotFound } from "../Errors.js"
import { PREBUILDS_USER_ID } from "../Identity.js"
import { isUuid } from "../Ids.js"
import type { UserRepo } from "./Repositories.js"
import type { UserRecord } from "./User.js"

/** The user `ref` names (the caller for `me` or their own id), or 404. No authorization: callers check what they do. */
export const resolveUserRef = (
  users: UserRepo["Type"],
  ref: string
): Effect.Effect<UserRecord, NotFound, CurrentActor> =>
  Effect.flatMap(CurrentActor, (actor) => {
    if (ref === "me" || ref.toLowerCase() === actor.user.id) return Effect.succeed(actor.user)
    const lookup = isUuid(ref) ? users.findById(ref.toLowerCase()) : users.findByUsername(ref)
    return Effect.flatMap(lookup, (found) =>
      Option.match(Option.filter(found, (u) => !u.deleted), {
        onNone: () => Effect.fail(NotFound.resource("User")),
        onSome: Effect.succeed
      }))
  })

/** 403 for a system user (the prebuilds user): it cannot be changed, deleted, nor given keys. */
export const refuseSystemUser = (user: Pick<UserRecord, "id">): Effect.Effect<void, Forbidden> =>
  user.id === PREBUILDS_USER_ID
    ? Effect.fail(new Forbidden({ message: "System users cannot be modified.", detail: "It is the prebuilds user." }))
    : Effect.void
