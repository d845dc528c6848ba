/**
 * App sessions (the `AppSessionRepo` port), on @effect/sql: one row per session key, upserted by
 * each request in one statement; the row's `id` is replaced when the request comes after the
 * session went idle, so the caller learns whether it started a session from the id it gets back.
 */
import { SqlClient } from "@effect/sql"
import { AppSessionRepo, newUuid } from "@workbay/core"
import { Effect, Layer } from "effect"
import { createHash } from "node:crypto"
import { text } from "../Columns.js"
import { PURGE_BATCH, purgeBefore } from "../Purge.js"

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  return AppSessionRepo.of({
    touch: (key, now, staleBefore) =>
      Effect.gen(function*() {
        const keyHash = createHash("sha256")
          .update(
            JSON.stringify([
              key.agentId,
              key.appId,
              key.userId ?? "",
              key.ip,
              key.userAgent,
              key.slugOrPort,
              key.statusCode
            ])
          )
          .digest("hex")
        const id = newUuid()
        const at = now.toISOString()
        const stale = staleBefore.toISOString()
        const rows = yield* sql`INSERT INTO workspace_app_sessions (key_hash, id, agent_id, started_at, updated_at)
          VALUES (${keyHash}, ${id}, ${key.agentId}, ${at}, ${at})
          ON CONFLICT (key_hash) DO UPDATE SET
            id = CASE WHEN workspace_app_sessions.updated_at < ${stale} THEN excluded.id ELSE workspace_app_sessions.id END,
            started_at = CASE WHEN workspace_app_sessions.updated_at < ${stale} THEN excluded.started_at ELSE workspace_app_sessions.started_at END,
            updated_at = excluded.updated_at
          RETURNING id`
        return rows.length > 0 && text(rows[0]!.id, "workspace_app_sessions.id") === id
      }).pipe(Effect.orDie),
    purgeIdle: (before) => purgeBefore(sql, "workspace_app_sessions", "updated_at", before, PURGE_BATCH, "key_hash")
  })
})

export const layer = Layer.effect(AppSessionRepo, make)
