// Zip bombs against POST /files (npm run bench:archive). Not a test:
// it measures and reports. Issue 29, item 1: a small zip that inflates to gigabytes must be refused
// after at most the 64 MiB bound's worth of work, while other requests answer as usual.
//
// For each server (this checkout's bundle, and `--extra PATH` another build's main.mjs, e.g. the
// base commit's, run side by side): a fresh data folder, the first user seeded through the API,
// then
//   baseline   `--readers` loops of sequential GET /api/v2/buildinfo for `--baseline` seconds,
//              no upload: the latency of a read on an idle server;
//   each bomb  a zip of one entry of N GiB of zeros (about N MB, built a mebibyte at a time, never
//              held whole), with honest headers and with headers that state 1,000 bytes, POSTed to /files as application/zip while the same read loops run
//              until the upload is answered: the time to refuse it (and its status), the server's
//              peak RSS (VmRSS sampled every 10 ms), its RSS 2 s after, and the reads' latency.
// Load goes to 127.0.0.1 only, and every loop stops with the upload it accompanies.
//
// Options: --sizes 1,3 (GiB) --readers 4 --baseline 3 --extra path/to/main.mjs --skip-build --no-write
import { loadavg } from "node:os"
import { performance } from "node:perf_hooks"
import { parseArgs } from "node:util"
import {
  benchWork,
  buildBundle,
  bundle,
  bundleIsCurrent,
  fmt,
  logger,
  machineLine,
  rssMb,
  seedFirstUser,
  sleep,
  writeReport
} from "./lib.mjs"
// The same zip bombs the archive tests refuse (run under tsx: `npm run bench:archive`).
import { zerosZip } from "../packages/core/test/templates/archives.ts"

const { values: opts } = parseArgs({
  options: {
    sizes: { type: "string", default: "1,3" },
    readers: { type: "string", default: "4" },
    baseline: { type: "string", default: "3" },
    extra: { type: "string" },
    "skip-build": { type: "boolean", default: false },
    "no-write": { type: "boolean", default: false }
  }
})
const log = logger("archive-bomb")
const MiB = 1024 * 1024
const GiB = 1024 * MiB
const READERS = Number(opts.readers)

const percentile = (
  sorted,
  p
) => (sorted.length === 0 ? undefined : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))])

/** `READERS` loops of sequential GET /buildinfo until `stop()` is true: every latency (ms) and the failures. */
const readLoops = async (base, stop) => {
  const latencies = []
  let failures = 0
  await Promise.all(Array.from({ length: READERS }, async () => {
    while (!stop()) {
      const t0 = performance.now()
      try {
        const res = await fetch(`${base}/buildinfo`)
        await res.arrayBuffer()
        if (res.status !== 200) failures++
      } catch {
        failures++
      }
      latencies.push(performance.now() - t0)
    }
  }))
  latencies.sort((a, b) => a - b)
  return {
    n: latencies.length,
    failures,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1)
  }
}

/** Samples a process's VmRSS every 10 ms until `stop()`: the peak (MB). */
const peakRss = async (pid, stop) => {
  let peak = 0
  while (!stop()) {
    peak = Math.max(peak, rssMb(pid) ?? 0)
    await sleep(10)
  }
  return Math.max(peak, rssMb(pid) ?? 0)
}

const sizes = opts.sizes.split(",").map(Number)
const bombs = sizes.flatMap((gib) => [
  { name: `${gib} GiB of zeros`, zip: zerosZip("zeros.bin", gib * GiB) },
  { name: `${gib} GiB, header says 1,000 B`, zip: zerosZip("zeros.bin", gib * GiB, 1000) }
])
for (const b of bombs) log(`${b.name}: ${(b.zip.length / MiB).toFixed(2)} MB`)

const measure = async (label, entry, work) => {
  const dir = await work.workbayDir(label, entry)
  const server = await dir.start()
  const pid = server.child.pid
  try {
    const { auth } = await seedFirstUser(dir.base)
    const idleRss = rssMb(pid)
    let until = performance.now() + Number(opts.baseline) * 1000
    const baseline = await readLoops(dir.base, () => performance.now() > until)
    const rows = []
    for (const bomb of bombs) {
      let done = false
      const t0 = performance.now()
      const upload = fetch(`${dir.base}/files`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/zip" },
        body: bomb.zip
      }).then(async (res) => ({ status: res.status, body: await res.text(), ms: performance.now() - t0 }))
        .finally(() => (done = true))
      const [answer, reads, peak] = await Promise.all([
        upload,
        readLoops(dir.base, () => done),
        peakRss(pid, () => done)
      ])
      await sleep(2000)
      rows.push({ name: bomb.name, mb: bomb.zip.length / MiB, answer, reads, peak, after: rssMb(pid) })
      log(
        `${label}: ${bomb.name} answered ${answer.status} in ${fmt(answer.ms, 0)} ms, peak RSS ${fmt(peak, 0)} MB, ${
          answer.body.slice(0, 120)
        }`
      )
    }
    return { label, idleRss, baseline, rows }
  } finally {
    await work.stop(server.child)
  }
}

const startedAt = new Date()
const load0 = loadavg()
if (!opts["skip-build"] && !bundleIsCurrent()) buildBundle(log)
const work = benchWork("workbay-archive-bomb-")
const results = []
try {
  results.push(await measure("this", bundle, work))
  if (opts.extra !== undefined) results.push(await measure("extra", opts.extra, work))
} finally {
  await work.cleanup()
}

const readCells = (r) => `${r.n} | ${r.failures} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.max)}`
const lines = [
  "# Zip bombs against POST /files",
  "",
  machineLine(startedAt, load0),
  "",
  `Servers: this = ${bundle}${
    opts.extra === undefined ? "" : `; extra = ${opts.extra}`
  }. ${READERS} loops of sequential`,
  "GET /api/v2/buildinfo run beside each upload (and alone for the baseline); latencies in ms, RSS in MB.",
  "",
  "| server | upload | zip MB | status | time to answer (ms) | peak RSS | RSS 2 s after | reads | failed | p50 | p99 | max |",
  "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
]
for (const r of results) {
  lines.push(`| ${r.label} | none (baseline) | | | | ${fmt(r.idleRss, 0)} (idle) | | ${readCells(r.baseline)} |`)
  for (const row of r.rows) {
    lines.push(
      `| ${r.label} | ${row.name} | ${fmt(row.mb, 2)} | ${row.answer.status} | ${fmt(row.answer.ms, 0)} | ${
        fmt(row.peak, 0)
      } | ${fmt(row.after, 0)} | ${readCells(row.reads)} |`
    )
  }
}
lines.push("", "Answers:", "")
for (const r of results) {
  for (const row of r.rows) lines.push(`- ${r.label}, ${row.name}: ${row.answer.status} ${row.answer.body}`)
}
writeReport(lines.join("\n") + "\n", "archive-bomb.md", { write: !opts["no-write"], log })
