/** The main navigation of the signed-in frame: each area's entries, in this order. */
import { tasksNav } from "./tasks/routes.tsx"
import { workspacesNav } from "./workspaces/routes.tsx"

/** An entry of the main navigation. */
export interface NavEntry {
  readonly to: string
  readonly label: string
}

export const navigation: ReadonlyArray<NavEntry> = [...workspacesNav, ...tasksNav]
