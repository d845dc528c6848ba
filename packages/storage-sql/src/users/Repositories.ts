/**
 * One implementation of every repository port on @effect/sql. Queries are
 * written once; both dialects run them (see Rows.ts for the value mapping).
 */
import { SqlClient, SqlError, type Statement } from "@effect/sql"
import type { Connection } from "@effect/sql/SqlConnection"
import {
  ApiKeyRepo, GitSshKeyRepo, LoginConversionRepo, MemberRepo, OrganizationRepo, Transactions, UniqueViolation,
  type UserPatch, UserRepo
} from "@workbay/core"
import { Context, Effect, Layer, Option } from "effect"
import { openTransactions, transaction } from "../Transaction.js"
import { purgeBefore } from "../Purge.js"

const SqlErrorClass = SqlError.SqlError

/** Name of the group every organization has, holding all its members. */
export const EVERYONE_GROUP = "Everyone"
import {
  apiKeyColumns, bind, bindRecord, toBool, prefixed, rowToApiKey, rowToGitSshKey, rowToMembership, rowToOrganization, rowToUser,
  userColumns
} from "../Rows.js"

type Row = Record<string, any>

/** The name of the unique constraint a failed write hit, if that is why it failed. */
export const uniqueConstraintOf = (error: SqlError.SqlError): string | undefined => {
  const cause = error.cause as { code?: string; constraint?: string; message?: string } | undefined
  if (cause?.code === "23505") return cause.constraint ?? "unique"
  if (cause?.code?.startsWith("SQLITE_CONSTRAINT") && /UNIQUE|PRIMARY/.test(cause.message ?? "")) {
    return cause.message ?? "unique"
  }
  return undefined
}

/** Unique violations become typed failures; every other SQL error is a defect. */
const unique = <A, R>(effect: Effect.Effect<A, SqlError.SqlError, R>): Effect.Effect<A, UniqueViolation, R> =>
  Effect.catchAll(effect, (e) => {
    const constraint = uniqueConstraintOf(e)
    return constraint !== undefined ? Effect.fail(new UniqueViolation({ constraint })) : Effect.die(e)
  })

const first = <A>(rows: ReadonlyArray<Row>, map: (r: Row) => A): Option.Option<A> =>
  rows.length > 0 ? Option.some(map(rows[0]!)) : Option.none()

const values = bindRecord

/** Escapes LIKE wildcards so user text matches literally (used with `ESCAPE '\\'`). */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

const USER_JOIN_COLUMNS = prefixed("u", userColumns, "u_")
const KEY_JOIN_COLUMNS = prefixed("k", apiKeyColumns, "k_")

/*
 * Direct reads. Every authenticated request runs the same few reads, and on
 * SQLite @effect/sql's statement pipeline (span, scope, semaphore, template
 * compilation: about 30 us a query) costs ten times the query itself. So on
 * @effect/sql-sqlite-node, which has one connection and runs statements
 * synchronously, those reads run their (cached, prepared) statement on that
 * connection directly. Only while no transaction is open: a transaction holds
 * the connection, and a read must neither see its uncommitted writes nor slip
 * into it, so then (and on any other client) reads take the ordinary path,
 * which waits for the transaction. The SQL text is what the templates compile to.
 */
const SQLITE_NODE_CLIENT = Symbol.for("@effect/sql-sqlite-node/SqliteClient")
const FIND_USER_BY_ID_SQLITE = "SELECT * FROM users WHERE id = ?"
const MEMBERSHIPS_OF_USER_SQLITE = "SELECT * FROM organization_members WHERE user_id = ? ORDER BY created_at"
const FIND_KEY_WITH_USER_SQLITE = `SELECT ${KEY_JOIN_COLUMNS}, ${USER_JOIN_COLUMNS} FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.id = ?`

/** The connection to read on directly, when the client is SQLite on better-sqlite3 without row transforms. */
const directConnection = (sql: SqlClient.SqlClient) =>
  SQLITE_NODE_CLIENT in sql && sql.withoutTransforms() === sql
    ? Effect.map(Effect.orDie(Effect.scoped(sql.reserve)), Option.some)
    : Effect.succeed(Option.none<Connection>())

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const orDie = Effect.orDie

  // Transactions of every repository module are counted; direct reads wait for none to be open.
  const withTransaction = transaction(sql)
  const direct = Option.getOrUndefined(yield* directConnection(sql))
  /** `statement` (the ordinary path), or the same SQL run directly as `text` with `params` when that is safe. */
  const read = (
    text: string,
    params: ReadonlyArray<unknown>,
    statement: () => Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError>
  ): Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError> =>
    direct === undefined
      ? statement()
      : Effect.contextWithEffect((context: Context.Context<never>) =>
        openTransactions(sql) === 0 && Option.isNone(Context.getOption(context, SqlClient.TransactionConnection))
          ? direct.execute(text, params, undefined)
          : statement()
      )

  /** Moves the kept user counts (see migration 0003). */
  const bumpUsers = (live: number, active: number) =>
    Effect.gen(function*() {
      if (live !== 0) yield* sql`UPDATE counters SET value = value + ${live} WHERE name = 'users'`
      if (active !== 0) yield* sql`UPDATE counters SET value = value + ${active} WHERE name = 'users_active'`
    })

  /** The number of live users, of live users with `status`. */
  const keptUserCount = (status: string | undefined) =>
    orDie(sql<{ name: string; value: number | string }>`SELECT name, value FROM counters WHERE name IN ('users', 'users_active')`).pipe(
      Effect.map((rs) => {
        const of = (name: string) => Number(rs.find((r) => r.name === name)?.value ?? 0)
        return status === undefined ? of("users") : status === "active" ? of("users_active") : of("users") - of("users_active")
      })
    )

  /** Removes `userId` from the groups `groupIds` selects, keeping their member counts. */
  const leaveGroups = (userId: string, groupIds: Statement.Statement<Row>) =>
    Effect.gen(function*() {
      yield* sql`UPDATE groups SET member_count = member_count - 1
        WHERE id IN (SELECT group_id FROM group_members WHERE user_id = ${userId} AND group_id IN (${groupIds}))`
      yield* sql`DELETE FROM group_members WHERE user_id = ${userId} AND group_id IN (${groupIds})`
    })

  // Case-insensitive matches lower-case both sides in SQL, as the unique indexes do: SQLite's lower()
  // folds ASCII only, Postgres' every letter. Lower-casing the argument in JS would miss "Ünal@x.io" on SQLite.
  const users = UserRepo.of({
    insert: (u) =>
      unique(withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO users ${sql.insert(values(u))}`
        if (!u.deleted) yield* bumpUsers(1, u.status === "active" ? 1 : 0)
      }))).pipe(Effect.asVoid),
    findById: (id) =>
      orDie(read(FIND_USER_BY_ID_SQLITE, [id], () => sql`SELECT * FROM users WHERE id = ${id}`)).pipe(
        Effect.map((rs) => first(rs, rowToUser))
      ),
    findByUsername: (username) =>
      orDie(sql`SELECT * FROM users WHERE lower(username) = lower(${username}) AND deleted = FALSE`).pipe(
        Effect.map((rs) => first(rs, rowToUser))
      ),
    findByEmail: (email) =>
      orDie(sql`SELECT * FROM users WHERE lower(email) = lower(${email}) AND deleted = FALSE`).pipe(
        Effect.map((rs) => first(rs, rowToUser))
      ),
    list: (f) =>
      Effect.gen(function*() {
        const where = [sql`deleted = FALSE`]
        if (f.search) {
          const like = `%${escapeLike(f.search)}%`
          where.push(
            sql`(lower(username) LIKE lower(${like}) ESCAPE '\\' OR lower(email) LIKE lower(${like}) ESCAPE '\\'
              OR lower(name) LIKE lower(${like}) ESCAPE '\\')`
          )
        }
        if (f.username) where.push(sql`lower(username) = lower(${f.username})`)
        if (f.email) where.push(sql`lower(email) = lower(${f.email})`)
        if (f.status) where.push(sql`status = ${f.status}`)
        if (f.loginType) where.push(sql`login_type = ${f.loginType}`)
        if (f.role && f.role !== "member") where.push(sql`rbac_roles LIKE ${`%${escapeLike(JSON.stringify(f.role))}%`} ESCAPE '\\'`)
        if (f.organizationId) {
          where.push(sql`id IN (SELECT user_id FROM organization_members WHERE organization_id = ${f.organizationId})`)
        }
        const filtered = sql.and(where)
        const page = f.afterId
          ? sql.and([...where, sql`lower(username) > (SELECT lower(username) FROM users WHERE id = ${f.afterId})`])
          : filtered
        const rows = yield* sql`SELECT * FROM users WHERE ${page} ORDER BY lower(username) LIMIT ${f.limit} OFFSET ${f.offset}`
        // Without filters (or by status alone) the count is kept, one row read at any size.
        const kept = !f.search && !f.username && !f.email && !f.loginType && !f.organizationId &&
          (!f.role || f.role === "member")
        const count = kept
          ? yield* keptUserCount(f.status)
          : Number((yield* sql<{ n: number | string }>`SELECT count(*) AS n FROM users WHERE ${filtered}`)[0]!.n)
        return { users: rows.map((r) => rowToUser(r)), count }
      }).pipe(orDie),
    update: (id, patch) => {
      const { deleted, status, ...rest } = patch
      const plain = (p: UserPatch) =>
        Object.keys(values(p)).length === 0
          ? sql`SELECT * FROM users WHERE id = ${id}`
          : sql`UPDATE users SET ${sql.update(values(p))} WHERE id = ${id} RETURNING *`
      if (deleted === undefined && status === undefined) return unique(plain(rest)).pipe(Effect.map((rs) => first(rs, rowToUser)))
      // Deletion and status move the kept counts. Each is a guarded update that changes the row
      // only if it is not already so, and the counts move only when a row changed: two racing
      // deletions of one user count once.
      return unique(withTransaction(Effect.gen(function*() {
        if (deleted !== undefined) {
          const rs = yield* sql<{ status: string }>`UPDATE users SET deleted = ${bind(deleted)}
            WHERE id = ${id} AND deleted = ${bind(!deleted)} RETURNING status`
          const sign = deleted ? -1 : 1
          if (rs.length > 0) yield* bumpUsers(sign, rs[0]!.status === "active" ? sign : 0)
        }
        if (status !== undefined) {
          const rs = yield* sql<{ deleted: unknown }>`UPDATE users SET status = ${status}
            WHERE id = ${id} AND status <> ${status} RETURNING deleted`
          if (rs.length > 0 && !toBool(rs[0]!.deleted)) yield* bumpUsers(0, status === "active" ? 1 : -1)
        }
        return yield* plain(rest)
      }))).pipe(Effect.map((rs) => first(rs, rowToUser)))
    },
    count: keptUserCount(undefined)
  })

  const organizations = OrganizationRepo.of({
    // Every organization has its Everyone group (same id), made with it.
    insert: (o) =>
      unique(withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO organizations ${sql.insert(values({ ...o }))}`
        yield* sql`INSERT INTO groups ${sql.insert(values({
          id: o.id, organization_id: o.id, name: EVERYONE_GROUP, display_name: "", avatar_url: "", quota_allowance: 0,
          source: "user", member_count: 0, created_at: o.created_at, updated_at: o.created_at
        }))}`
      }))).pipe(Effect.asVoid),
    findById: (id) =>
      orDie(sql`SELECT * FROM organizations WHERE id = ${id}`).pipe(Effect.map((rs) => first(rs, rowToOrganization))),
    findByName: (name) =>
      orDie(sql`SELECT * FROM organizations WHERE lower(name) = lower(${name})`).pipe(
        Effect.map((rs) => first(rs, rowToOrganization))
      ),
    findDefault: orDie(sql`SELECT * FROM organizations WHERE is_default = TRUE`).pipe(
      Effect.map((rs) => first(rs, rowToOrganization))
    ),
    list: orDie(sql`SELECT * FROM organizations ORDER BY lower(name)`).pipe(Effect.map((rs) => rs.map(rowToOrganization))),
    update: (id, patch) =>
      Object.keys(values(patch)).length === 0
        ? orDie(sql`SELECT * FROM organizations WHERE id = ${id}`).pipe(Effect.map((rs) => first(rs, rowToOrganization)))
        : unique(sql`UPDATE organizations SET ${sql.update(values(patch))} WHERE id = ${id} RETURNING *`).pipe(
          Effect.map((rs) => first(rs, rowToOrganization))
        ),
    delete: (id) =>
      withTransaction(Effect.gen(function*() {
        const groupIds = sql`SELECT id FROM groups WHERE organization_id = ${id}`
        yield* sql`DELETE FROM group_ai_budgets WHERE group_id IN (${groupIds})`
        yield* sql`DELETE FROM group_members WHERE group_id IN (${groupIds})`
        yield* sql`DELETE FROM groups WHERE organization_id = ${id}`
        yield* sql`DELETE FROM organization_members WHERE organization_id = ${id}`
        yield* sql`DELETE FROM organizations WHERE id = ${id}`
      })).pipe(orDie)
  })

  const members = MemberRepo.of({
    // Membership changes keep the Everyone group's member_count (and, on removal, the user's
    // groups in that organization) in the same transaction.
    insert: (m) =>
      unique(withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO organization_members ${sql.insert(values(m))}`
        yield* sql`UPDATE groups SET member_count = member_count + 1 WHERE id = ${m.organization_id}`
      }))).pipe(Effect.asVoid),
    delete: (orgId, userId) =>
      withTransaction(Effect.gen(function*() {
        const rs = yield* sql`DELETE FROM organization_members WHERE organization_id = ${orgId} AND user_id = ${userId} RETURNING user_id`
        if (rs.length === 0) return false
        yield* sql`UPDATE groups SET member_count = member_count - 1 WHERE id = ${orgId}`
        yield* leaveGroups(userId, sql`SELECT id FROM groups WHERE organization_id = ${orgId}`)
        return true
      })).pipe(orDie),
    find: (orgId, userId) =>
      orDie(sql`SELECT * FROM organization_members WHERE organization_id = ${orgId} AND user_id = ${userId}`).pipe(
        Effect.map((rs) => first(rs, (r) => rowToMembership(r)))
      ),
    updateRoles: (orgId, userId, roles, at) =>
      orDie(
        sql`UPDATE organization_members SET roles = ${JSON.stringify(roles)}, updated_at = ${at.toISOString()}
            WHERE organization_id = ${orgId} AND user_id = ${userId} RETURNING *`
      ).pipe(Effect.map((rs) => first(rs, (r) => rowToMembership(r)))),
    ofUsers: (userIds) =>
      userIds.length === 0
        ? Effect.succeed(new Map())
        : orDie(sql<{ user_id: string; organization_id: string }>`SELECT user_id, organization_id FROM organization_members WHERE ${sql.in("user_id", userIds)}`).pipe(
          Effect.map((rs) => {
            const map = new Map<string, Array<string>>()
            for (const r of rs) {
              const list = map.get(r.user_id) ?? []
              list.push(r.organization_id)
              map.set(r.user_id, list)
            }
            return map
          })
        ),
    deleteByUser: (userId) =>
      withTransaction(Effect.gen(function*() {
        yield* sql`UPDATE groups SET member_count = member_count - 1
          WHERE id IN (SELECT organization_id FROM organization_members WHERE user_id = ${userId})`
        yield* leaveGroups(userId, sql`SELECT group_id FROM group_members WHERE user_id = ${userId}`)
        yield* sql`DELETE FROM organization_members WHERE user_id = ${userId}`
      })).pipe(orDie, Effect.asVoid),
    ofUser: (userId) =>
      orDie(read(MEMBERSHIPS_OF_USER_SQLITE, [userId], () =>
        sql`SELECT * FROM organization_members WHERE user_id = ${userId} ORDER BY created_at`)).pipe(
        Effect.map((rs) => rs.map((r) => rowToMembership(r)))
      ),
    list: (orgId, page) =>
      orDie(
        sql`SELECT m.*, ${sql.literal(USER_JOIN_COLUMNS)} FROM organization_members m JOIN users u ON u.id = m.user_id
            WHERE m.organization_id = ${orgId} AND u.deleted = FALSE
            ORDER BY lower(u.username) LIMIT ${page.limit} OFFSET ${page.offset}`
      ).pipe(Effect.map((rs) => rs.map((r) => ({ member: rowToMembership(r), user: rowToUser(r, "u_") }))))
  })

  const apiKeys = ApiKeyRepo.of({
    insert: (k) => unique(sql`INSERT INTO api_keys ${sql.insert(values(k))}`).pipe(Effect.asVoid),
    findWithUser: (id) =>
      orDie(read(FIND_KEY_WITH_USER_SQLITE, [id], () =>
        sql`SELECT ${sql.literal(KEY_JOIN_COLUMNS)}, ${sql.literal(USER_JOIN_COLUMNS)}
            FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.id = ${id}`)).pipe(Effect.map((rs) => first(rs, (r) => ({ key: rowToApiKey(r, "k_"), user: rowToUser(r, "u_") })))),
    findById: (id) => orDie(sql`SELECT * FROM api_keys WHERE id = ${id}`).pipe(Effect.map((rs) => first(rs, (r) => rowToApiKey(r)))),
    findByName: (userId, name) =>
      orDie(sql`SELECT * FROM api_keys WHERE user_id = ${userId} AND token_name = ${name} AND login_type = 'token'`).pipe(
        Effect.map((rs) => first(rs, (r) => rowToApiKey(r)))
      ),
    list: (f) =>
      orDie(
        sql`SELECT * FROM api_keys WHERE ${
          sql.and([
            sql`user_id = ${f.userId}`,
            ...(f.loginType ? [sql`login_type = ${f.loginType}`] : []),
            ...(f.includeExpired ? [] : [sql`expires_at > ${f.now.toISOString()}`])
          ])
        } ORDER BY created_at DESC`
      ).pipe(Effect.map((rs) => rs.map((r) => rowToApiKey(r)))),
    delete: (id) => orDie(sql`DELETE FROM api_keys WHERE id = ${id} RETURNING id`).pipe(Effect.map((rs) => rs.length > 0)),
    deleteByUser: (userId) => orDie(sql`DELETE FROM api_keys WHERE user_id = ${userId}`).pipe(Effect.asVoid),
    touch: (id, lastUsed, expiresAt) =>
      orDie(
        sql`UPDATE api_keys SET last_used = ${lastUsed.toISOString()}, expires_at = ${expiresAt.toISOString()} WHERE id = ${id}`
      ).pipe(Effect.asVoid),
    purgeExpiredBefore: (before) => purgeBefore(sql, "api_keys", "expires_at", before)
  })

  const gitSshKeys = GitSshKeyRepo.of({
    find: (userId) =>
      orDie(sql`SELECT * FROM gitsshkeys WHERE user_id = ${userId}`).pipe(Effect.map((rs) => first(rs, rowToGitSshKey))),
    upsert: (k) =>
      orDie(
        sql`INSERT INTO gitsshkeys ${sql.insert(values(k))}
            ON CONFLICT (user_id) DO UPDATE SET private_key = ${k.private_key}, public_key = ${k.public_key},
            updated_at = ${k.updated_at.toISOString()}`
      ).pipe(Effect.asVoid)
  })

  const conversions = LoginConversionRepo.of({
    insert: (c) => orDie(sql`INSERT INTO login_conversions ${sql.insert(values(c))}`).pipe(Effect.asVoid)
  })

  const transactions = Transactions.of({
    atomic: (effect) =>
      withTransaction(effect).pipe(
        Effect.catchIf((e): e is SqlError.SqlError => e instanceof SqlErrorClass, Effect.die)
      ) as typeof effect
  })

  return { users, organizations, members, apiKeys, gitSshKeys, conversions, transactions }
})

/** Every repository port, on whichever `SqlClient` is provided. */
export const layer: Layer.Layer<
  UserRepo | OrganizationRepo | MemberRepo | ApiKeyRepo | GitSshKeyRepo | LoginConversionRepo | Transactions,
  never,
  SqlClient.SqlClient
> = Layer.effectContext(
  Effect.map(make, (r) =>
    Context.make(UserRepo, r.users).pipe(
      Context.add(OrganizationRepo, r.organizations),
      Context.add(MemberRepo, r.members),
      Context.add(ApiKeyRepo, r.apiKeys),
      Context.add(GitSshKeyRepo, r.gitSshKeys),
      Context.add(LoginConversionRepo, r.conversions),
      Context.add(Transactions, r.transactions)
    ))
)
