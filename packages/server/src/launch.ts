/**
 * The entry of the bundled server (dist/main.mjs). It runs the bundle,
 * dist/server.cjs, with V8's code cache (dist/server.cjs.cache, written by
 * scripts/build.mjs): compiling the megabyte of bundled code costs a third of
 * the start-up, and the cache also holds the functions the start-up runs,
 * already compiled. A missing or stale cache (another Node version) is no
 * error: V8 rejects it and compiles as usual. Nothing is written at run time,
 * except when WORKBAY_WRITE_CODE_CACHE names a file: then the cache goes there
 * when the process exits (the build uses this).
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Script } from "node:vm"

const dir = dirname(fileURLToPath(import.meta.url))
const filename = join(dir, "server.cjs")
const writeTo = process.env.WORKBAY_WRITE_CODE_CACHE

let cachedData: Buffer | undefined
if (writeTo === undefined) {
  try {
    cachedData = readFileSync(join(dir, "server.cjs.cache"))
  } catch {
    // No cache: compile as usual.
  }
}

// The CommonJS wrapper, as Node's own loader applies it.
const script = new Script(
  `(function (exports, require, module, __filename, __dirname) {${readFileSync(filename, "utf8")}\n})`,
  cachedData === undefined ? { filename } : { filename, cachedData }
)

if (writeTo !== undefined) {
  process.once("exit", () => {
    const tmp = `${writeTo}.${process.pid}.tmp`
    writeFileSync(tmp, script.createCachedData())
    renameSync(tmp, writeTo)
  })
}

const module = { exports: {} }
// Called as Node calls a CommonJS module: `this` is `module.exports`.
script.runInThisContext().call(module.exports, module.exports, createRequire(filename), module, filename, dir)
