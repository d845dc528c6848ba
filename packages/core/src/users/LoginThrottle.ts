/**
 * The per-account throttle of password logins and one-time-passcode password changes
 * (docs/authentication.md, "Failed sign-ins"): a back-off, not a lock. Each attempt is counted
 * before the secret is checked (so a burst of parallel guesses cannot slip past the count) and a
 * correct secret forgets the count. From the `threshold`-th failure in a row the account's
 * attempts are refused for a delay that doubles with each further failure, up to `maxDelay`;
 * attempts refused during a back-off are not checked and not counted, so they cannot lengthen it.
 * The state lives in the database (keyed by the kind and the normalized email, so unknown
 * accounts behave alike), so every replica on one database sees the same count.
 */
import { Context, Duration, type Effect } from "effect"

/** What is counted per account: password logins, or password changes with a one-time passcode. */
export type LoginThrottleKind = "password" | "otp"

/** One account's failures, as stored. */
export interface LoginFailures {
  /** Attempts counted since the last success (or since the count was forgotten). */
  readonly failures: number
  /** When the last attempt was counted. */
  readonly last_attempt_at: Date
  /** Attempts are refused until then; null when not backing off. */
  readonly blocked_until: Date | null
}

/** The throttle's numbers. */
export interface LoginThrottlePolicy {
  /** Failures in a row that start the back-off. */
  readonly threshold: number
  /** A count is forgotten when no attempt was counted for this long (after any back-off ended). */
  readonly window: Duration.Duration
  /** The first back-off; each further failure doubles it. */
  readonly baseDelay: Duration.Duration
  /** The longest back-off. */
  readonly maxDelay: Duration.Duration
}

/** 10 failures in 10 minutes start a 1-minute back-off, doubling with each further failure up to 15 minutes. */
export const defaultLoginThrottlePolicy: LoginThrottlePolicy = {
  threshold: 10,
  window: Duration.minutes(10),
  baseDelay: Duration.minutes(1),
  maxDelay: Duration.minutes(15)
}

/** What the throttle answered an attempt: go on (counted), or refused until `until`. */
export type ThrottleDecision =
  | { readonly _tag: "Allowed"; readonly next: LoginFailures }
  | { readonly _tag: "Refused"; readonly until: Date }

/**
 * The decision on an attempt at `now` given the stored failures: refused while a back-off runs
 * (nothing changes); else allowed and counted as a failure in advance, starting (or lengthening)
 * the back-off once the count reaches the threshold. A success clears the count afterwards.
 */
export const decideAttempt = (
  current: LoginFailures | undefined,
  now: Date,
  policy: LoginThrottlePolicy = defaultLoginThrottlePolicy
): ThrottleDecision => {
  const at = now.getTime()
  if (current?.blocked_until != null && current.blocked_until.getTime() > at) {
    return { _tag: "Refused", until: current.blocked_until }
  }
  // The window runs from the last counted attempt or the end of the back-off, whichever is later,
  // so that a back-off longer than the window does not forget the count it grew from.
  const since = current === undefined
    ? undefined
    : Math.max(current.last_attempt_at.getTime(), current.blocked_until?.getTime() ?? 0)
  const fresh = since === undefined || at - since > Duration.toMillis(policy.window)
  const failures = fresh ? 1 : current!.failures + 1
  const over = failures - policy.threshold
  const delay = over < 0
    ? undefined
    : Math.min(Duration.toMillis(policy.baseDelay) * 2 ** Math.min(over, 30), Duration.toMillis(policy.maxDelay))
  return {
    _tag: "Allowed",
    next: { failures, last_attempt_at: now, blocked_until: delay === undefined ? null : new Date(at + delay) }
  }
}

/**
 * How long the retention purge keeps an idle count: far past any back-off and forget window, so
 * a purge never forgets a count the throttle would still use.
 */
export const LOGIN_FAILURES_KEPT: Duration.Duration = Duration.days(1)

/** The stored key of an account's count: its kind and its email as the user lookup compares it. */
export const loginThrottleKey = (kind: LoginThrottleKind, email: string): string =>
  `${kind}:${email.trim().toLowerCase()}`

/** The stored failure counts (migration 0037). */
export class LoginThrottleRepo extends Context.Tag("@workbay/core/LoginThrottleRepo")<LoginThrottleRepo, {
  /**
   * Reads the failures of `key` and writes what `decide` makes of them, atomically against other
   * attempts on the same key (on every replica); answers the decision.
   */
  readonly attempt: (
    key: string,
    decide: (current: LoginFailures | undefined) => ThrottleDecision
  ) => Effect.Effect<ThrottleDecision>
  /** Forgets the failures of `key` (a correct secret). */
  readonly clear: (key: string) => Effect.Effect<void>
  /**
   * Deletes the counts whose last attempt and back-off both ended before `before` (the retention
   * purge: sprayed emails that never sign in would otherwise stay forever); answers how many.
   */
  readonly purgeIdleBefore: (before: Date) => Effect.Effect<number>
  /** The stored failures of `key` (tests, operators). */
  readonly find: (key: string) => Effect.Effect<LoginFailures | undefined>
}>() {}
