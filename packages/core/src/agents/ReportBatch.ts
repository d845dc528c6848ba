/**
 * What connected agents report often, written in batches (docs/agents.md, "Batched reports"):
 * stats reports, metadata values and the refreshes of open connections are kept in memory on the
 * replica that received them and written together every {@link REPORT_FLUSH_INTERVAL}, or at once
 * when one kind holds {@link REPORT_FLUSH_ROWS} rows: one statement per kind (a multi-row INSERT of
 * stats, one upsert of metadata values, one UPDATE of refreshes), each of at most
 * {@link REPORT_FLUSH_ROWS} rows. 2,000 agents reporting stats every 30 s, two metadata items every
 * 10 s and a refresh every 15 s were some 1,000 statements and 400 NOTIFYs a second; batched, they
 * are about six statements and two or three signals a second.
 *
 * A flush also:
 * - bumps the workspaces whose agents' stats report open sessions (`WorkspaceActivity.used`, a
 *   bounded number of statements for all of them);
 * - tells metadata watchers which agents' values changed: one publish on
 *   {@link AGENT_METADATA_BATCH_CHANNEL} naming them all (more only past 242 agents), never one
 *   per report; each watcher picks out its agent.
 *
 * The agent's answer does not wait for the write. A metadata value is the last one reported per
 * agent and key; reads on this replica see the values not yet written (`pendingMetadata`). A
 * flush that fails is logged and its rows kept for the next one, up to
 * {@link REPORT_FLUSH_ATTEMPTS} tries, then dropped and counted (`counts`): a report is a
 * sample the agent sends again, never worth stopping the server for.
 *
 * `AgentReports` keeps its reports here through its `AgentReportBuffer` port.
 *
 * Batching runs while a flusher is attached (`AgentReportBatch.periodic`, in every server): its
 * fiber flushes on time, and it flushes once more when its scope closes (no accepted report is
 * lost at shutdown). Without one (a service built without its background work, a core test),
 * each report is written at once, as a batch of one.
 */
import { Clock, Duration, Effect, Layer, Queue } from "effect"
import { idMessages, PubSub } from "../PubSub.js"
import { span } from "../Tracing.js"
import { WorkspaceActivity } from "../workspaces/Activity.js"
import {
  type AgentMetadataRecord,
  type AgentMetadataRow,
  type AgentRefreshRow,
  AgentReportBuffer,
  AgentReportRepo,
  type AgentStats,
  type AgentStatsRow
} from "./Reports.js"

/** How often a replica writes the reports it received. */
export const REPORT_FLUSH_INTERVAL: Duration.Duration = Duration.seconds(1)
/** Rows of one kind that make a flush start at once; also the most rows one statement writes. */
export const REPORT_FLUSH_ROWS = 1024
/** Tries of a row's write before it is dropped. */
export const REPORT_FLUSH_ATTEMPTS = 3

/**
 * The PubSub channel naming, once per flush, the agents whose metadata values were written
 * (`idMessages`: their ids' 32 hex digits); a watcher picks out its agent (`messageNames`).
 */
export const AGENT_METADATA_BATCH_CHANNEL = "agentmeta_batch"

/**
 * Whether a stats report shows the workspace in use: an open session of any kind (the described
 * system's rule), or, beyond it, a connection through the agent (`connection_count`: the reference
 * agent counts its TCP tunnels and the app requests it carried since its last report too, so that
 * `port-forward` and web apps keep a workspace up as terminals and SSH do).
 */
export const hasSessions = (s: AgentStats): boolean =>
  s.session_count_vscode > 0 || s.session_count_jetbrains > 0 || s.session_count_reconnecting_pty > 0 ||
  s.session_count_ssh > 0 || s.connection_count > 0

/** What one flush wrote. */
export interface ReportFlush {
  readonly stats: number
  readonly metadata: number
  readonly refreshes: number
  /** Workspaces whose deadline the stats' open sessions bumped. */
  readonly bumped: ReadonlyArray<string>
}

/** Rows written and dropped (after {@link REPORT_FLUSH_ATTEMPTS} failed tries) since the start, by kind. */
export interface ReportCounts {
  readonly written: { stats: number; metadata: number; refreshes: number }
  readonly dropped: { stats: number; metadata: number; refreshes: number }
}

/** Options of the flusher. */
export interface ReportBatchOptions {
  /** Time between flushes. Default {@link REPORT_FLUSH_INTERVAL}. */
  readonly interval?: Duration.DurationInput | undefined
}

interface Pending<A> {
  readonly row: A
  readonly attempts: number
}

type Kind = "stats" | "metadata" | "refreshes"

const chunks = <A>(rows: ReadonlyArray<A>): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < rows.length; i += REPORT_FLUSH_ROWS) out.push(rows.slice(i, i + REPORT_FLUSH_ROWS))
  return out
}

export class AgentReportBatch extends Effect.Service<AgentReportBatch>()("@workbay/core/AgentReportBatch", {
  effect: Effect.gen(function*() {
    const repo = yield* AgentReportRepo
    const pubsub = yield* PubSub
    const activity = yield* WorkspaceActivity

    let stats: Array<Pending<AgentStatsRow>> = []
    /** Metadata values by agent, then key: the last reported wins. */
    let metadata = new Map<string, Map<string, Pending<AgentMetadataRow>>>()
    let metadataRows = 0
    /** The latest refresh of each agent. */
    let refreshes = new Map<string, Pending<AgentRefreshRow>>()
    /** The metadata values a flush in progress is writing: still read as pending until written. */
    let writing: ReadonlyMap<string, ReadonlyMap<string, Pending<AgentMetadataRow>>> = new Map()
    /** Flushers attached: while none, every report is written at once. */
    let attached = 0
    const counts: ReportCounts = {
      written: { stats: 0, metadata: 0, refreshes: 0 },
      dropped: { stats: 0, metadata: 0, refreshes: 0 }
    }
    /** Wakes the flusher before its time: a kind reached REPORT_FLUSH_ROWS rows. */
    const full = yield* Queue.sliding<void>(1)
    const oneFlush = yield* Effect.makeSemaphore(1)

    const putMetadata = (row: Pending<AgentMetadataRow>) => {
      let byKey = metadata.get(row.row.agent_id)
      if (byKey === undefined) metadata.set(row.row.agent_id, byKey = new Map())
      if (!byKey.has(row.row.key)) metadataRows++
      byKey.set(row.row.key, row)
    }

    /** A failed write's rows: kept for the next flush unless tried enough (then counted as dropped). */
    const retry = <A>(kind: Kind, rows: ReadonlyArray<Pending<A>>, keep: (row: Pending<A>) => void) => {
      let dropped = 0
      for (const r of rows) {
        if (r.attempts + 1 >= REPORT_FLUSH_ATTEMPTS) dropped++
        else keep({ row: r.row, attempts: r.attempts + 1 })
      }
      counts.dropped[kind] += dropped
      return dropped
    }

    /** Writes `rows` a chunk a statement; a failed chunk goes to `retry`. Answers the rows written. */
    const write = <A>(
      kind: Kind,
      rows: ReadonlyArray<Pending<A>>,
      statement: (rows: ReadonlyArray<A>) => Effect.Effect<void>,
      keep: (row: Pending<A>) => void
    ) =>
      Effect.reduce(chunks(rows), [] as Array<A>, (written, chunk) =>
        statement(chunk.map((p) => p.row)).pipe(
          Effect.as([...written, ...chunk.map((p) => p.row)]),
          Effect.catchAllCause((cause) => {
            const dropped = retry(kind, chunk, keep)
            return Effect.as(
              Effect.logError(
                `Writing agents' ${kind} failed: ${
                  chunk.length - dropped
                } rows kept for the next flush, ${dropped} dropped`,
                cause
              ),
              written
            )
          })
        )).pipe(Effect.tap((written) => Effect.sync(() => counts.written[kind] += written.length)))

    /** Whether a flush is writing. */
    let busy = false
    /** Writes everything buffered, and bumps and signals what it wrote. One at a time; never interrupted halfway. */
    const flushAll: Effect.Effect<ReportFlush> = oneFlush.withPermits(1)(
      Effect.gen(function*() {
        busy = true
        const takenStats = stats
        const takenMetadata = metadata
        const takenRefreshes = refreshes
        stats = []
        metadata = new Map()
        metadataRows = 0
        refreshes = new Map()
        writing = takenMetadata
        const at = new Date(yield* Clock.currentTimeMillis)

        const writtenStats = yield* write("stats", takenStats, repo.insertStatsMany, (r) => stats.push(r))
        // Open sessions bump their workspaces; a report whose write failed was a use all the same.
        const used = [...new Set(takenStats.filter((p) => hasSessions(p.row.stats)).map((p) => p.row.workspace_id))]
        const bumped = yield* Effect.reduce(
          chunks(used),
          [] as Array<string>,
          (all, ids) =>
            activity.used(ids, at).pipe(
              Effect.map((b) => [...all, ...b]),
              Effect.catchAllCause((cause) => Effect.as(Effect.logError("Bumping used workspaces failed", cause), all))
            )
        )

        const metadataRowsTaken = [...takenMetadata.values()].flatMap((byKey) => [...byKey.values()])
        const writtenMetadata = yield* write("metadata", metadataRowsTaken, repo.putMetadataMany, (r) => {
          // A value reported since the failed write is newer: it stays.
          if (metadata.get(r.row.agent_id)?.has(r.row.key) !== true) putMetadata(r)
        })
        writing = new Map()
        yield* Effect.forEach(
          idMessages(writtenMetadata.map((r) => r.agent_id)),
          (m) => pubsub.publish(AGENT_METADATA_BATCH_CHANNEL, m),
          { discard: true }
        )

        const writtenRefreshes = yield* write("refreshes", [...takenRefreshes.values()], repo.refreshMany, (r) => {
          if (!refreshes.has(r.row.agent_id)) refreshes.set(r.row.agent_id, r)
        })
        return {
          stats: writtenStats.length,
          metadata: writtenMetadata.length,
          refreshes: writtenRefreshes.length,
          bumped
        } satisfies ReportFlush
      }).pipe(Effect.ensuring(Effect.sync(() => {
        busy = false
        writing = new Map()
      })))
    ).pipe(
      Effect.uninterruptible,
      span("AgentReportBatch.flush")
    )
    const nothing: ReportFlush = { stats: 0, metadata: 0, refreshes: 0, bumped: [] }
    // An idle second costs no span and no permit (a flush writing is waited for: its rows are not written yet).
    const flush: Effect.Effect<ReportFlush> = Effect.suspend(() =>
      !busy && stats.length === 0 && metadata.size === 0 && refreshes.size === 0 ? Effect.succeed(nothing) : flushAll
    )

    /** After a report was kept: written at once without a flusher; else the flusher woken when a kind is full. */
    const kept = Effect.suspend(() =>
      attached === 0
        ? Effect.asVoid(flush)
        : stats.length >= REPORT_FLUSH_ROWS || metadataRows >= REPORT_FLUSH_ROWS ||
            refreshes.size >= REPORT_FLUSH_ROWS
        ? Queue.offer(full, undefined)
        : Effect.void
    )

    /** Keeps a stats report of an agent of workspace `workspaceId`. */
    const addStats = (agentId: string, workspaceId: string, report: AgentStats, at: Date) =>
      Effect.zipRight(
        Effect.sync(() => {
          stats.push({
            row: { agent_id: agentId, workspace_id: workspaceId, stats: report, created_at: at },
            attempts: 0
          })
        }),
        kept
      )

    /** Keeps metadata values of an agent (one per key: the last wins). */
    const addMetadata = (agentId: string, items: ReadonlyArray<AgentMetadataRecord>) =>
      Effect.zipRight(
        Effect.sync(() => {
          for (const item of items) putMetadata({ row: { agent_id: agentId, ...item }, attempts: 0 })
        }),
        kept
      )

    /** Keeps a refresh of an agent's open connection (its latest replaces an earlier one). */
    const addRefresh = (row: AgentRefreshRow) =>
      Effect.zipRight(Effect.sync(() => refreshes.set(row.agent_id, { row, attempts: 0 })), kept)

    /** The agent's connection closed here: its refresh not yet written is dropped (it would reopen it). */
    const forget = (agentId: string) => Effect.sync(() => refreshes.delete(agentId))

    /** The agent's metadata values accepted here and not yet written, by key. */
    const pendingMetadata = (agentId: string): ReadonlyArray<AgentMetadataRecord> => {
      const values = new Map<string, AgentMetadataRecord>()
      for (const source of [writing.get(agentId), metadata.get(agentId)]) {
        if (source === undefined) continue
        for (const [key, { row: { agent_id: _, ...record } }] of source) values.set(key, record)
      }
      return [...values.values()]
    }

    /** Batching on while the scope is open (reports wait for the flusher), then off again after a last flush. */
    const attach = Effect.acquireRelease(
      Effect.sync(() => void attached++),
      () => Effect.zipRight(Effect.sync(() => void attached--), Effect.asVoid(flush))
    )

    /** Flushes forever, `interval` apart or sooner when a kind is full (fork it). */
    const run = (interval: Duration.DurationInput = REPORT_FLUSH_INTERVAL) =>
      Effect.forever(
        Effect.timeoutOption(Queue.take(full), interval).pipe(
          Effect.zipRight(Queue.takeAll(full)),
          Effect.zipRight(flush)
        )
      )

    return {
      addStats,
      addMetadata,
      addRefresh,
      forget,
      pendingMetadata,
      flush,
      attach,
      run,
      counts: Effect.sync((): ReportCounts => structuredClone(counts))
    } as const
  })
}) {
  /** The batcher as the reports' buffer (`AgentReports` keeps its reports there). */
  static readonly buffer: Layer.Layer<AgentReportBuffer, never, AgentReportBatch> = Layer.effect(
    AgentReportBuffer,
    Effect.map(AgentReportBatch, (batch) => AgentReportBuffer.of(batch))
  )

  /**
   * Batching with a flush every `interval` (default {@link REPORT_FLUSH_INTERVAL}) until the
   * layer's scope closes, then a last flush (the server stops: nothing accepted is lost).
   */
  static readonly periodic = (options: ReportBatchOptions = {}): Layer.Layer<never, never, AgentReportBatch> =>
    Layer.scopedDiscard(Effect.flatMap(AgentReportBatch, (batch) =>
      Effect.zipRight(
        batch.attach,
        Effect.forkScoped(batch.run(options.interval))
      )))
}
