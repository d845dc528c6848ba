// CPU profiles of running processes, for the benches: a process started with `--inspect-port=P` opens
// its inspector on SIGUSR1; the profiler is started and stopped over the inspector's WebSocket (the
// Chrome DevTools protocol), so only a bench's measured window is profiled. The summary lists the
// functions with the most self time and the most inclusive time (by name and source position).
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { SourceMapConsumer } from "source-map-js"
import WebSocket from "ws"
import { sleep } from "./lib.mjs"

/** Connects to the inspector of `pid` (started with `--inspect-port=port`), opening it with SIGUSR1. */
const connect = async (pid, port) => {
  process.kill(pid, "SIGUSR1")
  for (let i = 0;; i++) {
    try {
      const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()
      const ws = new WebSocket(list[0].webSocketDebuggerUrl, { maxPayload: 2 ** 31 })
      await new Promise((resolve, reject) => {
        ws.once("open", resolve)
        ws.once("error", reject)
      })
      let id = 0
      const pending = new Map()
      ws.on("message", (data) => {
        const m = JSON.parse(String(data))
        if (m.id !== undefined && pending.has(m.id)) {
          pending.get(m.id)(m)
          pending.delete(m.id)
        }
      })
      const call = (method, params = {}) =>
        new Promise((resolve, reject) => {
          const n = ++id
          pending.set(n, (m) => (m.error ? reject(new Error(`${method}: ${m.error.message}`)) : resolve(m.result)))
          ws.send(JSON.stringify({ id: n, method, params }))
        })
      return { call, close: () => ws.close() }
    } catch (e) {
      if (i > 50) throw e
      await sleep(100)
    }
  }
}

/**
 * Starts a profile of the process over its inspector (`begin`); the returned `stop(file)` ends it
 * (`end`, answering `{ profile }`), writes it to `file` and returns `summary(profile)`.
 */
const startSampling = async (pid, port, begin, end, summary) => {
  const session = await connect(pid, port)
  await begin(session)
  return {
    stop: async (file) => {
      const { profile } = await end(session)
      session.close()
      if (file !== undefined) writeFileSync(file, JSON.stringify(profile))
      return summary(profile)
    }
  }
}

/** Starts profiling the process's CPU; the returned `stop(file)` writes the profile and returns its summary. */
export const startProfile = (pid, port, { intervalUs = 1000 } = {}) =>
  startSampling(pid, port, async (session) => {
    await session.call("Profiler.enable")
    await session.call("Profiler.setSamplingInterval", { interval: intervalUs })
    await session.call("Profiler.start")
  }, (session) =>
    session.call("Profiler.stop"), (profile) =>
    summarize(profile))

/** The source map beside a bundle (`<file>.map`), read once per file; null without one. */
const sourceMaps = new Map()
const sourceMapOf = (url) => {
  if (!sourceMaps.has(url)) {
    let consumer = null
    try {
      const file = url.startsWith("file:") ? fileURLToPath(url) : url
      if (file !== "" && existsSync(`${file}.map`)) {
        consumer = new SourceMapConsumer(JSON.parse(readFileSync(`${file}.map`, "utf8")))
      }
    } catch {
      consumer = null
    }
    sourceMaps.set(url, consumer)
  }
  return sourceMaps.get(url)
}

/**
 * A frame by its function's name and its source position; in a minified bundle with a source map
 * beside it (the server's server.cjs.map), the original file, line and name.
 */
const frameName = (f) => {
  const map = f.url === "" ? null : sourceMapOf(f.url)
  if (map !== null) {
    const at = map.originalPositionFor({ line: f.lineNumber + 1, column: f.columnNumber })
    if (at.source !== null) {
      const source = at.source.replace(/^(\.\.\/)+/, "").replace(/^.*node_modules\//, "")
      return `${at.name ?? f.functionName ?? "(anonymous)"} ${source}:${at.line}`
    }
  }
  return `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*\//, "")}:${f.lineNumber + 1}:${f.columnNumber + 1}`
}

/** The top `top` frames by self and by inclusive time, in percent of the profile's samples. */
export const summarize = (profile, top = 25) => {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const counts = new Map()
  for (const s of profile.samples) counts.set(s, (counts.get(s) ?? 0) + 1)
  const total = profile.samples.length
  const self = new Map()
  const inclusive = new Map()
  let idle = 0
  for (const [id, n] of counts) {
    const node = byId.get(id)
    const name = frameName(node.callFrame)
    if (node.callFrame.functionName === "(idle)") idle += n
    self.set(name, (self.get(name) ?? 0) + n)
    const seen = new Set()
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const nm = frameName(byId.get(cur).callFrame)
      if (seen.has(nm)) continue
      seen.add(nm)
      inclusive.set(nm, (inclusive.get(nm) ?? 0) + n)
    }
  }
  const pct = (n) => ((n / total) * 100).toFixed(1)
  const rows = (m) =>
    [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, n]) => `| ${pct(n)}% | \`${k}\` |`)
  return [
    `${total} samples, ${pct(idle)}% idle.`,
    "",
    "| self | function |",
    "|---:|---|",
    ...rows(self),
    "",
    "| inclusive | function |",
    "|---:|---|",
    ...rows(inclusive)
  ].join("\n")
}

/**
 * Samples the allocations of the process whose objects outlive young collections (objects a young
 * collection frees are left out; those a full collection frees are kept): where what gets promoted
 * to the old generation, and so what brings full collections, is allocated. With `all`, every
 * allocation is sampled (what makes the young collections come as often as they do). `stop(file)`
 * writes the sampling heap profile (a .heapprofile) and returns the top allocation sites by bytes.
 */
export const startPromotedSampling = (pid, port, { intervalBytes = 16384, all = false } = {}) =>
  startSampling(
    pid,
    port,
    async (session) => {
      await session.call("HeapProfiler.enable")
      await session.call("HeapProfiler.startSampling", {
        samplingInterval: intervalBytes,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: all
      })
    },
    (session) => session.call("HeapProfiler.stopSampling"),
    (profile) => summarizeAllocations(profile, 30, all ? "all allocations" : "objects that outlived young collections")
  )

/** The top `top` allocation sites of a sampling heap profile, by self bytes and with two callers. */
export const summarizeAllocations = (profile, top = 30, what = "objects that outlived young collections") => {
  const self = new Map()
  const withCallers = new Map()
  let total = 0
  const walk = (node, stack) => {
    const here = [...stack, frameName(node.callFrame)]
    if (node.selfSize > 0) {
      total += node.selfSize
      const name = here[here.length - 1]
      self.set(name, (self.get(name) ?? 0) + node.selfSize)
      const key = here.slice(-3).reverse().join(" < ")
      withCallers.set(key, (withCallers.get(key) ?? 0) + node.selfSize)
    }
    for (const c of node.children ?? []) walk(c, here)
  }
  walk(profile.head, [])
  const pct = (n) => ((n / total) * 100).toFixed(1)
  const rows = (m) =>
    [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, n]) => `| ${pct(n)}% | \`${k}\` |`)
  return [
    `${(total / 1048576).toFixed(1)} MB sampled (${what}).`,
    "",
    "| bytes | allocated by |",
    "|---:|---|",
    ...rows(self),
    "",
    "| bytes | allocated by < caller < caller |",
    "|---:|---|",
    ...rows(withCallers)
  ].join("\n")
}
