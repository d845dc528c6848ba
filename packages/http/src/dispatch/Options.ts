/**
 * The options of the HTTP layer, and the same with their defaults filled in as the parts of the
 * request path read them.
 */
import { DEFAULT_MAX_FILE_BYTES, type SettingsShape } from "@workbay/core"
import { defaultInputLimits, type InputLimits } from "../Limits.js"
import { DEFAULT_SESSION_COOKIE, DEFAULT_SESSION_HEADER } from "../Security.js"
import type { SocketRelayOptions } from "../SocketRelay.js"

/** Options of the HTTP layer. */
export interface HttpOptions {
  /** Header carrying the session or API token. Default `Service-Session-Token`. */
  readonly sessionHeader?: string | undefined
  /** Cookie carrying the session token. Default `service_session_token`. */
  readonly sessionCookie?: string | undefined
  /** Mark cookies `Secure` (serve over HTTPS). Default: when the access URL is https. */
  readonly secureCookies?: boolean | undefined
  /** Largest accepted request body. Default 4 MiB. */
  readonly maxBodyBytes?: number | undefined
  /** Largest accepted raw body (an uploaded file, `POST /files`). Default 10 MiB. */
  readonly maxFileBytes?: number | undefined
  /** Limits on path, query and body values (400 at the field over them). Default `defaultInputLimits`. */
  readonly inputLimits?: Partial<InputLimits> | undefined
  /**
   * Record tracing spans (`Effect.withSpan`, the SQL client's spans) while serving requests.
   * Each span costs about 10 us. Default: only when the runtime has a tracer other than
   * Effect's built-in one, i.e. when someone collects them.
   */
  readonly spans?: boolean | undefined
  /** Largest message a WebSocket peer may send (past it the socket is closed with 1009). Default 32 KiB. */
  readonly maxWebSocketMessageBytes?: number | undefined
  /** Time between keep-alive pings of each WebSocket; one unanswered ping drops the socket. Default 15 s. */
  readonly webSocketPingIntervalMillis?: number | undefined
  /**
   * Join the streams into workspaces (terminals, tunnels, SSH) in a process of their own, the socket
   * relay (docs/agents.md, "The socket relay"), so that their frames never wait for this process's
   * event loop. Only sockets of plain TCP listeners are handed to it. Default: none, streams are
   * joined in this process; the standalone server starts one (`--stream-relay`).
   */
  readonly streamRelay?: SocketRelayOptions | undefined
  /**
   * Apply the rate limits the settings describe (`rateLimitApi`, `rateLimitLogin`,
   * `rateLimitFiles`, `rateLimitDisableAll`; docs/configuration.md, "Rate limits"). `false` leaves
   * limiting to the host application (the settings are still reported). Default: true.
   */
  readonly rateLimits?: boolean | undefined
}

/** `HttpOptions` with the defaults in place. */
export interface DispatchOptions {
  /** The session header as given (messages name it). */
  readonly sessionHeaderName: string
  /** The session header in lower case, as requests' header maps key it. */
  readonly sessionHeader: string
  readonly sessionCookie: string
  readonly secureCookies: boolean
  readonly maxBodyBytes: number
  readonly maxFileBytes: number
  readonly limits: InputLimits
}

export const resolveOptions = (options: HttpOptions, settings: SettingsShape): DispatchOptions => {
  const sessionHeaderName = options.sessionHeader ?? DEFAULT_SESSION_HEADER
  return {
    sessionHeaderName,
    sessionHeader: sessionHeaderName.toLowerCase(),
    sessionCookie: options.sessionCookie ?? DEFAULT_SESSION_COOKIE,
    secureCookies: options.secureCookies ?? settings.accessUrl.startsWith("https:"),
    maxBodyBytes: options.maxBodyBytes ?? 4 * 1024 * 1024,
    maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    limits: { ...defaultInputLimits, ...definedOnly(options.inputLimits) }
  }
}

/** `partial` without its undefined fields (so they take the defaults). */
const definedOnly = <A extends object>(partial: A | undefined): Partial<A> =>
  partial === undefined
    ? {}
    : Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined)) as Partial<A>
