/** The main navigation of the signed-in frame: each area's entries, in this order. */
import type { Permission } from "./api/permissions.ts"
import { adminNav } from "./members/routes.tsx"
import { workspacesNav } from "./workspaces/routes.tsx"

/** An entry of the main navigation. */
export interface NavEntry {
  readonly to: string
  readonly label: string
  /** Shown only when the user has one of these permissions (`POST /authcheck`). */
  readonly requires?: ReadonlyArray<Permission>
}

export const navigation: ReadonlyArray<NavEntry> = [...workspacesNav, ...adminNav]
