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

/** Whether the executables (the agent's, `pkg` "agent", or the command line's, "cli") named by their manifest are there, built by this Node version. */
const executablesPresent = (pkg) => {
  const dir = join(root, `packages/${pkg}/dist/bin`)
  try {
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"))
    return manifest.node === process.version &&
      manifest.binaries.every((b) => statSync(join(dir, b.file), { throwIfNoEntry: false })?.size === b.size)
  } catch {
    return false
  }
}

/**
 * Whether the bundle exists, was made by this Node version (whose V8 would otherwise reject
 * its code cache) and is newer than every source, the lock file and the build scripts, with the
 * agent's executables it was built with.
 */
export const bundleIsCurrent = () => {
  const stampFile = join(root, "packages/server/dist/build.json")
  if (!existsSync(stampFile) || !existsSync(join(root, "packages/server/dist/main.mjs"))) return false
  const stamp = JSON.parse(readFileSync(stampFile, "utf8"))
  if (stamp.node !== process.version) return false
  // The agent's and the command line's executables (scripts/executables.mjs), written before the
  // stamp: still there, of this Node.
  if (stamp.agentBinaries === true && !executablesPresent("agent")) return false
  if (stamp.cliBinaries === true && !executablesPresent("cli")) return false
  // The dashboard (packages/dashboard/build.mjs), built before the stamp: still there.
  if (!existsSync(join(root, "packages/dashboard/dist/index.html"))) return false
  const sources = Math.max(
    newest(join(root, "packages")),
    newest(join(root, "package-lock.json")),
    newest(join(root, "scripts/build.mjs")),
    newest(join(root, "scripts/server-bundle.mjs")),
    newest(join(root, "scripts/dockerode-lean.mjs")),
    newest(join(root, "scripts/executables.mjs"))
  )
  return statSync(stampFile).mtimeMs > sources
}
