/**
 * The area folders of these tests, for the guards at the root that gather what every area declares
 * (`<area>/accessRows.ts`, `<area>/responseRows.ts`): a folder holding the module joins them, so a new
 * area, like a new route, touches only its own folder.
 */
import { existsSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const here = fileURLToPath(new URL(".", import.meta.url))

/** The export `name` of `<area>/<module>.ts` in every area folder that has that module, by area. */
export const fromEveryArea = async <A>(module: string, name: string): Promise<ReadonlyMap<string, A>> => {
  const areas = readdirSync(here, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(here, d.name, `${module}.ts`)))
    .map((d) => d.name)
    .sort()
  const loaded = await Promise.all(areas.map(async (area) => {
    const exports: Record<string, unknown> = await import(`./${area}/${module}.ts`)
    if (!(name in exports)) throw new Error(`${area}/${module}.ts exports no ${name}`)
    return [area, exports[name] as A] as const
  }))
  return new Map(loaded)
}
