/** The main navigation of the signed-in frame: each area's entries, in this order. */
import { tasksNav } from "./tasks/routes.tsx"
import { templatesNav } from "./templates/routes.tsx"
import type { NavEntry } from "./ui/nav.ts"
import { adminNav } from "./users/routes.tsx"
import { workspacesNav } from "./workspaces/routes.tsx"

export type { NavEntry } from "./ui/nav.ts"

export const navigation: ReadonlyArray<NavEntry> = [...workspacesNav, ...templatesNav, ...tasksNav, ...adminNav]
