// Dynamic parameters over one WebSocket (npm run bench:dynamic-parameters). Not a test: it measures and reports.
//
// Issue 34: "a template of 50 dependent parameters, answers per second over one WebSocket and p99".
//
// The service runs in a CHILD process (this file with --serve: a SQLite file, the built-in provisioner),
// so the client does not share its event loop; both share the machine's 2 cores. The parent seeds the
// first user and a template of `--parameters` parameters, each one's options, default and maximum computed
// from the one above it (and its visibility from the owner's groups), opens one WebSocket on
// GET /api/v2/templateversions/{id}/dynamic-parameters and takes its first answer. Then two phases:
// - round trips: `--requests` requests one at a time (send, wait for the answer with its id): p50/p99/max;
// - pipelined: `--requests` requests sent at once, answers counted as they come: answers per second.
// Each request changes the first parameter's value, so every answer re-evaluates the whole chain.
// Writes bench/results/dynamic-parameters.md. Options: --parameters 50 --requests 2000 --no-write.
// Everything listens on and connects to 127.0.0.1 only; the run is bounded (each phase stops after 60 s).
import { workbayProvisioner } from "@workbay/core"
import { makeWorkbay } from "@workbay/http"
import * as Sqlite from "@workbay/storage-sqlite"
import { zipSync } from "fflate"
import { mkdtempSync, rmSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import WebSocket from "ws"
import { serveInChild, startChild } from "./child.js"
import { fmt, logger, machineLine, rssMb, seedFirstUser, seedTemplate, SESSION_HEADER, writeReport } from "./lib.mjs"

const { values: opts } = parseArgs({
  options: {
    serve: { type: "string" },
    parameters: { type: "string", default: "50" },
    requests: { type: "string", default: "2000" },
    "no-write": { type: "boolean", default: false }
  }
})
const log = logger("dynamic-parameters")

if (opts.serve !== undefined) {
  const workbay = await makeWorkbay(Sqlite.layer({ filename: opts.serve }), {
    http: { rateLimits: false },
    passwordHashCost: 4,
    retention: false,
    provisioners: [workbayProvisioner]
  })
  await serveInChild(workbay)
}

/** `count` parameters, p1..p(count-1) each depending on the one above. */
const templateYaml = (count: number) => {
  const lines = [
    "parameters:",
    "  - name: p0",
    "    default: a",
    "    options: [{ name: A, value: a }, { name: B, value: b }]"
  ]
  for (let i = 1; i < count; i++) {
    const above = `param.p${i - 1}`
    lines.push(
      `  - name: p${i}`,
      "    dynamic:",
      `      options: '${above} == "a" ? ["a", "b"] : ["b", "c"]'`,
      `      default: '${above} == "a" ? "a" : "b"'`,
      `      error: 'size(${above}) > 1 ? "long" : "short"'`,
      `      visible: 'size(owner.groups) >= 0'`
    )
  }
  lines.push("resources:", "  - { name: box, type: machine }")
  return lines.join("\n") + "\n"
}

const quantile = (sorted: ReadonlyArray<number>, q: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!

const run = async () => {
  const count = Number(opts.parameters)
  const requests = Number(opts.requests)
  const dir = mkdtempSync(join(tmpdir(), "workbay-bench-dynparams-"))
  const service = await startChild(fileURLToPath(import.meta.url), ["--serve", join(dir, "workbay.db")])
  const base = `http://127.0.0.1:${service.port}/api/v2`
  const load0 = loadavg()
  const startedAt = new Date()
  try {
    const { orgId, auth } = await seedFirstUser(base)
    const archive = zipSync({ "template.yaml": new TextEncoder().encode(templateYaml(count)) })
    const template = await seedTemplate(base, auth, orgId, archive)
    const url =
      `ws://127.0.0.1:${service.port}/api/v2/templateversions/${template.active_version_id}/dynamic-parameters`
    const socket = new WebSocket(url, {
      headers: { [SESSION_HEADER]: auth[SESSION_HEADER]! },
      perMessageDeflate: false
    })
    const waiting = new Map<number, (at: number) => void>()
    let firstSize = 0
    const first = new Promise<void>((resolve, reject) => {
      socket.on("message", (raw) => {
        const at = performance.now()
        const text = raw.toString()
        const id = Number(/^\{"id":(-?\d+)/.exec(text)?.[1])
        if (id === -1) {
          const answer = JSON.parse(text)
          if (answer.parameters.length !== count) reject(new Error(`${answer.parameters.length} parameters answered`))
          firstSize = text.length
          return resolve()
        }
        waiting.get(id)?.(at)
        waiting.delete(id)
      })
      socket.once("error", reject)
    })
    await first
    const send = (id: number) =>
      new Promise<number>((resolve) => {
        const sent = performance.now()
        waiting.set(id, (at) => resolve(at - sent))
        socket.send(JSON.stringify({ id, inputs: { p0: id % 2 === 0 ? "a" : "b" } }))
      })
    const deadline = (ms: number) =>
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("phase over 60 s")), ms))

    log(`round trips: ${requests} requests one at a time`)
    const rtts: Array<number> = []
    const t0 = performance.now()
    await Promise.race([
      (async () => {
        for (let id = 1; id <= requests; id++) rtts.push(await send(id))
      })(),
      deadline(60_000)
    ])
    const sequentialMs = performance.now() - t0
    rtts.sort((a, b) => a - b)

    log(`pipelined: ${requests} requests at once`)
    const t1 = performance.now()
    await Promise.race([
      Promise.all(Array.from({ length: requests }, (_, i) => send(requests + 1 + i))),
      deadline(60_000)
    ])
    const pipelinedMs = performance.now() - t1
    const rss = rssMb(service.child.pid)
    socket.close()

    const report = [
      "# Dynamic parameters over one WebSocket",
      "",
      `\`npm run bench:dynamic-parameters\` (bench/dynamic-parameters.ts): a template of ${count} parameters, each`,
      "one's options, default and validation error computed by CEL expressions from the one above it and its",
      "visibility from the owner's groups; one WebSocket on `GET /templateversions/{id}/dynamic-parameters`;",
      "each request changes the first parameter, so each answer evaluates the whole chain",
      `(${count - 1} × 4 expressions) and carries all ${count} parameters (${fmt(firstSize / 1024)} KiB).`,
      "The service runs in a child process on SQLite; client and service share the machine's 2 cores.",
      "",
      `${machineLine(startedAt, load0)}`,
      "",
      "| phase | requests | answers per second | p50 ms | p99 ms | max ms |",
      "|---|---|---|---|---|---|",
      `| one at a time (round trips) | ${requests} | ${fmt((requests / sequentialMs) * 1000, 0)} | ${
        fmt(quantile(rtts, 0.5), 2)
      } | ${fmt(quantile(rtts, 0.99), 2)} | ${fmt(rtts[rtts.length - 1], 2)} |`,
      `| pipelined (all sent at once) | ${requests} | ${fmt((requests / pipelinedMs) * 1000, 0)} | | | |`,
      "",
      `The service's resident memory after the run: ${fmt(rss, 0)} MB.`,
      ""
    ].join("\n")
    writeReport(report, "dynamic-parameters.md", { write: !opts["no-write"], log })
  } finally {
    await service.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (opts.serve === undefined) await run()
