/**
 * A JSON WebSocket to the service that stays connected: it reconnects with backoff (a quarter
 * second, doubling to ten seconds, with jitter) until closed, and runs `onOpen` on every
 * connection so the caller can send its state again. Requests carry an `id` and are answered by
 * `{id, result}` or `{id, error: {message, detail}}`; every other message goes to `onMessage`.
 */
import WebSocket from "ws"

/** The service answered a request with an error (the request reached it and was refused). */
export class AnswerError extends Error {}

export interface SocketOptions {
  readonly url: string
  readonly path: string
  readonly token: () => string
  readonly onOpen?: (socket: Socket) => void | Promise<void>
  readonly onMessage?: (message: Record<string, unknown>) => void
  /** Told when a connection fails or closes: a 401 ends the reconnecting (the token stopped working). */
  readonly onClose?: (reason: { readonly code: number; readonly unauthorized: boolean }) => void
  readonly log: (line: string) => void
  /** Told how each request ended: its type, milliseconds from sending to its answer, its error. */
  readonly onCall?: ((type: string, ms: number, error?: string) => void) | undefined
}

interface Pending {
  readonly resolve: (value: unknown) => void
  readonly reject: (error: Error) => void
}

const MIN_BACKOFF_MS = 250
const MAX_BACKOFF_MS = 10_000
const REQUEST_TIMEOUT_MS = 30_000

export class Socket {
  private ws: WebSocket | undefined
  private closed = false
  /** Set while the agent stops: a request no longer waits for a connection that may never come. */
  private draining = false
  private nextId = 1
  private backoff = MIN_BACKOFF_MS
  /** Set by `restart`: the next close reconnects without waiting. */
  private immediate = false
  private timer: NodeJS.Timeout | undefined
  private readonly pending = new Map<number, Pending>()
  private readonly waiting: Array<() => void> = []

  constructor(private readonly options: SocketOptions) {
    this.open()
  }

  get connected(): boolean {
    return this.ws?.readyState === WebSocket.OPEN
  }

  private open() {
    if (this.closed) return
    const target = `${this.options.url.replace(/^http/, "ws")}/api/v2${this.options.path}`
    const ws = new WebSocket(target, { headers: { authorization: `Bearer ${this.options.token()}` } })
    this.ws = ws
    let unauthorized = false
    ws.on("unexpected-response", (_request, response) => {
      unauthorized = response.statusCode === 401
      this.options.log(`${this.options.path}: the service answered ${response.statusCode} instead of upgrading`)
      ws.terminate()
    })
    ws.on("open", () => {
      this.backoff = MIN_BACKOFF_MS
      for (const resume of this.waiting.splice(0)) resume()
      void Promise.resolve(this.options.onOpen?.(this)).catch((e) =>
        this.options.log(`${this.options.path}: ${String(e)}`)
      )
    })
    ws.on("message", (data) => {
      let message: Record<string, unknown>
      try {
        message = JSON.parse(data.toString())
      } catch {
        return this.options.log(`${this.options.path}: a message that is not JSON`)
      }
      const id = typeof message.id === "number" ? message.id : undefined
      const pending = id === undefined ? undefined : this.pending.get(id)
      if (pending !== undefined && ("result" in message || "error" in message)) {
        this.pending.delete(id!)
        if ("error" in message) {
          const error = message.error as { message?: string; detail?: string }
          pending.reject(new AnswerError(`${error.message ?? "error"}${error.detail ? `: ${error.detail}` : ""}`))
        } else pending.resolve(message.result)
        return
      }
      this.options.onMessage?.(message)
    })
    ws.on("error", () => {})
    ws.on("close", (code) => {
      for (const [id, p] of this.pending) {
        this.pending.delete(id)
        p.reject(new Error(`${this.options.path}: the connection closed`))
      }
      this.options.onClose?.({ code, unauthorized })
      if (this.closed || unauthorized) return
      if (this.immediate) {
        this.immediate = false
        return this.open()
      }
      const delay = this.backoff * (0.75 + Math.random() / 2)
      this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS)
      this.timer = setTimeout(() => this.open(), delay)
    })
  }

  /** Connects again now (after a 401 ended the reconnecting and the caller has a new token). */
  reconnect(): void {
    if (this.closed || this.ws?.readyState === WebSocket.OPEN || this.ws?.readyState === WebSocket.CONNECTING) return
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.open()
  }

  /**
   * Drops the current connection and connects again at once (the agent reinitializes: its
   * token now names another agent, which the service learns from the new connection).
   */
  restart(): void {
    if (this.closed) return
    this.immediate = true
    const ws = this.ws
    if (ws === undefined || ws.readyState === WebSocket.CLOSED) {
      this.immediate = false
      if (this.timer !== undefined) clearTimeout(this.timer)
      this.open()
    } else if (ws.readyState === WebSocket.CONNECTING) ws.terminate()
    else ws.close(1000, "agent reinitializing")
  }

  /** Waits until the socket is open (or throws once it is closed for good, or while draining). */
  private ready(): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`${this.options.path}: closed`))
    if (this.connected) return Promise.resolve()
    if (this.draining) return Promise.reject(new Error(`${this.options.path}: not connected while stopping`))
    return new Promise((resolve) => this.waiting.push(resolve))
  }

  /**
   * From now on a request is sent only while connected, and fails at once otherwise (requests
   * already waiting for a connection fail too): what the agent reports while it stops must not
   * keep it from stopping when the service is gone.
   */
  drain(): void {
    this.draining = true
    for (const resume of this.waiting.splice(0)) resume()
  }

  /** Sends a message that expects no answer; dropped while disconnected. */
  send(message: Record<string, unknown>): void {
    if (this.connected) this.ws!.send(JSON.stringify(message))
  }

  /** Sends a request and waits for its answer (after the next connection, while disconnected). */
  async call<A = unknown>(type: string, params: Record<string, unknown> = {}): Promise<A> {
    await this.ready()
    if (!this.connected) throw new Error(`${this.options.path}: not connected`)
    const id = this.nextId++
    const sent = performance.now()
    const onCall = this.options.onCall
    return new Promise<A>((resolve, reject) => {
      const timeout = setTimeout(() => {
        this.pending.delete(id)
        onCall?.(type, performance.now() - sent, "not answered")
        reject(new Error(`${this.options.path}: ${type} was not answered in ${REQUEST_TIMEOUT_MS / 1000} s`))
      }, REQUEST_TIMEOUT_MS)
      timeout.unref()
      this.pending.set(id, {
        resolve: (v) => {
          clearTimeout(timeout)
          onCall?.(type, performance.now() - sent)
          resolve(v as A)
        },
        reject: (e) => {
          clearTimeout(timeout)
          onCall?.(type, performance.now() - sent, e.message)
          reject(e)
        }
      })
      this.ws!.send(JSON.stringify({ id, type, ...params }))
    })
  }

  /** Closes the socket with a normal close and stops reconnecting. */
  close(): Promise<void> {
    this.closed = true
    if (this.timer !== undefined) clearTimeout(this.timer)
    for (const resume of this.waiting.splice(0)) resume()
    const ws = this.ws
    if (ws === undefined || ws.readyState === WebSocket.CLOSED) return Promise.resolve()
    return new Promise((resolve) => {
      ws.once("close", () => resolve())
      if (ws.readyState === WebSocket.CONNECTING) ws.terminate()
      else ws.close(1000, "agent stopping")
      setTimeout(() => {
        ws.terminate()
        resolve()
      }, 2000).unref()
    })
  }
}
