/**
 * Reconnecting terminals (the `pty` stream; docs/agents.md, "The terminal"): a real pseudo-
 * terminal (node-pty) per `reconnect` id, running the user's login shell (or `command` in it with
 * `-c`) in the manifest's directory and environment with TERM=xterm-256color. The client's frames
 * are JSON `{data?, height?, width?}`; the terminal's output goes to every attached socket as
 * binary frames, and the last 64 KiB of it are replayed to a socket that attaches again. A
 * session with no socket lives `idleTimeoutMs` (5 minutes), then its shell is ended; the shell
 * ending closes every attached socket with 1000. The agent enters no containers.
 */
import type { IPty, spawn as ptySpawn } from "@lydell/node-pty"
import { readSync } from "node:fs"
import type { ReadStream } from "node:tty"
import type { RawData } from "ws"
import {
  type ConnectionReport,
  connectionReport,
  loginShell,
  sessionDirectory,
  sessionEnv,
  type SessionEnvironment,
  type StreamOpen
} from "./Session.js"
import type { StreamSocket } from "./StreamSocket.js"

/** How much recent output a session keeps for a socket that attaches again. */
export const REPLAY_BYTES = 64 * 1024
/** How long a session with no socket attached lives (the described system's default). */
export const PTY_IDLE_TIMEOUT_MS = 5 * 60 * 1000
const MAX_CELLS = 1000

interface NodePty {
  readonly spawn: typeof ptySpawn
}

let nodePty: Promise<NodePty> | undefined
/**
 * node-pty, loaded at the first terminal (its native part, pty.node, is loaded then: an agent
 * whose platform has none serves everything else and says why its terminals fail).
 */
export const loadNodePty = (): Promise<NodePty> => {
  nodePty ??= import("@lydell/node-pty").then(({ spawn }) => ({
    spawn: (...args: Parameters<typeof ptySpawn>) => keepFinalOutput(spawn(...args))
  }), (e) => {
    nodePty = undefined
    throw new Error(`This agent cannot open a terminal: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`)
  })
  return nodePty
}

const FINAL_OUTPUT_BYTES = 1024 * 1024

/**
 * Makes sure a terminal's last output reaches `onData` before `onExit`. Once the child exits,
 * node-pty gives its reader 200 ms to reach the end of the terminal's output and then destroys
 * the reader, dropping whatever it had not read yet (microsoft/node-pty#726): on a busy machine
 * the last lines of a command went missing. The reader now first hands on what it holds (read
 * while paused) and what the terminal still holds (the descriptor is non-blocking, so the loop
 * ends at EAGAIN or, the child gone, at EIO; at most 1 MiB), then is destroyed as before. The
 * terminals here read bytes (`encoding: null`), so what it hands on are Buffers too.
 */
export const keepFinalOutput = (pty: IPty): IPty => {
  const { _fd: fd, _socket: reader } = pty as unknown as { _fd?: number; _socket?: ReadStream }
  if (reader === undefined || typeof fd !== "number") return pty
  const destroy = reader.destroy.bind(reader)
  reader.destroy = (error?: Error) => {
    if (!reader.destroyed) {
      // `read()` hands each chunk it returns to the `data` listeners itself.
      while (reader.read() !== null);
      const chunk = Buffer.allocUnsafe(64 * 1024)
      // Bounded: a process left in the background may still be writing.
      for (let total = 0; total < FINAL_OUTPUT_BYTES;) {
        let n = 0
        try {
          n = readSync(fd, chunk, 0, chunk.length, null)
        } catch {
          break
        }
        if (n <= 0) break
        total += n
        reader.emit("data", Buffer.from(chunk.subarray(0, n)))
      }
    }
    return destroy(error)
  }
  return pty
}

export interface PtySessionsOptions {
  readonly environment: () => Promise<SessionEnvironment>
  readonly report: (report: ConnectionReport) => void
  readonly log: (line: string) => void
  /** How long a session with no socket lives; default 5 minutes. */
  readonly idleTimeoutMs?: number | undefined
}

interface Session {
  readonly pty: IPty
  readonly sockets: Set<StreamSocket>
  readonly output: Array<Buffer>
  outputBytes: number
  idle: NodeJS.Timeout | undefined
  paused: boolean
  exit: { readonly code: number; readonly reason: string } | undefined
}

/** A cell count from a client (1 to 1000), or undefined. */
const cells = (v: unknown): number | undefined =>
  typeof v === "number" && Number.isInteger(v) && v >= 1 && v <= MAX_CELLS ? v : undefined

export class PtySessions {
  private readonly sessions = new Map<string, Promise<Session>>()
  private attachedCount = 0
  private closed = false

  constructor(private readonly options: PtySessionsOptions) {}

  /** The sockets attached now (the agent's `session_count_reconnecting_pty`). */
  get attached(): number {
    return this.attachedCount
  }

  /** The sessions alive now (attached or not). */
  get size(): number {
    return this.sessions.size
  }

  /** Attaches the open `socket` of a `pty` stream to its session, starting the session when there is none. */
  async attach(socket: StreamSocket, open: StreamOpen): Promise<void> {
    if (open.container !== "") return socket.close(1011, "This agent cannot enter containers.")
    const id = open.reconnect === "" ? open.stream_id : open.reconnect
    let starting = this.sessions.get(id)
    if (starting === undefined) {
      starting = this.start(id, open)
      this.sessions.set(id, starting)
      starting.catch(() => this.sessions.delete(id))
    }
    let session: Session
    try {
      session = await starting
    } catch (e) {
      return socket.close(1011, e instanceof Error ? e.message : String(e))
    }
    if (session.exit !== undefined) return socket.close(1000, session.exit.reason)
    // The socket left while the shell started: the session waits for another, as after a detach.
    if (!socket.open) return this.idleIfAlone(session)
    this.join(session, socket, open)
  }

  /** Ends every session's shell (the agent stops). */
  close(): void {
    this.closed = true
    for (const starting of this.sessions.values()) void starting.then((s) => s.pty.kill(), () => undefined)
  }

  private async start(id: string, open: StreamOpen): Promise<Session> {
    const { spawn } = await loadNodePty()
    const environment = await this.options.environment()
    if (this.closed) throw new Error("The agent is stopping.")
    const shell = loginShell()
    const pty = spawn(shell, open.command === "" ? ["-l"] : ["-c", open.command], {
      name: "xterm-256color",
      cols: cells(open.width) ?? 80,
      rows: cells(open.height) ?? 24,
      cwd: sessionDirectory(environment),
      env: { ...sessionEnv(environment), TERM: "xterm-256color" },
      // Bytes, not text: the output goes on as the terminal wrote it.
      encoding: null
    })
    const session: Session = {
      pty,
      sockets: new Set(),
      output: [],
      outputBytes: 0,
      idle: undefined,
      paused: false,
      exit: undefined
    }
    pty.onData((data: string | Buffer) => {
      const bytes = typeof data === "string" ? Buffer.from(data) : data
      this.remember(session, bytes)
      for (const socket of session.sockets) socket.send(bytes)
      this.throttle(session)
    })
    pty.onExit(({ exitCode, signal }) => {
      const reason = signal !== undefined && signal !== 0
        ? `The shell ended with signal ${signal}.`
        : `The shell exited with code ${exitCode}.`
      session.exit = { code: exitCode, reason }
      if (session.idle !== undefined) clearTimeout(session.idle)
      this.sessions.delete(id)
      for (const socket of session.sockets) socket.close(1000, reason)
    })
    this.options.log(`terminal ${id}: started ${shell} (pid ${pty.pid})`)
    return session
  }

  /** Keeps the last 64 KiB of output. */
  private remember(session: Session, bytes: Buffer) {
    session.output.push(bytes.length > REPLAY_BYTES ? Buffer.from(bytes.subarray(bytes.length - REPLAY_BYTES)) : bytes)
    session.outputBytes += Math.min(bytes.length, REPLAY_BYTES)
    while (session.outputBytes > REPLAY_BYTES) {
      const first = session.output[0]!
      const over = session.outputBytes - REPLAY_BYTES
      if (first.length <= over) {
        session.output.shift()
        session.outputBytes -= first.length
      } else {
        session.output[0] = first.subarray(over)
        session.outputBytes -= over
      }
    }
  }

  /** Stops reading the terminal while a socket has more than 256 KiB waiting; reads again once none has. */
  private throttle(session: Session) {
    if (session.paused) return
    const slow = [...session.sockets].filter((s) => s.open && s.congested)
    if (slow.length === 0) return
    session.paused = true
    session.pty.pause()
    const check = () => {
      if (!session.paused || [...session.sockets].some((s) => s.open && s.congested)) return
      session.paused = false
      session.pty.resume()
    }
    for (const socket of slow) socket.whenDrained(check)
  }

  private join(session: Session, socket: StreamSocket, open: StreamOpen) {
    if (session.idle !== undefined) clearTimeout(session.idle)
    session.idle = undefined
    // The recent output first, then (from this point, same tick) the live output.
    if (session.outputBytes > 0) socket.send(Buffer.concat(session.output))
    session.sockets.add(socket)
    this.attachedCount++
    this.options.report(connectionReport(open, "reconnecting_pty"))
    const cols = cells(open.width)
    const rows = cells(open.height)
    if (cols !== undefined && rows !== undefined) this.resize(session, cols, rows)

    socket.ws.on("message", (data: RawData) => {
      let request: { data?: unknown; height?: unknown; width?: unknown }
      try {
        request = JSON.parse(String(data))
      } catch {
        return
      }
      if (request === null || typeof request !== "object") return
      // The size first: input sent with a size is read by a terminal of that size (`stty size`
      // in the same frame sees it), however soon the shell runs.
      const h = cells(request.height)
      const w = cells(request.width)
      if (h !== undefined || w !== undefined) this.resize(session, w ?? session.pty.cols, h ?? session.pty.rows)
      if (typeof request.data === "string" && request.data !== "" && session.exit === undefined) {
        session.pty.write(request.data)
      }
    })
    socket.ws.on("close", () => {
      session.sockets.delete(socket)
      this.attachedCount--
      this.options.report(
        connectionReport(open, "reconnecting_pty", session.exit ?? { code: 0, reason: "The client disconnected." })
      )
      this.idleIfAlone(session)
      // A slow socket that left no longer holds the terminal.
      if (session.paused && ![...session.sockets].some((s) => s.open && s.congested)) {
        session.paused = false
        session.pty.resume()
      }
    })
    if (socket.ws.isPaused) socket.ws.resume()
  }

  /** Ends the shell of a session that stays without a socket for the idle timeout. */
  private idleIfAlone(session: Session) {
    if (session.exit !== undefined || session.sockets.size > 0 || session.idle !== undefined) return
    session.idle = setTimeout(() => session.pty.kill(), this.options.idleTimeoutMs ?? PTY_IDLE_TIMEOUT_MS)
    session.idle.unref()
  }

  private resize(session: Session, cols: number, rows: number) {
    if (session.exit !== undefined) return
    try {
      session.pty.resize(cols, rows)
    } catch {
      // The shell is just ending.
    }
  }
}
