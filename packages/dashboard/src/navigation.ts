/** The main navigation of the signed-in frame: each area's entries, in this order. */
import { tasksNav } from "./tasks/routes.tsx"
import { templatesNav } from "./templates/routes.tsx"
import type { NavEntry } from "./ui/NavEntry.ts"
import { workspacesNav } from "./workspaces/routes.tsx"

export const navigation: ReadonlyArray<NavEntry> = [...workspacesNav, ...templatesNav, ...tasksNav]
