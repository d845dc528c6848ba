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
    /** The client's end of a byte stream (StreamFrames.ts). */
    readonly byteStream: boolean
  }
  | {
    /** A request relayed to another replica as its raw connection (ReplicaPipe.ts); comes with the socket. */
    readonly t: "pipe"
    readonly id: number
    readonly address: string
    readonly requestHead: string
    readonly head: string
  }
  | { readonly t: "join"; readonly a: number; readonly b: number }
  | { readonly t: "close"; readonly id: number; readonly code: number; readonly reason: string }
  | { readonly t: "stop" }

/**
 * Messages from the relay's process: `took` once a socket handed with `take` or `pipe` is its own
 * (the service then closes its copy), `closed` once an end is.
 */
export type RelayFromChild =
  | { readonly t: "took"; readonly id: number }
  | { readonly t: "closed"; readonly id: number }
  | { readonly t: "stopped" }

/** The service's side of its socket relay. */
export interface SocketRelay {
  /**
   * Hands a socket that asked to upgrade (its handshake not yet answered) to the relay, which
   * answers it: the end's id. Undefined when it cannot be handed (not a plain TCP socket, or the
   * relay is stopping): serve it in this process.
   */
  readonly take: (req: IncomingMessage, socket: Duplex, head: Buffer, byteStream: boolean) => number | undefined
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

/** An end the service handed to a relay: what the service last told the relay of it, to tell a new one. */
interface OpenEnd {
  holder: ChildProcess
  readonly waiters: Set<() => void>
  /** The end it is joined with. */
  partner?: number
  /** How the service closed it. */
  closing?: { readonly code: number; readonly reason: string }
}

/** A socket sent to a relay's process and not yet taken. */
interface Handing {
  readonly holder: ChildProcess
  readonly message: Extract<RelayToChild, { t: "take" | "pipe" }>
  readonly socket: Socket & { readonly _handle?: unknown }
  readonly retried: boolean
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
  // The open ends: the relay's process that holds each, and what waits for its close.
  const open = new Map<number, OpenEnd>()
  // The sockets handed and not yet taken (`took`): this process keeps its copy until then.
  const handing = new Map<number, Handing>()

  const ended = (id: number) => {
    const end = open.get(id)
    if (end === undefined) return
    open.delete(id)
    for (const resume of end.waiters) resume()
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
      else if (message.t === "took") took(message.id)
    })
    started.on("error", (e) => options.warn(`The socket relay failed: ${e.message}`))
    // Gone: what it had not taken is handed once more, to a new relay; what it held is closed.
    // Once its exit is seen, after what it sent before has been read (in this turn's reads: a
    // socket it took and answered must not be answered twice); or once its channel closes.
    let gone = false
    const whenGone = () => {
      if (gone) return
      gone = true
      if (child === started) child = undefined
      const moved: Array<number> = []
      for (const [id, hand] of [...handing]) {
        if (hand.holder === started && rehand(id, hand)) moved.push(id)
      }
      const held = [...open].filter(([, end]) => end.holder === started).map(([id]) => id)
      if (!stopping && held.length > 0) {
        options.warn(`The socket relay's ${held.length} open stream ends are closed; the next ones start it again.`)
      }
      for (const id of held) ended(id)
      // What the service told the gone relay of the ends handed again (joins, closes) went with it:
      // the new relay is told once more.
      for (const id of moved) retell(id)
      started.kill("SIGKILL")
    }
    started.once("exit", (code, signal) => {
      if (!stopping) options.warn(`The socket relay exited (${signal ?? `code ${code}`}).`)
      setImmediate(whenGone)
    })
    started.once("disconnect", whenGone)
    return started
  }

  /** The relay's process to hand the next socket to: a new one when there is none or the last one's channel is closed. */
  const current = (): ChildProcess => {
    if (child !== undefined && !child.connected) child = undefined
    child ??= start()
    return child
  }

  const send = (target: ChildProcess | undefined, message: RelayToChild) => {
    if (target === undefined || !target.connected) return false
    try {
      target.send(message)
      return true
    } catch {
      return false
    }
  }

  const took = (id: number) => {
    const hand = handing.get(id)
    if (hand === undefined) return
    handing.delete(id)
    // The relay holds its own descriptor of it; closing this process's does not end the connection.
    hand.socket.destroy()
  }

  /**
   * A socket not taken by the relay it was sent to: sent once more, to a new relay (true), or
   * closed with its end.
   */
  const rehand = (id: number, hand: Handing): boolean => {
    handing.delete(id)
    if (!stopping && !hand.retried && !hand.socket.destroyed && hand.socket._handle != null) {
      if (handOver(id, hand.message, hand.socket, true)) return true
    }
    hand.socket.destroy()
    ended(id)
    return false
  }

  /** Tells an end's new relay what its gone one was told: its close, or its join (a partner gone too closes it). */
  const retell = (id: number) => {
    const end = open.get(id)
    if (end === undefined) return
    if (end.closing !== undefined) return void send(end.holder, { t: "close", id, ...end.closing })
    if (end.partner === undefined) return
    const other = open.get(end.partner)
    if (other === undefined || other.holder !== end.holder) {
      return void send(end.holder, { t: "close", id, code: CloseCode.internalError, reason: "" })
    }
    // Its partner closed: so is it, as the join would have carried the close.
    if (other.closing !== undefined) return void send(end.holder, { t: "close", id, ...other.closing })
    // Once per pair (the other end was handed again too): by the lower id.
    if (id < end.partner) send(end.holder, { t: "join", a: id, b: end.partner })
  }

  /**
   * Sends `socket` with `message`, as a socket of no server. This process keeps its copy, not
   * reading from it, until the relay says it took it: a relay gone before that (killed, its exit
   * not yet seen here) loses no connection.
   */
  const handOver = (
    id: number,
    message: Extract<RelayToChild, { t: "take" | "pipe" }>,
    socket: Socket,
    retried = false
  ): boolean => {
    const target = current()
    // Node would otherwise count the relay as one of the listener's workers, and after the relay's
    // exit the listener's `close` would never call back. The listener counts the connection closed
    // once this process's descriptor is (`took`).
    const detached = socket as unknown as { server: unknown }
    detached.server = null
    socket.on("error", () => undefined)
    // This process reads no more of it: what the client sends after the relay's answer is the relay's.
    const handle = (socket as unknown as { _handle: { reading: boolean; readStop: () => number } })._handle
    handle.reading = false
    handle.readStop()
    const end = open.get(id)
    if (end !== undefined) end.holder = target
    handing.set(id, { holder: target, message, socket, retried })
    try {
      target.send(message, socket as never, { keepOpen: true } as never, (e) => {
        // Not sent: the channel is broken, and its close hands the socket again (`disconnect`).
        if (e !== null && e !== undefined && target.connected) target.disconnect()
      })
      return true
    } catch {
      handing.delete(id)
      return false
    }
  }

  const pipe = (socket: Duplex, head: Buffer, requestHead: string, address: string): boolean =>
    !stopping && handable(socket) &&
    handOver(nextId, { t: "pipe", id: nextId++, address, requestHead, head: head.toString("base64") }, socket)

  const take = (req: IncomingMessage, socket: Duplex, head: Buffer, byteStream: boolean): number | undefined => {
    if (stopping || !handable(socket)) return undefined
    const id = nextId++
    open.set(id, { holder: current(), waiters: new Set() })
    const sent = handOver(id, {
      t: "take",
      id,
      method: req.method ?? "GET",
      headers: req.headers,
      head: head.toString("base64"),
      byteStream
    }, socket)
    if (!sent) {
      open.delete(id)
      return undefined
    }
    return id
  }

  const whenClosed = (id: number, f: () => void): () => void => {
    const end = open.get(id)
    if (end === undefined) {
      f()
      return () => undefined
    }
    const waiter = () => f()
    end.waiters.add(waiter)
    return () => void end.waiters.delete(waiter)
  }

  const closed = (id: number): Effect.Effect<void> =>
    Effect.async<void>((resume) => Effect.sync(whenClosed(id, () => resume(Effect.void))))

  const close = (id: number, code: number, reason: string) => {
    const end = open.get(id)
    if (end === undefined) return
    end.closing ??= { code, reason }
    send(end.holder, { t: "close", id, code, reason })
  }

  const join = (a: number, b: number): Effect.Effect<void> =>
    Effect.suspend(() => {
      const one = open.get(a)
      const other = open.get(b)
      if (one !== undefined && other !== undefined && one.holder === other.holder) {
        one.partner = b
        other.partner = a
        send(one.holder, { t: "join", a, b })
      } else {
        // Not both held by one relay (one's went since): each goes, as a join with a closed end would.
        close(a, CloseCode.internalError, "")
        close(b, CloseCode.internalError, "")
      }
      return Effect.zipRight(closed(a), closed(b))
    }).pipe(
      Effect.onInterrupt(() =>
        Effect.sync(() => {
          close(a, CloseCode.goingAway, "The stream was ended.")
          close(b, CloseCode.goingAway, "The stream was ended.")
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
      if (!send(target, { t: "stop" })) target.kill("SIGKILL")
      // A relay that does not finish closing its sockets in time is stopped all the same.
      setTimeout(() => target.kill("SIGKILL"), 3000).unref()
    })
  }

  return { take, pipe, join, close, closed, whenClosed, size: () => open.size, stop }
}
