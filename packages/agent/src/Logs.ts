/**
 * Log streaming: lines of each log source are batched (at most every half second, or at 100
 * lines) and sent as `batch_create_logs` on the agent connection while it is open (a batch that
 * fits its 32 KiB messages), else with `PATCH /workspaceagents/me/logs`, after the source is
 * registered with `POST /workspaceagents/me/log-source`. Once the service answers that the agent's logs
 * overflowed (413), nothing more is sent. A send that failed on the way keeps its lines for the
 * next try (up to 10,000 lines; older ones are dropped); a batch the service refuses (another
 * 4xx) is dropped. NUL characters are left out (the service refuses them) and a line longer than
 * 64 KiB is sent as several.
 */
import { ApiError, isStatus, unwrap, type WorkbayClient } from "@workbay/client"
import { AnswerError } from "./Socket.js"

/** The agent connection, as far as logs use it. */
export interface LogConnection {
  readonly connected: boolean
  call<A>(type: string, params: Record<string, unknown>): Promise<A>
}

/** A batch sent over the connection stays under its message limit (32 KiB) with room for the envelope. */
const CONNECTION_BATCH_BYTES = 30_000

export type LogLevel = "trace" | "debug" | "info" | "warn" | "error"

export interface LogSource {
  readonly id: string
  readonly display_name: string
  readonly icon: string
}

interface Line {
  readonly created_at: string
  readonly level: LogLevel
  readonly output: string
}

const FLUSH_MS = 500
const BATCH_LINES = 100
const KEEP_LINES = 10_000
const MAX_LINE = 64 * 1024

export class LogSender {
  private readonly queues = new Map<string, Array<Line>>()
  private readonly registered = new Map<string, Promise<void>>()
  private timer: NodeJS.Timeout | undefined
  private flushing: Promise<void> = Promise.resolve()
  /** True once the service refused more logs for this agent. */
  overflowed = false

  constructor(
    private readonly api: WorkbayClient,
    private readonly log: (line: string) => void,
    private readonly connection?: LogConnection
  ) {}

  /** Sends one batch: over the connection when it is open and the batch fits a message; answers whether it was refused for the cap. */
  private async sendBatch(body: { log_source_id: string; logs: ReadonlyArray<Line> }): Promise<boolean> {
    const connection = this.connection
    if (connection?.connected === true && Buffer.byteLength(JSON.stringify(body)) <= CONNECTION_BATCH_BYTES) {
      const answer = await connection.call<{ log_limit_exceeded?: boolean }>("batch_create_logs", body)
      return answer.log_limit_exceeded === true
    }
    try {
      await unwrap(this.api.PATCH("/api/v2/workspaceagents/me/logs", { body: { ...body, logs: [...body.logs] } }))
      return false
    } catch (e) {
      if (isStatus(e, 413)) return true
      throw e
    }
  }

  /** Registers `source` (once; again after `reset`). */
  source(source: LogSource): Promise<void> {
    let done = this.registered.get(source.id)
    if (done === undefined) {
      done = unwrap(this.api.POST("/api/v2/workspaceagents/me/log-source", { body: source })).then(() => {}, (e) => {
        this.registered.delete(source.id)
        throw e
      })
      this.registered.set(source.id, done)
    }
    return done
  }

  /** Queues a line of `sourceId`. */
  add(sourceId: string, level: LogLevel, output: string): void {
    if (this.overflowed) return
    let queue = this.queues.get(sourceId)
    if (queue === undefined) {
      queue = []
      this.queues.set(sourceId, queue)
    }
    const created_at = new Date().toISOString()
    const clean = output.includes("\u0000") ? output.replaceAll("\u0000", "") : output
    for (let i = 0; i === 0 || i < clean.length; i += MAX_LINE) {
      queue.push({ created_at, level, output: clean.slice(i, i + MAX_LINE) })
    }
    if (queue.length > KEEP_LINES) queue.splice(0, queue.length - KEEP_LINES)
    if (queue.length >= BATCH_LINES) void this.flush()
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_MS)
      this.timer.unref()
    }
  }

  /** Sends every queued line (in order, one request per source and batch). */
  flush(): Promise<void> {
    if (this.timer !== undefined) {
      clearTimeout(this.timer)
      this.timer = undefined
    }
    this.flushing = this.flushing.then(() => this.sendAll())
    return this.flushing
  }

  private async sendAll(): Promise<void> {
    for (const [sourceId, queue] of this.queues) {
      while (queue.length > 0 && !this.overflowed) {
        const batch = queue.slice(0, BATCH_LINES)
        try {
          await this.registered.get(sourceId)
          if (await this.sendBatch({ log_source_id: sourceId, logs: batch })) {
            this.overflowed = true
            this.log("the service keeps no more logs of this agent (its limit is reached)")
            this.queues.clear()
            return
          }
          queue.splice(0, batch.length)
        } catch (e) {
          if (
            e instanceof AnswerError ||
            (e instanceof ApiError && e.status >= 400 && e.status < 500 && e.status !== 401 && e.status !== 429)
          ) {
            this.log(`the service refused a batch of logs, dropped: ${e.message}`)
            queue.splice(0, batch.length)
            continue
          }
          this.log(`sending logs failed (kept for the next try): ${e instanceof Error ? e.message : String(e)}`)
          if (this.timer === undefined) {
            this.timer = setTimeout(() => void this.flush(), 2_000)
            this.timer.unref()
          }
          return
        }
      }
    }
  }
}
