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
  agentLogLevels,
  type AgentLogRecord,
  AgentLogRepo,
  type AgentLogSourceRecord,
  type AppStatusRecord,
  AppStatusRepo,
  type NewAgentLog
} from "@workbay/core"
import { Context, Effect, Layer } from "effect"
import { type Column, columns, date, int, json, literal, type Row, text } from "../Columns.js"
import { transactionStatements } from "../DirectReads.js"
import { groupCommit } from "../GroupCommit.js"
import { purgeBefore } from "../Purge.js"
import { transaction } from "../Transaction.js"

/** One batch to store. */
interface Append {
  readonly agentId: string
  readonly lines: ReadonlyArray<NewAgentLog>
  readonly bytes: number
  readonly maxBytes: number
}

/** Batches written in one transaction at most. */
const APPEND_GROUP = 64

const rowToLog = columns<AgentLogRecord>("workspace_agent_logs", {
  id: int,
  agent_id: text,
  created_at: date,
  output: text,
  level: literal(agentLogLevels),
  log_source_id: text
}).read

const logSourceList = json<Array<AgentLogSourceRecord>>([])
/** The log sources an agent row declares (`workspace_agents.log_sources`); undefined when none, as on a new record. */
export const logSources: Column<ReadonlyArray<AgentLogSourceRecord> | undefined> = (v, c) => {
  const list = logSourceList(v, c)
  return list.length === 0 ? undefined : list.map((s) => ({ ...s, created_at: date(s.created_at, c) }))
}

/** A stored app status (JSON), its time a Date again. */
const toAppStatusRecord = (s: AppStatusRecord, c?: string): AppStatusRecord => ({
  ...s,
  created_at: date(s.created_at, c)
})

const appStatusMap = json<Record<string, Array<AppStatusRecord>>>({})
/** The app statuses an agent row keeps, by app id (`workspace_agents.app_statuses`); undefined when none. */
export const appStatuses: Column<Readonly<Record<string, ReadonlyArray<AppStatusRecord>>> | undefined> = (v, c) => {
  const entries = Object.entries(appStatusMap(v, c))
  return entries.length === 0
    ? undefined
    : Object.fromEntries(entries.map(([app, list]) => [app, list.map((s) => toAppStatusRecord(s, c))]))
}

const appStatus = json<AppStatusRecord | null>(null)
/** A workspace row's newest app status (`workspaces.latest_app_status`); undefined when none. */
export const latestAppStatus: Column<AppStatusRecord | undefined> = (v, c) => {
  const s = appStatus(v, c)
  return s === null ? undefined : toAppStatusRecord(s, c)
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
        const sources =
          logSources(yield* lockedJson(source.workspace_agent_id, "log_sources"), "workspace_agents.log_sources") ??
            []
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
        const byApp = {
          ...appStatuses(yield* lockedJson(status.agent_id, "app_statuses"), "workspace_agents.app_statuses") ?? {}
        }
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
