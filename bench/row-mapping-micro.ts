// Row mapping A/B, the mappers alone (issue 30): this tree's row readers against another
// checkout's, on the same rows, in one process, interleaved. Not a test: it measures and reports.
//
// Reads 100 rows of each table from a seeded SQLite file (bench/row-mapping.mjs makes one and runs
// this on it) as better-sqlite3 hands them over, and maps each page with both trees' mappers (the
// same exported names in both: users, workspaces, build summaries, resources, agents, audit
// entries), alternating which goes first, `--rounds` rounds of `--pages` pages each after a
// warm-up. Figures: the time to map one page of 100 rows, the fastest round (the mapper's own
// cost: on a shared machine a round is only ever slowed by what else runs) and the median round.
//
//   node --conditions=@workbay/source --import tsx bench/row-mapping-micro.ts --db FILE --base DIR
//
// Prints a Markdown table, or with --json the figures (bench/row-mapping.mjs runs it several times
// and writes their summary into bench/results/row-mapping.md).
import Database from "better-sqlite3"
import { join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { parseArgs } from "node:util"

const { values: opts } = parseArgs({
  options: {
    db: { type: "string" },
    base: { type: "string" },
    rounds: { type: "string", default: "101" },
    pages: { type: "string", default: "50" },
    size: { type: "string", default: "100" },
    json: { type: "boolean", default: false }
  }
})
if (opts.db === undefined || opts.base === undefined) throw new Error("--db FILE and --base DIR are required")
const here = resolve(import.meta.dirname, "..")
const size = Number(opts.size)

type Row = Record<string, unknown>
type Mapper = (row: Row) => unknown

/** A tree's mappers, loaded from its sources by path (each tree resolves its own @workbay packages). */
const mappersOf = async (tree: string): Promise<Record<string, Mapper>> => {
  const load = (file: string) => import(pathToFileURL(join(tree, "packages/storage-sql/src", file)).href)
  const rows = await load("Rows.ts")
  const workspaces = await load("workspaces/Repositories.ts")
  const builds = await load("workspaces/BuildRepositories.ts")
  const audit = await load("audit/AuditRepositories.ts")
  return {
    users: (r) => rows.rowToUser(r),
    workspaces: (r) => workspaces.rowToWorkspace(r),
    "build summaries": (r) => builds.rowToBuildSummary(r),
    resources: (r) => builds.rowToResource(r),
    agents: (r) => builds.rowToAgent(r),
    "audit entries": (r) => audit.rowToAuditLog(r)
  }
}

const db = new Database(opts.db, { readonly: true })
const pageOf = (table: string): ReadonlyArray<Row> => {
  const rows = db.prepare(`SELECT * FROM ${table} LIMIT ${size}`).all() as Array<Row>
  if (rows.length < size) throw new Error(`${table}: ${rows.length} rows, not ${size}`)
  return rows
}
const pages: Record<string, ReadonlyArray<Row>> = {
  users: pageOf("users"),
  workspaces: pageOf("workspaces"),
  "build summaries": pageOf("workspace_builds"),
  resources: pageOf("workspace_resources"),
  agents: pageOf("workspace_agents"),
  "audit entries": pageOf("audit_logs")
}
db.close()

const base = await mappersOf(resolve(opts.base))
const branch = await mappersOf(here)

let sink = 0
/** Microseconds to map one page, over `n` pages. */
const time = (map: Mapper, rows: ReadonlyArray<Row>, n: number) => {
  const t = process.hrtime.bigint()
  for (let i = 0; i < n; i++) {
    for (const r of rows) if (map(r) !== undefined) sink++
  }
  return Number(process.hrtime.bigint() - t) / 1000 / n
}
const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

const figures: Array<{ name: string; base: number; branch: number; baseMedian: number; branchMedian: number }> = []
const lines = [
  `| rows (${size} a page) | base (µs a page) | branch (µs a page) | ratio (branch / base) | median rounds: base / branch (µs) |`,
  "|---|---:|---:|---:|---|"
]
for (const [name, rows] of Object.entries(pages)) {
  const [a, b] = [base[name]!, branch[name]!]
  // Both mappers answer the same records (JSON: Dates as ISO text).
  for (const r of rows) {
    if (JSON.stringify(a(r)) !== JSON.stringify(b(r))) throw new Error(`${name}: the mappers differ on ${String(r.id)}`)
  }
  for (let i = 0; i < 5; i++) time(a, rows, Number(opts.pages)), time(b, rows, Number(opts.pages))
  const runs = { base: [] as Array<number>, branch: [] as Array<number> }
  for (let round = 0; round < Number(opts.rounds); round++) {
    if (round % 2 === 0) {
      runs.base.push(time(a, rows, Number(opts.pages)))
      runs.branch.push(time(b, rows, Number(opts.pages)))
    } else {
      runs.branch.push(time(b, rows, Number(opts.pages)))
      runs.base.push(time(a, rows, Number(opts.pages)))
    }
  }
  const [fa, fb] = [Math.min(...runs.base), Math.min(...runs.branch)]
  figures.push({ name, base: fa, branch: fb, baseMedian: median(runs.base), branchMedian: median(runs.branch) })
  lines.push(
    `| ${name} | ${fa.toFixed(1)} | ${fb.toFixed(1)} | ${(fb / fa).toFixed(3)} | ${median(runs.base).toFixed(1)} / ${
      median(runs.branch).toFixed(1)
    } |`
  )
}
console.log(opts.json ? JSON.stringify(figures) : lines.join("\n"))
if (sink < 0) console.log(sink)
