/**
 * Rate limits, as the described system's (its `httpmw.RateLimit` over go-chi's `httprate`):
 * a sliding-window counter per key and minute, the key being the operation and the caller (the
 * user of a session or API key, the agent of an agent token, else the client's IP address: the
 * socket's peer, or the client a trusted proxy names, RealIp.ts).
 *
 * - The API limit (`rateLimitApi`, default 512 a minute) covers every operation; the sign-in
 *   routes have a stricter one besides (`rateLimitLogin`, 60), and `/files` another (`rateLimitFiles`, 12).
 * - Every limited answer carries `X-Ratelimit-Limit`, `X-Ratelimit-Remaining` and
 *   `X-Ratelimit-Reset` (the end of the current window, Unix seconds); past the limit the answer
 *   is 429 with the Response object and `Retry-After` (the window, in seconds).
 * - An owner sending `X-Coder-Bypass-Ratelimit: true` is not counted; anybody else signed in
 *   who sends it gets 428.
 * - `rateLimitDisableAll`, or a limit <= 0, turns limits off.
 *
 * Counters live in this process's memory: with several replicas behind a load balancer each
 * replica counts on its own (docs/configuration.md, "Rate limits"). Each window keeps at most
 * `maxKeys` keys; past it the oldest key of the window is dropped, so a flood of distinct
 * addresses costs bounded memory.
 */
import { type Actor, PreconditionRequired, type SettingsShape, TooManyRequests } from "@workbay/core"
import { Clock, Effect } from "effect"

/** The header with which an owner asks not to be counted (the described system's name). */
export const BYPASS_HEADER = "x-coder-bypass-ratelimit"

/** Keys one window holds at most (about 150 bytes each). */
export const DEFAULT_MAX_KEYS = 50_000

/** What taking one request from a window answered. */
export interface Taken {
  readonly allowed: boolean
  /** Requests left in the window (after this one when allowed). */
  readonly remaining: number
  /** End of the current window, Unix seconds. */
  readonly reset: number
}

/**
 * httprate's sliding window: counts of the current and the previous fixed window (aligned to the
 * clock), the previous one weighted by how much of it still overlaps the last `windowMillis`.
 */
export class SlidingWindow {
  private start = Number.NEGATIVE_INFINITY
  private current = new Map<string, number>()
  private previous = new Map<string, number>()

  constructor(
    readonly limit: number,
    readonly windowMillis: number,
    readonly maxKeys: number = DEFAULT_MAX_KEYS
  ) {}

  /** Keys held (both windows). */
  get size(): number {
    return this.current.size + this.previous.size
  }

  private advance(now: number): number {
    const start = Math.floor(now / this.windowMillis) * this.windowMillis
    if (start !== this.start) {
      // The window moved: the current one becomes the previous when adjacent; older counts go.
      this.previous = start === this.start + this.windowMillis ? this.current : new Map()
      this.current = new Map()
      this.start = start
    }
    return start
  }

  /** Counts one request of `key` at `now` (epoch millis) unless it is over the limit. */
  take(key: string, now: number): Taken {
    const start = this.advance(now)
    const reset = Math.floor((start + this.windowMillis) / 1000)
    const current = this.current.get(key) ?? 0
    const previous = this.previous.get(key) ?? 0
    const rate = Math.round(previous * (this.windowMillis - (now - start)) / this.windowMillis + current)
    if (rate + 1 > this.limit) return { allowed: false, remaining: Math.max(0, this.limit - rate), reset }
    if (current === 0 && this.current.size >= this.maxKeys) {
      // Bounded: the oldest key of this window goes (Map keeps insertion order).
      const oldest = this.current.keys().next()
      if (oldest.done !== true) this.current.delete(oldest.value)
    }
    this.current.set(key, current + 1)
    return { allowed: true, remaining: this.limit - rate - 1, reset }
  }

  /** What `take` would answer for an uncounted request (an owner's bypass): the full limit. */
  peek(now: number): Taken {
    const start = this.advance(now)
    return { allowed: true, remaining: this.limit - 1, reset: Math.floor((start + this.windowMillis) / 1000) }
  }
}

/** A limiter of some routes: its window and the message of its 429. */
export interface Limiter {
  readonly window: SlidingWindow
  readonly message: string
}

const WINDOW_MILLIS = 60_000

const limiter = (limit: number, maxKeys: number): Limiter | undefined =>
  limit > 0 && Number.isFinite(limit)
    ? {
      window: new SlidingWindow(Math.floor(limit), WINDOW_MILLIS, maxKeys),
      // The described system's wording, with Go's form of one minute.
      message: `You've been rate limited for sending more than ${Math.floor(limit)} requests in 1m0s.`
    }
    : undefined

/** The sign-in routes (the stricter limit): method and path as the API declares them. */
const LOGIN_ROUTES: ReadonlyArray<readonly [string, RegExp]> = [
  ["POST", /^\/api\/v2\/users\/(login|first|validate-password|otp\/request|otp\/change-password)$/],
  ["PUT", /^\/api\/v2\/users\/:[^/]+\/password$/],
  ["GET", /^\/api\/v2\/users\/(oauth2\/github\/(callback|device)|oidc\/callback)$/],
  ["POST", /^\/api\/v2\/oauth2\/(tokens|revoke|register)$/]
]
const FILES_ROUTE = /^\/api\/v2\/files(\/|$)/

export interface RateLimits {
  /** The limiters of an operation, outermost first (the API's, then a stricter one); empty when none. */
  readonly of: (method: string, path: string) => ReadonlyArray<Limiter>
  /** The API limiter, if on (for tests and metrics). */
  readonly api: Limiter | undefined
}

/** The limiters `settings` ask for, each with its own counters. */
export const makeRateLimits = (settings: SettingsShape, maxKeys = DEFAULT_MAX_KEYS): RateLimits => {
  const off = settings.rateLimitDisableAll
  const api = off ? undefined : limiter(settings.rateLimitApi, maxKeys)
  const login = off ? undefined : limiter(settings.rateLimitLogin, maxKeys)
  const files = off ? undefined : limiter(settings.rateLimitFiles, maxKeys)
  return {
    api,
    of: (method, path) => {
      const inner = LOGIN_ROUTES.some(([m, re]) => m === method && re.test(path))
        ? login
        : FILES_ROUTE.test(path)
        ? files
        : undefined
      return [api, inner].filter((l): l is Limiter => l !== undefined)
    }
  }
}

/** Go's strconv.ParseBool, which the described system reads the bypass header with. */
const parseBool = (value: string | undefined): boolean | undefined => {
  switch (value) {
    case "1":
    case "t":
    case "T":
    case "TRUE":
    case "true":
    case "True":
      return true
    case "0":
    case "f":
    case "F":
    case "FALSE":
    case "false":
    case "False":
      return false
    default:
      return undefined
  }
}

/** Who a request counts against. */
export interface Caller {
  readonly actor?: Actor | undefined
  readonly agentId?: string | undefined
  readonly ip: string
}

/**
 * Counts the request of `caller` to operation `operation` against each limiter at `now` (epoch
 * millis), setting the rate-limit headers (the innermost limiter's win, as with nested
 * middlewares): the 429 past a limit, or the 428 when a signed-in caller who is not an owner asks
 * for the bypass; undefined when the request may go on. Synchronous: the dispatcher reads the
 * runtime's `Clock` once per request (`Clock.currentTimeMillis` as an effect costs about 5 us).
 */
export const checkLimits = (
  limiters: ReadonlyArray<Limiter>,
  operation: string,
  caller: Caller,
  bypassHeader: string | undefined,
  setHeader: (name: string, value: string) => void,
  now: number
): TooManyRequests | PreconditionRequired | undefined => {
  let key: string
  let bypass = false
  if (caller.actor !== undefined) {
    key = `${operation} u:${caller.actor.user.id}`
    if (bypassHeader !== undefined && parseBool(bypassHeader) === true) {
      if (!caller.actor.user.rbac_roles.includes("owner")) {
        return new PreconditionRequired({ message: `"X-Coder-Bypass-Ratelimit" provided but user is not owner` }, true)
      }
      bypass = true
    }
  } else if (caller.agentId !== undefined) key = `${operation} a:${caller.agentId}`
  else key = `${operation} ip:${caller.ip}`
  for (const l of limiters) {
    const taken = bypass ? l.window.peek(now) : l.window.take(key, now)
    setHeader("x-ratelimit-limit", String(l.window.limit))
    setHeader("x-ratelimit-remaining", String(taken.remaining))
    setHeader("x-ratelimit-reset", String(taken.reset))
    if (!taken.allowed) {
      setHeader("retry-after", String(Math.ceil(l.window.windowMillis / 1000)))
      return new TooManyRequests({ message: l.message }, true)
    }
  }
  return undefined
}

/** `checkLimits` at the time of Effect's `Clock` (a TestClock in tests), failing with its error. */
export const limitRequest = (
  limiters: ReadonlyArray<Limiter>,
  operation: string,
  caller: Caller,
  bypassHeader: string | undefined,
  setHeader: (name: string, value: string) => void
): Effect.Effect<void, TooManyRequests | PreconditionRequired> =>
  Effect.flatMap(Clock.currentTimeMillis, (now) => {
    const refused = checkLimits(limiters, operation, caller, bypassHeader, setHeader, now)
    return refused === undefined ? Effect.void : Effect.fail(refused)
  })
