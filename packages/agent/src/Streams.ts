/**
 * Streams into the workspace (docs/agents.md, "Into the workspace: terminals, tunnels and SSH"):
 * for each `stream_open` the service sends on the agent connection, the agent opens a WebSocket
 * back to the service (`path` on its URL, its token as a bearer) and joins it to the
 * stream's kind: `pty` a reconnecting terminal (Pty.ts), `tcp` a TCP connection to
 * `127.0.0.1:<port>`, `ssh` its SSH server (Ssh.ts). A stream it cannot serve is opened and
 * closed with 1011 and why.
 */
import { connect as tcpConnect } from "node:net"
import { PtySessions } from "./Pty.js"
import { type ConnectionReport, parseStreamOpen, type SessionEnvironment, type StreamOpen } from "./Session.js"
import { SshServer } from "./Ssh.js"
import { openStreamSocket, socketDuplex, StreamSocket } from "./StreamSocket.js"

export interface StreamsOptions {
  /** The service's URL (the agent's `--url`), which a stream's `path` is resolved against. */
  readonly url: string
  /** The agent's token now. */
  readonly token: () => string
  /** The manifest's directory and environment, once the agent has read its manifest. */
  readonly environment: () => Promise<SessionEnvironment>
  /** Sends a connection report (`POST /workspaceagents/me/connections`). */
  readonly report: (report: ConnectionReport) => void
  readonly log: (line: string) => void
  /** How long a terminal with no socket attached lives; default 5 minutes. */
  readonly ptyIdleTimeoutMs?: number | undefined
}

export interface Streams {
  /** Handles a `stream_open` message; false for any other message. */
  readonly handle: (message: Record<string, unknown>) => boolean
  /** Serves one stream (the `stream_open` already parsed). */
  readonly open: (open: StreamOpen) => void
  /** The sockets attached to terminals, the SSH connections and the TCP tunnels open now. */
  readonly counts: () => { readonly reconnectingPty: number; readonly ssh: number; readonly tcp: number }
  /**
   * What was in use since the last call, for `update_stats`: of each kind, the streams open now or,
   * when more, the streams opened since the last call (a short `ssh dev make` between two reports
   * counts: the workspace was used): terminals' sockets, SSH connections, TCP tunnels.
   */
  readonly usage: () => { readonly reconnectingPty: number; readonly ssh: number; readonly tcp: number }
  /** The SSH server's host key, as a public key line. */
  readonly sshPublicKey: () => string
  /** Ends every terminal, SSH connection and tunnel. */
  readonly close: () => void
}

/** Joins the open `socket` to a TCP connection to 127.0.0.1:`port`, either side ending the other. */
const serveTcp = (socket: StreamSocket, port: number) => {
  if (!Number.isInteger(port) || port < 1 || port > 65535) return socket.close(1011, `Bad port ${port}.`)
  const tcp = tcpConnect({ host: "127.0.0.1", port })
  const duplex = socketDuplex(socket)
  let connected = false
  tcp.on("connect", () => {
    connected = true
    if (socket.ws.isPaused) socket.ws.resume()
  })
  tcp.on("error", (e) => socket.close(1011, connected ? e.message : `dial tcp 127.0.0.1:${port}: ${e.message}`))
  // Bytes both ways with back-pressure: a full socket buffer pauses the WebSocket, a socket
  // over 256 KiB pauses the TCP connection.
  duplex.pipe(tcp)
  tcp.pipe(duplex)
  // The frames of one read of the service's socket go to the connection in one write.
  let corked = false
  socket.ws.prependListener("message", () => {
    if (corked) return
    corked = true
    tcp.cork()
    process.nextTick(() => {
      corked = false
      tcp.uncork()
    })
  })
  // No half-close: the client's socket closing closes the connection once what it sent is written.
  socket.ws.on("close", () => tcp.end(() => tcp.destroy()))
  tcp.on("close", () => socket.close(1000))
}

export const makeStreams = (options: StreamsOptions): Streams => {
  const ptys = new PtySessions({
    environment: options.environment,
    report: options.report,
    log: options.log,
    idleTimeoutMs: options.ptyIdleTimeoutMs
  })
  const ssh = new SshServer({
    token: options.token,
    environment: options.environment,
    report: options.report,
    log: options.log
  })
  const sockets = new Set<StreamSocket>()
  /** The TCP tunnels open now. */
  let tunnels = 0
  /** Streams of each kind opened since the last `usage()`. */
  let opened = { pty: 0, ssh: 0, tcp: 0 }
  let closed = false

  const open = (open: StreamOpen) => {
    if (closed) return
    const ws = openStreamSocket(options.url, open.path, options.token())
    const socket = new StreamSocket(ws)
    sockets.add(socket)
    ws.on("close", () => sockets.delete(socket))
    ws.on("unexpected-response", (_request, response) => {
      options.log(`stream ${open.stream_id}: the service answered ${response.statusCode} instead of upgrading`)
      ws.terminate()
    })
    ws.on("error", (e) => options.log(`stream ${open.stream_id}: ${e.message}`))
    ws.on("open", () => {
      // Nothing is read until the stream's side is ready for it (each kind resumes it).
      ws.pause()
      try {
        switch (open.kind) {
          case "pty":
            opened.pty++
            return void ptys.attach(socket, open).catch((e) => socket.close(1011, String(e)))
          case "tcp":
            opened.tcp++
            tunnels++
            ws.once("close", () => tunnels--)
            return serveTcp(socket, open.port)
          case "ssh":
            opened.ssh++
            return ssh.serve(socket, open)
          default:
            return socket.close(1011, `This agent serves no ${JSON.stringify(open.kind)} stream.`)
        }
      } catch (e) {
        socket.close(1011, e instanceof Error ? e.message : String(e))
      }
    })
  }

  const counts = () => ({ reconnectingPty: ptys.attached, ssh: ssh.size, tcp: tunnels })

  return {
    handle: (message) => {
      const parsed = parseStreamOpen(message)
      if (parsed === undefined) return false
      open(parsed)
      return true
    },
    open,
    counts,
    usage: () => {
      const now = counts()
      const used = {
        reconnectingPty: Math.max(now.reconnectingPty, opened.pty),
        ssh: Math.max(now.ssh, opened.ssh),
        tcp: Math.max(now.tcp, opened.tcp)
      }
      opened = { pty: 0, ssh: 0, tcp: 0 }
      return used
    },
    sshPublicKey: () => ssh.publicKey(),
    close: () => {
      closed = true
      ptys.close()
      ssh.close()
      for (const s of sockets) s.close(1001, "The agent is stopping.")
    }
  }
}
