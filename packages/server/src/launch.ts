/**
 * The entry of the bundled server (dist/main.mjs). It runs the bundle,
 * dist/server.cjs, with V8's code cache (dist/server.cjs.cache, written by
 * scripts/build.mjs): compiling the megabyte of bundled code costs a third of
 * the start-up, and the cache also holds the functions the start-up runs,
 * already compiled. A missing or stale cache (another Node version) is no
 * error: V8 rejects it and compiles as usual. Nothing is written at run time,
 * except when WORKBAY_WRITE_CODE_CACHE names a file: then the cache goes there
 * when the process exits (the build uses this).
 *
 * Memory: V8 grows its young generation from two 1 MB semi-spaces up to two of
 * 16 MB while many young objects survive, which the start-up (a whole module
 * graph being built) always causes; the grown space then stays committed for
 * the life of the process, about 30 MB of an idle server's resident set and
 * more after a load, though a request leaves almost nothing alive. So the
 * launcher keeps it at its initial size (growth factor 1). It does this once the
 * bundle is compiled, not with a command-line flag: V8's flags are part of the
 * code cache's check, so a flag would have to be given identically to the build
 * and to every start (`node --max-semi-space-size=1 main.mjs`), and any start
 * without it would reject the cache.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { setFlagsFromString } from "node:v8"
import { Script } from "node:vm"

const dir = dirname(fileURLToPath(import.meta.url))
const filename = join(dir, "server.cjs")
const writeTo = process.env.WORKBAY_WRITE_CODE_CACHE

/** Compiles the bundle, with the cache when there is one (its buffer is garbage once this returns). */
const compile = (): Script => {
  let cachedData: Buffer | undefined
  if (writeTo === undefined) {
    try {
      cachedData = readFileSync(join(dir, "server.cjs.cache"))
    } catch {
      // No cache: compile as usual.
    }
  }
  // The CommonJS wrapper, as Node's own loader applies it.
  return new Script(
    `(function (exports, require, module, __filename, __dirname) {${readFileSync(filename, "utf8")}\n})`,
    cachedData === undefined ? { filename } : { filename, cachedData }
  )
}
const script = compile()

// The young generation stays at its initial size (see above); the cache has been checked.
const growthFactor = (factor: number) => setFlagsFromString(`--semi-space-growth-factor=${factor}`)
growthFactor(1)

if (writeTo !== undefined) {
  process.once("exit", () => {
    // The cache records a hash of V8's flags, compared when a start loads it, before the
    // change above: write it under the defaults (2 is V8's default growth factor).
    growthFactor(2)
    const tmp = `${writeTo}.${process.pid}.tmp`
    writeFileSync(tmp, script.createCachedData())
    renameSync(tmp, writeTo)
  })
}

const module = { exports: {} }
// Called as Node calls a CommonJS module: `this` is `module.exports`.
script.runInThisContext().call(module.exports, module.exports, createRequire(filename), module, filename, dir)
