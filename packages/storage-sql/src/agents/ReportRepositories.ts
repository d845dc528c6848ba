/**
 * What agents report (the `AgentReportRepo` port), on @effect/sql: connection times and the open
 * flag on `workspace_agents` (the sweep of overdue connections walks `workspace_agents_open`, the
 * open ones only), lifecycle, startup and script results on the agent's row, metadata values one
 * row per key, usage stats one row per report (read by time through `workspace_agent_stats_created`).
 * Refreshes, metadata values and stats come in batches (core `agents/ReportBatch.ts`): one
 * statement each, many agents' rows (refreshes as one `UPDATE ... FROM` a VALUES list, which
 * SQLite takes since 3.33).
 */
import { SqlClient } from "@effect/sql"
import { type AgentMetadataRecord, AgentReportRepo, type AgentScriptResult, type AgentStatsRow } from "@workbay/core"
import { Effect, Layer } from "effect"
import { columns, date, int, json, type Row, text } from "../Columns.js"
import { transaction } from "../Transaction.js"

const rowToMetadata = columns<AgentMetadataRecord>("workspace_agent_metadata", {
  key: text,
  value: text,
  error: text,
  collected_at: date,
  age: int
}).read
const rowToOverdue = columns<{ agent_id: string; workspace_id: string }>("workspace_agents", {
  agent_id: text,
  workspace_id: text
}).read
const scriptResults = json<Record<string, AgentScriptResult>>({})
const appHealth = json<Record<string, string>>({})

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const inTransaction = transaction(sql)
  const orDie = Effect.orDie
  const iso = (d: Date) => d.toISOString()
  // The timestamp columns' type: what a VALUES list's text must be cast to on Postgres (TEXT on SQLite).
  const timestamp = () => sql.literal(sql.onDialectOrElse({ pg: () => "TIMESTAMPTZ", orElse: () => "TEXT" }))

  const insertStatsMany = (rows: ReadonlyArray<AgentStatsRow>) =>
    rows.length === 0 ?
      Effect.void :
      Effect.asVoid(orDie(sql`INSERT INTO workspace_agent_stats ${
        sql.insert(rows.map(({ stats: s, ...r }) => ({
          created_at: iso(r.created_at),
          agent_id: r.agent_id,
          workspace_id: r.workspace_id,
          connections_by_proto: JSON.stringify(s.connections_by_proto),
          connection_count: s.connection_count,
          connection_median_latency_ms: s.connection_median_latency_ms,
          rx_packets: s.rx_packets,
          rx_bytes: s.rx_bytes,
          tx_packets: s.tx_packets,
          tx_bytes: s.tx_bytes,
          session_count_vscode: s.session_count_vscode,
          session_count_jetbrains: s.session_count_jetbrains,
          session_count_reconnecting_pty: s.session_count_reconnecting_pty,
          session_count_ssh: s.session_count_ssh
        })))
      }`))

  return AgentReportRepo.of({
    connect: (agentId, now, replicaId) =>
      Effect.asVoid(
        orDie(sql`UPDATE workspace_agents SET first_connected_at = COALESCE(first_connected_at, ${iso(now)}),
        last_connected_at = ${iso(now)}, connected = TRUE, updated_at = ${iso(now)},
        last_connected_replica_id = ${replicaId}, latency_us = NULL WHERE id = ${agentId}`)
      ),
    refreshMany: (rows) =>
      rows.length === 0 ? Effect.void : Effect.asVoid(orDie(sql`WITH v (id, at, replica, latency) AS (VALUES ${
        sql.csv(
          rows.map((r) =>
            sql`(${r.agent_id}, CAST(${iso(r.at)} AS ${timestamp()}), ${r.replica_id}, CAST(${r.latency_us} AS BIGINT))`
          )
        )
      })
        UPDATE workspace_agents SET last_connected_at = v.at, connected = TRUE, last_connected_replica_id = v.replica,
          latency_us = v.latency
        FROM v WHERE workspace_agents.id = v.id
          AND (workspace_agents.disconnected_at IS NULL OR workspace_agents.disconnected_at < v.at)
          AND (workspace_agents.last_connected_at IS NULL OR workspace_agents.last_connected_at <= v.at)`)),
    setLatency: (agentId, latencyMicros) =>
      Effect.asVoid(
        orDie(sql`UPDATE workspace_agents SET latency_us = ${latencyMicros} WHERE id = ${agentId} AND connected = TRUE`)
      ),
    disconnect: (agentId, now) =>
      Effect.asVoid(
        orDie(
          sql`UPDATE workspace_agents SET disconnected_at = ${iso(now)}, connected = FALSE, updated_at = ${iso(now)},
        latency_us = NULL WHERE id = ${agentId}`
        )
      ),
    disconnectOverdue: (before, now, limit) =>
      Effect.gen(function*() {
        const found = yield* sql<Row>`SELECT a.id AS agent_id, b.workspace_id AS workspace_id FROM workspace_agents a
          JOIN workspace_resources r ON r.id = a.resource_id
          JOIN workspace_builds b ON b.job_id = r.job_id
          WHERE a.connected = TRUE AND a.last_connected_at < ${iso(before)}
          ORDER BY a.last_connected_at LIMIT ${limit}`
        if (found.length === 0) return []
        const overdue = found.map(rowToOverdue)
        // The condition again: an agent refreshed since the read stays connected.
        const marked = yield* sql<Row>`UPDATE workspace_agents SET disconnected_at = ${
          iso(now)
        }, connected = FALSE, updated_at = ${iso(now)}, latency_us = NULL
          WHERE id IN ${sql.in(overdue.map((f) => f.agent_id))} AND connected = TRUE AND last_connected_at < ${
          iso(before)
        }
          RETURNING id`
        const ids = new Set(marked.map((m) => text(m.id, "workspace_agents.id")))
        return overdue.filter((f) => ids.has(f.agent_id))
      }).pipe(orDie),
    setLifecycle: (agentId, state, startedAt, readyAt, now) =>
      Effect.asVoid(orDie(sql`UPDATE workspace_agents SET lifecycle_state = ${state},
        started_at = ${startedAt === undefined ? sql`started_at` : sql`${iso(startedAt)}`},
        ready_at = ${readyAt === undefined ? sql`ready_at` : sql`${iso(readyAt)}`},
        updated_at = ${iso(now)} WHERE id = ${agentId}`)),
    setStartup: (agentId, update, now) =>
      Effect.asVoid(
        orDie(
          sql`UPDATE workspace_agents SET version = ${update.version}, expanded_directory = ${update.expanded_directory},
        subsystems = ${JSON.stringify(update.subsystems)}, updated_at = ${iso(now)} WHERE id = ${agentId}`
        )
      ),
    setScriptResult: (agentId, scriptId, result, now) =>
      inTransaction(Effect.gen(function*() {
        const [row] = yield* sql<Row>`SELECT script_results FROM workspace_agents WHERE id = ${agentId}`
        if (row === undefined) return
        const stored = scriptResults(row.script_results, "workspace_agents.script_results")
        // The first reported run is kept beside the last (the build's timings show each script's first run).
        const previous = stored[scriptId]
        const first = previous === undefined ? undefined : previous.first ?? { ...previous, first: undefined }
        const results = { ...stored, [scriptId]: first === undefined ? result : { ...result, first } }
        yield* sql`UPDATE workspace_agents SET script_results = ${JSON.stringify(results)}, updated_at = ${
          iso(now)
        } WHERE id = ${agentId}`
      })).pipe(orDie),
    setAppHealth: (agentId, health, now) =>
      inTransaction(Effect.gen(function*() {
        const [row] = yield* sql<Row>`SELECT app_health FROM workspace_agents WHERE id = ${agentId}`
        if (row === undefined) return
        const merged = { ...appHealth(row.app_health, "workspace_agents.app_health"), ...health }
        yield* sql`UPDATE workspace_agents SET app_health = ${JSON.stringify(merged)}, updated_at = ${
          iso(now)
        } WHERE id = ${agentId}`
      })).pipe(orDie),
    listMetadata: (agentId) =>
      orDie(
        sql<
          Row
        >`SELECT key, value, error, collected_at, age FROM workspace_agent_metadata WHERE agent_id = ${agentId} ORDER BY key`
      ).pipe(
        Effect.map((rows) => rows.map(rowToMetadata))
      ),
    putMetadataMany: (items) =>
      items.length === 0 ?
        Effect.void :
        Effect.asVoid(orDie(sql`INSERT INTO workspace_agent_metadata ${
          sql.insert(items.map((m) => ({
            agent_id: m.agent_id,
            key: m.key,
            value: m.value,
            error: m.error,
            collected_at: iso(m.collected_at),
            age: m.age
          })))
        }
        ON CONFLICT (agent_id, key) DO UPDATE SET value = excluded.value, error = excluded.error,
        collected_at = excluded.collected_at, age = excluded.age`)),
    insertStats: (agentId, workspaceId, stats, now) =>
      insertStatsMany([{ agent_id: agentId, workspace_id: workspaceId, stats, created_at: now }]),
    insertStatsMany,
    statsSince: (since) =>
      Effect.gen(function*() {
        const [sums] = yield* sql<
          Row
        >`SELECT COALESCE(SUM(rx_bytes), 0) AS rx_bytes, COALESCE(SUM(tx_bytes), 0) AS tx_bytes
          FROM workspace_agent_stats WHERE created_at > ${iso(since)}`
        const latencies = yield* sql<Row>`SELECT connection_median_latency_ms AS ms FROM workspace_agent_stats
          WHERE created_at > ${iso(since)} AND connection_median_latency_ms > 0`
        // Sessions are a state, not a flow: each agent's latest report in the window counts.
        const [sessions] = yield* sql<Row>`SELECT COALESCE(SUM(session_count_vscode), 0) AS vscode,
          COALESCE(SUM(session_count_jetbrains), 0) AS jetbrains,
          COALESCE(SUM(session_count_reconnecting_pty), 0) AS reconnecting_pty, COALESCE(SUM(session_count_ssh), 0) AS ssh
          FROM (SELECT session_count_vscode, session_count_jetbrains, session_count_reconnecting_pty, session_count_ssh,
            ROW_NUMBER() OVER (PARTITION BY agent_id ORDER BY created_at DESC, id DESC) AS rn
            FROM workspace_agent_stats WHERE created_at > ${iso(since)}) latest WHERE rn = 1`
        return {
          rx_bytes: int(sums!.rx_bytes, "sum(rx_bytes)"),
          tx_bytes: int(sums!.tx_bytes, "sum(tx_bytes)"),
          latencies: latencies.map((r) => int(r.ms, "workspace_agent_stats.connection_median_latency_ms")),
          session_count_vscode: int(sessions!.vscode, "sum(session_count_vscode)"),
          session_count_jetbrains: int(sessions!.jetbrains, "sum(session_count_jetbrains)"),
          session_count_reconnecting_pty: int(sessions!.reconnecting_pty, "sum(session_count_reconnecting_pty)"),
          session_count_ssh: int(sessions!.ssh, "sum(session_count_ssh)")
        }
      }).pipe(orDie),
    purgeStats: (before, limit) =>
      orDie(sql<Row>`DELETE FROM workspace_agent_stats WHERE id IN (
        SELECT id FROM workspace_agent_stats WHERE created_at < ${
        iso(before)
      } ORDER BY created_at LIMIT ${limit}) RETURNING id`).pipe(
        Effect.map((rows) => rows.length)
      )
  })
})

export const layer: Layer.Layer<AgentReportRepo, never, SqlClient.SqlClient> = Layer.effect(AgentReportRepo, make)
