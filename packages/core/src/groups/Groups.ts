/** The Groups service: groups, their members, workspace quotas and group AI budgets. */
import { Clock, Effect, Either, Option, Schema } from "effect"
import { allowed, authorize, authorizeRead, authorizeVisible, CurrentActor } from "../Actor.js"
import { auditResource } from "../Audit.js"
import { BadRequest, Conflict, NotFound, Validation } from "../Errors.js"
import { IdGenerator, isUuid } from "../Ids.js"
import { lazily } from "../Lazily.js"
import { memberFilter } from "../organizations/MemberQuery.js"
import { OrganizationName, type OrganizationRecord } from "../organizations/Organization.js"
import { Organizations } from "../organizations/Organizations.js"
import { MemberRepo } from "../organizations/Repositories.js"
import { Transactions } from "../Repositories.js"
import type { SearchPageQuery } from "../Requests.js"
import { parseQuery } from "../SearchQuery.js"
import { span } from "../Tracing.js"
import { UserRepo } from "../users/Repositories.js"
import { toReducedUser, Username, type UserRecord } from "../users/User.js"
import { pageLimit, Users } from "../users/Users.js"
import { putNonEmpty, wireMaker, type WireProps } from "../Wire.js"
import {
  EVERYONE_GROUP_NAME,
  Group,
  GroupAiBudget,
  type GroupMemberFilter,
  GroupMembersPage,
  type GroupPatch,
  type GroupRecord,
  GroupRepo,
  isEveryoneGroup,
  PaginatedGroup,
  PaginatedGroupsPage
} from "./Group.js"
import type { CreateGroupRequest, GetGroupQuery, ListGroupsQuery, PatchGroupRequest } from "./Requests.js"

/** How authorization names a group. */
export const groupObject = (g: Pick<GroupRecord, "id" | "organization_id">) =>
  ({ type: "group", id: g.id, orgId: g.organization_id }) as const

/** How audit entries name a group. */
export const groupResource = (g: Pick<GroupRecord, "id" | "name" | "organization_id" | "avatar_url">) => ({
  type: "group",
  id: g.id,
  target: g.name,
  organizationId: g.organization_id,
  icon: g.avatar_url
})

/** The audited fields of a group. */
const auditedFields = (g: GroupRecord) => ({
  name: g.name,
  display_name: g.display_name,
  avatar_url: g.avatar_url,
  quota_allowance: g.quota_allowance,
  organization_id: g.organization_id
})

/** Wire form of a stored group with the members the caller may read. */
const makeGroup = wireMaker(Group)
const makeMembersPage = wireMaker(GroupMembersPage)

/** The wire fields of a stored group shared by both forms (a Group and a PaginatedGroup). */
const groupProps = (g: GroupRecord) => {
  const props: WireProps<typeof PaginatedGroup> = {
    display_name: g.display_name,
    id: g.id,
    name: g.name,
    organization_display_name: g.organization_display_name,
    organization_id: g.organization_id,
    organization_name: g.organization_name,
    quota_allowance: g.quota_allowance,
    source: g.source,
    total_member_count: g.member_count
  }
  putNonEmpty(props, "avatar_url", g.avatar_url)
  return props
}

export const toGroup = (g: GroupRecord, members: ReadonlyArray<UserRecord>): Group =>
  makeGroup({ ...groupProps(g), members: members.map(toReducedUser) })

const makePaginatedGroup = wireMaker(PaginatedGroup)
const makePaginatedGroupsPage = wireMaker(PaginatedGroupsPage)

/** Wire form of a stored group in the paginated listing: its real size, no members. */
export const toPaginatedGroup = (g: GroupRecord): PaginatedGroup => makePaginatedGroup(groupProps(g))

const nameConflict = (name: string) =>
  new Conflict({
    message: `A group named "${name}" already exists in this organization.`,
    validations: [new Validation({ field: "name", detail: "This name is in use." })]
  })

const reservedName = () =>
  new Validation({ field: "name", detail: `"${EVERYONE_GROUP_NAME}" is a reserved group name.` })

const isReservedName = (name: string) => name.toLowerCase() === EVERYONE_GROUP_NAME.toLowerCase()

const negativeQuota = () => new Validation({ field: "quota_allowance", detail: "Quota allowance cannot be negative." })

const unique = <A>(xs: ReadonlyArray<A>) => [...new Set(xs)]

const isUsername = lazily(() => Schema.is(Username))
const isOrganizationName = lazily(() => Schema.is(OrganizationName))
/** Whether `ref` could name a user (id, username, `me`); anything else is not looked up. */
const couldBeUser = (ref: string) => ref === "me" || isUuid(ref) || isUsername(ref)
/** Whether `ref` could name an organization (id, name, `default`). */
const couldBeOrganization = (ref: string) => isUuid(ref) || isOrganizationName(ref)

export class Groups extends Effect.Service<Groups>()("@workbay/core/Groups", {
  effect: Effect.gen(function*() {
    const groups = yield* GroupRepo
    const members = yield* MemberRepo
    const userRepo = yield* UserRepo
    const ids = yield* IdGenerator
    const tx = yield* Transactions
    const users = yield* Users
    const organizations = yield* Organizations
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    /**
     * Resolves `{group}`: a group id, or a group name when exactly one group the caller may
     * see has it. A group the caller's roles do not let them read answers like a missing one
     * (404). For reads (`read`) a token whose scopes or allow-list do not cover reading it
     * answers 403; for changes (`act`) the token is asked about the change itself, next.
     */
    const resolve = (ref: string, mode: "read" | "act" = "read") =>
      Effect.gen(function*() {
        // Made only when answered: an error validates its fields and captures a stack (about 20 us).
        const notFound = () => new NotFound({ message: `Group "${ref}" not found.`, detail: "Provide the group id." })
        const check = (g: GroupRecord) =>
          (mode === "read" ? authorizeRead("Group", groupObject(g)) : authorizeVisible("Group", groupObject(g))).pipe(
            Effect.catchTag("NotFound", () => Effect.fail(notFound()))
          )
        if (isUuid(ref)) {
          const found = yield* groups.findById(ref.toLowerCase())
          if (Option.isNone(found)) return yield* notFound()
          yield* check(found.value)
          return found.value
        }
        const named = yield* groups.findByName(ref)
        const checked = yield* Effect.forEach(named, (g) => Effect.either(Effect.as(check(g), g)))
        const visible = checked.filter(Either.isRight).map((e) => e.right)
        if (visible.length === 0) {
          // Seen by the roles but outside the token's grant: say so rather than hide it.
          const tokenRefusal = checked.find((e) => Either.isLeft(e) && e.left._tag === "Forbidden")
          return yield* (tokenRefusal !== undefined && Either.isLeft(tokenRefusal) ? tokenRefusal.left : notFound())
        }
        if (visible.length > 1) {
          return yield* BadRequest.field(
            "group",
            `${visible.length} groups are named "${ref}" (in different organizations); use the group id.`,
            "Ambiguous group name."
          )
        }
        return visible[0]!
      })

    /**
     * The members of `g` the caller may read: all of them with `group_member` read in the
     * organization, else only the caller (when a member and allowed to read their own membership).
     * `undefined` means none.
     */
    const memberScope = (g: GroupRecord) =>
      Effect.gen(function*() {
        if (yield* allowed("read", { type: "group_member", orgId: g.organization_id })) return { all: true } as const
        const actor = yield* CurrentActor
        const own = yield* allowed("read", { type: "group_member", orgId: g.organization_id, ownerId: actor.user.id })
        return own ? { all: false, userId: actor.user.id } as const : undefined
      })

    const visibleMembers = (g: GroupRecord) =>
      Effect.flatMap(
        memberScope(g),
        (scope): Effect.Effect<ReadonlyArray<UserRecord>> =>
          scope === undefined ? Effect.succeed([]) : scope.all ? groups.members(g) : groups.members(g, scope.userId)
      )

    const withMembers = (g: GroupRecord) => Effect.map(visibleMembers(g), (ms) => toGroup(g, ms))

    const readableOnly = (list: ReadonlyArray<GroupRecord>) =>
      Effect.filter(list, (g) => allowed("read", groupObject(g)))

    const get = (ref: string, options: typeof GetGroupQuery.Type = {}) =>
      Effect.gen(function*() {
        const g = yield* resolve(ref)
        return options.exclude_members === true ? toGroup(g, []) : yield* withMembers(g)
      }).pipe(span("Groups.get"))

    /** The organization's group of that name (case-insensitive), if the caller may read it (else 404). */
    const findInOrganization = (organizationRef: string, name: string) =>
      Effect.gen(function*() {
        const org = yield* organizations.resolve(organizationRef)
        const found = yield* groups.findByOrganizationAndName(org.id, name)
        if (Option.isNone(found)) return yield* new NotFound({ message: `Group "${name}" not found.` })
        yield* authorizeRead("Group", groupObject(found.value)).pipe(
          Effect.catchTag("NotFound", () => Effect.fail(new NotFound({ message: `Group "${name}" not found.` })))
        )
        return found.value
      })

    /** GET /organizations/{organization}/groups/{groupName}: the organization's group of that name. */
    const getByName = (organizationRef: string, name: string) =>
      Effect.flatMap(findInOrganization(organizationRef, name), withMembers).pipe(span("Groups.getByName"))

    /**
     * GET /organizations/{organization}/paginated-groups: a page of the organization's groups by
     * name, without members. As in the described system it needs read on groups across the
     * organization (403 otherwise) and filters nothing group by group. `q` is free text, matched
     * against names and display names; `after_id` is a group of the organization, the page
     * starts after it.
     */
    const listPaginated = (orgRef: string, input: typeof SearchPageQuery.Type) =>
      Effect.gen(function*() {
        const org = yield* organizations.resolve(orgRef)
        yield* authorize("read", { type: "group", orgId: org.id })
        const query = yield* parseQuery(input.q, [])
        let afterId: string | undefined
        if (input.after_id !== undefined) {
          afterId = input.after_id.toLowerCase()
          const cursor = yield* groups.findById(afterId)
          if (Option.isNone(cursor) || cursor.value.organization_id !== org.id) {
            return yield* BadRequest.field(
              "after_id",
              `Group ${input.after_id} is not a group of organization "${org.name}".`,
              "Invalid pagination cursor."
            )
          }
        }
        const page = yield* groups.listPage({
          organizationId: org.id,
          search: query.text.length > 0 ? query.text.join(" ") : undefined,
          afterId,
          limit: pageLimit(input.limit),
          offset: input.offset ?? 0
        })
        return makePaginatedGroupsPage({ count: page.count, groups: page.groups.map(toPaginatedGroup) })
      }).pipe(span("Groups.listPaginated"))

    const list = (input: typeof ListGroupsQuery.Type) =>
      Effect.gen(function*() {
        // Each filter that names nothing the caller can see is one validation.
        const problems: Array<Validation> = []
        let organizationId: string | undefined
        if (input.organization !== undefined && input.organization !== "") {
          const ref = input.organization
          const org = couldBeOrganization(ref) ? yield* Effect.option(organizations.resolve(ref)) : Option.none()
          if (Option.isSome(org)) organizationId = org.value.id
          else problems.push(new Validation({ field: "organization", detail: `Organization "${ref}" not found.` }))
        }
        let hasMemberId: string | undefined
        if (input.has_member !== undefined && input.has_member !== "") {
          const ref = input.has_member
          const user = couldBeUser(ref)
            ? yield* users.resolveReadable(ref).pipe(
              Effect.map(Option.some),
              Effect.catchTag("NotFound", () => Effect.succeed(Option.none()))
            )
            : Option.none()
          if (Option.isSome(user)) hasMemberId = user.value.id
          else problems.push(new Validation({ field: "has_member", detail: `User "${ref}" not found.` }))
        }
        if (problems.length > 0) {
          return yield* new BadRequest({ message: "Invalid query parameters.", validations: problems })
        }
        const found = yield* groups.list({
          organizationId,
          hasMemberId,
          ids: input.group_ids === undefined || input.group_ids.length === 0
            ? undefined
            : unique(input.group_ids.map((s) => s.toLowerCase()))
        })
        return yield* Effect.forEach(yield* readableOnly(found), withMembers)
      }).pipe(span("Groups.list"))

    const listByOrganization = (orgRef: string) =>
      Effect.gen(function*() {
        const org = yield* organizations.resolve(orgRef)
        const found = yield* groups.list({ organizationId: org.id })
        return yield* Effect.forEach(yield* readableOnly(found), withMembers)
      }).pipe(span("Groups.listByOrganization"))

    const create = (orgRef: string, input: typeof CreateGroupRequest.Type) =>
      Effect.gen(function*() {
        const org: OrganizationRecord = yield* organizations.resolve(orgRef)
        yield* authorize("create", { type: "group", orgId: org.id })
        const problems: Array<Validation> = []
        if (isReservedName(input.name)) problems.push(reservedName())
        if (input.quota_allowance !== undefined && input.quota_allowance < 0) problems.push(negativeQuota())
        if (problems.length > 0) return yield* new BadRequest({ message: "Validation failed.", validations: problems })
        const at = yield* now
        const record: GroupRecord = {
          id: yield* ids.uuid,
          organization_id: org.id,
          name: input.name,
          display_name: input.display_name ?? "",
          avatar_url: input.avatar_url ?? "",
          quota_allowance: input.quota_allowance ?? 0,
          source: "user",
          member_count: 0,
          created_at: at,
          updated_at: at,
          organization_name: org.name,
          organization_display_name: org.display_name
        }
        const { member_count: _, organization_name: _n, organization_display_name: _d, ...row } = record
        yield* groups.insert(row).pipe(Effect.catchTag("UniqueViolation", () => Effect.fail(nameConflict(input.name))))
        yield* auditResource(groupResource(record), undefined, { id: record.id, ...auditedFields(record) })
        return toGroup(record, [])
      }).pipe(span("Groups.create"))

    /** Resolves `add_users`/`remove_users` entries (ids, usernames, `me`); unknown ones are named in a validation. */
    const resolveUsers = (field: string, refs: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const found: Array<UserRecord> = []
        const unknown: Array<string> = []
        for (const ref of unique(refs)) {
          const u = couldBeUser(ref) ? yield* Effect.option(users.resolve(ref)) : Option.none()
          if (Option.isSome(u)) found.push(u.value)
          else unknown.push(ref)
        }
        const problem = unknown.length === 0
          ? undefined
          : new Validation({
            field,
            detail: `Unknown user${unknown.length === 1 ? "" : "s"}: ${unknown.map((r) => `"${r}"`).join(", ")}.`
          })
        return { users: found, problem }
      })

    const update = (ref: string, input: typeof PatchGroupRequest.Type) =>
      Effect.gen(function*() {
        const g = yield* resolve(ref, "act")
        yield* authorize("update", groupObject(g))
        const everyone = isEveryoneGroup(g)
        const problems: Array<Validation> = []
        const name = input.name === undefined || input.name === "" ? undefined : input.name
        if (name !== undefined && name !== g.name) {
          if (everyone) {
            problems.push(
              new Validation({ field: "name", detail: `The ${EVERYONE_GROUP_NAME} group cannot be renamed.` })
            )
          } else if (isReservedName(name)) problems.push(reservedName())
        }
        if (everyone && input.display_name !== undefined && input.display_name !== g.display_name) {
          problems.push(
            new Validation({
              field: "display_name",
              detail: `The display name of the ${EVERYONE_GROUP_NAME} group cannot be changed.`
            })
          )
        }
        if (input.quota_allowance !== undefined && input.quota_allowance < 0) problems.push(negativeQuota())
        const addRefs = input.add_users ?? []
        const removeRefs = input.remove_users ?? []
        let add: ReadonlyArray<UserRecord> = []
        let remove: ReadonlyArray<UserRecord> = []
        if (everyone && (addRefs.length > 0 || removeRefs.length > 0)) {
          const detail =
            `Members of the ${EVERYONE_GROUP_NAME} group are the organization's members; add or remove organization members instead.`
          if (addRefs.length > 0) problems.push(new Validation({ field: "add_users", detail }))
          if (removeRefs.length > 0) problems.push(new Validation({ field: "remove_users", detail }))
        } else {
          const added = yield* resolveUsers("add_users", addRefs)
          const removed = yield* resolveUsers("remove_users", removeRefs)
          add = added.users
          remove = removed.users
          if (added.problem !== undefined) problems.push(added.problem)
          else if (add.length > 0) {
            const orgsOf = yield* members.ofUsers(add.map((u) => u.id))
            const outside = add.filter((u) => !(orgsOf.get(u.id) ?? []).includes(g.organization_id))
            if (outside.length > 0) {
              problems.push(
                new Validation({
                  field: "add_users",
                  detail: `${outside.map((u) => `"${u.username}"`).join(", ")} ${
                    outside.length === 1 ? "is not a member" : "are not members"
                  } of organization "${g.organization_name}".`
                })
              )
            }
          }
          if (removed.problem !== undefined) problems.push(removed.problem)
          else {
            const both = remove.filter((u) => add.some((a) => a.id === u.id))
            if (both.length > 0) {
              problems.push(
                new Validation({
                  field: "remove_users",
                  detail: `${both.map((u) => `"${u.username}"`).join(", ")} cannot be both added and removed.`
                })
              )
            }
          }
        }
        if (problems.length > 0) return yield* new BadRequest({ message: "Validation failed.", validations: problems })

        const at = yield* now
        const patch: GroupPatch = {
          ...(name !== undefined ? { name } : {}),
          ...(input.display_name !== undefined ? { display_name: input.display_name } : {}),
          ...(input.avatar_url !== undefined ? { avatar_url: input.avatar_url } : {}),
          ...(input.quota_allowance !== undefined ? { quota_allowance: input.quota_allowance } : {}),
          updated_at: at
        }
        const addIds = add.map((u) => u.id)
        const removeIds = remove.map((u) => u.id)
        const touched = [...addIds, ...removeIds]
        const result = yield* tx.atomic(Effect.gen(function*() {
          const before = touched.length === 0 ? [] : yield* groups.membersAmong(g, touched)
          const updated = yield* groups.update(g.id, patch).pipe(
            Effect.catchTag("UniqueViolation", () => Effect.fail(nameConflict(name ?? g.name)))
          )
          if (Option.isNone(updated)) return Option.none()
          const added = addIds.length === 0 ? [] : yield* groups.addMembers(g, addIds, at)
          const removed = removeIds.length === 0 ? [] : yield* groups.removeMembers(g, removeIds)
          const after = touched.length === 0
            ? updated.value
            : Option.getOrElse(yield* groups.findById(g.id), () => updated.value)
          return Option.some({ before, added, removed, after })
        }))
        // Gone between the lookup and the write: deleted concurrently.
        if (Option.isNone(result)) return yield* NotFound.resource("Group")
        const { after, before } = result.value
        const membersAfter = touched.length === 0
          ? undefined
          : unique([...before.filter((id) => !result.value.removed.includes(id)), ...result.value.added]).sort()
        yield* auditResource(
          groupResource(after),
          { ...auditedFields(g), ...(membersAfter !== undefined ? { members: [...before].sort() } : {}) },
          { ...auditedFields(after), ...(membersAfter !== undefined ? { members: membersAfter } : {}) }
        )
        return yield* withMembers(after)
      }).pipe(span("Groups.update"))

    const remove = (ref: string) =>
      Effect.gen(function*() {
        const g = yield* resolve(ref, "act")
        yield* authorize("delete", groupObject(g))
        if (isEveryoneGroup(g)) {
          return yield* new BadRequest({ message: `The ${EVERYONE_GROUP_NAME} group cannot be deleted.` })
        }
        const answer = yield* withMembers(g)
        if (!(yield* tx.atomic(groups.delete(g.id)))) return yield* NotFound.resource("Group")
        yield* auditResource(groupResource(g), { id: g.id, ...auditedFields(g) }, undefined)
        return answer
      }).pipe(span("Groups.delete"))

    /** A page of the members of `g` (already resolved and readable) the caller may read. */
    const membersPage = (g: GroupRecord, input: typeof SearchPageQuery.Type) =>
      Effect.gen(function*() {
        const base = yield* memberFilter(userRepo, input)
        const scope = yield* memberScope(g)
        if (scope === undefined) return makeMembersPage({ count: 0, users: [] })
        const filter: GroupMemberFilter = { ...base, userId: scope.all ? undefined : scope.userId }
        const page = yield* groups.listMembers(g, filter)
        return makeMembersPage({ count: page.count, users: page.users.map(toReducedUser) })
      })

    const listMembers = (ref: string, input: typeof SearchPageQuery.Type) =>
      Effect.flatMap(resolve(ref), (g) => membersPage(g, input)).pipe(span("Groups.listMembers"))

    /** GET /organizations/{organization}/groups/{groupName}/members: as `listMembers`, the group named in its organization. */
    const listMembersByName = (orgRef: string, name: string, input: typeof SearchPageQuery.Type) =>
      Effect.flatMap(findInOrganization(orgRef, name), (g) => membersPage(g, input)).pipe(
        span("Groups.listMembersByName")
      )

    const budgetResource = (g: GroupRecord) => ({
      type: "group_ai_budget",
      id: g.id,
      target: g.name,
      organizationId: g.organization_id
    })

    const getAiBudget = (ref: string) =>
      Effect.gen(function*() {
        const g = yield* resolve(ref)
        const found = yield* groups.findBudget(g.id)
        if (Option.isNone(found)) return yield* NotFound.resource("Group AI budget")
        return found.value
      }).pipe(span("Groups.getAiBudget"))

    const setAiBudget = (ref: string, spendLimitMicros: number) =>
      Effect.gen(function*() {
        const g = yield* resolve(ref, "act")
        yield* authorize("update", groupObject(g))
        if (!Number.isSafeInteger(spendLimitMicros) || spendLimitMicros < 0) {
          return yield* BadRequest.field("spend_limit_micros", "Must be a whole number, not negative.")
        }
        const at = yield* now
        const existing = Option.getOrUndefined(yield* groups.findBudget(g.id))
        const stored = yield* groups.upsertBudget(
          new GroupAiBudget({
            created_at: existing?.created_at ?? at,
            group_id: g.id,
            spend_limit_micros: spendLimitMicros,
            updated_at: at
          }, true)
        )
        yield* auditResource(budgetResource(g), existing, stored)
        return stored
      }).pipe(span("Groups.setAiBudget"))

    const deleteAiBudget = (ref: string) =>
      Effect.gen(function*() {
        const g = yield* resolve(ref, "act")
        yield* authorize("update", groupObject(g))
        const existing = yield* groups.findBudget(g.id)
        if (Option.isNone(existing) || !(yield* groups.deleteBudget(g.id))) {
          return yield* NotFound.resource("Group AI budget")
        }
        yield* auditResource(budgetResource(g), existing.value, undefined)
      }).pipe(span("Groups.deleteAiBudget"))

    return {
      resolve,
      get,
      getByName,
      list,
      listByOrganization,
      listPaginated,
      create,
      update,
      delete: remove,
      listMembers,
      listMembersByName,
      getAiBudget,
      setAiBudget,
      deleteAiBudget
    } as const
  }),
  dependencies: [Users.Default, Organizations.Default]
}) {}
