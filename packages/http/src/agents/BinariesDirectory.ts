/**
 * The served executables read from folders (core's `Binaries` port): the files named
 * `workbay-agent-<os>-<arch>` (the agent's) and `workbay-<os>-<arch>` (the command line's), `.exe`
 * on Windows, as `scripts/executables.mjs` writes them. Their hashes come from a folder's
 * `manifest.json` when it names the file at its size, else from reading the file once. The folders
 * are read once, at the first request, and kept: a deployment that replaces its executables
 * restarts.
 */
import { Binaries, type BinaryProgram, type ServedBinary } from "@workbay/core"
import { Effect, Layer, Option } from "effect"
import { createHash } from "node:crypto"
import { createReadStream } from "node:fs"
import { readdir, readFile, stat } from "node:fs/promises"
import { join } from "node:path"

const FILE = /^(workbay-agent|workbay)-([a-z0-9]+)-([a-z0-9]+)(\.exe)?$/

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

/** The executables in `dir` (none when it does not exist), sorted by name. */
export const readBinaries = async (dir: string): Promise<ReadonlyArray<ServedBinary>> => {
  let names: Array<string>
  try {
    names = await readdir(dir)
  } catch {
    return []
  }
  const known = await manifestHashes(dir)
  const found: Array<ServedBinary> = []
  for (const name of names.sort()) {
    const m = FILE.exec(name)
    if (m === null || (m[4] !== undefined) !== (m[2] === "windows")) continue
    const path = join(dir, name)
    const info = await stat(path)
    if (!info.isFile()) continue
    const listed = known.get(name)
    const sha256 = listed !== undefined && listed.size === info.size ? listed.sha256 : await hashFile(path)
    found.push({ program: m[1] as BinaryProgram, os: m[2]!, arch: m[3]!, size: info.size, sha256, path })
  }
  return found
}

/** `Binaries` served from the executables in `dirs` (the first folder's wins when two hold one file). */
export const binariesFromDirectories = (dirs: ReadonlyArray<string>): Layer.Layer<Binaries> =>
  Layer.effect(
    Binaries,
    Effect.map(
      Effect.cached(Effect.promise(async () => (await Promise.all(dirs.map(readBinaries))).flat())),
      (all) => ({
        list: all,
        find: (program, os, arch) =>
          Effect.map(
            all,
            (bs) => Option.fromNullable(bs.find((b) => b.program === program && b.os === os && b.arch === arch))
          )
      })
    )
  )
