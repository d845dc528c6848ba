/** An entry of the main navigation (each area's `routes.tsx` lists its own; `navigation.ts` joins them). */
export interface NavEntry {
  readonly to: string
  readonly label: string
}
