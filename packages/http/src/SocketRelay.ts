/**
 * The socket relay (docs/agents.md, "The socket relay"): a process of its own, started by the
 * service on its first stream, that holds the streams' sockets (a client's terminal, tunnel or SSH,
 * and the agent's end of each) and joins them, so that a stream's frames never wait for the
 * service's event loop (its requests, its reads, its collector). The service still decides
 * everything: who may open what, which agent end belongs to which client, when a stream fails;
 * the relay answers the handshakes, carries the frames, keeps the sockets alive and says when each
 * is closed. Only plain TCP sockets can be handed to another process: a socket of a TLS listener,
 * or of anything that is not a Node socket, is served in the service's process as before
 * (WebSocketSplice.ts).
 */
import { Effect } from "effect"
import { type ChildProcess, fork } from "node:child_process"
import type { IncomingHttpHeaders, IncomingMessage } from "node:http"
import { Socket } from "node:net"
import type { Duplex } from "node:stream"
import { TLSSocket } from "node:tls"
import { CloseCode } from "./WebSocketClose.js"

/** How the service starts its socket relay (`HttpOptions.streamRelay`). */
export interface SocketRelayOptions {
  /** The relay's script: SocketRelayMain.ts, or its bundle (`socket-relay.cjs` beside the server's). */
  readonly script: string
  /** Node's options for it (`["--import", "tsx"]` to run the TypeScript source). */
  readonly execArgv?: ReadonlyArray<string> | undefined
}

/** What the relay's process is told at its start (in `WORKBAY_SOCKET_RELAY`). */
export interface SocketRelayChildOptions {
  readonly maxPayload: number
  readonly pingIntervalMillis: number
}

/** Messages to the relay's process; `take` comes with the socket. */
export type RelayToChild =
  | {
    readonly t: "take"
    readonly id: number
    readonly method: string
    readonly headers: IncomingHttpHeaders
    /** The bytes read past the request's head, base64. */
    readonly head: string
  }
  | {
    /** A request relayed to another replica as its raw connection (ReplicaPipe.ts); comes with the socket. */
    readonly t: "pipe"
    readonly address: string
    readonly requestHead: string
    readonly head: string
  }
  | { readonly t: "join"; readonly a: number; readonly b: number }
  | { readonly t: "close"; readonly id: number; readonly code: number; readonly reason: string }
  | { readonly t: "stop" }

/** Messages from the relay's process. */
export type RelayFromChild = { readonly t: "closed"; readonly id: number } | { readonly t: "stopped" }

/** The service's side of its socket relay. */
export interface SocketRelay {
  /**
   * Hands a socket that asked to upgrade (its handshake not yet answered) to the relay, which
   * answers it: the end's id. Undefined when it cannot be handed (not a plain TCP socket, or the
   * relay is stopping): serve it in this process.
   */
  readonly take: (req: IncomingMessage, socket: Duplex, head: Buffer) => number | undefined
  /**
   * Hands a socket that asked to upgrade, relayed to another replica (Relay.ts), to the relay, which
   * writes `requestHead` to `address` and joins the two connections. False when it cannot be handed:
   * relay it in this process.
   */
  readonly pipe: (socket: Duplex, head: Buffer, requestHead: string, address: string) => boolean
  /**
   * Joins two ends until both are closed; a close of one closes the other with its code and reason.
   * Interrupted, it closes both (1001).
   */
  readonly join: (a: number, b: number) => Effect.Effect<void>
  /** Closes an end (its code made sendable, as in-process). */
  readonly close: (id: number, code: number, reason: string) => void
  /** Completes once the end is closed. */
  readonly closed: (id: number) => Effect.Effect<void>
  /** Calls `f` once the end is closed (at once when it is); answers what cancels that. */
  readonly whenClosed: (id: number, f: () => void) => () => void
  /** How many ends are open. */
  readonly size: () => number
  /** Closes every end (1001) and stops the relay's process; once. */
  readonly stop: () => Promise<void>
}

/** A socket that can be handed to another process: a plain TCP one with its handle. */
const handable = (socket: Duplex): socket is Socket =>
  socket instanceof Socket && !(socket instanceof TLSSocket) &&
  (socket as unknown as { _handle: unknown })._handle != null && !socket.destroyed

export const makeSocketRelay = (
  options: SocketRelayOptions & SocketRelayChildOptions & {
    /** Says what went wrong with the relay's process (the service's log). */
    readonly warn: (message: string) => void
  }
): SocketRelay => {
  let child: ChildProcess | undefined
  let stopping = false
  let nextId = 1
  // The open ends, each with what waits for its close.
  const open = new Map<number, Set<() => void>>()

  const ended = (id: number) => {
    const waiters = open.get(id)
    if (waiters === undefined) return
    open.delete(id)
    for (const resume of waiters) resume()
  }

  const start = (): ChildProcess => {
    const childOptions: SocketRelayChildOptions = {
      maxPayload: options.maxPayload,
      pingIntervalMillis: options.pingIntervalMillis
    }
    const started = fork(options.script, [], {
      execArgv: [...(options.execArgv ?? [])],
      env: { ...process.env, WORKBAY_SOCKET_RELAY: JSON.stringify(childOptions) },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      serialization: "json"
    })
    // The relay never keeps the service alive: the service stops it, or it stops when the service is gone.
    started.unref()
    started.channel?.unref()
    started.on("message", (message: RelayFromChild) => {
      if (message.t === "closed") ended(message.id)
    })
    started.on("error", (e) => options.warn(`The socket relay failed: ${e.message}`))
    started.once("exit", (code, signal) => {
      if (child === started) child = undefined
      if (!stopping) {
        options.warn(
          `The socket relay exited (${
            signal ?? `code ${code}`
          }); its ${open.size} open stream ends are closed, the next ones start it again.`
        )
      }
      for (const id of [...open.keys()]) ended(id)
    })
    return started
  }

  const send = (message: RelayToChild, handle?: Socket) => {
    const target = child
    if (target === undefined || !target.connected) return false
    try {
      target.send(message, handle as never, { keepOpen: true } as never, (e) => {
        if (handle === undefined) return
        // Handed (the relay holds its own descriptor of it), or not handed after all: either way
        // this process's is closed, which does not end the connection the relay holds.
        handle.destroy()
        if (e !== null && message.t === "take") ended(message.id)
      })
      return true
    } catch {
      return false
    }
  }

  /** Sends `socket` with `message`, as a socket of no server. */
  const handOver = (message: RelayToChild, socket: Socket): boolean => {
    child ??= start()
    // Node would otherwise count the relay as one of the listener's workers, and after the relay's
    // exit the listener's `close` would never call back. The listener counts the connection closed
    // once this process's descriptor is (in `send`).
    const detached = socket as unknown as { server: unknown }
    detached.server = null
    socket.on("error", () => undefined)
    return send(message, socket)
  }

  const pipe = (socket: Duplex, head: Buffer, requestHead: string, address: string): boolean =>
    !stopping && handable(socket) &&
    handOver({ t: "pipe", address, requestHead, head: head.toString("base64") }, socket)

  const take = (req: IncomingMessage, socket: Duplex, head: Buffer): number | undefined => {
    if (stopping || !handable(socket)) return undefined
    const id = nextId++
    open.set(id, new Set())
    const sent = handOver({
      t: "take",
      id,
      method: req.method ?? "GET",
      headers: req.headers,
      head: head.toString("base64")
    }, socket)
    if (!sent) {
      open.delete(id)
      return undefined
    }
    return id
  }

  const whenClosed = (id: number, f: () => void): () => void => {
    const waiters = open.get(id)
    if (waiters === undefined) {
      f()
      return () => undefined
    }
    const waiter = () => f()
    waiters.add(waiter)
    return () => void waiters.delete(waiter)
  }

  const closed = (id: number): Effect.Effect<void> =>
    Effect.async<void>((resume) => Effect.sync(whenClosed(id, () => resume(Effect.void))))

  const close = (id: number, code: number, reason: string) => {
    if (open.has(id)) send({ t: "close", id, code, reason })
  }

  const join = (a: number, b: number): Effect.Effect<void> =>
    Effect.suspend(() => {
      send({ t: "join", a, b })
      return Effect.zipRight(closed(a), closed(b))
    }).pipe(
      Effect.onInterrupt(() =>
        Effect.sync(() => {
          if (open.has(a)) send({ t: "close", id: a, code: CloseCode.goingAway, reason: "The stream was ended." })
          if (open.has(b)) send({ t: "close", id: b, code: CloseCode.goingAway, reason: "The stream was ended." })
        })
      )
    )

  const stop = async () => {
    if (stopping) return
    stopping = true
    const target = child
    if (target === undefined) return
    await new Promise<void>((resolve) => {
      if (target.exitCode !== null || target.signalCode !== null) return resolve()
      target.once("exit", () => resolve())
      if (!send({ t: "stop" })) target.kill("SIGKILL")
      // A relay that does not finish closing its sockets in time is stopped all the same.
      setTimeout(() => target.kill("SIGKILL"), 3000).unref()
    })
  }

  return { take, pipe, join, close, closed, whenClosed, size: () => open.size, stop }
}
