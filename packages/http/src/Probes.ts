/**
 * Liveness and readiness, outside the API (no authentication, no rate limit), for load balancers
 * and orchestrators:
 * - `GET /healthz`: 200 `OK` (text) whenever the process serves, as the described system answers.
 * - `GET /readyz`: 200 `{"message":"Ready."}` when the database answers a `SELECT 1` within 2 s;
 *   else 503 with the Response object saying why. The standalone server also answers 503 here
 *   (and on every other route) while it starts and its migrations run (server/src/Server.ts).
 */
import { Health } from "@workbay/core"
import { Cause, Context, Exit, Option, Runtime } from "effect"

/**
 * A probe's answer: a status, headers and a text body (the dispatcher's `RawResponse` takes it;
 * declared here so that the probes do not import the dispatcher that calls them).
 */
export interface ProbeResponse {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: string
}

export const PROBE_PATHS: ReadonlySet<string> = new Set(["/healthz", "/readyz"])

const TEXT = { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } as const
const JSON_NO_STORE = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" } as const

export const LIVE: ProbeResponse = { status: 200, headers: { ...TEXT }, body: "OK" }

/** 503 with the Response object: the answer while the service cannot serve. */
export const unavailable = (message: string, detail: string): ProbeResponse => ({
  status: 503,
  headers: { ...JSON_NO_STORE },
  body: JSON.stringify({ message, detail })
})

/** Answers a probe path on `runtime` (readiness asks the database through `Health`). */
export const answerProbe = <R>(
  runtime: Runtime.Runtime<R>,
  path: string,
  respond: (r: ProbeResponse) => void
): void => {
  if (path === "/healthz") return respond(LIVE)
  const health = Context.getOption(runtime.context as Context.Context<unknown>, Health)
  if (Option.isNone(health)) {
    return respond({ status: 200, headers: { ...JSON_NO_STORE }, body: JSON.stringify({ message: "Ready." }) })
  }
  Runtime.runCallback(runtime as Runtime.Runtime<never>, health.value.ready, {
    onExit: (exit) => {
      if (Exit.isSuccess(exit)) {
        return respond({ status: 200, headers: { ...JSON_NO_STORE }, body: JSON.stringify({ message: "Ready." }) })
      }
      const failure = Option.getOrUndefined(Cause.failureOption(exit.cause))
      respond(unavailable("Not ready.", failure?.detail ?? "The readiness check was interrupted."))
    }
  })
}
