/**
 * WebSocket routes. An endpoint of the HttpApi definition answers by upgrading when its handler
 * returns a `WebSocketUpgrade` (made with `upgradeWebSocket`) and declares it among its
 * successes (`WebSocketUpgradeSchema`, status 101). Everything before the upgrade is the plain
 * request path: route lookup, authentication (session header, cookie, Bearer), decoding and
 * the handler's own checks, each answering its usual HTTP error on the socket. The upgrade
 * itself is served with `ws`: one `WebSocketServer({ noServer: true })` per service, a ping to
 * every socket every `webSocketPingInterval` (a socket that did not answer the previous ping is
 * dropped), messages from the peer capped at `maxWebSocketMessageBytes` (or, for a route whose
 * peers send large messages, such as the provisioner daemons' results, at `maxLargeMessageBytes`),
 * and every socket closed (1001) when the service is disposed.
 */
import { HttpApiSchema } from "@effect/platform"
import { DEFAULT_MAX_FILE_BYTES, extendInPlace, Slots, visitEvery } from "@workbay/core"
import {
  Cause,
  type Context,
  Data,
  Deferred,
  Effect,
  Exit,
  Fiber,
  FiberId,
  ParseResult,
  Schema,
  Scope,
  type Stream
} from "effect"
import * as StreamM from "effect/Stream"
import type { IncomingMessage } from "node:http"
import type { Duplex } from "node:stream"
import { type WebSocket, WebSocketServer } from "ws"
import { relayRequestHead, relayUpgrade } from "./Relay.js"
import { makeSocketRelay, type SocketRelay, type SocketRelayOptions } from "./SocketRelay.js"
import { byteStreamServer } from "./StreamFrames.js"
import { clipReason, CloseCode } from "./WebSocketClose.js"
import { holdSocket, type StreamEnd } from "./WebSocketSplice.js"

export { clipReason, CloseCode } from "./WebSocketClose.js"

/** Unsent bytes past which `send` waits for the peer: a slow reader slows the sender instead of filling memory. */
export const WEBSOCKET_HIGH_WATER_BYTES = 256 * 1024

export class WebSocketClosed extends Data.TaggedError("WebSocketClosed")<{ readonly code?: number | undefined }> {}

/** One accepted WebSocket, as a session sees it. */
export interface WebSocketConnection {
  /**
   * Sends one text message: a string, or its UTF-8 bytes (one buffer can be shared by many
   * sockets). While more than WEBSOCKET_HIGH_WATER_BYTES are unsent it waits until this message
   * is written out. Fails once the socket is closed.
   */
  readonly send: (text: string | Uint8Array) => Effect.Effect<void, WebSocketClosed>
  /**
   * Sends one text message now, synchronously, for a peer that follows a state: while more
   * than WEBSOCKET_HIGH_WATER_BYTES are unsent, the message is kept as the next to send instead
   * and replaces any older one still waiting, so a slow reader skips to the latest state.
   * Never waits; does nothing once the socket is closing.
   */
  readonly sendLatest: (text: string | Uint8Array) => void
  /**
   * Starts the closing handshake (default 1000); no-op when already closing. From then on nothing
   * the peer sends is taken: `receive` fails once the messages received before were taken.
   */
  readonly close: (code?: number, reason?: string) => Effect.Effect<void>
  /** Completes when the socket is closed, by either side or by the keep-alive. */
  readonly closed: Effect.Effect<void>
  /**
   * The next text message from the peer (binary ones are decoded as UTF-8), in order. Fails
   * once the socket is closed and every earlier message was taken. While more than
   * WEBSOCKET_RECEIVE_BUFFER messages, or more than WEBSOCKET_RECEIVE_BUFFER_BYTES, wait to be
   * taken the socket stops reading, so a peer that sends faster than the session reads is slowed
   * down instead of filling memory.
   */
  readonly receive: Effect.Effect<string, WebSocketClosed>
  /**
   * The round trip of the next keep-alive ping (sent at accept, then every `pingIntervalMillis`), in
   * milliseconds, from the ping's send to its pong: the peer's latency as this replica sees it.
   * Fails once the socket is closed.
   */
  readonly nextRoundTrip: Effect.Effect<number, WebSocketClosed>
  /** The round trip of the latest answered keep-alive ping, in milliseconds; undefined before the first. */
  readonly latestRoundTrip: () => number | undefined
}

/** Messages from a peer kept for `receive`, past which the socket stops reading. */
export const WEBSOCKET_RECEIVE_BUFFER = 64

/**
 * Bytes of a peer's messages kept for `receive`, past which the socket stops reading too: with the
 * serve route's 10 MiB messages, 64 of them would be 640 MiB; this keeps one connection to about
 * 16 MiB plus the message that crossed it.
 */
export const WEBSOCKET_RECEIVE_BUFFER_BYTES = 16 * 1024 * 1024

/**
 * What a WebSocket endpoint's handler answers: the session to run once the connection is
 * upgraded. When the session ends the socket is closed with 1000 (if still open); when it
 * fails, with 1011. When the peer leaves, the session is interrupted.
 */
export class WebSocketUpgrade {
  readonly _tag = "WebSocketUpgrade"
  constructor(
    readonly session: (connection: WebSocketConnection) => Effect.Effect<void>,
    /** The peer's messages may be as large as the hub's `maxLargeMessageBytes` instead of `maxMessageBytes`. */
    readonly largeMessages = false,
    /**
     * A session that takes the socket itself (binary frames, its own flow control: the streams of
     * Streams.ts), instead of `session`'s text messages. The hub still keeps it alive and closes it.
     */
    readonly raw?: ((ws: WebSocket) => Effect.Effect<void>) | undefined,
    /** Not upgraded here: the request is relayed, as it came, to another replica (Relay.ts). */
    readonly relay?: RelayTarget | undefined,
    /**
     * The services the session runs with (its handler's: the runtime's and the request's), given to
     * its fiber when it starts rather than provided around the session: a provided context is
     * frames on the fiber's stack for as long as the session lives (memory per connected agent).
     */
    readonly context?: Context.Context<never> | undefined,
    /** Called when the session's fiber ends, however it ends (the metrics' session time). */
    readonly ended?: (() => void) | undefined,
    /**
     * A session as a handler of the peer's text messages (`upgradeMessageHandler`), instead of
     * `session`: `open` runs once, in a scope that lasts as long as the connection, and gives what
     * handles each message. No fiber waits between messages: one runs only while messages wait.
     */
    readonly open?: MessageHandlerOpen | undefined,
    /**
     * A session that takes one end of a stream (`upgradeStreamEnd`): the socket held here, or
     * handed to the socket relay's process when the hub has one and the socket can be handed.
     */
    readonly end?: ((end: StreamEnd) => Effect.Effect<void>) | undefined,
    /** The client's end of a byte stream: its frames may be as large as StreamFrames.ts allows. */
    readonly byteStream = false
  ) {}

  /** The same upgrade (every field kept) with `ended` called when it ends, after this one's own. */
  alsoWhenEnded(ended: () => void): WebSocketUpgrade {
    const own = this.ended
    return new WebSocketUpgrade(
      this.session,
      this.largeMessages,
      this.raw,
      this.relay,
      this.context,
      () => {
        own?.()
        ended()
      },
      this.open,
      this.end,
      this.byteStream
    )
  }
}

/** Opens a handler session: its set-up, in the connection's scope, giving the handler of each message. */
export type MessageHandlerOpen = (
  connection: WebSocketConnection
) => Effect.Effect<(text: string) => Effect.Effect<void>, never, Scope.Scope>

/** Where a request is relayed, and what the relay adds (Relay.ts). */
export interface RelayTarget {
  /** `http://host:port` of the replica that serves it. */
  readonly address: string
  /** Headers added to the relayed request (the relay secret, the client's address). */
  readonly headers: Readonly<Record<string, string>>
}

export interface UpgradeOptions {
  /** Let the peer send messages up to the hub's `maxLargeMessageBytes` (the template file limit by default). */
  readonly largeMessages?: boolean | undefined
}

const upgradeDeclaration = Schema.declare((u: unknown): u is WebSocketUpgrade => u instanceof WebSocketUpgrade, {
  identifier: "WebSocketUpgrade",
  jsonSchema: {}
})

/**
 * The success of a WebSocket endpoint: status 101, no body (`Schema.Union(Logs, WebSocketUpgradeSchema)`
 * for one that also answers JSON). Never decoded: a client sees a protocol switch, not a body.
 */
export const WebSocketUpgradeSchema = Schema.transformOrFail(Schema.Void, upgradeDeclaration, {
  strict: true,
  decode: (_, __, ast) =>
    ParseResult.fail(new ParseResult.Type(ast, undefined, "A WebSocket upgrade has no body to decode.")),
  encode: () => ParseResult.succeed(undefined)
}).annotations(
  HttpApiSchema.annotations({ status: 101, description: "Switching Protocols: the connection becomes a WebSocket." })
)

/** Answers with a WebSocket running `session`, in the handler's context (actor, services). */
export const upgradeWebSocket = <R>(
  session: (connection: WebSocketConnection) => Effect.Effect<void, never, R>,
  options: UpgradeOptions = {}
): Effect.Effect<WebSocketUpgrade, never, R> =>
  Effect.map(
    Effect.context<R>(),
    (context) =>
      new WebSocketUpgrade(
        // Its services are given at its fiber's start (`context`).
        session as (connection: WebSocketConnection) => Effect.Effect<void>,
        options.largeMessages === true,
        undefined,
        undefined,
        context as Context.Context<never>
      )
  )

/**
 * Answers with a WebSocket served by a handler of its messages: `open` runs once the connection is
 * upgraded, in a scope closed when the connection closes (its finalizers run then), and gives the
 * handler each text message is given to, in order, one at a time. Between messages no fiber exists
 * (a fiber waiting on `receive` keeps its stack and its copy of the refs for as long as the peer
 * stays: memory per connected agent). A failure of `open` or of the handler closes the socket with
 * 1011; the handler or anything in the scope may close it with `connection.close`. Messages still
 * waiting when the socket closes are not handled.
 */
export const upgradeMessageHandler = <R, RH>(
  open: (connection: WebSocketConnection) => Effect.Effect<(text: string) => Effect.Effect<void, never, RH>, never, R>,
  options: UpgradeOptions = {}
): Effect.Effect<WebSocketUpgrade, never, Exclude<R | RH, Scope.Scope>> =>
  Effect.map(
    Effect.context<Exclude<R | RH, Scope.Scope>>(),
    (context) =>
      new WebSocketUpgrade(
        () => Effect.void,
        options.largeMessages === true,
        undefined,
        undefined,
        context as Context.Context<never>,
        undefined,
        open as unknown as MessageHandlerOpen
      )
  )

/** Answers with a WebSocket whose session takes the socket itself (binary frames; see `WebSocketUpgrade.raw`). */
export const upgradeRawWebSocket = <R>(
  session: (ws: WebSocket) => Effect.Effect<void, never, R>,
  options: UpgradeOptions = {}
): Effect.Effect<WebSocketUpgrade, never, R> =>
  Effect.map(
    Effect.context<R>(),
    (context) =>
      new WebSocketUpgrade(
        () => Effect.void,
        options.largeMessages === true,
        session as (ws: WebSocket) => Effect.Effect<void>,
        undefined,
        context as Context.Context<never>
      )
  )

/**
 * Answers with one end of a stream (WebSocketSplice.ts): held in this process, or handed to the
 * hub's socket relay (SocketRelay.ts), which then answers the handshake and carries its frames.
 * The session is interrupted when the end closes.
 */
export const upgradeStreamEnd = <R>(
  session: (end: StreamEnd) => Effect.Effect<void, never, R>,
  options: { readonly byteStream?: boolean | undefined } = {}
): Effect.Effect<WebSocketUpgrade, never, R> =>
  Effect.map(
    Effect.context<R>(),
    (context) =>
      new WebSocketUpgrade(
        () => Effect.void,
        false,
        undefined,
        undefined,
        context as Context.Context<never>,
        undefined,
        undefined,
        session as (end: StreamEnd) => Effect.Effect<void>,
        options.byteStream === true
      )
  )

/** Answers by relaying the upgrade, as it came, to another replica (Relay.ts). */
export const relayWebSocket = (target: RelayTarget): WebSocketUpgrade =>
  new WebSocketUpgrade(() => Effect.void, false, undefined, target)

/**
 * A session that sends each element of `stream` as one text message and closes with 1000 when
 * the stream ends. A failure of the stream closes with 1011 and its message as the reason.
 */
export const streamSession =
  <E, R>(stream: Stream.Stream<string | Uint8Array, E, R>, describe: (e: E) => string = String) =>
  (connection: WebSocketConnection): Effect.Effect<void, never, R> =>
    StreamM.runForEach(stream, (text) => connection.send(text)).pipe(
      Effect.matchEffect({
        onFailure: (e) =>
          e instanceof WebSocketClosed
            ? Effect.void
            : connection.close(CloseCode.internalError, clipReason(describe(e as E))),
        onSuccess: () => connection.close(CloseCode.normal, "")
      })
    )

/**
 * A session for a peer that follows a state: `start` registers, in the session's scope, a
 * listener that hands each new state to `sendLatest` (called synchronously by whoever fans the
 * state out to every socket, with no fiber or queue per socket); the session then lasts until
 * the socket closes. The `first` messages are sent before it starts.
 */
export const followSession = <R>(
  start: (sendLatest: (text: string | Uint8Array) => void) => Effect.Effect<void, never, R>,
  first: ReadonlyArray<string | Uint8Array> = []
) =>
(connection: WebSocketConnection): Effect.Effect<void, never, Exclude<R, Scope.Scope>> =>
  Effect.scoped(Effect.gen(function*() {
    for (const message of first) connection.sendLatest(message)
    yield* start(connection.sendLatest)
    yield* connection.closed
  }))

/** Whether the request asks for a WebSocket (`Upgrade: websocket`; `Connection: Upgrade`). */
export const asksForWebSocket = (
  headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
): boolean => {
  const tokens = (name: string) => {
    const v = headers[name]
    return (v === undefined ? [] : typeof v === "string" ? [v] : v).flatMap((s) => s.split(",")).map((s) =>
      s.trim().toLowerCase()
    )
  }
  return tokens("upgrade").includes("websocket") && tokens("connection").includes("upgrade")
}

export interface WebSocketHubOptions {
  readonly maxMessageBytes: number
  /** The cap of routes that upgrade with `largeMessages` (default: the template file limit, 10 MiB). */
  readonly maxLargeMessageBytes?: number | undefined
  readonly pingIntervalMillis: number
  /**
   * Streams' sockets handed to a relay process of their own (SocketRelay.ts, started on the first
   * stream); without it they are joined in this process.
   */
  readonly streamRelay?: SocketRelayOptions | undefined
  /** Runs an effect on the service's runtime, with `context` as its services when given. */
  readonly runFork: <A, E>(effect: Effect.Effect<A, E>, context?: Context.Context<never>) => Fiber.RuntimeFiber<A, E>
}

/** The accepted WebSockets of one service: upgrades them, keeps them alive, closes them all at the end. */
export interface WebSocketHub {
  readonly accept: (req: IncomingMessage, socket: Duplex, head: Buffer, upgrade: WebSocketUpgrade) => void
  /** How many sockets are open. */
  readonly size: () => number
  /** Bytes queued for sending on all sockets, not yet handed to the operating system. */
  readonly bufferedBytes: () => number
  /** Closes every socket (1001) and stops accepting; once. */
  readonly close: () => Promise<void>
}

interface Live {
  readonly ws: WebSocket
  alive: boolean
  fiber: Fiber.RuntimeFiber<void, never> | undefined
  /** When the unanswered ping was sent (`performance.now()`); undefined when none is. */
  pingSentAt: number | undefined
  /** The latest round trip (`latestRoundTrip`). */
  roundTrip: number | undefined
  /** Waiting for the next pong's round trip (`nextRoundTrip`). */
  readonly roundTripWaiters: Set<(ms: number | undefined) => void>
  /** A handler session's end, run when the socket closes (instead of interrupting `fiber`). */
  finish: (() => void) | undefined
}

/** Sends a keep-alive ping, timed for the round trip unless one is already on its way. */
const ping = (entry: Live) => {
  entry.pingSentAt ??= performance.now()
  entry.ws.ping()
}

export const makeWebSocketHub = (options: WebSocketHubOptions): WebSocketHub => {
  // `ws` caps messages per server: one for ordinary routes, one (made on first use) for large messages.
  const serverFor = (maxPayload: number) =>
    new WebSocketServer({ noServer: true, clientTracking: false, maxPayload, perMessageDeflate: false })
  const server = serverFor(options.maxMessageBytes)
  let largeServer: WebSocketServer | undefined
  let bytesServer: WebSocketServer | undefined
  // Spread over slots, one slot swept per tick (Slots.ts): each socket is still pinged once an
  // interval, but thousands of sockets are not all pinged in the same turn of the event loop.
  const live = new Slots<Live>()
  let closing = false
  let stopSweeping: (() => void) | undefined
  const relay: SocketRelay | undefined = options.streamRelay === undefined ? undefined : makeSocketRelay({
    ...options.streamRelay,
    maxPayload: options.maxMessageBytes,
    pingIntervalMillis: options.pingIntervalMillis,
    warn: (message) => void options.runFork(Effect.logWarning(message))
  })
  // The sessions of ends handed to the relay, interrupted when the hub closes.
  const handed = new Set<Fiber.RuntimeFiber<void, never>>()

  /** Runs the session of an end handed to the relay, interrupted once the end closes. */
  const runHanded = (id: number, upgrade: WebSocketUpgrade, session: (end: StreamEnd) => Effect.Effect<void>) => {
    const own = relay!
    const fiber = options.runFork(
      session({ _tag: "Handed", id, relay: own }).pipe(
        Effect.catchAllCause((cause) =>
          Cause.isInterruptedOnly(cause) ? Effect.void : Effect.logError("A WebSocket stream failed", cause)
        ),
        Effect.ensuring(Effect.sync(() => own.close(id, CloseCode.normal, "")))
      ),
      upgrade.context
    )
    handed.add(fiber)
    const cancel = own.whenClosed(id, () => void options.runFork(Fiber.interrupt(fiber)))
    fiber.addObserver(() => {
      handed.delete(fiber)
      cancel()
    })
    if (upgrade.ended !== undefined) fiber.addObserver(upgrade.ended)
  }

  const sweep = (entry: Live) => {
    // A socket the session's backlog paused is not read, so its pongs wait unread: judged once
    // it reads again, never dropped for the server's own slowness.
    if (entry.ws.isPaused) {
      entry.alive = true
      return
    }
    if (!entry.alive) {
      entry.ws.terminate()
      return
    }
    entry.alive = false
    ping(entry)
  }

  const connectionOf = (
    ws: WebSocket,
    closed: Deferred.Deferred<void>,
    entry: Live,
    /** Called when a message arrives that no `receive` waits for (a handler session's wake). */
    arrived?: () => void
  ): { readonly connection: WebSocketConnection; readonly take: () => string | undefined } => {
    // receive: messages not yet taken, and the taker waiting for the next one.
    const inbox: Array<string> = []
    let inboxBytes = 0
    let taker: ((message: string | undefined) => void) | undefined
    let ended = false
    let paused = false
    ws.on("message", (data) => {
      if (ended) return
      const text = Buffer.isBuffer(data)
        ? data.toString("utf8")
        : Array.isArray(data)
        ? Buffer.concat(data).toString("utf8")
        : Buffer.from(data).toString("utf8")
      if (taker !== undefined) {
        const t = taker
        taker = undefined
        return t(text)
      }
      inbox.push(text)
      inboxBytes += text.length
      if ((inbox.length > WEBSOCKET_RECEIVE_BUFFER || inboxBytes > WEBSOCKET_RECEIVE_BUFFER_BYTES) && !paused) {
        paused = true
        ws.pause()
      }
      arrived?.()
    })
    const endReceive = () => {
      ended = true
      if (taker !== undefined) {
        const t = taker
        taker = undefined
        t(undefined)
      }
    }
    ws.on("close", endReceive)
    /** The next message received and not yet taken, if any (reading resumes once few wait). */
    const take = (): string | undefined => {
      const next = inbox.shift()
      if (next !== undefined) inboxBytes -= next.length
      if (paused && inbox.length <= WEBSOCKET_RECEIVE_BUFFER / 2 && inboxBytes <= WEBSOCKET_RECEIVE_BUFFER_BYTES / 2) {
        paused = false
        ws.resume()
      }
      return next
    }
    const receive = Effect.async<string, WebSocketClosed>((resume) => {
      const next = take()
      if (next !== undefined) return resume(Effect.succeed(next))
      if (ended) return resume(Effect.fail(new WebSocketClosed({})))
      taker = (message) =>
        resume(message === undefined ? Effect.fail(new WebSocketClosed({})) : Effect.succeed(message))
      return Effect.sync(() => void (taker = undefined))
    })
    // sendLatest: while the socket is backed up, the one message waiting for it to drain (the latest wins).
    let waiting: string | Uint8Array | undefined
    let backedUp = false
    const written = () => {
      if (!backedUp || ws.bufferedAmount > WEBSOCKET_HIGH_WATER_BYTES) return
      backedUp = false
      const next = waiting
      waiting = undefined
      if (next !== undefined) sendLatest(next)
    }
    const sendLatest = (text: string | Uint8Array) => {
      if (ws.readyState !== ws.OPEN) return
      if (backedUp) {
        waiting = text
        return
      }
      ws.send(text, { binary: false }, written)
      if (ws.bufferedAmount > WEBSOCKET_HIGH_WATER_BYTES) backedUp = true
    }
    const connection: WebSocketConnection = {
      sendLatest,
      send: (text) =>
        Effect.async<void, WebSocketClosed>((resume) => {
          if (ws.readyState !== ws.OPEN) return resume(Effect.fail(new WebSocketClosed({})))
          let waiting = false
          let done = false
          ws.send(text, { binary: false }, (error) => {
            if (!waiting || done) return
            done = true
            resume(error ? Effect.fail(new WebSocketClosed({})) : Effect.void)
          })
          if (ws.bufferedAmount > WEBSOCKET_HIGH_WATER_BYTES) waiting = true
          else {
            done = true
            resume(Effect.void)
          }
        }),
      close: (code = CloseCode.normal, reason = "") =>
        Effect.sync(() => {
          if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(code, clipReason(reason))
          // Closing: nothing the peer sends from now on is taken (receive ends once the inbox is).
          endReceive()
        }),
      closed: Deferred.await(closed),
      receive,
      latestRoundTrip: () => entry.roundTrip,
      nextRoundTrip: Effect.async<number, WebSocketClosed>((resume) => {
        if (ws.readyState !== ws.OPEN) return resume(Effect.fail(new WebSocketClosed({})))
        const waiter = (ms: number | undefined) =>
          resume(ms === undefined ? Effect.fail(new WebSocketClosed({})) : Effect.succeed(ms))
        entry.roundTripWaiters.add(waiter)
        return Effect.sync(() => void entry.roundTripWaiters.delete(waiter))
      })
    }
    return { connection, take }
  }

  /** Logs a session's failure and closes its socket with 1011 (an interruption is no failure). */
  const failed = (connection: WebSocketConnection) => (cause: Cause.Cause<never>) =>
    Cause.isInterruptedOnly(cause)
      ? Effect.void
      : Effect.zipRight(
        Effect.logError("A WebSocket session failed", cause),
        connection.close(CloseCode.internalError, "An internal error occurred.")
      )

  /**
   * Serves a handler session (`upgradeMessageHandler`): runs its set-up in a scope of its own, then a
   * fiber for each run of waiting messages, and closes the scope once the socket closes (after
   * interrupting what runs). `entry.fiber` is what runs now (the set-up, a run of messages, then the
   * closing), for the hub's `close` to wait for; none between messages.
   */
  const openHandler = (
    ws: WebSocket,
    closed: Deferred.Deferred<void>,
    entry: Live,
    upgrade: WebSocketUpgrade,
    open: MessageHandlerOpen
  ) => {
    const scope = Effect.runSync(Scope.make())
    let handle: ((text: string) => Effect.Effect<void>) | undefined
    let finished = false
    const run = (effect: Effect.Effect<void>) => {
      const fiber = options.runFork(effect, upgrade.context)
      entry.fiber = fiber
      fiber.addObserver(() => {
        // Replaced by the closing meanwhile: nothing more to run.
        if (entry.fiber !== fiber) return
        // A fiber that ended is not kept (it holds its refs until collected: memory per connection).
        entry.fiber = undefined
        pump()
      })
    }
    const drain = (h: (text: string) => Effect.Effect<void>, text: string): Effect.Effect<void> =>
      Effect.zipRight(
        h(text),
        Effect.suspend(() => {
          const next = finished || ws.readyState !== ws.OPEN ? undefined : take()
          return next === undefined ? Effect.void : drain(h, next)
        })
      )
    const pump = () => {
      // Once closing (the peer, the handler, a failure), what is still waiting is not handled.
      if (finished || entry.fiber !== undefined || handle === undefined || ws.readyState !== ws.OPEN) return
      const first = take()
      if (first !== undefined) run(Effect.catchAllCause(drain(handle, first), failed(connection)))
    }
    const { connection, take } = connectionOf(ws, closed, entry, pump)
    entry.finish = () => {
      if (finished) return
      finished = true
      const current = entry.fiber
      // Not interruptible as a whole: the hub's `close` interrupts what runs, and the scope must close.
      const fiber = options.runFork(
        Effect.uninterruptible(Effect.zipRight(
          current === undefined ? Effect.void : Fiber.interrupt(current),
          Scope.close(scope, Exit.void)
        )),
        upgrade.context
      )
      entry.fiber = fiber
      if (upgrade.ended !== undefined) fiber.addObserver(upgrade.ended)
    }
    // The first round trip is known at once, not a ping interval later (an agent's latency).
    ping(entry)
    run(
      extendInPlace(open(connection), scope).pipe(
        Effect.flatMap((h) => Effect.sync(() => void (handle = h))),
        Effect.catchAllCause(failed(connection))
      )
    )
  }

  const accept = (req: IncomingMessage, socket: Duplex, head: Buffer, upgrade: WebSocketUpgrade) => {
    if (closing) {
      socket.destroy()
      return
    }
    if (upgrade.relay !== undefined) {
      // Piped by the socket relay when there is one, else here.
      const handed = relay?.pipe(socket, head, relayRequestHead(req, upgrade.relay.headers), upgrade.relay.address)
      if (handed !== true) relayUpgrade(req, socket, head, upgrade.relay)
      return
    }
    const end = upgrade.end
    if (end !== undefined && relay !== undefined) {
      const id = relay.take(req, socket, head, upgrade.byteStream)
      if (id !== undefined) return runHanded(id, upgrade, end)
    }
    const target = upgrade.largeMessages
      ? (largeServer ??= serverFor(
        Math.max(options.maxMessageBytes, options.maxLargeMessageBytes ?? DEFAULT_MAX_FILE_BYTES)
      ))
      : upgrade.byteStream
      ? (bytesServer ??= byteStreamServer(options.maxMessageBytes))
      : server
    // `ws` answers a bad handshake (version, key) with 400 itself.
    target.handleUpgrade(req, socket, head, (ws) => {
      const closed = Deferred.unsafeMake<void>(FiberId.none)
      const entry: Live = {
        ws,
        alive: true,
        fiber: undefined,
        pingSentAt: undefined,
        roundTrip: undefined,
        roundTripWaiters: new Set(),
        finish: undefined
      }
      const slot = live.add(entry)
      stopSweeping ??= visitEvery(live, options.pingIntervalMillis, sweep)
      // Any bytes from the peer show it alive: a pong may wait behind a large message it is sending.
      ws.on("pong", () => {
        entry.alive = true
        if (entry.pingSentAt === undefined) return
        const ms = performance.now() - entry.pingSentAt
        entry.pingSentAt = undefined
        entry.roundTrip = ms
        for (const resume of entry.roundTripWaiters) resume(ms)
        entry.roundTripWaiters.clear()
      })
      socket.on("data", () => void (entry.alive = true))
      ws.on("error", () => ws.terminate())
      ws.on("close", () => {
        live.delete(entry, slot)
        if (live.size === 0 && stopSweeping !== undefined) {
          stopSweeping()
          stopSweeping = undefined
        }
        Deferred.unsafeDone(closed, Exit.void)
        for (const resume of entry.roundTripWaiters) resume(undefined)
        entry.roundTripWaiters.clear()
        if (entry.finish !== undefined) entry.finish()
        else if (entry.fiber !== undefined) options.runFork(Fiber.interrupt(entry.fiber))
      })
      // An end of a stream served here: its frames are held from now on, until it is joined.
      const raw = end === undefined
        ? upgrade.raw
        : ((held) => () => end({ _tag: "Held", held }))(holdSocket(ws, socket))
      if (raw !== undefined) {
        entry.fiber = options.runFork(
          raw(ws).pipe(
            Effect.catchAllCause((cause) =>
              Cause.isInterruptedOnly(cause) ? Effect.void : Effect.logError("A WebSocket stream failed", cause)
            ),
            Effect.ensuring(Effect.sync(() => {
              if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(CloseCode.normal, "")
            }))
          ),
          upgrade.context
        )
        if (upgrade.ended !== undefined) entry.fiber.addObserver(upgrade.ended)
        return
      }
      if (upgrade.open !== undefined) return openHandler(ws, closed, entry, upgrade, upgrade.open)
      const { connection } = connectionOf(ws, closed, entry)
      // The first round trip is known at once, not a ping interval later (an agent's latency).
      ping(entry)
      entry.fiber = options.runFork(
        upgrade.session(connection).pipe(
          Effect.catchAllCause(failed(connection)),
          Effect.zipRight(connection.close(CloseCode.normal, ""))
        ),
        upgrade.context
      )
      if (upgrade.ended !== undefined) entry.fiber.addObserver(upgrade.ended)
    })
  }

  const close = async () => {
    if (closing) return
    closing = true
    stopSweeping?.()
    stopSweeping = undefined
    // The relay closes its ends (1001) meanwhile.
    const relayStopped = relay?.stop()
    const entries = live.all()
    await Promise.all(entries.map((entry) =>
      new Promise<void>((resolve) => {
        if (entry.ws.readyState === entry.ws.CLOSED) return resolve()
        entry.ws.once("close", () => resolve())
        entry.ws.close(CloseCode.goingAway, "The server is shutting down.")
        // A peer that does not answer the closing handshake is cut off.
        setTimeout(() => entry.ws.terminate(), 1000).unref?.()
      })
    ))
    await Promise.all(
      entries.map((entry) => entry.fiber === undefined ? undefined : Effect.runPromise(Fiber.interrupt(entry.fiber)))
    )
    await Promise.all([relayStopped, ...[...handed].map((fiber) => Effect.runPromise(Fiber.interrupt(fiber)))])
    server.close()
    largeServer?.close()
    bytesServer?.close()
  }

  const bufferedBytes = () => {
    let total = 0
    live.forEach((entry) => (total += entry.ws.bufferedAmount))
    return total
  }

  return { accept, size: () => live.size + (relay?.size() ?? 0), bufferedBytes, close }
}
