/**
 * Organizations and their members on @effect/sql. Both keep the group tables in step
 * (the Everyone group, kept member counts, a leaver's group rows; see groups/Repositories.ts)
 * in the same transaction as their own rows.
 */
import { SqlClient, type Statement } from "@effect/sql"
import {
  EVERYONE_GROUP_NAME,
  type MemberFilter,
  MemberRepo,
  OrganizationRepo,
  ShareableWorkspaceOwners
} from "@workbay/core"
import { Context, Effect, Layer, Option } from "effect"
import { first, literal, type Row, text } from "../Columns.js"
import { directReads, directStatements } from "../DirectReads.js"
import { userConditions } from "../Filters.js"
import { bind, bindRecord, rowToJoinedUser, rowToMembership, rowToOrganization, USER_JOIN_COLUMNS } from "../Rows.js"
import { transaction } from "../Transaction.js"
import { unique } from "../Unique.js"
import { KeyCache } from "../users/KeyCache.js"

const shareableOwners = literal(ShareableWorkspaceOwners.literals)

/** Name of the group every organization has, holding all its members. */
export const EVERYONE_GROUP = EVERYONE_GROUP_NAME

const values = bindRecord

// The hot read's SQL for the direct path (see DirectReads.ts): what its template compiles to.
const MEMBERSHIPS_OF_USER_SQLITE = "SELECT * FROM organization_members WHERE user_id = ? ORDER BY created_at"

/**
 * A page of an organization's live members with their users (`u_` columns), along the membership
 * key (organization_id, user_id): the page reads its rows in key order, no sort step, at any size.
 */
export const membersPage = (sql: SqlClient.SqlClient, orgId: string, f: MemberFilter) => {
  const filtered = [sql`m.organization_id = ${orgId}`, sql`u.deleted = FALSE`, ...userConditions(sql, f)]
  const page = f.afterId !== undefined ? [...filtered, sql`m.user_id > ${f.afterId}`] : filtered
  return sql`SELECT m.*, ${sql.literal(USER_JOIN_COLUMNS)} FROM organization_members m
    JOIN users u ON u.id = m.user_id WHERE ${sql.and(page)} ORDER BY m.user_id LIMIT ${f.limit} OFFSET ${f.offset}`
}

/** The organization and member repositories on the provided `SqlClient`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const orDie = Effect.orDie
  const withTransaction = transaction(sql)
  const read = yield* directReads(sql)
  const reads = yield* directStatements(sql)
  const cache = yield* KeyCache
  const changes = cache.changing

  /** Removes `userId` from the groups `groupIds` selects, keeping their member counts. */
  const leaveGroups = (userId: string, groupIds: Statement.Statement<Row>) =>
    Effect.gen(function*() {
      yield* sql`UPDATE groups SET member_count = member_count - 1
        WHERE id IN (SELECT group_id FROM group_members WHERE user_id = ${userId} AND group_id IN (${groupIds}))`
      yield* sql`DELETE FROM group_members WHERE user_id = ${userId} AND group_id IN (${groupIds})`
    })

  const workspaceSharing = {
    findWorkspaceSharing: (id: string) =>
      orDie(sql`SELECT shareable_workspace_owners AS o FROM organizations WHERE id = ${id}`).pipe(
        Effect.map((rs) => first(rs, (r) => shareableOwners(r.o, "organizations.shareable_workspace_owners")))
      ),
    setWorkspaceSharing: (id: string, owners: ShareableWorkspaceOwners, at: Date) =>
      withTransaction(Effect.gen(function*() {
        const rs =
          yield* sql`UPDATE organizations SET shareable_workspace_owners = ${owners}, updated_at = ${at.toISOString()}
          WHERE id = ${id} RETURNING id`
        if (rs.length === 0) return Option.none<ReadonlyArray<string>>()
        if (owners === "everyone") return Option.some<ReadonlyArray<string>>([])
        const cleared = yield* sql<{ id: string }>`UPDATE workspaces SET user_acl = '{}', group_acl = '{}'
          WHERE ${
          sql.and([
            sql`organization_id = ${id}`,
            sql`(user_acl <> '{}' OR group_acl <> '{}')`,
            ...(owners === "service_accounts"
              ? [sql`owner_id NOT IN (SELECT u.id FROM users u WHERE u.is_service_account = ${bind(true)})`]
              : [])
          ])
        } RETURNING id`
        return Option.some<ReadonlyArray<string>>(cleared.map((r) => r.id))
      })).pipe(orDie)
  }

  const organizations = OrganizationRepo.of({
    ...workspaceSharing,
    // Every organization has its Everyone group (same id), made with it.
    insert: (o) =>
      unique(withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO organizations ${sql.insert(values({ ...o }))}`
        yield* sql`INSERT INTO groups ${
          sql.insert(values({
            id: o.id,
            organization_id: o.id,
            name: EVERYONE_GROUP,
            display_name: "",
            avatar_url: "",
            quota_allowance: 0,
            source: "user",
            member_count: 0,
            created_at: o.created_at,
            updated_at: o.created_at
          }))
        }`
      }))).pipe(Effect.asVoid),
    findById: (id) =>
      reads.mapped(sql`SELECT * FROM organizations WHERE id = ${id}`, (rs) => first(rs, rowToOrganization)),
    findByIds: (ids) =>
      ids.length === 0
        ? Effect.succeed([])
        : reads.mapped(sql`SELECT * FROM organizations WHERE ${sql.in("id", ids)}`, (rs) => rs.map(rowToOrganization)),
    findByName: (name) =>
      orDie(sql`SELECT * FROM organizations WHERE lower(name) = lower(${name})`).pipe(
        Effect.map((rs) => first(rs, rowToOrganization))
      ),
    findDefault: orDie(sql`SELECT * FROM organizations WHERE is_default = TRUE`).pipe(
      Effect.map((rs) => first(rs, rowToOrganization))
    ),
    list: orDie(sql`SELECT * FROM organizations ORDER BY lower(name)`).pipe(
      Effect.map((rs) => rs.map(rowToOrganization))
    ),
    update: (id, patch) =>
      Object.keys(values(patch)).length === 0
        ? orDie(sql`SELECT * FROM organizations WHERE id = ${id}`).pipe(
          Effect.map((rs) => first(rs, rowToOrganization))
        )
        : unique(sql`UPDATE organizations SET ${sql.update(values(patch))} WHERE id = ${id} RETURNING *`).pipe(
          Effect.map((rs) => first(rs, rowToOrganization))
        ),
    delete: (id) =>
      withTransaction(Effect.gen(function*() {
        const groupIds = sql`SELECT id FROM groups WHERE organization_id = ${id}`
        yield* sql`DELETE FROM group_ai_budgets WHERE group_id IN (${groupIds})`
        yield* sql`DELETE FROM group_members WHERE group_id IN (${groupIds})`
        yield* sql`DELETE FROM groups WHERE organization_id = ${id}`
        yield* sql`DELETE FROM counters WHERE name = ${`groups:${id}`}`
        const members = yield* sql<
          { user_id: unknown }
        >`DELETE FROM organization_members WHERE organization_id = ${id} RETURNING user_id`
        yield* sql`DELETE FROM organizations WHERE id = ${id}`
        yield* cache.changed(members.map((m) => text(m.user_id, "organization_members.user_id")))
      })).pipe(orDie)
  })

  const members = MemberRepo.of({
    // Membership changes keep the Everyone group's member_count (and, on removal, the user's
    // groups in that organization) in the same transaction.
    insert: (m) =>
      unique(withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO organization_members ${sql.insert(values(m))}`
        yield* sql`UPDATE groups SET member_count = member_count + 1 WHERE id = ${m.organization_id}`
      }))).pipe(Effect.asVoid, changes(m.user_id)),
    delete: (orgId, userId) =>
      withTransaction(Effect.gen(function*() {
        const rs =
          yield* sql`DELETE FROM organization_members WHERE organization_id = ${orgId} AND user_id = ${userId} RETURNING user_id`
        if (rs.length === 0) return false
        yield* sql`UPDATE groups SET member_count = member_count - 1 WHERE id = ${orgId}`
        yield* leaveGroups(userId, sql`SELECT id FROM groups WHERE organization_id = ${orgId}`)
        return true
      })).pipe(orDie, changes(userId)),
    find: (orgId, userId) =>
      orDie(sql`SELECT * FROM organization_members WHERE organization_id = ${orgId} AND user_id = ${userId}`).pipe(
        Effect.map((rs) => first(rs, (r) => rowToMembership(r)))
      ),
    updateRoles: (orgId, userId, roles, at) =>
      orDie(
        sql`UPDATE organization_members SET roles = ${JSON.stringify(roles)}, updated_at = ${at.toISOString()}
            WHERE organization_id = ${orgId} AND user_id = ${userId} RETURNING *`
      ).pipe(Effect.map((rs) => first(rs, (r) => rowToMembership(r))), changes(userId)),
    ofUsers: (userIds) =>
      userIds.length === 0
        ? Effect.succeed(new Map())
        : orDie(
          reads(
            sql`SELECT user_id, organization_id FROM organization_members WHERE ${sql.in("user_id", userIds)}`
          )
        ).pipe(
          Effect.map((rs) => {
            const map = new Map<string, Array<string>>()
            for (const r of rs) {
              const userId = text(r.user_id, "organization_members.user_id")
              const list = map.get(userId) ?? []
              list.push(text(r.organization_id, "organization_members.organization_id"))
              map.set(userId, list)
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
      })).pipe(orDie, Effect.asVoid, changes(userId)),
    ofUser: (userId) =>
      orDie(
        read(MEMBERSHIPS_OF_USER_SQLITE, [userId], () =>
          sql`SELECT * FROM organization_members WHERE user_id = ${userId} ORDER BY created_at`)
      ).pipe(
        Effect.map((rs) =>
          rs.map((r) =>
            rowToMembership(r)
          )
        )
      ),
    list: (orgId, page) =>
      orDie(
        sql`SELECT m.*, ${sql.literal(USER_JOIN_COLUMNS)} FROM organization_members m JOIN users u ON u.id = m.user_id
            WHERE m.organization_id = ${orgId} AND u.deleted = FALSE
            ORDER BY lower(u.username) LIMIT ${page.limit} OFFSET ${page.offset}`
      ).pipe(Effect.map((rs) => rs.map((r) => ({ member: rowToMembership(r), user: rowToJoinedUser(r) })))),
    page: (orgId, f) =>
      Effect.gen(function*() {
        const rows = yield* membersPage(sql, orgId, f)
        // The Everyone group (the organization's id) keeps the member count; memberships of
        // deleted users are removed with them, so it counts live members only.
        const conditions = userConditions(sql, f)
        const [counted] = conditions.length === 0
          ? yield* sql<{ n: number | string }>`SELECT member_count AS n FROM groups WHERE id = ${orgId}`
          : yield* sql<{ n: number | string }>`SELECT count(*) AS n FROM organization_members m
              JOIN users u ON u.id = m.user_id WHERE ${
            sql.and([sql`m.organization_id = ${orgId}`, sql`u.deleted = FALSE`, ...conditions])
          }`
        return {
          members: rows.map((r) => ({ member: rowToMembership(r), user: rowToJoinedUser(r) })),
          count: counted === undefined ? 0 : Number(counted.n)
        }
      }).pipe(Effect.orDie)
  })

  return { organizations, members }
})

/** The organization and member ports, on whichever `SqlClient` is provided. */
export const layer: Layer.Layer<OrganizationRepo | MemberRepo, never, SqlClient.SqlClient | KeyCache> = Layer
  .effectContext(
    Effect.map(make, (r) => Context.make(OrganizationRepo, r.organizations).pipe(Context.add(MemberRepo, r.members)))
  )
