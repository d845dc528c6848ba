/** Groups, group members and group AI budgets on @effect/sql. (Being built.) */
import { Layer } from "effect"

export const layer = Layer.empty
