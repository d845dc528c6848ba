/** An entry of the main navigation (each area's `routes.tsx` lists its own; `navigation.ts` joins them). */
import type { Permission } from "../api/permissions.ts"

export interface NavEntry {
  readonly to: string
  readonly label: string
  /** Shown only when the user has one of these permissions (`POST /authcheck`). */
  readonly requires?: ReadonlyArray<Permission>
}
