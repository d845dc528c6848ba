/**
 * Inbox notifications on @effect/sql (migration 0022). Every page of a user's inbox is read along
 * an index that starts with the user and ends with `(created_at DESC, id DESC)`, so its cost does
 * not grow with the size of the inbox:
 *
 * - no filter: `inbox_notifications_user_created`; `read_status=unread|read`: the partial
 *   indexes `inbox_notifications_user_unread` / `_user_read`;
 * - `templates`: `inbox_notifications_user_template` (unread: `_user_template_unread`), one
 *   bounded probe per template, merged: `k` templates read at most `k` pages;
 * - `targets`: `inbox_notification_targets` (one row per notification and target) along
 *   `inbox_notification_targets_user_target` for the first target; the other targets are checked
 *   per row through its primary key.
 *
 * A combination whose driving index matches many rows the other conditions reject (a target
 * with 100,000 notifications, none of them of the template asked for) walks those rows; see
 * docs/inbox.md. The unread count is a kept count in `counters` (`inbox_unread:<user id>`),
 * moved in the same transaction as every insert and read-state change, so it is one row read
 * with 100,000 unread.
 */
import { SqlClient, type SqlError, type Statement } from "@effect/sql"
import { type InboxFilter, type InboxNotificationRecord, InboxNotificationRepo } from "@workbay/core"
import { Effect, Layer } from "effect"
import { columns, date, first, json, nullableDate, type Row, text } from "../Columns.js"
import { groupCommit } from "../GroupCommit.js"
import { transaction } from "../Transaction.js"

const inboxColumns = columns<InboxNotificationRecord>("inbox_notifications", {
  id: text,
  user_id: text,
  template_id: text,
  targets: json<Array<string>>([]),
  title: text,
  content: text,
  icon: text,
  actions: json<Array<{ label: string; url: string }>>([]),
  read_at: nullableDate,
  created_at: date
})
const rowToNotification = inboxColumns.read

/** Notifications stored in one transaction at most. */
const INSERT_GROUP = 100

const counterName = (userId: string) => `inbox_unread:${userId}`

/** The SQL of a page (exported for the test of the query plans). */
export const listPage = (sql: SqlClient.SqlClient, f: InboxFilter): Statement.Statement<Row> => {
  const targets = [...new Set(f.targets.map((t) => t.toLowerCase()))]
  const templates = [...new Set(f.templates.map((t) => t.toLowerCase()))]
  const readCondition = (n: string) =>
    f.readStatus === "unread"
      ? sql.literal(`${n}.read_at IS NULL`)
      : f.readStatus === "read"
      ? sql.literal(`${n}.read_at IS NOT NULL`)
      : undefined
  const cursor = (created: string, id: string) =>
    f.before === undefined
      ? undefined
      : sql`(${sql.literal(created)}, ${sql.literal(id)}) < (${f.before.createdAt.toISOString()}, ${f.before.id})`
  const conditions = (...cs: ReadonlyArray<Statement.Fragment | undefined>) =>
    sql.and(cs.filter((c): c is Statement.Fragment => c !== undefined))

  if (targets.length > 0) {
    const [driver, ...others] = targets
    const cols = sql.literal(inboxColumns.select("n"))
    return sql<Row>`SELECT ${cols} FROM inbox_notification_targets t
      JOIN inbox_notifications n ON n.id = t.notification_id
      WHERE ${
      conditions(
        sql`t.user_id = ${f.userId}`,
        sql`t.target_id = ${driver!}`,
        cursor("t.created_at", "t.notification_id"),
        readCondition("n"),
        templates.length > 0 ? sql`n.template_id IN ${sql.in(templates)}` : undefined,
        ...others.map((o) =>
          sql`EXISTS (SELECT 1 FROM inbox_notification_targets o WHERE o.notification_id = t.notification_id AND o.target_id = ${o})`
        )
      )
    }
      ORDER BY t.created_at DESC, t.notification_id DESC LIMIT ${f.limit}`
  }
  if (templates.length > 0) {
    // One bounded probe per template along (user, template, created_at, id), merged.
    const probes = templates.map((template, i) =>
      sql`SELECT * FROM (SELECT * FROM inbox_notifications n WHERE ${
        conditions(
          sql`n.user_id = ${f.userId}`,
          sql`n.template_id = ${template}`,
          cursor("n.created_at", "n.id"),
          readCondition("n")
        )
      } ORDER BY n.created_at DESC, n.id DESC LIMIT ${f.limit}) ${sql.literal(`p${i}`)}`
    )
    if (probes.length === 1) {
      return sql<Row>`${probes[0]!} ORDER BY created_at DESC, id DESC`
    }
    return sql<Row>`${sql.join(" UNION ALL ", false)(probes)} ORDER BY created_at DESC, id DESC LIMIT ${f.limit}`
  }
  return sql<Row>`SELECT * FROM inbox_notifications n WHERE ${
    conditions(
      sql`n.user_id = ${f.userId}`,
      cursor("n.created_at", "n.id"),
      readCondition("n")
    )
  } ORDER BY n.created_at DESC, n.id DESC LIMIT ${f.limit}`
}

/** Moves the user's kept unread count by `by`. */
const bumpUnread = (sql: SqlClient.SqlClient, userId: string, by: number) =>
  by === 0 ? Effect.void : Effect.asVoid(sql`INSERT INTO counters (name, value) VALUES (${counterName(userId)}, ${by})
    ON CONFLICT (name) DO UPDATE SET value = counters.value + ${by}`)

/** The inbox repository on the provided `SqlClient`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const withTransaction = transaction(sql)
  const find = (userId: string, id: string) =>
    Effect.orDie(sql<Row>`SELECT * FROM inbox_notifications WHERE id = ${id.toLowerCase()} AND user_id = ${userId}`)
      .pipe(
        Effect.map((rs) => first(rs, rowToNotification))
      )
  /** One notification's statements (in the group's transaction): the row once per id, its targets, the count. */
  const insertOne = (n: InboxNotificationRecord) =>
    Effect.gen(function*() {
      const targets = [...new Set(n.targets.map((t) => t.toLowerCase()))]
      const created = n.created_at.toISOString()
      const rs = yield* sql<{ id: string }>`INSERT INTO inbox_notifications ${
        sql.insert({
          id: n.id,
          user_id: n.user_id,
          template_id: n.template_id.toLowerCase(),
          targets: JSON.stringify(targets),
          title: n.title,
          content: n.content,
          icon: n.icon,
          actions: JSON.stringify(n.actions.map((a) => ({ label: a.label, url: a.url }))),
          read_at: n.read_at === null ? null : n.read_at.toISOString(),
          created_at: created
        })
      } ON CONFLICT (id) DO NOTHING RETURNING id`
      if (rs.length === 0) return undefined
      if (targets.length > 0) {
        yield* sql`INSERT INTO inbox_notification_targets ${
          sql.insert(
            targets.map((target_id) => ({ notification_id: n.id, user_id: n.user_id, target_id, created_at: created }))
          )
        }`
      }
      const by = n.read_at === null ? 1 : 0
      const counted = yield* sql<{ value: number | string }>`INSERT INTO counters (name, value) VALUES (${
        counterName(n.user_id)
      }, ${by})
        ON CONFLICT (name) DO UPDATE SET value = counters.value + ${by} RETURNING value`
      return Math.max(0, Number(counted[0]?.value ?? 0))
    })
  // Deliveries that arrive together (a notifier's batch, one event for many users) share a transaction.
  const insertGrouped = yield* groupCommit({
    maxItems: INSERT_GROUP,
    transaction: withTransaction,
    write: insertOne,
    sortKey: (n) => n.user_id
  })
  return InboxNotificationRepo.of({
    insert: insertGrouped,
    find,
    list: (f) => Effect.orDie(listPage(sql, f)).pipe(Effect.map((rs) => rs.map(rowToNotification))),
    unreadCount: (userId) =>
      Effect.orDie(sql<{ value: number | string }>`SELECT value FROM counters WHERE name = ${counterName(userId)}`)
        .pipe(
          Effect.map((rs) => Math.max(0, Number(rs[0]?.value ?? 0)))
        ),
    setReadAt: (userId, id, readAt) =>
      Effect.gen(function*() {
        const key = id.toLowerCase()
        yield* withTransaction(Effect.gen(function*() {
          // Only a change of state moves the count; a notification already in that state keeps its read_at.
          const changed = readAt === null
            ? yield* sql`UPDATE inbox_notifications SET read_at = NULL
                WHERE id = ${key} AND user_id = ${userId} AND read_at IS NOT NULL RETURNING id`
            : yield* sql`UPDATE inbox_notifications SET read_at = ${readAt.toISOString()}
                WHERE id = ${key} AND user_id = ${userId} AND read_at IS NULL RETURNING id`
          if (changed.length > 0) yield* bumpUnread(sql, userId, readAt === null ? 1 : -1)
        })).pipe(Effect.orDie)
        return yield* find(userId, key)
      }),
    markAllRead: (userId, readAt) =>
      withTransaction(Effect.gen(function*() {
        const at = readAt.toISOString()
        // Relative, so that a notification another transaction stores meanwhile (after this
        // statement's snapshot, still unread) keeps its count.
        const pg = (): Effect.Effect<void, SqlError.SqlError> =>
          Effect.flatMap(
            sql<{ n: number | string }>`WITH marked AS (UPDATE inbox_notifications SET read_at = ${at}
              WHERE user_id = ${userId} AND read_at IS NULL RETURNING 1) SELECT count(*) AS n FROM marked`,
            (rs) => bumpUnread(sql, userId, -Number(rs[0]?.n ?? 0))
          )
        // One writer at a time: once this transaction marked them all, none is unread.
        const sqlite = (): Effect.Effect<void, SqlError.SqlError> =>
          Effect.asVoid(Effect.zipRight(
            sql`UPDATE inbox_notifications SET read_at = ${at} WHERE user_id = ${userId} AND read_at IS NULL`,
            sql`UPDATE counters SET value = 0 WHERE name = ${counterName(userId)}`
          ))
        yield* sql.onDialectOrElse({ pg, orElse: sqlite })
      })).pipe(Effect.orDie)
  })
})

export const layer: Layer.Layer<InboxNotificationRepo, never, SqlClient.SqlClient> = Layer.scoped(
  InboxNotificationRepo,
  make
)
