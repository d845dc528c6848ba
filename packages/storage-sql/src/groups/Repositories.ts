/**
 * Groups, group members and group AI budgets on @effect/sql. An organization's
 * Everyone group is the `groups` row whose id is the organization's id; its
 * members are the organization's members (`organization_members`), so it has no
 * `group_members` rows. `groups.member_count` moves in the same transaction as
 * every membership row, so a group's size is one row read at any size, and a
 * page of members walks the primary key `(group_id, user_id)` (or
 * `(organization_id, user_id)`) in user id order. Each organization's number of groups
 * other than Everyone is kept in `counters` (`groups:<organization id>`, migration 0034),
 * moved in the same transaction as every group insert and delete.
 */
import { SqlClient, type Statement } from "@effect/sql"
import {
  GroupAiBudget,
  type GroupFilter,
  type GroupMemberFilter,
  type GroupPageFilter,
  type GroupRecord,
  type GroupRef,
  GroupRepo,
  type GroupSource,
  isEveryoneGroup
} from "@workbay/core"
import { Effect, Layer, Option } from "effect"
import { type Column, columns, date, int, type Row, text } from "../Columns.js"
import { directStatements } from "../DirectReads.js"
import { escapeLike, userConditions } from "../Filters.js"
import { bindRecord, rowToUser } from "../Rows.js"
import { transaction } from "../Transaction.js"
import { unique } from "../Unique.js"

/** Anything but an OIDC-synced group is the users' own. */
const source: Column<GroupSource> = (v) => v === "oidc" ? "oidc" : "user"

export const rowToGroup = columns<GroupRecord>("groups", {
  id: text,
  organization_id: text,
  name: text,
  display_name: text,
  avatar_url: text,
  quota_allowance: int,
  source,
  member_count: int,
  created_at: date,
  updated_at: date,
  organization_name: text,
  organization_display_name: text
}).read

const budgetColumns = columns<ConstructorParameters<typeof GroupAiBudget>[0]>("group_ai_budgets", {
  created_at: date,
  group_id: text,
  spend_limit_micros: int,
  updated_at: date
})
export const rowToGroupAiBudget = (r: Row): GroupAiBudget => new GroupAiBudget(budgetColumns.read(r), true)

/** The group of a deleted row (`RETURNING id, organization_id`). */
const rowToGroupRef = columns<Pick<GroupRecord, "id" | "organization_id">>("groups", {
  id: text,
  organization_id: text
}).read
const userIdOf = (r: Row) => text(r.user_id, "group_members.user_id")

const bound = bindRecord

/** The `counters` row keeping an organization's number of groups besides Everyone (migration 0034). */
export const groupCounter = (organizationId: string) => `groups:${organizationId}`

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const reads = yield* directStatements(sql)
  const withTransaction = transaction(sql)

  const SELECT_GROUP = sql.literal(
    `SELECT g.*, o.name AS organization_name, o.display_name AS organization_display_name
     FROM groups g JOIN organizations o ON o.id = g.organization_id`
  )

  const findByIds = (ids: ReadonlyArray<string>) =>
    ids.length === 0
      ? Effect.succeed([])
      : reads.mapped(sql`${SELECT_GROUP} WHERE ${sql.in("g.id", ids)}`, (rs) => rs.map(rowToGroup))

  const findById = (id: string) =>
    reads.mapped(
      sql`${SELECT_GROUP} WHERE g.id = ${id}`,
      (rs) => (rs.length > 0 ? Option.some(rowToGroup(rs[0]!)) : Option.none())
    )

  /** The membership rows of a group, aliased `m` (with `m.user_id`), and the condition selecting them. */
  const membership = (g: GroupRef): { readonly from: Statement.Fragment; readonly where: Statement.Fragment } =>
    isEveryoneGroup(g)
      ? { from: sql.literal("organization_members m"), where: sql`m.organization_id = ${g.organization_id}` }
      : { from: sql.literal("group_members m"), where: sql`m.group_id = ${g.id}` }

  /** Conditions on the members' users (alias `u`) a filter sets; none without a filter. */
  const memberConditions = (f: Omit<GroupMemberFilter, "limit" | "offset" | "afterId">) => {
    const where = userConditions(sql, f)
    if (f.userId) where.push(sql`m.user_id = ${f.userId}`)
    return where
  }

  const members = (g: GroupRef, onlyUserId?: string) => {
    const { from, where } = membership(g)
    const conditions = [
      where,
      sql`u.deleted = FALSE`,
      ...(onlyUserId !== undefined ? [sql`m.user_id = ${onlyUserId}`] : [])
    ]
    return sql`SELECT u.* FROM ${from} JOIN users u ON u.id = m.user_id WHERE ${sql.and(conditions)} ORDER BY m.user_id`
      .pipe(
        Effect.orDie,
        Effect.map((rs) => rs.map(rowToUser))
      )
  }

  return GroupRepo.of({
    insert: (g) =>
      unique(withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO groups ${sql.insert(bound({ ...g, member_count: 0 }))}`
        if (!isEveryoneGroup(g)) {
          yield* sql`INSERT INTO counters (name, value) VALUES (${groupCounter(g.organization_id)}, 1)
            ON CONFLICT (name) DO UPDATE SET value = counters.value + 1`
        }
      }))).pipe(Effect.asVoid),
    findById,
    findByIds,
    findByOrganizationAndName: (organizationId, name) =>
      reads.mapped(
        sql`${SELECT_GROUP} WHERE g.organization_id = ${organizationId} AND lower(g.name) = lower(${name})`,
        (rs) => (rs.length > 0 ? Option.some(rowToGroup(rs[0]!)) : Option.none())
      ),
    findByName: (name) =>
      sql`${SELECT_GROUP} WHERE lower(g.name) = lower(${name}) ORDER BY o.name, g.id`.pipe(
        Effect.orDie,
        Effect.map((rs) => rs.map(rowToGroup))
      ),
    list: (f: GroupFilter) => {
      const where: Array<Statement.Fragment> = []
      if (f.organizationId !== undefined) where.push(sql`g.organization_id = ${f.organizationId}`)
      if (f.hasMemberId !== undefined) {
        where.push(sql`(g.id IN (SELECT group_id FROM group_members WHERE user_id = ${f.hasMemberId})
          OR g.id IN (SELECT organization_id FROM organization_members WHERE user_id = ${f.hasMemberId}))`)
      }
      if (f.ids !== undefined) where.push(f.ids.length === 0 ? sql`1 = 0` : sql`g.id IN ${sql.in(f.ids)}`)
      return sql`${SELECT_GROUP} WHERE ${where.length === 0 ? sql`1 = 1` : sql.and(where)} ORDER BY lower(g.name), g.id`
        .pipe(
          Effect.orDie,
          Effect.map((rs) => rs.map(rowToGroup))
        )
    },
    listPage: (f: GroupPageFilter) =>
      Effect.gen(function*() {
        const where = [sql`g.organization_id = ${f.organizationId}`]
        if (f.search) {
          const like = `%${escapeLike(f.search)}%`
          where.push(
            sql`(lower(g.name) LIKE lower(${like}) ESCAPE '\\' OR lower(g.display_name) LIKE lower(${like}) ESCAPE '\\')`
          )
        }
        // Names are unique per organization (case-insensitive): the cursor is the cursor group's name.
        const page = f.afterId !== undefined
          ? [...where, sql`lower(g.name) > (SELECT lower(c.name) FROM groups c WHERE c.id = ${f.afterId})`]
          : where
        const rows = yield* reads(
          sql`${SELECT_GROUP} WHERE ${sql.and(page)} ORDER BY lower(g.name) LIMIT ${f.limit} OFFSET ${f.offset}`
        )
        // Without a search the count is kept: the organization's groups besides Everyone, plus Everyone.
        const count = f.search
          ? int((yield* reads(sql`SELECT count(*) AS n FROM groups g WHERE ${sql.and(where)}`))[0]!.n, "count(*)")
          : 1 + int(
            (yield* reads(sql`SELECT value AS n FROM counters WHERE name = ${groupCounter(f.organizationId)}`))[0]?.n ??
              0,
            "counters.value"
          )
        return { groups: rows.map(rowToGroup), count }
      }).pipe(Effect.orDie),
    update: (id, patch) =>
      Effect.gen(function*() {
        const rs = yield* unique(sql`UPDATE groups SET ${sql.update(bound(patch))} WHERE id = ${id} RETURNING id`)
        return rs.length === 0 ? Option.none() : yield* findById(id)
      }),
    delete: (id) =>
      withTransaction(Effect.gen(function*() {
        yield* sql`DELETE FROM group_ai_budgets WHERE group_id = ${id}`
        yield* sql`DELETE FROM group_members WHERE group_id = ${id}`
        const rs = yield* sql`DELETE FROM groups WHERE id = ${id}
          RETURNING id, organization_id`
        if (rs.length === 0) return false
        const deleted = rowToGroupRef(rs[0]!)
        if (!isEveryoneGroup(deleted)) {
          yield* sql`UPDATE counters SET value = value - 1 WHERE name = ${groupCounter(deleted.organization_id)}`
        }
        return true
      })).pipe(Effect.orDie),
    groupIdsOf: (userId) =>
      reads.mapped(
        sql`SELECT group_id FROM group_members WHERE user_id = ${userId}`,
        (rs) => rs.map((r) => text(r.group_id, "group_members.group_id"))
      ),
    addMembers: (g, userIds, at) =>
      isEveryoneGroup(g) || userIds.length === 0
        ? Effect.succeed([])
        : withTransaction(Effect.gen(function*() {
          // Only members of the group's organization; on Postgres their membership rows stay
          // locked until commit, so a concurrent removal from the organization (which drops the
          // user's group rows) runs entirely before or after this.
          const lock = sql.onDialectOrElse({ pg: () => sql.literal(" FOR SHARE"), orElse: () => sql.literal("") })
          const eligible = yield* sql`SELECT m.user_id FROM organization_members m
            WHERE m.organization_id = ${g.organization_id} AND m.user_id IN ${sql.in([...new Set(userIds)])}${lock}`
          if (eligible.length === 0) return []
          const rows = eligible.map((r) => ({ group_id: g.id, user_id: userIdOf(r), created_at: at.toISOString() }))
          const added = yield* sql`INSERT INTO group_members ${sql.insert(rows)}
            ON CONFLICT DO NOTHING RETURNING user_id`
          if (added.length > 0) {
            yield* sql`UPDATE groups SET member_count = member_count + ${added.length} WHERE id = ${g.id}`
          }
          return added.map(userIdOf)
        })).pipe(Effect.orDie),
    removeMembers: (g, userIds) =>
      isEveryoneGroup(g) || userIds.length === 0
        ? Effect.succeed([])
        : withTransaction(Effect.gen(function*() {
          const removed = yield* sql`DELETE FROM group_members
            WHERE group_id = ${g.id} AND user_id IN ${sql.in([...new Set(userIds)])} RETURNING user_id`
          if (removed.length > 0) {
            yield* sql`UPDATE groups SET member_count = member_count - ${removed.length} WHERE id = ${g.id}`
          }
          return removed.map(userIdOf)
        })).pipe(Effect.orDie),
    membersAmong: (g, userIds) => {
      if (userIds.length === 0) return Effect.succeed([])
      const { from, where } = membership(g)
      return sql`SELECT m.user_id FROM ${from}
        WHERE ${where} AND m.user_id IN ${sql.in([...new Set(userIds)])} ORDER BY m.user_id`.pipe(
        Effect.orDie,
        Effect.map((rs) => rs.map(userIdOf))
      )
    },
    members,
    listMembers: (g, f) =>
      Effect.gen(function*() {
        const { from, where } = membership(g)
        const conditions = memberConditions(f)
        const filtered = [where, sql`u.deleted = FALSE`, ...conditions]
        const page = f.afterId !== undefined ? [...filtered, sql`m.user_id > ${f.afterId}`] : filtered
        const rows = yield* sql`SELECT u.* FROM ${from} JOIN users u ON u.id = m.user_id WHERE ${sql.and(page)}
          ORDER BY m.user_id LIMIT ${f.limit} OFFSET ${f.offset}`
        // Without a filter the count is the kept member_count: one row, whatever the group's size.
        const [counted] = conditions.length === 0
          ? yield* sql<{ n: number | string }>`SELECT member_count AS n FROM groups WHERE id = ${g.id}`
          : yield* sql<{ n: number | string }>`SELECT count(*) AS n FROM ${from} JOIN users u ON u.id = m.user_id
              WHERE ${sql.and(filtered)}`
        return { users: rows.map(rowToUser), count: counted === undefined ? 0 : int(counted.n, "groups.member_count") }
      }).pipe(Effect.orDie),
    quotaAllowance: (userId) =>
      sql<{ n: number | string | null }>`SELECT COALESCE(SUM(quota_allowance), 0) AS n FROM groups
        WHERE id IN (SELECT group_id FROM group_members WHERE user_id = ${userId})
           OR id IN (SELECT organization_id FROM organization_members WHERE user_id = ${userId})`.pipe(
        Effect.orDie,
        Effect.map((rs) => rs.length === 0 ? 0 : int(rs[0]!.n, "sum(groups.quota_allowance)"))
      ),
    // Two index lookups: the user's group memberships (group_members_user_id) joined to their
    // groups, and the Everyone group (the organization's id) when the user is a member.
    quotaAllowanceIn: (organizationId, userId) =>
      sql<{ n: number | string | null }>`SELECT
          COALESCE((SELECT SUM(g.quota_allowance) FROM group_members m JOIN groups g ON g.id = m.group_id
            WHERE m.user_id = ${userId} AND g.organization_id = ${organizationId}), 0)
          + COALESCE((SELECT g.quota_allowance FROM groups g
            JOIN organization_members om ON om.organization_id = g.organization_id AND om.user_id = ${userId}
            WHERE g.id = ${organizationId}), 0) AS n`.pipe(
        Effect.orDie,
        Effect.map((rs) => rs.length === 0 ? 0 : int(rs[0]!.n, "sum(groups.quota_allowance)"))
      ),
    // Along the organization's groups in groups_name_key; stops at the first allowance.
    quotasOn: (organizationId) =>
      sql`SELECT 1 AS found FROM groups WHERE organization_id = ${organizationId} AND quota_allowance > 0 LIMIT 1`.pipe(
        Effect.orDie,
        Effect.map((rs) => rs.length > 0)
      ),
    findBudget: (groupId) =>
      sql`SELECT * FROM group_ai_budgets WHERE group_id = ${groupId}`.pipe(
        Effect.orDie,
        Effect.map((rs) => (rs.length > 0 ? Option.some(rowToGroupAiBudget(rs[0]!)) : Option.none()))
      ),
    upsertBudget: (b) =>
      sql`INSERT INTO group_ai_budgets ${sql.insert(bound({ ...b }))}
        ON CONFLICT (group_id) DO UPDATE SET spend_limit_micros = ${b.spend_limit_micros},
          updated_at = ${b.updated_at.toISOString()}
        RETURNING *`.pipe(
        Effect.orDie,
        Effect.map((rs) => rowToGroupAiBudget(rs[0]!))
      ),
    deleteBudget: (groupId) =>
      sql`DELETE FROM group_ai_budgets WHERE group_id = ${groupId} RETURNING group_id`.pipe(
        Effect.orDie,
        Effect.map((rs) => rs.length > 0)
      )
  })
})

export const layer: Layer.Layer<GroupRepo, never, SqlClient.SqlClient> = Layer.effect(GroupRepo, make)
