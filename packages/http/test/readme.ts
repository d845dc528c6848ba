/** The README's shell blocks, for the tests that run its commands as written. */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

export const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url))
const readme = readFileSync(join(repositoryRoot, "README.md"), "utf8")

/** The first ```sh block after `heading`. */
export const readmeBlock = (heading: string): string => {
  const at = readme.indexOf(heading)
  const start = readme.indexOf("```sh\n", at)
  const end = readme.indexOf("```", start + 6)
  if (at < 0 || start < 0 || end < 0) throw new Error(`README: no block after "${heading}"`)
  return readme.slice(start + 6, end)
}
