/**
 * What the users area tells its listeners (core `Events.ts`): notifications subscribes
 * (notifications/Listener.ts); the area does not know who hears of it.
 */
import { Data } from "effect"
import type { UserRecord } from "./User.js"

/** An account was created; `initiator` is the username of who created it. */
export class UserAccountCreated extends Data.TaggedClass("UserAccountCreated")<{
  readonly user: UserRecord
  readonly initiator: string
}> {}

/** An account was deleted; `initiator` is the username of who deleted it. */
export class UserAccountDeleted extends Data.TaggedClass("UserAccountDeleted")<{
  readonly user: UserRecord
  readonly initiator: string
}> {}

/** An account was suspended or activated (its new status is the record's); `initiator` is who did it. */
export class UserStatusChanged extends Data.TaggedClass("UserStatusChanged")<{
  readonly user: UserRecord
  readonly initiator: string
}> {}

/**
 * A user asked for a one-time passcode and the deployment has no mail sender of its own: the
 * passcode goes out as a notification.
 */
export class OneTimePasscodeRequested extends Data.TaggedClass("OneTimePasscodeRequested")<{
  readonly userId: string
  readonly passcode: string
  readonly expiresIn: string
}> {}

export type UserEvent = UserAccountCreated | UserAccountDeleted | UserStatusChanged | OneTimePasscodeRequested
