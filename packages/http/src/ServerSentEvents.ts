/**
 * Server-sent events routes (`text/event-stream`). An endpoint answers with a stream of events
 * when its handler returns an `EventStreamAnswer` (made with `eventStream`) and declares
 * `EventStreamSchema` among its successes. Everything before the stream is the plain request
 * path (route, authentication, decoding, the handler's checks, each answering its usual error);
 * then the dispatcher answers 200 with the headers below and hands the adapter a streaming body:
 * each event is written (and flushed) as it comes, a slow reader slows the sender, and the
 * stream is interrupted when the client leaves. A keep-alive `ping` event is sent every
 * `pingIntervalMillis` (default 15 s, as the described system).
 *
 * The event format is the described system's: `event: <type>\ndata: <JSON>\n\n` (`data:` left
 * out when there is none).
 */
import { HttpApiSchema } from "@effect/platform"
import { acquireReleaseInPlace, scopedInPlace, Slots, visitEvery } from "@workbay/core"
import { type Context, Effect, ParseResult, Schedule, Schema, type Scope, Stream } from "effect"

/** One event: its type (`event:`) and its data text (one `data:` line per line of it). */
export interface ServerSentEvent {
  readonly event: string
  readonly data?: string | undefined
}

/** Where an answer's text goes: resolves once the text is handed to the connection (after a drain when its buffer is full). */
export interface EventSink {
  readonly write: (text: string) => Effect.Effect<void>
}

/** Where a pushed answer writes (`EventStreamAnswer.open`): at once, in the order of the calls. */
export interface PushSink {
  /** Hands `text` to the connection now (queued behind what it has not sent yet). */
  readonly write: (text: string) => void
  /** Whether something written still waits for the connection (a reader that does not read). */
  readonly backedUp: () => boolean
}

/**
 * What an event-stream endpoint's handler answers: the session that writes the events. When
 * it ends the response ends; when the client leaves it is interrupted.
 */
export class EventStreamAnswer {
  readonly _tag = "EventStreamAnswer"
  constructor(
    readonly run: (sink: EventSink) => Effect.Effect<void>,
    /**
     * The services the answer runs with (its handler's), given to its fiber when it starts rather
     * than provided around it (frames on the fiber's stack for as long as the answer lives).
     */
    readonly context?: Context.Context<never> | undefined,
    /**
     * A pushed answer (`followEvents`), served without a fiber: `open` runs once, in a scope closed
     * when the client leaves, and writes each event as it comes from whatever it listens to. `run`
     * is then the same answer on a fiber that waits, for whoever runs it so.
     */
    readonly open?: ((sink: PushSink) => Effect.Effect<void, never, Scope.Scope>) | undefined
  ) {}
}

/**
 * A push sink over a connection's write: `write(text, done)` hands the text over and calls `done`
 * once the connection took it; the sink is backed up while any write is not done.
 */
export const pushSink = (write: (text: string, done: () => void) => void): PushSink => {
  let waiting = 0
  const done = () => void waiting--
  return {
    write: (text) => {
      waiting++
      write(text, done)
    },
    backedUp: () => waiting > 0
  }
}

/** A pushed answer's `open` run on a fiber that waits until interrupted (`EventStreamAnswer.run`). */
const pushedOnFiber = (open: (sink: PushSink) => Effect.Effect<void, never, Scope.Scope>) => (sink: EventSink) =>
  scopedInPlace(Effect.zipRight(
    open(pushSink((text, done) => void Effect.runFork(sink.write(text)).addObserver(done))),
    Effect.never
  ))

/** The headers of an event-stream answer. */
export const EVENT_STREAM_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  "x-accel-buffering": "no"
} as const

/** Time between keep-alive `ping` events. */
export const DEFAULT_EVENT_STREAM_PING_MILLIS = 15_000

const answerDeclaration = Schema.declare((u: unknown): u is EventStreamAnswer => u instanceof EventStreamAnswer, {
  identifier: "EventStream",
  jsonSchema: {}
})

/** The success of an event-stream endpoint: 200 and a `text/event-stream` body. Never decoded. */
export const EventStreamSchema = Schema.transformOrFail(Schema.Void, answerDeclaration, {
  strict: true,
  decode: (_, __, ast) =>
    ParseResult.fail(new ParseResult.Type(ast, undefined, "An event stream has no body to decode.")),
  encode: () => ParseResult.succeed(undefined)
}).annotations(
  HttpApiSchema.annotations({ status: 200, description: "A stream of server-sent events (text/event-stream)." })
)

/** The wire text of one event. */
export const formatEvent = (e: ServerSentEvent): string => {
  let text = `event: ${e.event}\n`
  if (e.data !== undefined) { for (const line of e.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n` }
  return text + "\n"
}

/**
 * Answers with `events` as server-sent events, in the handler's context (actor, services),
 * with a `ping` every `pingIntervalMillis`. A failure of the stream ends the answer (logged).
 */
export const eventStream = <E, R>(
  events: Stream.Stream<ServerSentEvent, E, R>,
  options: { readonly pingIntervalMillis?: number | undefined } = {}
): Effect.Effect<EventStreamAnswer, never, R> =>
  Effect.map(Effect.context<R>(), (context) => {
    const pings = Stream.repeatEffectWithSchedule(
      Effect.succeed<ServerSentEvent>({ event: "ping" }),
      Schedule.spaced(options.pingIntervalMillis ?? DEFAULT_EVENT_STREAM_PING_MILLIS)
    ).pipe(Stream.drop(1))
    return new EventStreamAnswer((sink) =>
      Stream.merge(events, pings, { haltStrategy: "left" }).pipe(
        Stream.runForEach((e) => sink.write(formatEvent(e))),
        Effect.catchAllCause((cause) => Effect.logWarning("An event stream failed", cause)),
        Effect.provide(context)
      )
    )
  })

/**
 * The streams `followEvents` pings, by interval: one timer for each interval however many streams
 * (an agent's reinitialization stream lives as long as the agent), instead of a fiber each. The
 * streams are spread over slots, the timer visiting one slot per tick (Slots.ts): each stream is
 * still pinged every interval, and thousands of them are not all pinged in the same tick. The timer
 * is unreferenced (it never keeps the process up) and stops with the last stream.
 */
const pinged = new Map<number, { readonly slots: Slots<() => void>; readonly stop: () => void }>()

/** Calls `ping` every `interval` ms for the life of the scope, on the timer shared by that interval. */
const pingEvery = (interval: number, ping: () => void): Effect.Effect<void, never, Scope.Scope> =>
  acquireReleaseInPlace(
    Effect.sync(() => {
      let entry = pinged.get(interval)
      if (entry === undefined) {
        const slots = new Slots<() => void>()
        pinged.set(interval, entry = { slots, stop: visitEvery(slots, interval, (p) => p()) })
      }
      return entry.slots.add(ping)
    }),
    (slot) =>
      Effect.sync(() => {
        const entry = pinged.get(interval)
        if (entry === undefined || !entry.slots.delete(ping, slot)) return
        if (entry.slots.size > 0) return
        entry.stop()
        pinged.delete(interval)
      })
  )

/**
 * Answers with server-sent events pushed as they come, with a `ping` every `pingIntervalMillis`:
 * `listen` runs once, in the answer's scope, and calls `emit` with each event from then on. No
 * fiber while the answer lasts (the dispatcher serves `EventStreamAnswer.open`), and the pings
 * written by a timer shared by every such answer, for an answer held as long as an agent is
 * connected (the reinitialization stream), where a fiber each, or a stream's fibers and executors,
 * cost the server memory per agent. A reader that has not taken what was written gets no ping.
 */
export const followEvents = <R>(
  listen: (emit: (event: ServerSentEvent) => void) => Effect.Effect<void, never, R>,
  options: { readonly pingIntervalMillis?: number | undefined } = {}
): Effect.Effect<EventStreamAnswer, never, Exclude<R, Scope.Scope>> =>
  Effect.map(Effect.context<Exclude<R, Scope.Scope>>(), (context) => {
    const interval = options.pingIntervalMillis ?? DEFAULT_EVENT_STREAM_PING_MILLIS
    const ping = formatEvent({ event: "ping" })
    const open = (sink: PushSink) =>
      Effect.zipRight(
        listen((event) => sink.write(formatEvent(event))) as Effect.Effect<void, never, Scope.Scope>,
        pingEvery(interval, () => {
          if (!sink.backedUp()) sink.write(ping)
        })
      )
    return new EventStreamAnswer(pushedOnFiber(open), context as Context.Context<never>, open)
  })
