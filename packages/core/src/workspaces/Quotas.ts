/**
 * A user's workspace quota: the allowances of their groups (groups' `quota_allowance`) against the
 * credits their workspaces consume (GET /workspace-quota/{user} and
 * /organizations/{organization}/members/{user}/workspace-quota; the routes stay with the groups').
 */
import { Effect, Option, Schema } from "effect"
import { NotFound } from "../Errors.js"
import { GroupRepo, WorkspaceQuota } from "../groups/Group.js"
import { isUuid } from "../Ids.js"
import { lazily } from "../Lazily.js"
import { Organizations } from "../organizations/Organizations.js"
import { span } from "../Tracing.js"
import { Username } from "../users/User.js"
import { Users } from "../users/Users.js"
import { WorkspaceRepo } from "./Workspace.js"

/**
 * The quota rule of a start build costing `cost` credits a day: quotas apply in an organization
 * once any group of it has a `quota_allowance` above 0 (`quotasOn`), and until then no build is
 * refused for cost. Where they apply, a build that would take the owner's credits in use there
 * (`consumed`, its own workspace's left out) past their budget there is refused.
 */
export const exceedsQuota = (q: {
  readonly cost: number
  readonly consumed: number
  readonly budget: number
  readonly quotasOn: boolean
}): boolean => q.quotasOn && q.cost > 0 && q.consumed + q.cost > q.budget

const isUsername = lazily(() => Schema.is(Username))
const couldBeUser = (ref: string) => ref === "me" || isUuid(ref) || isUsername(ref)

export class WorkspaceQuotas extends Effect.Service<WorkspaceQuotas>()("@workbay/core/WorkspaceQuotas", {
  effect: Effect.gen(function*() {
    const groups = yield* GroupRepo
    const users = yield* Users
    const organizations = yield* Organizations
    const workspaces = yield* WorkspaceRepo

    /** Deprecated per-user quota: allowances of all the user's groups; credits their workspaces consume. */
    const workspaceQuota = (userRef: string) =>
      Effect.gen(function*() {
        if (!couldBeUser(userRef)) return yield* NotFound.resource("User")
        const user = yield* users.resolveReadable(userRef)
        const budget = yield* groups.quotaAllowance(user.id)
        // The deprecated form counts the user's workspaces in the default organization, as the described system.
        const org = yield* Effect.option(organizations.resolve("default"))
        const consumed = Option.isSome(org) ? yield* workspaces.creditsConsumed(org.value.id, user.id) : 0
        return new WorkspaceQuota({ budget, credits_consumed: consumed }, true)
      }).pipe(span("Groups.workspaceQuota"))

    /**
     * The quota of `{user}` in `{organization}`: allowances of their groups there, its Everyone
     * group included; credits: daily costs of their workspaces there that are not stopped or deleted. As in the described system the user
     * need not be a member (their budget there is 0); the organization must be visible (404).
     */
    const workspaceQuotaByOrganization = (orgRef: string, userRef: string) =>
      Effect.gen(function*() {
        const org = yield* organizations.resolve(orgRef)
        if (!couldBeUser(userRef)) return yield* NotFound.resource("User")
        const user = yield* users.resolveReadable(userRef)
        const budget = yield* groups.quotaAllowanceIn(org.id, user.id)
        const consumed = yield* workspaces.creditsConsumed(org.id, user.id)
        return new WorkspaceQuota({ budget, credits_consumed: consumed }, true)
      }).pipe(span("Groups.workspaceQuotaByOrganization"))

    return { workspaceQuota, workspaceQuotaByOrganization } as const
  })
}) {}
