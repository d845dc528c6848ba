/** The connection log on @effect/sql. (Being built.) */
import { Layer } from "effect"

export const layer = Layer.empty
