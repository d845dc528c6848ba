/**
 * The notifications area on @effect/sql: method overrides, preferences, `site_configs` and the
 * message queue. The lease is one UPDATE ... RETURNING over the oldest due messages; on Postgres
 * the chosen rows are locked with `FOR UPDATE SKIP LOCKED`, so notifiers of several processes
 * lease disjoint batches; SQLite runs the same statement without it (one statement is atomic
 * there, and one process owns the file). Every outcome is conditional on the lease it ends, so
 * a notifier whose lease ran out (and another took over) records nothing.
 */
import { SqlClient } from "@effect/sql"
import {
  type NotificationMessageRecord,
  type NotificationMessageStatus,
  notificationMethods,
  type NotificationPreferenceRecord,
  NotificationRepo
} from "@workbay/core"
import { Effect, Layer } from "effect"
import {
  bool,
  columns,
  date,
  first,
  int,
  json,
  jsonValue,
  literal,
  literalOf,
  nullableDate,
  type Row,
  text
} from "../Columns.js"
import { bind } from "../Rows.js"

const method = literal(notificationMethods)

const rowToMessage = columns<NotificationMessageRecord>("notification_messages", {
  id: text,
  template_id: text,
  user_id: text,
  method,
  status: literalOf<NotificationMessageStatus>()([
    "pending",
    "leased",
    "sent",
    "temporary_failure",
    "permanent_failure"
  ]),
  status_reason: text,
  created_by: text,
  payload: jsonValue<NotificationMessageRecord["payload"]>(),
  targets: json<Array<string>>([]),
  attempt_count: int,
  created_at: date,
  updated_at: date,
  leased_until: nullableDate,
  next_retry_after: nullableDate,
  sent_at: nullableDate,
  dedupe_hash: text
}).read

const rowToPreference = columns<NotificationPreferenceRecord>("notification_preferences", {
  user_id: text,
  template_id: text,
  disabled: bool,
  created_at: date,
  updated_at: date
}).read

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return NotificationRepo.of({
    templateMethods: Effect.orDie(sql<Row>`SELECT template_id, method FROM notification_template_methods`).pipe(
      Effect.map((rs) =>
        new Map(
          rs.map((r) => [
            text(r.template_id, "notification_template_methods.template_id"),
            method(r.method, "notification_template_methods.method")
          ])
        )
      )
    ),
    setTemplateMethod: (templateId, method) =>
      Effect.orDie(
        method === null
          ? sql`DELETE FROM notification_template_methods WHERE template_id = ${templateId}`
          : sql`INSERT INTO notification_template_methods (template_id, method) VALUES (${templateId}, ${method})
              ON CONFLICT (template_id) DO UPDATE SET method = excluded.method`
      ).pipe(Effect.asVoid),

    preferences: (userId) =>
      Effect.orDie(sql<Row>`SELECT * FROM notification_preferences WHERE user_id = ${userId} ORDER BY template_id`)
        .pipe(
          Effect.map((rs) => rs.map(rowToPreference))
        ),
    setPreferences: (userId, changes, now) =>
      Effect.forEach(changes, (c) => {
        const at = now.toISOString()
        // Only a real change moves updated_at.
        return Effect.orDie(
          sql`INSERT INTO notification_preferences (user_id, template_id, disabled, created_at, updated_at)
          VALUES (${userId}, ${c.templateId}, ${bind(c.disabled)}, ${at}, ${at})
          ON CONFLICT (user_id, template_id) DO UPDATE SET disabled = excluded.disabled, updated_at = excluded.updated_at
          WHERE notification_preferences.disabled <> excluded.disabled
          RETURNING template_id`
        ).pipe(Effect.map((rs) => rs.length))
      }).pipe(Effect.map((counts) => counts.reduce((a, b) => a + b, 0))),

    siteConfig: (key) =>
      Effect.orDie(sql<Row>`SELECT value FROM site_configs WHERE key = ${key}`).pipe(
        Effect.map((rs) => first(rs, (r) => text(r.value, "site_configs.value")))
      ),
    setSiteConfig: (key, value) =>
      Effect.orDie(sql`INSERT INTO site_configs (key, value) VALUES (${key}, ${value})
        ON CONFLICT (key) DO UPDATE SET value = excluded.value`).pipe(Effect.asVoid),

    enqueue: (m) => {
      const at = m.created_at.toISOString()
      return Effect.orDie(sql`INSERT INTO notification_messages
        (id, template_id, user_id, method, status, created_by, payload, targets, created_at, updated_at, dedupe_hash)
        VALUES (${m.id}, ${m.template_id}, ${m.user_id}, ${m.method}, 'pending', ${m.created_by},
          ${JSON.stringify(m.payload)}, ${JSON.stringify(m.targets)}, ${at}, ${at}, ${m.dedupe_hash})
        ON CONFLICT (dedupe_hash) DO NOTHING
        RETURNING id`).pipe(Effect.map((rs) => rs.length > 0))
    },

    lease: ({ count, leasedUntil, maxAttempts, now }) => {
      if (count <= 0) return Effect.succeed([])
      const at = now.toISOString()
      const due = sql`(status = 'pending'
          OR (status = 'temporary_failure' AND next_retry_after <= ${at} AND attempt_count < ${maxAttempts})
          OR (status = 'leased' AND leased_until <= ${at}))`
      const candidates = sql`SELECT id FROM notification_messages
        WHERE status IN ('pending', 'leased', 'temporary_failure') AND ${due}
        ORDER BY created_at, id LIMIT ${count}`
      // A materialized CTE: the batch is chosen (and on Postgres locked) once. A subquery in
      // \`WHERE id IN (...)\` may be run again per row, which would lease more than \`count\`.
      return Effect.orDie(sql<Row>`WITH picked AS MATERIALIZED (${
        sql.onDialectOrElse({
          pg: () => sql`${candidates} FOR UPDATE SKIP LOCKED`,
          orElse: () => candidates
        })
      })
        UPDATE notification_messages
        SET status = 'leased', leased_until = ${leasedUntil.toISOString()}, updated_at = ${at}
        WHERE id IN (SELECT id FROM picked) AND ${due}
        RETURNING *`).pipe(
        Effect.map((rs) => rs.map(rowToMessage).sort((a, b) => a.created_at.getTime() - b.created_at.getTime()))
      )
    },
    markSent: (id, leasedUntil, now, payload) => {
      const at = now.toISOString()
      return Effect.orDie(sql`UPDATE notification_messages
        SET status = 'sent', status_reason = '', sent_at = ${at}, updated_at = ${at}, leased_until = NULL,
          ${payload === undefined ? sql`payload = payload` : sql`payload = ${JSON.stringify(payload)}`},
          next_retry_after = NULL, attempt_count = attempt_count + 1
        WHERE id = ${id} AND status = 'leased' AND leased_until = ${leasedUntil.toISOString()}
        RETURNING id`).pipe(Effect.map((rs) => rs.length > 0))
    },
    markFailed: (id, leasedUntil, reason, retryAfter, now, payload) => {
      const at = now.toISOString()
      const status = retryAfter === null ? "permanent_failure" : "temporary_failure"
      return Effect.orDie(sql`UPDATE notification_messages
        SET status = ${status}, status_reason = ${reason.slice(0, 4096)}, updated_at = ${at}, leased_until = NULL,
          ${payload === undefined ? sql`payload = payload` : sql`payload = ${JSON.stringify(payload)}`},
          next_retry_after = ${retryAfter === null ? null : retryAfter.toISOString()}, attempt_count = attempt_count + 1
        WHERE id = ${id} AND status = 'leased' AND leased_until = ${leasedUntil.toISOString()}
        RETURNING id`).pipe(Effect.map((rs) => rs.length > 0))
    },
    release: (ids, leasedUntil, now) =>
      ids.length === 0
        ? Effect.succeed(0)
        : Effect.orDie(sql`UPDATE notification_messages
        SET status = 'pending', leased_until = NULL, updated_at = ${now.toISOString()}
        WHERE ${sql.in("id", ids)} AND status = 'leased' AND leased_until = ${leasedUntil.toISOString()}
        RETURNING id`).pipe(Effect.map((rs) => rs.length)),
    findMessage: (id) =>
      Effect.orDie(sql<Row>`SELECT * FROM notification_messages WHERE id = ${id}`).pipe(
        Effect.map((rs) => first(rs, rowToMessage))
      ),
    messagesOf: (userId) =>
      Effect.orDie(sql<Row>`SELECT * FROM notification_messages WHERE user_id = ${userId} ORDER BY created_at, id`)
        .pipe(
          Effect.map((rs) => rs.map(rowToMessage))
        )
  })
})

export const layer: Layer.Layer<NotificationRepo, never, SqlClient.SqlClient> = Layer.effect(NotificationRepo, make)
