// The agents' periodic reports decoded (issue 44): core's decoders (ReportDecoding.ts) against
// Schema's own decoder of the same schemas, beside a bare baseline (JSON.parse of the message,
// which every message costs anyway), in one process, interleaved. Not a test: it measures and reports.
//
//   node --conditions=@workbay/source --import tsx --max-semi-space-size=64 --min-semi-space-size=64 \
//     bench/agent-reports.ts [--rounds 21] [--calls 1000]
//
// Figures per call: the time (the fastest round and the median round) and the bytes allocated
// (heap growth over a round, counted only for rounds in which no collection ran: hence the large
// young generation).
import { decodeMetadataUpdate, decodeStatsUpdate, MetadataUpdate, StatsUpdate } from "@workbay/core"
import { Schema } from "effect"
import { performance, PerformanceObserver } from "node:perf_hooks"
import { parseArgs } from "node:util"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"

const { values: opts } = parseArgs({
  options: { rounds: { type: "string", default: "21" }, calls: { type: "string", default: "1000" } }
})
const rounds = Number(opts.rounds)
const calls = Number(opts.calls)
setFlagsFromString("--expose-gc")
const gc = runInNewContext("gc") as () => void

const at = new Date().toISOString()
/** What the reference agent sends: two metadata items, and a stats report with one SSH session. */
const metadataText = JSON.stringify({
  metadata: [
    { key: "cpu", result: { collected_at: at, age: 1, value: "12%", error: "" } },
    { key: "mem", result: { collected_at: at, age: 1, value: "1.2 GiB", error: "" } }
  ]
})
const statsText = JSON.stringify({
  stats: {
    connections_by_proto: { ssh: 1 },
    connection_count: 1,
    connection_median_latency_ms: 3.5,
    rx_packets: 120,
    rx_bytes: 48_000,
    tx_packets: 118,
    tx_bytes: 52_000,
    session_count_vscode: 0,
    session_count_jetbrains: 0,
    session_count_reconnecting_pty: 0,
    session_count_ssh: 1
  }
})

type Case = { readonly name: string; readonly run: () => unknown }
const schemaMetadata = Schema.decodeUnknownEither(MetadataUpdate, { errors: "all" })
const schemaStats = Schema.decodeUnknownEither(StatsUpdate, { errors: "all" })
const metadata = JSON.parse(metadataText)
const stats = JSON.parse(statsText)
const cases: ReadonlyArray<Case> = [
  { name: "metadata: JSON.parse (bare baseline)", run: () => JSON.parse(metadataText) },
  { name: "metadata: Schema's decoder", run: () => schemaMetadata(metadata) },
  { name: "metadata: core's decoder", run: () => decodeMetadataUpdate(metadata) },
  { name: "stats: JSON.parse (bare baseline)", run: () => JSON.parse(statsText) },
  { name: "stats: Schema's decoder", run: () => schemaStats(stats) },
  { name: "stats: core's decoder", run: () => decodeStatsUpdate(stats) }
]

/** The collections' start times (the observer hears of them after the round). */
const collections: Array<number> = []
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) collections.push(entry.startTime)
}).observe({ entryTypes: ["gc"] })
const measured: Array<{ name: string; start: number; end: number; us: number; bytes: number }> = []
for (let round = -3; round < rounds; round++) {
  for (const c of round % 2 === 0 ? cases : [...cases].reverse()) {
    gc()
    const before = process.memoryUsage().heapUsed
    const start = performance.now()
    for (let i = 0; i < calls; i++) c.run()
    const end = performance.now()
    const bytes = (process.memoryUsage().heapUsed - before) / calls
    if (round >= 0) measured.push({ name: c.name, start, end, us: ((end - start) * 1000) / calls, bytes })
  }
}
await new Promise((resolve) => setTimeout(resolve, 100))
const figures = new Map(cases.map((c) => [c.name, { us: [] as Array<number>, bytes: [] as Array<number> }]))
for (const m of measured) {
  figures.get(m.name)!.us.push(m.us)
  if (!collections.some((t) => t >= m.start && t <= m.end)) figures.get(m.name)!.bytes.push(m.bytes)
}

const median = (xs: Array<number>) =>
  xs.length === 0 ? Number.NaN : [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
console.log(
  `| decoder (${rounds} rounds of ${calls} calls) | us per call, fastest / median | bytes per call, median (rounds without a collection) |`
)
console.log("|---|---:|---:|")
for (const [name, f] of figures) {
  console.log(
    `| ${name} | ${Math.min(...f.us).toFixed(2)} / ${median(f.us).toFixed(2)} | ${
      median(f.bytes).toFixed(0)
    } (${f.bytes.length}) |`
  )
}
