/**
 * The agent's executables read from a folder (core's `AgentBinaries` port): the files named
 * `workbay-agent-<os>-<arch>` (`.exe` on Windows) there, as `scripts/agent-binaries.mjs` writes
 * them. Their hashes come from the folder's `manifest.json` when it names the file at its size,
 * else from reading the file once. The folder is read once, at the first request, and kept: a
 * deployment that replaces its executables restarts.
 */
import { AgentBinaries, type AgentBinary } from "@workbay/core"
import { Effect, Layer, Option } from "effect"
import { createHash } from "node:crypto"
import { createReadStream } from "node:fs"
import { readdir, readFile, stat } from "node:fs/promises"
import { join } from "node:path"

const FILE = /^workbay-agent-([a-z0-9]+)-([a-z0-9]+)(\.exe)?$/

const hashFile = (path: string) =>
  new Promise<string>((resolve, reject) => {
    const hash = createHash("sha256")
    createReadStream(path).on("data", (chunk) => hash.update(chunk)).on("error", reject).on(
      "end",
      () => resolve(hash.digest("hex"))
    )
  })

/** The manifest's hashes by file name and size. */
const manifestHashes = async (dir: string): Promise<Map<string, { size: number; sha256: string }>> => {
  try {
    const manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as {
      binaries?: Array<{ file: string; size: number; sha256: string }>
    }
    return new Map((manifest.binaries ?? []).map((b) => [b.file, { size: b.size, sha256: b.sha256 }]))
  } catch {
    return new Map()
  }
}

/** The executables in `dir` (none when it does not exist), sorted by platform. */
export const readAgentBinaries = async (dir: string): Promise<ReadonlyArray<AgentBinary>> => {
  let names: Array<string>
  try {
    names = await readdir(dir)
  } catch {
    return []
  }
  const known = await manifestHashes(dir)
  const found: Array<AgentBinary> = []
  for (const name of names.sort()) {
    const m = FILE.exec(name)
    if (m === null || (m[3] !== undefined) !== (m[1] === "windows")) continue
    const path = join(dir, name)
    const info = await stat(path)
    if (!info.isFile()) continue
    const listed = known.get(name)
    const sha256 = listed !== undefined && listed.size === info.size ? listed.sha256 : await hashFile(path)
    found.push({ os: m[1]!, arch: m[2]!, size: info.size, sha256, path })
  }
  return found
}

/** `AgentBinaries` served from the executables in `dir`. */
export const agentBinariesFromDirectory = (dir: string): Layer.Layer<AgentBinaries> =>
  Layer.effect(
    AgentBinaries,
    Effect.map(Effect.cached(Effect.promise(() => readAgentBinaries(dir))), (all) => ({
      list: all,
      find: (os, arch) => Effect.map(all, (bs) => Option.fromNullable(bs.find((b) => b.os === os && b.arch === arch)))
    }))
  )
