/**
 * The socket relay's own process (docs/agents.md, "The socket relay"): the service hands it the
 * sockets of its streams (a client's terminal, tunnel or SSH, and the agent's end of each) with
 * their WebSocket handshakes still to answer; it answers them, joins each pair the service names
 * (SocketJoin.ts) and keeps them alive, so that a stream's frames never wait for the service's
 * event loop. Started by the service with `child_process.fork` (SocketRelay.ts); plain Node and
 * `ws`, nothing of the service. It stops when the service says so or when the service is gone.
 */
import type { Socket } from "node:net"
import { WebSocketServer } from "ws"
import { pipeToReplica } from "./ReplicaPipe.js"
import { closeSocket, type HeldSocket, holdSocket, joinSockets } from "./SocketJoin.js"
import type { RelayFromChild, RelayToChild, SocketRelayChildOptions } from "./SocketRelay.js"
import { byteStreamServer } from "./StreamFrames.js"
import { CloseCode } from "./WebSocketClose.js"

interface End {
  readonly held: HeldSocket
  alive: boolean
}

/** Runs the relay on this process's IPC channel until it is told to stop or the channel closes. */
export const runSocketRelay = (channel: NodeJS.Process, options: SocketRelayChildOptions): void => {
  const send = (message: RelayFromChild) => {
    if (channel.connected) channel.send!(message)
  }
  const server = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    maxPayload: options.maxPayload,
    perMessageDeflate: false
  })
  let bytesServer: WebSocketServer | undefined
  const ends = new Map<number, End>()
  let sweeper: ReturnType<typeof setInterval> | undefined
  let stopping = false

  // A socket that did not answer the previous ping is dropped; one whose reading is paused (its
  // other side is backed up) is not judged until it reads again.
  const sweep = () => {
    for (const end of ends.values()) {
      const ws = end.held.ws
      if (ws.isPaused) end.alive = true
      else if (!end.alive) ws.terminate()
      else {
        end.alive = false
        ws.ping()
      }
    }
  }

  const take = (id: number, message: Extract<RelayToChild, { t: "take" }>, socket: Socket | undefined) => {
    // The service's copy of the socket can go now: this one is ours (SocketRelay.ts, `handOver`).
    send({ t: "took", id })
    if (socket === undefined) return send({ t: "closed", id })
    if (stopping) {
      socket.destroy()
      return send({ t: "closed", id })
    }
    let accepted = false
    socket.on("error", () => socket.destroy())
    // `ws` answers a bad handshake (version, key) with 400 itself, and never calls back.
    const target = message.byteStream ? (bytesServer ??= byteStreamServer(options.maxPayload)) : server
    target.handleUpgrade(
      { method: message.method, headers: message.headers } as never,
      socket,
      Buffer.from(message.head, "base64"),
      (ws) => {
        accepted = true
        const end: End = { held: holdSocket(ws, socket), alive: true }
        ends.set(id, end)
        sweeper ??= setInterval(sweep, options.pingIntervalMillis)
        ws.on("pong", () => void (end.alive = true))
        socket.on("data", () => void (end.alive = true))
        ws.on("error", () => ws.terminate())
        ws.once("close", () => {
          ends.delete(id)
          if (ends.size === 0 && sweeper !== undefined) {
            clearInterval(sweeper)
            sweeper = undefined
          }
          send({ t: "closed", id })
        })
      }
    )
    if (!accepted) send({ t: "closed", id })
  }

  const close = (id: number, code: number, reason: string) => {
    const end = ends.get(id)
    if (end !== undefined) closeSocket(end.held.ws, code, reason)
  }

  const join = (a: number, b: number) => {
    const one = ends.get(a)
    const other = ends.get(b)
    if (one === undefined || other === undefined) {
      // One of them is gone already: the other goes too, as an in-process join would close it.
      close(a, CloseCode.internalError, "")
      close(b, CloseCode.internalError, "")
      return
    }
    joinSockets(one.held, other.held, () => undefined)
  }

  // Requests relayed to another replica (ReplicaPipe.ts): ended by their two connections, or by a stop.
  const pipes = new Set<Socket>()
  const pipe = (message: Extract<RelayToChild, { t: "pipe" }>, socket: Socket | undefined) => {
    send({ t: "took", id: message.id })
    if (socket === undefined) return
    if (stopping) return void socket.destroy()
    pipes.add(socket)
    socket.once("close", () => pipes.delete(socket))
    pipeToReplica(socket, Buffer.from(message.head, "base64"), message.requestHead, message.address)
  }

  const stop = () => {
    if (stopping) return
    stopping = true
    for (const socket of pipes) socket.destroy()
    const open = [...ends.values()]
    const closed = open.map((end) =>
      new Promise<void>((resolve) => {
        const ws = end.held.ws
        if (ws.readyState === ws.CLOSED) return resolve()
        ws.once("close", () => resolve())
        end.held.onClose = undefined
        closeSocket(ws, CloseCode.goingAway, "The server is shutting down.")
        // A peer that does not answer the closing handshake is cut off.
        setTimeout(() => ws.terminate(), 1000).unref()
      })
    )
    void Promise.all(closed).then(() => {
      if (sweeper !== undefined) clearInterval(sweeper)
      send({ t: "stopped" })
      if (channel.connected) channel.disconnect!()
    })
  }

  channel.on("message", (message: RelayToChild, handle: unknown) => {
    switch (message.t) {
      case "take":
        return take(message.id, message, handle as Socket | undefined)
      case "pipe":
        return pipe(message, handle as Socket | undefined)
      case "join":
        return join(message.a, message.b)
      case "close":
        return close(message.id, message.code, message.reason)
      case "stop":
        return stop()
    }
  })
  // The service is gone (it exited, or was killed): so are its streams.
  channel.once("disconnect", () => {
    stop()
    setTimeout(() => process.exit(0), 1500).unref()
  })
}

if (process.send !== undefined && process.env["WORKBAY_SOCKET_RELAY"] !== undefined) {
  runSocketRelay(process, JSON.parse(process.env["WORKBAY_SOCKET_RELAY"]) as SocketRelayChildOptions)
}
