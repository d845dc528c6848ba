/**
 * What is reported of each answered request: the metrics (when the runtime provides a sink,
 * Metrics.ts: requests in flight, their count and duration by route template and status, the
 * time each WebSocket stays open) and one debug line (when the runtime logs debug; Logging.ts).
 * Neither on, a request costs nothing here.
 */
import { type Actor, CurrentActor, Metrics, secondsSince } from "@workbay/core"
import { Context, Effect, type Fiber, FiberRef, FiberRefs, LogLevel, type Runtime } from "effect"
import type { WebSocketUpgrade } from "../WebSocket.js"
import type { RawRequest, RawResponse } from "./Raw.js"

/** The `path` label of requests no route matched (bounded cardinality: never the raw URL). */
export const UNKNOWN_ROUTE = "unknown"

/** Routes whose path holds a secret (a provisioner key), logged by their template only. */
const SECRET_PATH_ROUTES: ReadonlySet<string> = new Set(["/api/v2/provisionerkeys/{provisionerkey}"])

/** What the metrics and the request log learn of a request while it is served (filled in as it goes). */
export interface RequestSeen {
  readonly started: number
  /** The route's template, once the route is found. */
  route?: string
  /** The request's services (its actor, once known). */
  services?: ReadonlyMap<string, unknown>
}

/** A request's answer callbacks, reporting it. */
export interface Observed {
  readonly respond: (r: RawResponse) => void
  readonly accept: ((u: WebSocketUpgrade) => void) | undefined
  readonly seen: RequestSeen
}

export interface Observer {
  /** Whether anything is reported (else `observe` need not be called). */
  readonly enabled: boolean
  /** Wraps a request's answer callbacks to report it; the dispatch fills in `seen` as it goes. */
  readonly observe: (
    req: RawRequest,
    respond: (r: RawResponse) => void,
    accept: ((u: WebSocketUpgrade) => void) | undefined
  ) => Observed
}

export const makeObserver = <R>(
  runtime: Runtime.Runtime<R>,
  runFork: <A, E>(effect: Effect.Effect<A, E>) => Fiber.RuntimeFiber<A, E>
): Observer => {
  // The metrics sink: the no-op default unless the runtime provides one (then every request is reported).
  const metrics = Context.get(runtime.context as Context.Context<unknown>, Metrics)
  // One debug line per request, only when the runtime logs debug (read once: the check is then free).
  const logRequests =
    FiberRefs.getOrDefault(runtime.fiberRefs, FiberRef.currentMinimumLogLevel).ordinal <= LogLevel.Debug.ordinal

  /**
   * Reports the request to the metrics: its route template is set by the dispatch once the route
   * is found; the answer (or the accepted upgrade) ends the request, and an accepted WebSocket is
   * timed until its session ends.
   */
  const measured = (
    req: RawRequest,
    respond: (r: RawResponse) => void,
    accept: ((u: WebSocketUpgrade) => void) | undefined,
    seen: RequestSeen
  ) => {
    let done = false
    metrics.requestStarted()
    const finish = (status: number) => {
      if (done) return
      done = true
      metrics.requestFinished(req.method, seen.route ?? UNKNOWN_ROUTE, status, secondsSince(seen.started))
    }
    return {
      respond: (r: RawResponse) => {
        finish(r.status)
        respond(r)
      },
      accept: accept === undefined ? undefined : (u: WebSocketUpgrade) => {
        finish(101)
        const template = seen.route ?? UNKNOWN_ROUTE
        const opened = performance.now()
        // The same upgrade, its session timed.
        accept(u.alsoWhenEnded(() => metrics.webSocketClosed(template, secondsSince(opened))))
      }
    }
  }

  /** The debug line of a request once answered: what it asked, how it was answered, by whom. */
  const logRequest = (req: RawRequest, r: RawResponse, seen: RequestSeen) => {
    const q = req.url.indexOf("?")
    const actor = seen.services?.get(CurrentActor.key) as Actor | undefined
    const requestId = r.headers["x-request-id"]
    runFork(
      Effect.logDebug(`${req.method} ${seen.route ?? (q < 0 ? req.url : req.url.slice(0, q))} ${r.status}`).pipe(
        Effect.annotateLogs({
          method: req.method,
          route: seen.route ?? "",
          // The query is left out: it may carry codes and tokens; so is a path that holds a secret.
          path: seen.route !== undefined && SECRET_PATH_ROUTES.has(seen.route)
            ? seen.route
            : q < 0
            ? req.url
            : req.url.slice(0, q),
          status: r.status,
          duration_ms: Math.round((performance.now() - seen.started) * 100) / 100,
          request_id: typeof requestId === "string" ? requestId : "",
          remote_addr: req.remoteAddress,
          ...(actor === undefined ? {} : { user_id: actor.user.id })
        })
      )
    )
  }

  const observe: Observer["observe"] = (req, answer, upgrade) => {
    const seen: RequestSeen = { started: performance.now() }
    let respond = answer
    let accept = upgrade
    if (metrics.enabled) ({ respond, accept } = measured(req, answer, upgrade, seen))
    if (logRequests) {
      const inner = respond
      respond = (r: RawResponse) => {
        inner(r)
        logRequest(req, r, seen)
      }
    }
    return { respond, accept, seen }
  }

  return { enabled: metrics.enabled || logRequests, observe }
}
