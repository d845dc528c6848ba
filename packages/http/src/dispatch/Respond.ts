/**
 * A served request's outcome as its answer: a success encoded through the endpoint's schema
 * (JSON, or the bytes of a binary answer), an event stream, or a failure mapped to its status
 * and the Response object (the OAuth2 error object on the OAuth2 routes; a 500 that logs its
 * cause otherwise). Every error body is bounded, whatever the error holds.
 */
import { HttpApiSchema } from "@effect/platform"
import { extendInPlace, OAuth2Error, OAuth2Unauthorized } from "@workbay/core"
import {
  Cause,
  type Context,
  Effect,
  Either,
  Exit,
  Fiber,
  Option,
  type ParseResult,
  type SchemaAST,
  Scope
} from "effect"
import { Buffer } from "node:buffer"
import { FileAnswer } from "../FileAnswer.js"
import { clip, MAX_VALIDATIONS } from "../Limits.js"
import { EVENT_STREAM_HEADERS, EventStreamAnswer, pushSink } from "../ServerSentEvents.js"
import type { Exchange } from "./Exchange.js"
import type { RawResponse, StreamingBody } from "./Raw.js"
import { moreNote, type ValidationEntry } from "./Validations.js"

export const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" } as const

export const json = (status: number, value: unknown, extra?: Record<string, string | Array<string>>): RawResponse => ({
  status,
  headers: extra ? Object.assign({}, JSON_HEADERS, extra) : { ...JSON_HEADERS },
  body: JSON.stringify(value)
})

/** Bytes (JSON-encoded) of each part of an error body: with MAX_VALIDATIONS entries, at most about 7 KiB. */
const MESSAGE_BYTES = 256
const DETAIL_BYTES = 512
const FIELD_BYTES = 100
const VALIDATION_DETAIL_BYTES = 200

/**
 * The Response object, bounded whatever the error holds (input echoed in a message, thousands
 * of validations): at most MAX_VALIDATIONS validations, the detail saying how many there were,
 * and every string clipped.
 */
export const responseBody = (message: string, detail?: string, validations?: ReadonlyArray<ValidationEntry>) => {
  const listed = validations !== undefined && validations.length > MAX_VALIDATIONS
    ? validations.slice(0, MAX_VALIDATIONS)
    : validations
  const note = listed !== validations ? moreNote(MAX_VALIDATIONS, validations!.length) : undefined
  const clipped = detail === undefined ? undefined : clip(detail, note === undefined ? DETAIL_BYTES : DETAIL_BYTES - 64)
  const fullDetail = note === undefined ? clipped : clipped === undefined ? note : `${clipped} ${note}`
  return {
    message: clip(message, MESSAGE_BYTES),
    ...(fullDetail !== undefined ? { detail: fullDetail } : {}),
    ...(listed !== undefined && listed.length > 0
      ? {
        validations: listed.map((v) => ({
          field: clip(v.field, FIELD_BYTES),
          detail: clip(v.detail, VALIDATION_DETAIL_BYTES)
        }))
      }
      : {})
  }
}

/** The 500 answer: the detail names the request id under which the cause is logged. */
export const internalError = (requestId: string): RawResponse =>
  json(500, responseBody("An internal error occurred.", `Request id: ${requestId}.`), { "x-request-id": requestId })

const errorStatusCache = new WeakMap<object, number>()
/** The HTTP status of a typed failure, read from its schema annotation. */
const statusOfError = (error: unknown): number | undefined => {
  if (typeof error !== "object" || error === null) return undefined
  const ctor = (error as { constructor?: { ast?: SchemaAST.AST } }).constructor
  if (ctor === undefined || ctor.ast === undefined) return undefined
  let status = errorStatusCache.get(ctor)
  if (status === undefined) {
    status = HttpApiSchema.getStatusErrorAST(ctor.ast)
    errorStatusCache.set(ctor, status)
  }
  return status
}

/** The status a failed request answers with. */
export const statusOfCause = (cause: Cause.Cause<unknown>): number => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) return statusOfError(failure.value) ?? 500
  return Cause.isInterruptedOnly(cause) ? 503 : 500
}

/** A response without its body, with the body's length: the answer to HEAD. */
export const withoutBody = (r: RawResponse): RawResponse =>
  r.stream !== undefined || r.file !== undefined
    ? { status: r.status, headers: r.headers, body: undefined }
    : r.body === undefined
    ? r
    : {
      status: r.status,
      headers: Object.assign({}, r.headers, { "content-length": String(Buffer.byteLength(r.body)) }),
      body: undefined
    }

/** What answering a success needs of a compiled route (Route.ts's `CompiledRoute` has it). */
export interface AnsweredRoute {
  readonly name: string
  readonly encodeSuccess: ((a: unknown) => Either.Either<unknown, ParseResult.ParseError>) | undefined
  readonly status: number
  readonly successStatuses: ReadonlyArray<number>
  readonly binarySuccess: string | undefined
}

export interface Responder {
  /** The answer to a failure (`headers`: those the handler set, kept on typed failures). */
  readonly fail: (
    respond: (r: RawResponse) => void,
    cause: Cause.Cause<unknown>,
    requestId: string,
    headers?: Record<string, string>
  ) => void
  /** The answer to a success other than an upgrade: `value` encoded, with what the handler chose of the answer. */
  readonly succeed: (
    respond: (r: RawResponse) => void,
    route: AnsweredRoute,
    exchange: Exchange,
    value: unknown
  ) => void
  /** Logs a failure that escaped the request path (a defect of the dispatcher) and answers 500. */
  readonly crash: (respond: (r: RawResponse) => void, error: unknown, requestId: string) => void
}

/** The answers of requests served on a runtime (`runFork`: where 500s log their cause and event streams run). */
export const makeResponder = (
  runFork: <A, E>(effect: Effect.Effect<A, E>, context?: Context.Context<never>) => Fiber.RuntimeFiber<A, E>
): Responder => {
  const logUnhandled = (cause: Cause.Cause<unknown>, requestId: string) =>
    runFork(
      Effect.logError("Unhandled failure while serving a request", cause).pipe(
        Effect.annotateLogs("request_id", requestId)
      )
    )

  const fail: Responder["fail"] = (respond, cause, requestId, headers) => {
    const failure = Cause.failureOption(cause)
    if (
      Option.isSome(failure) && (failure.value instanceof OAuth2Error || failure.value instanceof OAuth2Unauthorized)
    ) {
      // RFC 6749 5.2 and RFC 7591 3.2.2: the OAuth2 error object, never cached.
      const e = failure.value
      const extra: Record<string, string> = Object.assign({}, headers, {
        "cache-control": "no-store",
        "x-request-id": requestId
      })
      if (e instanceof OAuth2Unauthorized && e.challenge !== "") extra["www-authenticate"] = e.challenge
      const body: Record<string, unknown> = {
        error: e.error,
        error_description: clip(e.error_description, DETAIL_BYTES)
      }
      // A registration refused for a field's value names it, as the Response object's validations do.
      if (e instanceof OAuth2Error && e.validations !== undefined && e.validations.length > 0) {
        body.validations = e.validations.map((v) => ({ field: v.field, detail: clip(v.detail, DETAIL_BYTES) }))
      }
      return respond(json(statusOfError(e) ?? 400, body, extra))
    }
    if (Option.isSome(failure)) {
      const error = failure.value as { message?: string; detail?: string; validations?: ReadonlyArray<ValidationEntry> }
      const status = statusOfError(error)
      if (status !== undefined && typeof error.message === "string") {
        return respond(
          json(
            status,
            responseBody(error.message, error.detail, error.validations),
            Object.assign({}, headers, { "x-request-id": requestId })
          )
        )
      }
    }
    if (Cause.isInterruptedOnly(cause)) return respond(json(503, responseBody("The request was interrupted.")))
    logUnhandled(cause, requestId)
    respond(internalError(requestId))
  }

  /**
   * A pushed event stream (`EventStreamAnswer.open`): its set-up runs in a scope of its own, closed
   * when the client leaves; no fiber while it lasts. A failed set-up ends the response.
   */
  const pushedBody = (answer: EventStreamAnswer, open: NonNullable<EventStreamAnswer["open"]>): StreamingBody => ({
    open: (writer) => {
      const sink = pushSink((text, done) => void writer.write(text).then(done))
      const scope = Effect.runSync(Scope.make())
      // Kept only while it runs (an ended fiber holds its refs until collected: memory per stream).
      let setup: Fiber.RuntimeFiber<void> | undefined = runFork(
        extendInPlace(open(sink), scope).pipe(
          Effect.catchAllCause((cause) =>
            Cause.isInterruptedOnly(cause) ? Effect.void : Effect.zipRight(
              Effect.logWarning("An event stream failed", cause),
              Effect.sync(() => writer.end())
            )
          )
        ),
        answer.context
      )
      setup.addObserver(() => void (setup = undefined))
      return () => {
        const running = setup
        void runFork(
          Effect.zipRight(
            running === undefined ? Effect.void : Fiber.interrupt(running),
            Scope.close(scope, Exit.void)
          ),
          answer.context
        )
      }
    }
  })

  /** An event stream's session on the service's runtime, interrupted when the client leaves. */
  const streamingBody = (answer: EventStreamAnswer): StreamingBody =>
    answer.open !== undefined ? pushedBody(answer, answer.open) : ({
      open: (writer) => {
        const fiber = runFork(
          answer.run({ write: (text) => Effect.promise(() => writer.write(text)) }).pipe(
            Effect.ensuring(Effect.sync(() => writer.end()))
          ),
          answer.context
        )
        return () => void runFork(Fiber.interrupt(fiber))
      }
    })

  const succeed: Responder["succeed"] = (respond, route, exchange, value) => {
    const { requestId } = exchange
    // Object.assign, not `{ ...headers, key }`: a spread copy that adds a key is V8's slow path
    // on Node 20 (about 1 us a request).
    const extra: Record<string, string | Array<string>> = Object.assign({}, exchange.headers)
    extra["x-request-id"] = requestId
    if (value instanceof EventStreamAnswer) {
      return respond({
        status: 200,
        headers: Object.assign({}, extra, EVENT_STREAM_HEADERS),
        body: undefined,
        stream: streamingBody(value)
      })
    }
    if (exchange.setCookies.length > 0) extra["set-cookie"] = exchange.setCookies
    if (value instanceof FileAnswer) {
      return respond({
        status: 200,
        headers: Object.assign({}, extra, { "content-type": value.contentType, "content-length": String(value.size) }),
        body: undefined,
        file: { path: value.path }
      })
    }
    const chosen = exchange.status
    const status = chosen ?? route.status
    if (chosen !== undefined && !route.successStatuses.includes(chosen)) {
      return fail(
        respond,
        Cause.die(new Error(`${route.name} answered ${chosen}, which it does not declare.`)),
        requestId
      )
    }
    if (route.encodeSuccess === undefined) return respond({ status, headers: extra, body: undefined })
    const encoded = route.encodeSuccess(value)
    if (Either.isLeft(encoded)) {
      return fail(
        respond,
        Cause.die(new Error(`Response of ${route.name} does not match its schema: ${encoded.left.message}`)),
        requestId
      )
    }
    if (route.binarySuccess !== undefined) {
      extra["content-type"] = exchange.contentType ?? route.binarySuccess
      return respond({ status, headers: extra, body: encoded.right as Uint8Array })
    }
    respond(json(status, encoded.right, extra))
  }

  const crash: Responder["crash"] = (respond, error, requestId) => {
    logUnhandled(Cause.die(error), requestId)
    respond(internalError(requestId))
  }

  return { fail, succeed, crash }
}
