/**
 * Users, API keys, git SSH keys and login conversions on @effect/sql. Queries are
 * written once; both dialects run them (see Columns.ts for the value mapping).
 */
import { SqlClient } from "@effect/sql"
import { ApiKeyRepo, GitSshKeyRepo, LoginConversionRepo, type UserPatch, UserRepo } from "@workbay/core"
import { Context, Effect, Layer, Option } from "effect"
import { bool, first, json, type Row, text } from "../Columns.js"
import { dialectReads, directReads, directStatements } from "../DirectReads.js"
import { escapeLike } from "../Filters.js"
import { purgeBefore } from "../Purge.js"
import {
  apiKeyColumns,
  bindRecord,
  roleNames,
  rowToApiKey,
  rowToGitSshKey,
  rowToUser,
  USER_JOIN_COLUMNS,
  userColumns
} from "../Rows.js"
import { LIFECYCLE_RECHECK } from "../Schema.js"
import { transaction } from "../Transaction.js"
import { unique } from "../Unique.js"
import { KeyCache } from "./KeyCache.js"
import { conversionReads } from "./LinkRepositories.js"

const values = bindRecord

const KEY_JOIN_COLUMNS = apiKeyColumns.select("k", "k_")

// The hot reads' SQL for the direct path (see DirectReads.ts): what their templates compile to.
const FIND_USER_BY_ID_SQLITE = "SELECT * FROM users WHERE id = ?"
/**
 * The key read also brings the user's memberships (organization id and roles, in
 * `MemberRepo.ofUser`'s order) as JSON text: one statement per authenticated request instead of
 * two (on Postgres one round trip). Roles stay the stored text inside the JSON, so a malformed row
 * reads as no roles, as a `json` column does.
 */
const KEY_MEMBERSHIPS = {
  sqlite: `(SELECT json_group_array(json_array(m.organization_id, m.roles) ORDER BY m.created_at)
  FROM organization_members m WHERE m.user_id = u.id) AS m_memberships`,
  pg: `(SELECT coalesce(json_agg(json_build_array(m.organization_id, m.roles) ORDER BY m.created_at), '[]')::text
  FROM organization_members m WHERE m.user_id = u.id) AS m_memberships`
}
const FIND_KEY_WITH_USER_SQLITE =
  `SELECT ${KEY_JOIN_COLUMNS}, ${USER_JOIN_COLUMNS}, ${KEY_MEMBERSHIPS.sqlite} FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.id = ?`
const FIND_KEY_WITH_USER_PG =
  `SELECT ${KEY_JOIN_COLUMNS}, ${USER_JOIN_COLUMNS}, ${KEY_MEMBERSHIPS.pg} FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.id = $1`
const FIND_KEY_WITH_USER = { sqlite: FIND_KEY_WITH_USER_SQLITE, pg: FIND_KEY_WITH_USER_PG }

const joinedKey = apiKeyColumns.prefixed("k_")
const joinedUser = userColumns.prefixed("u_")
/** The user's memberships: `[organization id, roles text]` pairs. */
const keyMemberships = json<Array<[unknown, unknown]>>([])

/** The key, its user and the user's memberships. */
const rowToKeyWithUser = (r: Row) => ({
  key: joinedKey(r),
  user: joinedUser(r),
  memberships: keyMemberships(r.m_memberships, "m_memberships").map(([organization_id, roles]) => ({
    organization_id: text(organization_id, "organization_members.organization_id"),
    roles: roleNames(roles, "organization_members.roles")
  }))
})
const preferences = json<Record<string, unknown>>({})

/** The user, API key, git SSH key and login conversion repositories on the provided `SqlClient`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const orDie = Effect.orDie
  const withTransaction = transaction(sql)
  const read = yield* directReads(sql)
  const reads = yield* directStatements(sql)
  const dialectRead = yield* dialectReads(sql)
  const cache = yield* KeyCache
  const changes = cache.changing

  /** Moves the kept user counts (see migration 0003). */
  const bumpUsers = (live: number, active: number) =>
    Effect.gen(function*() {
      if (live !== 0) yield* sql`UPDATE counters SET value = value + ${live} WHERE name = 'users'`
      if (active !== 0) yield* sql`UPDATE counters SET value = value + ${active} WHERE name = 'users_active'`
    })

  /** The number of live users, of live users with `status`. */
  const keptUserCount = (status: string | undefined) =>
    orDie(
      reads(
        sql<
          { name: string; value: number | string }
        >`SELECT name, value FROM counters WHERE name IN ('users', 'users_active')`
      )
    ).pipe(
      Effect.map((rs) => {
        const of = (name: string) => Number(rs.find((r) => r.name === name)?.value ?? 0)
        return status === undefined
          ? of("users")
          : status === "active"
          ? of("users_active")
          : of("users") - of("users_active")
      })
    )

  /**
   * Records user `id`'s status (`deleted` once deleted) as a change at `at` (its `created_at` or
   * `updated_at` column) for the insights' status counts, and as its latest recorded status, in the
   * transaction that changed it. The insights rollup's diff (insights/Repositories.ts) then finds
   * nothing left to record, so a change is dated to its moment, not to the next pass.
   */
  const recordStatus = (id: string, at: "created_at" | "updated_at") =>
    Effect.gen(function*() {
      const current = sql.literal("CASE WHEN deleted = TRUE THEN 'deleted' ELSE status END")
      yield* sql`INSERT INTO user_status_changes (user_id, status, changed_at)
        SELECT id, ${current}, ${sql(at)} FROM users WHERE id = ${id}`
      yield* sql`INSERT INTO user_status_latest (user_id, status) SELECT id, ${current} FROM users WHERE id = ${id}
        ON CONFLICT (user_id) DO UPDATE SET status = excluded.status`
    })

  // Case-insensitive matches lower-case both sides in SQL, as the unique indexes do: SQLite's lower()
  // folds ASCII only, Postgres' every letter. Lower-casing the argument in JS would miss "Ünal@x.io" on SQLite.
  const users = UserRepo.of({
    insert: (u) =>
      unique(withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO users ${sql.insert(values(u))}`
        if (!u.deleted) yield* bumpUsers(1, u.status === "active" ? 1 : 0)
        yield* recordStatus(u.id, "created_at")
      }))).pipe(Effect.asVoid),
    findById: (id) =>
      orDie(read(FIND_USER_BY_ID_SQLITE, [id], () => sql`SELECT * FROM users WHERE id = ${id}`)).pipe(
        Effect.map((rs) => first(rs, rowToUser))
      ),
    lockById: (id) =>
      orDie(
        sql`SELECT * FROM users WHERE id = ${id} ${
          sql.literal(sql.onDialectOrElse({
            pg: () => "FOR SHARE",
            orElse: () => ""
          }))
        }`
      ).pipe(
        Effect.map((rs) => first(rs, rowToUser))
      ),
    findByIds: (ids) =>
      ids.length === 0
        ? Effect.succeed([])
        : reads.mapped(sql`SELECT * FROM users WHERE ${sql.in("id", ids)}`, (rs) => rs.map((r) => rowToUser(r))),
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
        // System users (the prebuilds user) are never listed, as in the described system.
        const where = [sql`deleted = FALSE`, sql`is_system = FALSE`]
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
        if (f.role && f.role !== "member") {
          where.push(sql`rbac_roles LIKE ${`%${escapeLike(JSON.stringify(f.role))}%`} ESCAPE '\\'`)
        }
        if (f.organizationId) {
          where.push(sql`id IN (SELECT user_id FROM organization_members WHERE organization_id = ${f.organizationId})`)
        }
        const filtered = sql.and(where)
        const page = f.afterId
          ? sql.and([...where, sql`lower(username) > (SELECT lower(username) FROM users WHERE id = ${f.afterId})`])
          : filtered
        const rows = yield* reads(
          sql`SELECT * FROM users WHERE ${page} ORDER BY lower(username) LIMIT ${f.limit} OFFSET ${f.offset}`
        )
        // Without filters (or by status alone) the count is kept, one row read at any size.
        const kept = !f.search && !f.username && !f.email && !f.loginType && !f.organizationId &&
          (!f.role || f.role === "member")
        const count = kept
          ? yield* keptUserCount(f.status)
          : Number((yield* reads(sql<{ n: number | string }>`SELECT count(*) AS n FROM users WHERE ${filtered}`))[0]!.n)
        return { users: rows.map((r) => rowToUser(r)), count }
      }).pipe(orDie),
    update: (id, patch) => {
      const { deleted, status, ...rest } = patch
      const plainRow = (p: UserPatch) =>
        Object.keys(values(p)).length === 0
          ? sql`SELECT * FROM users WHERE id = ${id}`
          : sql`UPDATE users SET ${sql.update(values(p))} WHERE id = ${id} RETURNING *`
      // A rename rewrites the owner username the workspace list sorts on (migration 0012).
      const plain = (p: UserPatch) =>
        p.username === undefined ? plainRow(p) : withTransaction(Effect.gen(function*() {
          const rs = yield* plainRow(p)
          yield* sql`UPDATE workspaces SET owner_username = lower(${p.username}) WHERE owner_id = ${id}`
          return rs
        }))
      if (deleted === undefined && status === undefined) {
        return unique(plain(rest)).pipe(Effect.map((rs) => first(rs, rowToUser)), changes(id))
      }
      // Deletion and status move the kept counts. Each is a guarded update that changes the row
      // only if it is not already so, and the counts move only when a row changed: two racing
      // deletions of one user count once.
      return unique(withTransaction(Effect.gen(function*() {
        let changed = false
        if (deleted !== undefined) {
          const rs = yield* sql<{ status: string }>`UPDATE users SET deleted = ${deleted ? sql`TRUE` : sql`FALSE`}
            WHERE id = ${id} AND deleted = ${deleted ? sql`FALSE` : sql`TRUE`} RETURNING status`
          const sign = deleted ? -1 : 1
          if (rs.length > 0) yield* bumpUsers(sign, rs[0]!.status === "active" ? sign : 0)
          changed = rs.length > 0
        }
        if (status !== undefined) {
          const rs = yield* sql<{ deleted: unknown }>`UPDATE users SET status = ${status}
            WHERE id = ${id} AND status <> ${status} RETURNING deleted`
          if (rs.length > 0 && !bool(rs[0]!.deleted, "users.deleted")) yield* bumpUsers(0, status === "active" ? 1 : -1)
          // The lifecycle rules read the owner's status (a suspended owner's workspaces stop, only
          // an active owner's start): the executor looks at their workspaces again (migration 0013).
          if (rs.length > 0) {
            yield* sql`UPDATE workspaces SET ${
              sql.literal(LIFECYCLE_RECHECK)
            } WHERE owner_id = ${id} AND deleted = FALSE`
          }
          changed ||= rs.length > 0
        }
        const rs = yield* plain(rest)
        if (changed) yield* recordStatus(id, "updated_at")
        return rs
      }))).pipe(Effect.map((rs) => first(rs, rowToUser)), changes(id))
    },
    count: keptUserCount(undefined),
    findPreferences: (id) =>
      orDie(sql<{ preferences: unknown }>`SELECT preferences FROM users WHERE id = ${id}`).pipe(
        Effect.map((rs) => first(rs, (r) => preferences(r.preferences, "users.preferences")))
      ),
    setPreferences: (id, preferences, at) =>
      orDie(
        sql`UPDATE users SET preferences = ${
          JSON.stringify(preferences)
        }, updated_at = ${at.toISOString()} WHERE id = ${id} RETURNING id`
      ).pipe(Effect.map((rs) => rs.length > 0), changes(id))
  })

  const apiKeys = ApiKeyRepo.of({
    insert: (k) => unique(sql`INSERT INTO api_keys ${sql.insert(values(k))}`).pipe(Effect.asVoid),
    findWithUser: (id) =>
      cache.through(
        id,
        orDie(
          dialectRead(FIND_KEY_WITH_USER, [id], () =>
            sql`SELECT ${sql.literal(KEY_JOIN_COLUMNS)}, ${sql.literal(USER_JOIN_COLUMNS)}, ${
              sql.literal(sql.onDialectOrElse({
                pg: () =>
                  KEY_MEMBERSHIPS.pg,
                orElse: () =>
                  KEY_MEMBERSHIPS.sqlite
              }))
            } FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.id = ${id}`)
        ).pipe(Effect.map((rs) =>
          first(rs, rowToKeyWithUser)
        ))
      ),
    findById: (id) =>
      orDie(sql`SELECT * FROM api_keys WHERE id = ${id}`).pipe(Effect.map((rs) => first(rs, (r) => rowToApiKey(r)))),
    findByName: (userId, name) =>
      orDie(sql`SELECT * FROM api_keys WHERE user_id = ${userId} AND token_name = ${name} AND login_type = 'token'`)
        .pipe(
          Effect.map((rs) => first(rs, (r) => rowToApiKey(r)))
        ),
    // One written statement per filter (the token list runs at every visit of the tokens page):
    // building it from `sql.and` fragments cost more than SQLite's read of a few keys.
    list: (f) => {
      const at = f.now.toISOString()
      const statement = f.tokensOnly === true
        ? f.includeExpired
          ? sql`SELECT * FROM api_keys WHERE (user_id = ${f.userId} AND login_type = 'token') ORDER BY created_at DESC`
          : sql`SELECT * FROM api_keys WHERE (user_id = ${f.userId} AND login_type = 'token' AND expires_at > ${at})
              ORDER BY created_at DESC`
        : f.includeExpired
        ? sql`SELECT * FROM api_keys WHERE (user_id = ${f.userId}) ORDER BY created_at DESC`
        : sql`SELECT * FROM api_keys WHERE (user_id = ${f.userId} AND expires_at > ${at}) ORDER BY created_at DESC`
      return reads.mapped(statement, (rs) => rs.map((r) => rowToApiKey(r)))
    },
    listAllTokens: (f) =>
      orDie(
        f.includeExpired
          ? sql`SELECT k.*, u.username AS owner_username FROM api_keys k JOIN users u ON u.id = k.user_id
              WHERE (k.login_type = 'token') ORDER BY k.created_at DESC`
          : sql`SELECT k.*, u.username AS owner_username FROM api_keys k JOIN users u ON u.id = k.user_id
              WHERE (k.login_type = 'token' AND k.expires_at > ${f.now.toISOString()}) ORDER BY k.created_at DESC`
      ).pipe(
        Effect.map((rs) => rs.map((r) => ({ key: rowToApiKey(r), username: text(r.owner_username, "users.username") })))
      ),
    delete: (id) =>
      orDie(sql<{ user_id: unknown }>`DELETE FROM api_keys WHERE id = ${id} RETURNING user_id`).pipe(
        Effect.tap((rs) => cache.changed(rs.map((r) => text(r.user_id, "api_keys.user_id")))),
        Effect.map((rs) => rs.length > 0)
      ),
    expire: (id, at) =>
      Effect.zipRight(
        orDie(
          sql`UPDATE api_keys SET expires_at = ${at.toISOString()}, updated_at = ${at.toISOString()}
              WHERE id = ${id} AND expires_at > ${at.toISOString()}`
        ),
        orDie(sql`SELECT * FROM api_keys WHERE id = ${id}`).pipe(Effect.map((rs) => first(rs, rowToApiKey)))
      ).pipe(Effect.tap((key) => cache.changed(Option.toArray(Option.map(key, (k) => k.user_id))))),
    deleteByUser: (userId) =>
      orDie(
        withTransaction(Effect.gen(function*() {
          yield* sql`DELETE FROM api_keys WHERE user_id = ${userId}`
          yield* sql`DELETE FROM oauth2_provider_app_codes WHERE user_id = ${userId}`
          const tokens = yield* sql<
            { readonly used_at: unknown }
          >`DELETE FROM oauth2_provider_app_tokens WHERE user_id = ${userId} RETURNING used_at`
          // Rotated tokens were dead already: only the ones still usable count.
          return tokens.filter((t) => t.used_at === null).length
        })).pipe(changes(userId))
      ),
    // Sliding only moves expiry later, and the cache reads keys near expiry again: no other replica need know.
    touch: (id, lastUsed, expiresAt) =>
      orDie(
        sql`UPDATE api_keys SET last_used = ${lastUsed.toISOString()}, expires_at = ${expiresAt.toISOString()} WHERE id = ${id}`
      ).pipe(Effect.ensuring(Effect.sync(() => cache.touched(id))), Effect.asVoid),
    purgeExpiredBefore: (before) => purgeBefore(sql, "api_keys", "expires_at", before)
  })

  const gitSshKeys = GitSshKeyRepo.of({
    find: (userId) =>
      orDie(sql`SELECT * FROM gitsshkeys WHERE user_id = ${userId}`).pipe(
        Effect.map((rs) => first(rs, rowToGitSshKey))
      ),
    upsert: (k) =>
      orDie(
        sql`INSERT INTO gitsshkeys ${sql.insert(values(k))}
            ON CONFLICT (user_id) DO UPDATE SET private_key = ${k.private_key}, public_key = ${k.public_key},
            updated_at = ${k.updated_at.toISOString()}`
      ).pipe(Effect.asVoid)
  })

  const conversions = LoginConversionRepo.of({
    insert: (c) => orDie(sql`INSERT INTO login_conversions ${sql.insert(values(c))}`).pipe(Effect.asVoid),
    ...conversionReads(sql)
  })

  return { users, apiKeys, gitSshKeys, conversions }
})

/** The user, API key, git SSH key and login conversion ports, on whichever `SqlClient` is provided. */
export const layer: Layer.Layer<
  UserRepo | ApiKeyRepo | GitSshKeyRepo | LoginConversionRepo,
  never,
  SqlClient.SqlClient | KeyCache
> = Layer.effectContext(
  Effect.map(make, (r) =>
    Context.make(UserRepo, r.users).pipe(
      Context.add(ApiKeyRepo, r.apiKeys),
      Context.add(GitSshKeyRepo, r.gitSshKeys),
      Context.add(LoginConversionRepo, r.conversions)
    ))
)
