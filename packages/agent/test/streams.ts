/**
 * Test support for the agent's streams: a real local WebSocket server playing the service's
 * stream endpoint (`/api/v2/workspaceagents/me/streams/<id>`, the agent's token checked), and
 * `makeStreams` pointed at it. `open(fields)` sends a `stream_open` and answers the service's
 * end of the stream's socket, as a client would see it through the service.
 */
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import type { IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type WebSocket, WebSocketServer } from "ws"
import type { ConnectionReport, StreamOpen } from "../src/Session.js"
import { makeStreams, type Streams } from "../src/Streams.js"

export const TOKEN = "test-agent-token"

/** How long one wait of these tests waits for what it waits for (a busy machine included). */
export const WAIT_MS = 30_000

export interface Harness {
  readonly streams: Streams
  readonly reports: Array<ConnectionReport>
  /** The manifest's directory. */
  readonly directory: string
  /** Opens a stream: the service's end of its socket, and the stream's id. */
  readonly open: (fields: Partial<StreamOpen>) => Promise<WebSocket & { readonly streamId: string }>
  readonly close: () => Promise<void>
}

export const startHarness = async ({ ptyIdleTimeoutMs }: { ptyIdleTimeoutMs?: number } = {}): Promise<Harness> => {
  const waiting = new Map<string, (ws: WebSocket) => void>()
  const wss = new WebSocketServer({
    port: 0,
    host: "127.0.0.1",
    verifyClient: ({ req }: { req: IncomingMessage }) => req.headers.authorization === `Bearer ${TOKEN}`
  })
  wss.on("connection", (ws, req) => {
    const id = /\/api\/v2\/workspaceagents\/me\/streams\/([^?]+)/.exec(req.url ?? "")?.[1]
    const resolve = id === undefined ? undefined : waiting.get(id)
    if (resolve === undefined) return ws.close(1008, "unknown stream")
    waiting.delete(id!)
    resolve(ws)
  })
  await new Promise<void>((r) => wss.on("listening", () => r()))
  const port = (wss.address() as AddressInfo).port
  const directory = mkdtempSync(join(tmpdir(), "workbay-agent-streams-"))
  const reports: Array<ConnectionReport> = []
  const streams = makeStreams({
    url: `http://127.0.0.1:${port}`,
    token: () => TOKEN,
    environment: async () => ({ directory, env: { WORKBAY_TEST_VAR: "from-the-manifest" } }),
    report: (r) => void reports.push(r),
    log: () => {},
    ptyIdleTimeoutMs
  })
  const open = (fields: Partial<StreamOpen>) => {
    const streamId = randomUUID()
    const socket = new Promise<WebSocket>((resolve) => waiting.set(streamId, resolve))
    streams.open({
      stream_id: streamId,
      path: `/api/v2/workspaceagents/me/streams/${streamId}?replica=${randomUUID()}`,
      kind: "pty",
      reconnect: "",
      width: 80,
      height: 24,
      command: "",
      container: "",
      container_user: "",
      port: 0,
      remote_address: "203.0.113.7",
      user: "alice",
      ...fields
    })
    return socket.then((ws) => Object.assign(ws, { streamId }))
  }
  return {
    streams,
    reports,
    directory,
    open,
    close: async () => {
      streams.close()
      for (const c of wss.clients) c.terminate()
      await new Promise<void>((r) => wss.close(() => r()))
      rmSync(directory, { recursive: true, force: true })
    }
  }
}

/** Everything a socket receives, and its close. */
export const record = (ws: WebSocket) => {
  const frames: Array<Buffer> = []
  let closed: { code: number; reason: string } | undefined
  const waiters = new Set<() => void>()
  const poke = () => {
    for (const w of waiters) w()
  }
  ws.on("message", (data: Buffer) => {
    frames.push(data)
    poke()
  })
  ws.on("close", (code, reason) => {
    closed = { code, reason: String(reason) }
    poke()
  })
  const text = () => Buffer.concat(frames).toString()
  /**
   * Waits until `check` holds of what arrived, for at most `WAIT_MS`: a wait bounded by what it
   * waits for, failing with what did arrive (the test's own timeout is only a backstop).
   */
  const until = <A>(check: () => A | undefined | false, what: string): Promise<A> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(look)
        reject(
          new Error(
            `${what} did not come within ${WAIT_MS / 1000} s; the socket received: ${
              JSON.stringify(text().slice(-2000))
            }`
          )
        )
      }, WAIT_MS)
      const look = () => {
        const a = check()
        if (a !== undefined && a !== false) {
          clearTimeout(timer)
          waiters.delete(look)
          resolve(a)
        }
      }
      waiters.add(look)
      look()
    })
  return {
    frames,
    text,
    closed: () => closed,
    /** Waits for the output to match `pattern`; answers the match. */
    output: (pattern: RegExp) => until(() => pattern.exec(text()) ?? undefined, `output matching ${pattern}`),
    /** Waits for the close. */
    close: () => until(() => closed, "the close")
  }
}

/** Waits until `check()` holds, looking every 20 ms, for at most `WAIT_MS`. */
export const waitFor = async (check: () => boolean) => {
  const deadline = Date.now() + WAIT_MS
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${check} did not hold within ${WAIT_MS / 1000} s`)
    await new Promise((r) => setTimeout(r, 20))
  }
}
