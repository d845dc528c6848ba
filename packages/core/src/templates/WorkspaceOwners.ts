/**
 * What dynamic parameters' expressions know of a workspace's owner (`owner.name`, `owner.email`,
 * `owner.groups`, ...), read once per form or build: the user's record and the names of their
 * groups in the template's organization (the Everyone group included, as the described system's
 * `coder_workspace_owner` lists it).
 */
import { Effect, Option } from "effect"
import { GroupRepo } from "../groups/Group.js"
import type { UserRecord } from "../users/User.js"
import type { WorkspaceOwnerData } from "./DynamicParameters.js"

export const workspaceOwnerData = (
  user: Pick<UserRecord, "id" | "username" | "name" | "email">,
  organizationId: string
): Effect.Effect<WorkspaceOwnerData, never, GroupRepo> =>
  Effect.gen(function*() {
    const groups = yield* GroupRepo
    const ids = yield* groups.groupIdsOf(user.id)
    const found = yield* groups.findByIds(ids)
    const everyone = yield* groups.findById(organizationId)
    const names = found.filter((g) => g.organization_id === organizationId).map((g) => g.name)
    if (Option.isSome(everyone)) names.unshift(everyone.value.name)
    return { id: user.id, name: user.username, full_name: user.name, email: user.email, groups: names }
  })
