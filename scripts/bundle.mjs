// Whether the server bundle is current: shared by scripts/ensure.mjs and the benchmarks.
// Uses Node's own modules only, so it runs before dependencies are installed.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")

/** The newest modification time under `path` (a file or a folder, skipping dist, node_modules and tests). */
const newest = (path) => {
  const stat = statSync(path, { throwIfNoEntry: false })
  if (stat === undefined) return 0
  if (!stat.isDirectory()) return stat.mtimeMs
  let max = stat.mtimeMs
  for (const entry of readdirSync(path)) {
    if (entry === "dist" || entry === "node_modules" || entry === "test") continue
    max = Math.max(max, newest(join(path, entry)))
  }
  return max
}

/**
 * Whether the bundle exists, was made by this Node version (whose V8 would otherwise reject
 * its code cache) and is newer than every source, the lock file and the build script.
 */
export const bundleIsCurrent = () => {
  const stampFile = join(root, "packages/server/dist/build.json")
  if (!existsSync(stampFile) || !existsSync(join(root, "packages/server/dist/main.mjs"))) return false
  if (JSON.parse(readFileSync(stampFile, "utf8")).node !== process.version) return false
  const sources = Math.max(
    newest(join(root, "packages")),
    newest(join(root, "package-lock.json")),
    newest(join(root, "scripts/build.mjs"))
  )
  return statSync(stampFile).mtimeMs > sources
}
