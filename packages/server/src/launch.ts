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
 * Memory: V8's own sizing suits a browser tab better than an idle or busy
 * server, so the launcher adjusts two of its settings (the figures are from
 * bench/areas.mjs, bench/README.md):
 * - The young generation grows from two 1 MB semi-spaces to two of 16 MB while
 *   many young objects survive, which a start-up (a whole module graph being
 *   built) always causes, and the grown space stays committed: about 30 MB of
 *   an idle server's resident set, though a request leaves almost nothing
 *   alive. It keeps its initial size until the server has started, and may
 *   then grow to 4 MB semi-spaces (a load needs some room: at 1 MB every
 *   request in flight is promoted, and the old generation fills with them),
 *   and to V8's 16 MB once the old generation is large (`youngMaxBytes`).
 * - The old generation's limit after each full collection is the live size
 *   times a factor V8 picks up to 4x when collections are cheap: after a load
 *   the heap holds 100 MB or more for about 20 MB alive. Once started, the
 *   factor is 1.5x.
 * - The start leaves about 20 MB of garbage in the old generation (what the start built and
 *   dropped, promoted by the small young generation), spread over pages that a full collection
 *   frees but keeps: V8's memory reducer compacts them only after about 8 s of quiet. Shortly
 *   after the start the launcher runs that compacting collection itself, once (about 30-60 ms):
 *   the idle RSS a second after start 113 -> 94 MB (bench/README.md, "Third round").
 * - V8's optimizing compilers (TurboFan, and Sparkplug's baseline code) are off while the
 *   server starts and while it idles, and on for good once it works (`busyDetector`): a start
 *   runs most of its code once, yet makes about 90 functions hot enough to optimize, and the
 *   first optimization brings in the compiler's code (about 4 MB of node's executable) and its
 *   working memory. Idle RSS 90.5 -> 82.3 MB; a server that has served a load holds them as
 *   before (bench/README.md, "Fifth round").
 * Idle RSS 113 -> 83 MB, after a 60 s load 195-208 -> 117 MB. This is done once the
 * bundle is compiled, not with command-line flags: V8's flags are part of the
 * code cache's check, so flags would have to be given identically to the build
 * and to every start (`node --max-semi-space-size=4 main.mjs`), and any start
 * without them would reject the cache. For the same reason the build, which
 * writes the cache at exit, restores V8's defaults first.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { type EventLoopUtilization, performance, PerformanceObserver } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8"
import { runInNewContext, Script } from "node:vm"

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
  // The CommonJS wrapper, as Node's own loader applies it. The bundle is ASCII (esbuild escapes
  // everything else: `charset: "ascii"` in scripts/server-bundle.mjs), so it is read as Latin-1,
  // which is the same text without UTF-8's decoding: 20 ms instead of 30-45 for its 2.3 MB.
  return new Script(
    `(function (exports, require, module, __filename, __dirname) {${readFileSync(filename, "latin1")}\n})`,
    cachedData === undefined ? { filename } : { filename, cachedData }
  )
}
const script = compile()

/** Semi-space growth factor (V8's default 2; 1 stops growth) and old-generation growing percent (V8's default 0: its own choice). */
const heapFlags = (growthFactor: number, heapGrowingPercent: number) =>
  setFlagsFromString(`--semi-space-growth-factor=${growthFactor} --heap-growing-percent=${heapGrowingPercent}`)
// Until started: no growth of the young generation (the cache has been checked).
heapFlags(1, 0)

/** Whether V8 optimizes hot functions (TurboFan) and compiles warm ones to baseline code (Sparkplug). */
const optimizingFlags = (on: boolean) =>
  setFlagsFromString(on ? "--turbofan --sparkplug" : "--no-turbofan --no-sparkplug")
let optimizing = false
/** From now on V8 compiles as it does by default; once on, they stay on. */
const optimize = () => {
  if (optimizing) return
  optimizing = true
  clearTimeout(startBound)
  optimizingFlags(true)
}
/**
 * A start takes 0.2-0.5 s (several seconds on a loaded machine); a command that is not the server
 * (`dbcrypt`), or a start that takes longer than this, gets the compilers after this long.
 */
const START_BOUND_MS = 20_000
optimizingFlags(false)
const startBound = setTimeout(optimize, START_BOUND_MS)
startBound.unref()

if (writeTo !== undefined) {
  process.once("exit", () => {
    // The cache records a hash of V8's flags, compared when a start loads it (before any
    // change here): write it under V8's defaults.
    heapFlags(2, 0)
    optimizingFlags(true)
    const tmp = `${writeTo}.${process.pid}.tmp`
    writeFileSync(tmp, script.createCachedData())
    renameSync(tmp, writeTo)
  })
}

const module: { exports: { started?: Promise<void> } } = { exports: {} }
// Called as Node calls a CommonJS module: `this` is `module.exports`.
script.runInThisContext().call(module.exports, module.exports, createRequire(filename), module, filename, dir)

const MB = 1024 * 1024
const OLD_GROWING_PERCENT = 50
/** From this size of the old generation on, the young generation may grow to V8's own limit. */
const LARGE_OLD_BYTES = 128 * MB

/**
 * The young generation's allowed size: two 4 MB semi-spaces, or V8's two of 16 MB once the old
 * generation is large (thousands of connected agents: at 4 MB a collection of the young generation
 * ran 30 times a second, each scanning the old generation's pointers into it, and promoted enough of
 * what was in flight that a full collection's marking held every answer for 0.4-0.7 s every 40 s).
 * 128 MB: 2,000 agents keep about 170 MB alive (49 KB of heap each), so at 256 MB the old
 * generation stayed below the mark between its collections and the young one at 4 MB (docs/scale.md).
 */
const youngMaxBytes = (spaces: ReadonlyArray<{ space_name: string; space_size: number }>) =>
  (spaces.find((s) => s.space_name === "old_space")?.space_size ?? 0) >= LARGE_OLD_BYTES ? 2 * 16 * MB : 2 * 4 * MB

/** Delay from the start to the compacting collection: the first requests are answered first. */
const COMPACT_AFTER_MS = 250

/**
 * One full collection that also compacts, as V8's memory reducer does when it runs: the pages the
 * start's garbage left go back to the system. `gc` is taken from a fresh context (V8 installs it
 * only in contexts made while `--expose-gc` is set), and the flags are restored at once.
 */
const compactOnce = () => {
  setFlagsFromString("--expose-gc --compact-on-every-full-gc")
  try {
    ;(runInNewContext("gc") as () => void)()
  } finally {
    setFlagsFromString("--no-expose-gc --no-compact-on-every-full-gc")
  }
}

/**
 * Busy: the event loop ran at least this share of the time over a window of `BUSY_WINDOW_MS` or
 * more (looked at after each garbage collection, so an idle process is not woken for it). An idle
 * server's background work (the provisioner workers' polls) keeps its loop about 1% busy, a
 * sign-in a few percent (the password's hash runs off the loop); a load of requests most of it.
 */
const BUSY_UTILIZATION = 0.25
const BUSY_WINDOW_MS = 1_000
/**
 * Time after the start that does not count: the areas' background loops run their first rounds
 * just after the server listens, and the launcher's compacting collection follows.
 */
const SETTLE_MS = 2_000

/** Whether the event loop has been busy, asked after each collection (`BUSY_UTILIZATION`). */
const busyDetector = () => {
  const settled = performance.now() + SETTLE_MS
  let since: { readonly at: number; readonly elu: EventLoopUtilization } | undefined
  return () => {
    const now = performance.now()
    if (now < settled) return false
    if (since !== undefined && now - since.at < BUSY_WINDOW_MS) return false
    const elu = performance.eventLoopUtilization()
    const busy = since !== undefined &&
      performance.eventLoopUtilization(elu, since.elu).utilization >= BUSY_UTILIZATION
    since = { at: now, elu }
    return busy
  }
}

/**
 * Once started: the old generation's factor, growth of the young generation allowed while it is
 * below its allowed size (V8 may also shrink it; growth is checked again after every collection;
 * steps taken before the check runs can overshoot, at most to V8's 16 MB), and the compilers on at
 * the first sign of work.
 */
const started = () => {
  setTimeout(compactOnce, COMPACT_AFTER_MS).unref()
  clearTimeout(startBound)
  const busy = busyDetector()
  let growth = 1
  const resize = () => {
    const spaces = getHeapSpaceStatistics()
    const young = spaces.find((s) => s.space_name === "new_space")?.space_size ?? 0
    const wanted = young < youngMaxBytes(spaces) ? 2 : 1
    if (wanted !== growth) heapFlags(growth = wanted, OLD_GROWING_PERCENT)
  }
  heapFlags(growth, OLD_GROWING_PERCENT)
  resize()
  new PerformanceObserver(() => {
    if (!optimizing && busy()) optimize()
    resize()
  }).observe({ entryTypes: ["gc"] })
}
module.exports.started?.then(started, () => {})
