/** The Groups service: groups, their members, workspace quotas and group AI budgets. (Being built.) */
import { Effect } from "effect"

export class Groups extends Effect.Service<Groups>()("@workbay/core/Groups", {
  effect: Effect.succeed({} as const)
}) {}
