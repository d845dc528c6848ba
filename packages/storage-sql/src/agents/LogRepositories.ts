/**
 * Agent logs, declared log sources and app statuses on @effect/sql (migration 0016). An append
 * is two statements: the counters' UPDATE reserves the room (so of two racing batches only those
 * that fit are stored) and one INSERT stores the batch; batches arriving together are written in
 * one transaction (a group commit). Lines are read by
 * (agent, id). Log sources and app statuses are JSON on the agent's row, changed under the row's
 * lock (Postgres `FOR UPDATE`; SQLite's transactions are serial).
 */
import { SqlClient } from "@effect/sql"
import {
  type AgentLogLevel,
  type AgentLogRecord,
  AgentLogRepo,
  type AgentLogSourceRecord,
  type AppStatusRecord,
  AppStatusRepo,
  type NewAgentLog
} from "@workbay/core"
import { Context, Effect, Layer } from "effect"
import { transactionStatements } from "../DirectReads.js"
import { groupCommit } from "../GroupCommit.js"
import { purgeBefore } from "../Purge.js"
import { fromJson, toDate, toNumber } from "../Rows.js"
import { transaction } from "../Transaction.js"

type Row = Record<string, unknown>

/** One batch to store. */
interface Append {
  readonly agentId: string
  readonly lines: ReadonlyArray<NewAgentLog>
  readonly bytes: number
  readonly maxBytes: number
}

/** Batches written in one transaction at most. */
const APPEND_GROUP = 64

const rowToLog = (r: Row): AgentLogRecord => ({
  id: toNumber(r.id),
  agent_id: r.agent_id as string,
  created_at: toDate(r.created_at),
  output: r.output as string,
  level: r.level as AgentLogLevel,
  log_source_id: r.log_source_id as string
})

/** The log sources an agent row declares (`workspace_agents.log_sources`); undefined when none, as on a new record. */
export const toLogSources = (v: unknown): ReadonlyArray<AgentLogSourceRecord> | undefined => {
  const list = fromJson<Array<AgentLogSourceRecord>>(v, [])
  return list.length === 0 ? undefined : list.map((s) => ({ ...s, created_at: toDate(s.created_at) }))
}

/** A stored app status (JSON), its time a Date again. */
export const toAppStatusRecord = (s: AppStatusRecord): AppStatusRecord => ({ ...s, created_at: toDate(s.created_at) })

/** The app statuses an agent row keeps, by app id (`workspace_agents.app_statuses`); undefined when none. */
export const toAppStatuses = (v: unknown): Readonly<Record<string, ReadonlyArray<AppStatusRecord>>> | undefined => {
  const byApp = fromJson<Record<string, Array<AppStatusRecord>>>(v, {})
  const entries = Object.entries(byApp)
  return entries.length === 0
    ? undefined
    : Object.fromEntries(entries.map(([app, list]) => [app, list.map(toAppStatusRecord)]))
}

/** A workspace row's newest app status (`workspaces.latest_app_status`); undefined when none. */
export const toLatestAppStatus = (v: unknown): AppStatusRecord | undefined => {
  const s = fromJson<AppStatusRecord | null>(v, null)
  return s === null ? undefined : toAppStatusRecord(s)
}

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const withTransaction = transaction(sql)
  // The group's statements run on SQLite's connection directly (its transaction's; DirectReads.ts).
  const inTransaction = yield* transactionStatements(sql)
  const forUpdate = sql.literal(sql.onDialectOrElse({ pg: () => "FOR UPDATE", orElse: () => "" }))

  /** The agent row's JSON column, locked for the rest of the transaction. */
  const lockedJson = (agentId: string, column: "log_sources" | "app_statuses") =>
    Effect.map(
      sql<Row>`SELECT ${sql(column)} AS v FROM workspace_agents WHERE id = ${agentId} ${forUpdate}`,
      (rows) => rows[0]?.v
    )

  /**
   * One batch's statements: the counters' UPDATE reserves the room, then one INSERT stores the
   * lines (or, past the room, the agent is marked overflowed).
   */
  const appendOne = ({ agentId, bytes, lines, maxBytes }: Append) =>
    Effect.gen(function*() {
      const reserved = yield* inTransaction(sql<Row>`UPDATE workspace_agents SET logs_length = logs_length + ${bytes}
        WHERE id = ${agentId} AND logs_overflowed = FALSE AND logs_length + ${bytes} <= ${maxBytes}
        RETURNING id`)
      if (reserved.length === 0) {
        yield* sql`UPDATE workspace_agents SET logs_overflowed = TRUE WHERE id = ${agentId}`
        return { overflowed: true }
      }
      yield* inTransaction(sql`INSERT INTO workspace_agent_logs ${
        sql.insert(lines.map((l) => ({
          agent_id: agentId,
          created_at: l.created_at.toISOString(),
          level: l.level,
          output: l.output,
          log_source_id: l.log_source_id
        })))
      }`)
      return { overflowed: false }
    })

  // Batches of many agents arriving together share a transaction (see GroupCommit.ts); agents'
  // rows are locked in id order so that two replicas' groups cannot deadlock.
  const appendGrouped = yield* groupCommit({
    maxItems: APPEND_GROUP,
    transaction: withTransaction,
    write: appendOne,
    sortKey: (a) => a.agentId
  })

  const logs = AgentLogRepo.of({
    addLogSource: (source) =>
      withTransaction(Effect.gen(function*() {
        const sources = toLogSources(yield* lockedJson(source.workspace_agent_id, "log_sources")) ?? []
        const known = sources.find((s) => s.id === source.id)
        if (known !== undefined) return known
        yield* sql`UPDATE workspace_agents SET log_sources = ${JSON.stringify([...sources, source])}
          WHERE id = ${source.workspace_agent_id}`
        return source
      })).pipe(Effect.orDie),

    append: (agentId, lines, bytes, maxBytes) => appendGrouped({ agentId, lines, bytes, maxBytes }),

    list: (agentId, after, before, limit) =>
      sql<Row>`SELECT * FROM workspace_agent_logs WHERE agent_id = ${agentId} AND id > ${after}
        ${before === undefined ? sql.literal("") : sql`AND id < ${before}`} ORDER BY id LIMIT ${limit}`.pipe(
        Effect.orDie,
        Effect.map((rs) => rs.map(rowToLog))
      ),

    purgeBefore: (before) => purgeBefore(sql, "workspace_agent_logs", "created_at", before)
  })

  const statuses = AppStatusRepo.of({
    record: (status, keep) =>
      withTransaction(Effect.gen(function*() {
        const byApp = { ...toAppStatuses(yield* lockedJson(status.agent_id, "app_statuses")) ?? {} }
        byApp[status.app_id] = [status, ...(byApp[status.app_id] ?? [])].slice(0, keep)
        yield* sql`UPDATE workspace_agents SET app_statuses = ${JSON.stringify(byApp)} WHERE id = ${status.agent_id}`
        yield* sql`UPDATE workspaces SET latest_app_status = ${
          JSON.stringify(status)
        } WHERE id = ${status.workspace_id}`
      })).pipe(Effect.orDie)
  })

  return { logs, statuses }
})

export const layer: Layer.Layer<AgentLogRepo | AppStatusRepo, never, SqlClient.SqlClient> = Layer.scopedContext(
  Effect.map(make, ({ logs, statuses }) => Context.make(AgentLogRepo, logs).pipe(Context.add(AppStatusRepo, statuses)))
)
