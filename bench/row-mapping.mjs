// Row mapping A/B (issue 30): list pages of 100 rows on two builds of the server, interleaved.
// Not a test: it measures and reports.
//
// Seeds one SQLite data folder through this tree's bundle (the first user, a template of the
// built-in `workbay` provisioner, one running workspace), grows it straight into the file to
// `--size` users, audit entries and workspaces (copies of the first with its build, job,
// resources and agents), then serves a copy of it by this tree's bundle and by `--base`'s
// (another checkout, its bundle built there), and loads each list page on both in turn, the
// order swapped every round: 200 sequential requests (the median: the cost of one request) and
// autocannon with `--connections` for `--duration` s. Both servers' answers are compared first.
//
//   node bench/row-mapping.mjs --base bench/.scratch/base [--rounds 6 --duration 3 --size 100 --no-write]
//   node bench/row-mapping.mjs --base bench/.scratch/base --only micro    # the mappers alone, nothing written
//   ... --keep-db FILE     also keeps a copy of the seeded file (for bench/row-mapping-micro.ts --db FILE)
//
// First the mappers alone on the seeded rows (bench/row-mapping-micro.ts, both trees' mappers in one
// process). Writes the "Runs" section of bench/results/row-mapping.md. Load goes to 127.0.0.1 only.
import Database from "better-sqlite3"
import { execFileSync } from "node:child_process"
import { randomUUID } from "node:crypto"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { loadavg } from "node:os"
import { join, resolve } from "node:path"
import { parseArgs } from "node:util"
import {
  benchWork,
  buildBundle,
  bundle,
  bundleIsCurrent,
  cpuMs,
  fmt,
  keepCounts,
  load,
  logger,
  machineLine,
  machineTemplate,
  request,
  root,
  seedFirstUser,
  seedTemplate,
  sequential,
  sleep,
  userInserter,
  vacuumInto,
  workspaceCloner
} from "./lib.mjs"

const { values: opts } = parseArgs({
  options: {
    base: { type: "string" },
    size: { type: "string", default: "100" },
    rounds: { type: "string", default: "6" },
    duration: { type: "string", default: "3" },
    warmup: { type: "string", default: "1" },
    connections: { type: "string", default: "10" },
    only: { type: "string" },
    "micro-runs": { type: "string", default: "5" },
    "keep-db": { type: "string" },
    "skip-build": { type: "boolean", default: false },
    "no-write": { type: "boolean", default: false }
  }
})
if (opts.base === undefined) throw new Error("--base <checkout> is required (its packages/server/dist/main.mjs built)")
const log = logger("row-mapping")
const size = Number(opts.size)
const rounds = Number(opts.rounds)
const baseBundle = join(resolve(opts.base), "packages/server/dist/main.mjs")
if (!existsSync(baseBundle)) throw new Error(`${baseBundle} is missing: run node scripts/build.mjs in ${opts.base}`)
if (!opts["skip-build"] && !bundleIsCurrent()) buildBundle(log)

const startedAt = new Date()
const load0 = loadavg()
const { work, cleanup, stop, workbayDir } = benchWork("workbay-bench-rows-")

/** Grows the file to `size` users, audit entries and workspaces (as bench/areas.mjs seeds them). */
const seedTo = (file, ctx) => {
  const db = new Database(file)
  const insertUser = userInserter(db)
  const at = new Date().toISOString()
  db.transaction(() => {
    const users = db.prepare("SELECT count(*) AS n FROM users WHERE deleted = 0").get().n
    for (let i = users; i < size; i++) {
      const n = String(i).padStart(6, "0")
      insertUser(ctx.orgId, randomUUID(), `user${n}`, `User ${n}`, at)
    }
    keepCounts(db, ctx.orgId)
    const audits = db.prepare("SELECT count(*) AS n, min(time) AS oldest FROM audit_logs").get()
    const insertAudit = db.prepare(
      `INSERT INTO audit_logs (id, time, user_id, organization_id, ip, user_agent, request_id, action, resource_type,
        resource_id, resource_target, resource_icon, diff, status_code, additional_fields, description, build_reason)
       VALUES (?, ?, ?, ?, '10.0.0.1', 'bench/1.0', ?, 'write', 'user', ?, ?, '', ?, 200, '{}', '', '')`
    )
    const diff = JSON.stringify({ name: { old: "a", new: "b", secret: false } })
    const end = Date.parse(audits.oldest ?? at) - 1000
    for (let i = audits.n; i < size; i++) {
      insertAudit.run(
        randomUUID(),
        new Date(end - i * 60_000).toISOString(),
        ctx.userId,
        ctx.orgId,
        randomUUID(),
        ctx.userId,
        `target-${i}`,
        diff
      )
    }
    const cloneWorkspace = workspaceCloner(db, ctx.workspaceId)
    const workspaces = db.prepare("SELECT count(*) AS n FROM workspaces WHERE deleted = 0").get().n
    for (let i = workspaces; i < size; i++) cloneWorkspace(i)
  })()
  db.pragma("wal_checkpoint(TRUNCATE)")
  db.close()
}

/** Thrown to end a partial run (`--only micro`) through the cleanup. */
class Done extends Error {}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

try {
  // --- one data folder, seeded through this tree's bundle ----------------------------------------
  const seedDir = await workbayDir("seed")
  const seeding = await seedDir.start()
  const owner = await seedFirstUser(seedDir.base, { name: "Bench User" })
  const template = await seedTemplate(seedDir.base, owner.auth, owner.orgId, machineTemplate())
  const created = await request(`${seedDir.base}/organizations/${owner.orgId}/members/me/workspaces`, {
    method: "POST",
    headers: { ...owner.auth, "content-type": "application/json" },
    body: JSON.stringify({ name: "first", template_id: template.id })
  })
  if (created.status !== 200 && created.status !== 201) {
    throw new Error(`workspace: ${created.status} ${JSON.stringify(created.body)}`)
  }
  for (let i = 0;; i++) {
    const r = await request(`${seedDir.base}/workspaces/${created.body.id}`, { headers: owner.auth })
    if (r.body.latest_build?.status === "running") break
    if (i > 1000) throw new Error("the first workspace did not start")
    await sleep(20)
  }
  await stop(seeding.child)
  seedTo(seedDir.dbFile, { ...owner, workspaceId: created.body.id })
  log(`seeded ${size} users, audit entries and workspaces`)
  if (opts["keep-db"] !== undefined) vacuumInto(seedDir.dbFile, resolve(opts["keep-db"]))

  // --- the mappers alone, on the seeded rows (bench/row-mapping-micro.ts), in fresh processes --------
  const microRuns = []
  for (let run = 1; run <= Number(opts["micro-runs"]); run++) {
    log(`the mappers alone, run ${run}/${opts["micro-runs"]}`)
    const out = execFileSync(
      process.execPath,
      [
        "--conditions=@workbay/source",
        "--import",
        "tsx",
        join(root, "bench/row-mapping-micro.ts"),
        "--db",
        seedDir.dbFile,
        "--base",
        resolve(opts.base),
        "--size",
        String(size),
        "--json"
      ],
      { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }
    )
    microRuns.push(JSON.parse(out.trim().split("\n").pop()))
  }
  const microLines = [
    `| rows (${size} a page) | base (µs a page) | branch (µs a page) | ratio of each run (branch / base) | median ratio |`,
    "|---|---:|---:|---|---:|"
  ]
  for (const { name } of microRuns[0]) {
    const of = microRuns.map((r) => r.find((f) => f.name === name))
    const ratios = of.map((f) => f.branch / f.base)
    microLines.push(
      `| ${name} | ${fmt(Math.min(...of.map((f) => f.base)), 1)} | ${fmt(Math.min(...of.map((f) => f.branch)), 1)} | ${
        ratios.map((x) => fmt(x, 3)).join(", ")
      } | ${fmt(median(ratios), 3)} |`
    )
  }
  const micro = microLines.join("\n")
  console.log(micro)
  if (opts.only === "micro") throw new Done()

  // --- the two servers, each on its copy -----------------------------------------------------------
  const servers = []
  for (const [name, entry] of [["branch", bundle], ["base", baseBundle]]) {
    const dir = await workbayDir(name, entry)
    vacuumInto(seedDir.dbFile, dir.dbFile)
    const s = await dir.start()
    servers.push({ name, base: dir.base, child: s.child, pid: s.child.pid })
  }

  const pages = [
    { name: `GET /users?limit=${size}`, path: `/users?limit=${size}` },
    { name: `GET /workspaces?limit=${size}`, path: `/workspaces?limit=${size}` },
    { name: `GET /audit?limit=${size}`, path: `/audit?limit=${size}` }
  ]
  // Same answers on both (timestamps and ids come from the one file), and full pages.
  for (const p of pages) {
    const [a, b] = await Promise.all(servers.map((s) => request(`${s.base}${p.path}`, { headers: owner.auth })))
    if (a.status !== 200 || JSON.stringify(a.body) !== JSON.stringify(b.body)) {
      throw new Error(`${p.name}: the servers answer differently (${a.status}, ${b.status})`)
    }
    const rows = a.body.users ?? a.body.workspaces ?? a.body.audit_logs
    if (rows.length !== size) throw new Error(`${p.name}: ${rows.length} rows, not ${size}`)
  }
  log("both servers answer the same pages")

  const results = []
  for (const p of pages) {
    const runs = Object.fromEntries(servers.map((s) => [s.name, { alone: [], rps: [], p99: [], cpu: [] }]))
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? servers : [...servers].reverse()
      for (const s of order) {
        const url = `${s.base}${p.path}`
        const alone = await sequential(url, owner.auth, 200)
        const settings = { connections: Number(opts.connections), headers: owner.auth }
        if (Number(opts.warmup) > 0) await load(url, { ...settings, duration: Number(opts.warmup) })
        const cpu0 = cpuMs(s.pid)
        const loaded = await load(url, { ...settings, duration: Number(opts.duration) })
        // The server's CPU time per answered request: what the machine's other work disturbs least.
        const cpu = ((cpuMs(s.pid) - cpu0) * 1000) / loaded.total
        if (loaded.non2xx > 0 || loaded.errors > 0) throw new Error(`${p.name} on ${s.name}: non-2xx or errors`)
        runs[s.name].alone.push(alone.median)
        runs[s.name].rps.push(loaded.rps)
        runs[s.name].p99.push(loaded.p99)
        runs[s.name].cpu.push(cpu)
        log(
          `${p.name}, round ${r + 1}/${rounds}, ${s.name}: alone ${fmt(alone.median, 2)} ms, ${
            fmt(loaded.rps, 0)
          } req/s, p99 ${loaded.p99} ms, CPU ${fmt(cpu, 0)} µs a request`
        )
        await sleep(500)
      }
    }
    results.push({ page: p.name, runs })
  }
  for (const s of servers) await stop(s.child)

  // --- report ----------------------------------------------------------------------------------------
  const best = (xs, most) => (most ? Math.max(...xs) : Math.min(...xs))
  const lines = [
    "## Runs: this tree (branch) against the base checkout, interleaved",
    "",
    `${machineLine(startedAt, load0)}`,
    "",
    `### The mappers alone (${size} rows of each table from the seeded file; ${
      opts["micro-runs"]
    } runs, each a fresh process)`,
    "",
    "Per table: the fastest round over the runs for each tree (µs to map one page), each run's ratio of",
    "its fastest rounds, and the median of those ratios.",
    "",
    micro,
    "",
    "### Pages of the service (two bundles on copies of one file)",
    "",
    `${size} rows a page, ${rounds} rounds, the order swapped every round; per round 200 sequential requests`,
    `(their median: "alone") and autocannon ${opts.connections} connections for ${opts.duration} s. Each figure:`,
    "median over the rounds, and the best round in brackets (least disturbed by whatever else ran).",
    "Ratio: branch / base, of the medians and of the best rounds (time: below 1 is faster; req/s: above 1 is faster).",
    "CPU: the server process's CPU time (/proc, 10 ms ticks) during the load over the requests it answered,",
    "the figure other work on the machine disturbs least.",
    "",
    "| page | base alone (ms) | branch alone (ms) | ratio | base req/s | branch req/s | ratio | base CPU (µs a request) | branch CPU | ratio |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  ]
  for (const { page, runs } of results) {
    const [a, b] = [runs.base, runs.branch]
    const ratio = (x, y) => `${fmt(x, 3)} (${fmt(y, 3)})`
    lines.push(
      `| ${page} | ${fmt(median(a.alone), 2)} (${fmt(best(a.alone, false), 2)}) | ${fmt(median(b.alone), 2)} (${
        fmt(best(b.alone, false), 2)
      }) | ${ratio(median(b.alone) / median(a.alone), best(b.alone, false) / best(a.alone, false))} | ${
        fmt(median(a.rps), 0)
      } (${fmt(best(a.rps, true), 0)}) | ${fmt(median(b.rps), 0)} (${fmt(best(b.rps, true), 0)}) | ${
        ratio(median(b.rps) / median(a.rps), best(b.rps, true) / best(a.rps, true))
      } | ${fmt(median(a.cpu), 0)} (${fmt(best(a.cpu, false), 0)}) | ${fmt(median(b.cpu), 0)} (${
        fmt(best(b.cpu, false), 0)
      }) | ${ratio(median(b.cpu) / median(a.cpu), best(b.cpu, false) / best(a.cpu, false))} |`
    )
  }
  const section = lines.join("\n") + "\n"
  console.log(section)
  if (!opts["no-write"]) {
    const file = join(root, "bench/results/row-mapping.md")
    const current = existsSync(file) ? readFileSync(file, "utf8") : ""
    const start = current.indexOf("## Runs:")
    const end = start < 0 ? -1 : current.indexOf("\n## ", start + 1)
    const next = start < 0
      ? `${current}${current.endsWith("\n") || current === "" ? "" : "\n"}${section}`
      : `${current.slice(0, start)}${section}${end < 0 ? "" : current.slice(end + 1)}`
    writeFileSync(file, next)
    log(`wrote ${file}`)
  }
} catch (e) {
  if (!(e instanceof Done)) throw e
} finally {
  await cleanup()
  log(`work folder ${work} removed`)
}
