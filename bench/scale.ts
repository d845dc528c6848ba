// Scale (npm run bench:scale). Not a test: it measures and reports (issue 44).
//
// Starts the standalone server (the bundle; SQLite in a temporary folder, or Postgres: --database-url
// names a server whose database this run creates and drops), one or --replicas 2 replicas, makes the
// `scaletest` starter a template, then runs `workbay scaletest` (the CLI bundle) as separate processes:
//   1. create-workspaces --count N (agents spread over the replicas), holding its agents;
//   2. once every agent is ready, for --window seconds beside the held agents: dashboard --users U
//      (split over the replicas) and workspace-traffic --mode pty with --terminals terminals (through
//      the last replica, so with two replicas most terminals are relayed);
//   3. cleanup.
// During the window it samples the server processes' CPU and RSS, the Postgres server's CPU (its
// processes' /proc times), and the servers' own metrics (statements and writes, scraped before and
// after) to give reads and writes per agent per minute. Memory per agent: the RSS grown from before
// the first agent to the window's start, over N. The run's figures go to bench/results/scale-<db>-<N>.md.
//
// Options: --count 2000 --concurrency 50 --replicas 1 --database-url postgres://... --window 120
// --users 20 --terminals 200 --skip-build --no-write --profile (CPU profiles of each replica and of the agents'
// process over the window: their top frames go to the report, the profiles to /tmp/workbay-scale-profiles;
// with --profile-kind promoted, a sampling heap profile of what outlives young collections instead; with
// --profile-kind allocated, of every allocation)
// --node-args="--trace-gc" (Node flags of the servers; their output then goes to the same folder), and
// --agents-node-args="..." (of the process running the agents; likewise), --agent-processes N (the agents in
// N child processes of the scaletest's, `workbay scaletest create-workspaces --agent-processes`; default 4,
// 0 runs them all in the scaletest's process as before 2026-11-28), --scaletest-nice N (the scaletest's processes,
// its agents' and their shells at that niceness; default 0), --people-interval 1s --people-jitter 0s (each
// person's pace on the dashboard: one action a second, as in every round so far, where the described system's
// scaletest defaults to 10 s give or take 5). The report gives the CPU of the server(s), of the
// scaletest's processes and of the whole machine over the window.
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { cpus, loadavg, setPriority } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import pg from "pg"
import { LOOP_DELAY_KIND } from "../packages/cli/src/commands/scaletest/Metrics.js"
import {
  benchWork,
  buildBundle,
  bundleIsCurrent,
  cpuMs,
  fmt,
  freePort,
  logger,
  machineCpuMs,
  machineLine,
  request,
  root,
  rssMb,
  seedFirstUser,
  sleep,
  treeCpuMs,
  writeReport
} from "./lib.mjs"
import { startProfile, startPromotedSampling } from "./profile.mjs"

const { values: opts } = parseArgs({
  options: {
    count: { type: "string", default: "2000" },
    concurrency: { type: "string", default: "50" },
    replicas: { type: "string", default: "1" },
    "database-url": { type: "string", default: "" },
    window: { type: "string", default: "120" },
    users: { type: "string", default: "20" },
    terminals: { type: "string", default: "200" },
    "skip-build": { type: "boolean", default: false },
    profile: { type: "boolean", default: false },
    "node-args": { type: "string", default: "" },
    "agents-node-args": { type: "string", default: "" },
    "agent-processes": { type: "string", default: "4" },
    "scaletest-nice": { type: "string", default: "0" },
    "people-interval": { type: "string", default: "1s" },
    "people-jitter": { type: "string", default: "0s" },
    "profile-kind": { type: "string", default: "cpu" },
    "no-write": { type: "boolean", default: false }
  }
})
const log = logger("scale")
const count = Number(opts.count)
const replicaCount = Number(opts.replicas)
const windowS = Number(opts.window)
const scaletestNice = Number(opts["scaletest-nice"])
const cli = join(root, "packages/cli/bin/workbay.mjs")

/**
 * The CPU time (ms) of the Postgres server: its live processes' own time, plus the time of the ones that
 * ended (backends come and go with connections), which the postmaster holds as its children's time.
 */
const postgresCpuMs = (): number | undefined => {
  let total = 0
  let found = false
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
      if (!stat.includes("(postgres)")) continue
      const fields = stat.replace(/^.*\) /, "").split(" ")
      // Fields after the command (0-based here): ppid 1, utime 11, stime 12, cutime 13, cstime 14, in 10 ms ticks.
      const postmaster = readFileSync(`/proc/${fields[1]}/comm`, "utf8").trim() !== "postgres"
      total += (Number(fields[11]) + Number(fields[12]) + (postmaster ? Number(fields[13]) + Number(fields[14]) : 0)) *
        10
      found = true
    } catch {
      // gone
    }
  }
  return found ? total : undefined
}

/** The value of a metric in a Prometheus text exposition (summed over its labels). */
const metric = (text: string, name: string): number =>
  text.split("\n").filter((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`)).reduce(
    (sum, l) => sum + Number(l.slice(l.lastIndexOf(" ") + 1)),
    0
  )

interface Scaletest {
  readonly child: ChildProcess
  readonly stderr: () => string
  readonly stdout: () => string
  /** The JSON summary, once it ended. */
  readonly done: Promise<any>
}

/** The light agents' lines by kind, over every scaletest process of the run. */
const diagnostics = new Map<string, number>()

const scaletest = (
  args: ReadonlyArray<string>,
  env: Record<string, string>,
  nodeArgs: ReadonlyArray<string> = []
): Scaletest => {
  const child = spawn(process.execPath, [...nodeArgs, cli, "scaletest", ...args, "-o", "json"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  // Before it forks its agents' processes and their shells, which inherit it.
  if (scaletestNice !== 0) setPriority(child.pid!, scaletestNice)
  let stdout = ""
  let stderr = ""
  child.stdout!.on("data", (d) => (stdout += d))
  child.stderr!.on("data", (d) => {
    stderr += d
    for (const line of String(d).trimEnd().split("\n")) {
      if (line.startsWith("agent: ")) {
        // The light agents' own lines (--verbose): counted by kind, ids and numbers left out.
        const kind = line.replace(/^agent: agent of [0-9a-f-]+: /, "").replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, "<id>")
          .replace(/\d+/g, "N")
        diagnostics.set(kind, (diagnostics.get(kind) ?? 0) + 1)
      } else if (/scaletest|failed/.test(line)) log(line)
    }
  })
  const done = new Promise<any>((resolve, reject) =>
    child.on("exit", (code) => {
      try {
        // The summary is the last JSON object; Node flags such as --trace-gc also write lines there,
        // before and after it (`[pid:0x...] ...`).
        const text = stdout.split("\n").filter((l) => !/^\[\d+:0x[0-9a-f]+\]/.test(l)).join("\n")
        const start = text.lastIndexOf("\n{") + 1
        resolve(JSON.parse(text.slice(start)))
      } catch {
        reject(new Error(`scaletest ${args[0]} exited ${code} without a summary:\n${stderr.slice(-2000)}`))
      }
    })
  )
  // Awaited later: a failure before then must not end the bench before its cleanup.
  done.catch(() => {})
  return { child, stderr: () => stderr, stdout: () => stdout, done }
}

/** How many agents the held run reported ready (from its progress lines). */
const created0 = (create: Scaletest): number => {
  const m = /holding (\d+) agents/.exec(create.stderr())
  return m === null ? count : Number(m[1])
}

const row = (kind: string, s: any) =>
  s === undefined
    ? `| ${kind} | 0 | | | | | |`
    : `| ${kind} | ${s.count} | ${s.errors} | ${fmt(s.p50_ms)} | ${fmt(s.p95_ms)} | ${fmt(s.p99_ms)} | ${
      fmt(s.max_ms)
    } |`

const table = (title: string, requests: Record<string, any>) => [
  `**${title}**`,
  "",
  "| request | count | errors | p50 ms | p95 ms | p99 ms | max ms |",
  "|---|---:|---:|---:|---:|---:|---:|",
  ...Object.entries(requests).map(([k, s]) => row(k, s)),
  ""
]

/** The p95 over several kinds (each kind's samples weighed by its count: an upper bound of the joint p95). */
const worstP95 = (requests: Record<string, any>, ...prefixes: Array<string>) =>
  Math.max(
    0,
    ...Object.entries(requests).filter(([k]) => prefixes.some((p) => k.startsWith(p))).map(([, s]) => s.p95_ms ?? 0)
  )

const main = async () => {
  const startedAt = new Date()
  const load0 = loadavg()
  if (!opts["skip-build"] && (!bundleIsCurrent() || !existsSync(join(root, "packages/cli/dist/workbay.mjs")))) {
    buildBundle(log)
  }
  const work = benchWork("workbay-scale-")
  let dropDatabase = async () => {}
  let cleanupRan = false
  try {
    // ---- the deployment ----
    const env: Record<string, string> = {}
    if (opts["database-url"] !== "") {
      const name = `workbay_scale_${Date.now().toString(36)}`
      const admin = async (sql: string) => {
        const c = new pg.Client({ connectionString: opts["database-url"] })
        await c.connect()
        await c.query(sql)
        await c.end()
      }
      await admin(`CREATE DATABASE ${name}`)
      const u = new URL(opts["database-url"]!)
      u.pathname = `/${name}`
      env.DATABASE_URL = u.toString()
      dropDatabase = () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    }
    const replicas: Array<
      {
        pid: number
        base: string
        url: string
        metrics: string
        inspectPort: number
        output: () => string
        child: ChildProcess
        restart: () => Promise<void>
      }
    > = []
    for (let i = 0; i < replicaCount; i++) {
      const dir = await work.workbayDir(`replica-${i}`)
      const metricsPort = await freePort()
      const inspectPort = await freePort()
      const args = {
        nodeArgs: [
          ...(opts.profile ? [`--inspect-port=${inspectPort}`] : []),
          ...opts["node-args"]!.split(" ").filter((a) => a !== "")
        ],
        args: [
          "--access-url",
          `http://127.0.0.1:${dir.port}`,
          "--derp-server-relay-url",
          `http://127.0.0.1:${dir.port}`,
          "--prometheus-enable",
          "true",
          "--prometheus-address",
          `127.0.0.1:${metricsPort}`,
          "--docker",
          "off"
        ],
        env
      }
      const s = await dir.start(args)
      const replica = {
        pid: s.child.pid!,
        child: s.child,
        base: dir.base,
        url: `http://127.0.0.1:${dir.port}`,
        metrics: `http://127.0.0.1:${metricsPort}/metrics`,
        inspectPort,
        output: s.output,
        restart: async () => {
          const again = await dir.start(args)
          replica.output = again.output
          replica.pid = again.child.pid!
          replica.child = again.child
        }
      }
      replicas.push(replica)
    }
    const storage = env.DATABASE_URL === undefined ? "SQLite" : "Postgres"
    log(`${replicaCount} replica(s) on ${storage}: ${replicas.map((r) => `${r.url} (pid ${r.pid})`).join(", ")}`)
    const first = replicas[0]!
    const { auth, orgId } = await seedFirstUser(first.base)
    const token = Object.values(auth)[0] as string
    const json = { ...auth, "content-type": "application/json" }
    const version = await request(`${first.base}/organizations/${orgId}/templateversions`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ storage_method: "file", example_id: "scaletest", provisioner: "workbay", tags: {} })
    })
    for (let i = 0;; i++) {
      const job = (await request(`${first.base}/templateversions/${version.body.id}`, { headers: auth })).body.job
      if (job?.status === "succeeded") break
      if (job?.status === "failed" || i > 200) throw new Error(`the template's import: ${JSON.stringify(job)}`)
      await sleep(100)
    }
    const template = await request(`${first.base}/organizations/${orgId}/templates`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ name: "scaletest", template_version_id: version.body.id })
    })
    if (template.status !== 201) throw new Error(`template: ${template.status} ${JSON.stringify(template.body)}`)
    const cliEnv = (url: string) => ({ WORKBAY_URL: url, WORKBAY_SESSION_TOKEN: token })
    const agentUrls = replicas.flatMap((r) => ["--agent-url", r.url])
    const rssBefore = replicas.map((r) => rssMb(r.pid) ?? 0)

    // ---- 1. the workspaces and their agents ----
    const holdS = windowS + 300
    const agentsInspectPort = await freePort()
    const create = scaletest(
      [
        "create-workspaces",
        "--count",
        String(count),
        "--template",
        "scaletest",
        "--concurrency",
        opts.concurrency!,
        "--hold",
        `${holdS}s`,
        "--verbose",
        "--agent-processes",
        opts["agent-processes"]!,
        ...agentUrls
      ],
      cliEnv(first.url),
      [
        ...(opts.profile ? [`--inspect-port=${agentsInspectPort}`] : []),
        ...opts["agents-node-args"]!.split(" ").filter((a) => a !== "")
      ]
    )
    const rampStarted = performance.now()
    while (!/holding \d+ agents/.test(create.stderr())) {
      if (create.child.exitCode !== null) break
      await sleep(500)
    }
    const rampS = (performance.now() - rampStarted) / 1000
    log(`all agents ready after ${rampS.toFixed(1)} s; settling 20 s, then a ${windowS} s window`)
    await sleep(20_000)

    // ---- 2. the window: people, terminals, and the measurements ----
    const scrape = async () => Promise.all(replicas.map(async (r) => (await fetch(r.metrics)).text()))
    const metrics0 = await scrape()
    const rssAtWindow = replicas.map((r) => rssMb(r.pid) ?? 0)
    const cpu0 = replicas.map((r) => cpuMs(r.pid) ?? 0)
    // With the processes it started: its socket relay (docs/agents.md, "The socket relay").
    const tree0 = replicas.map((r) => treeCpuMs(r.pid))
    const pg0 = postgresCpuMs()
    const machine0 = machineCpuMs()
    const agentsCpu0 = treeCpuMs(create.child.pid!)
    const heapProfile = opts["profile-kind"] === "promoted" || opts["profile-kind"] === "allocated"
    const profileOf = !heapProfile
      ? startProfile
      : (pid: number, port: number) => startPromotedSampling(pid, port, { all: opts["profile-kind"] === "allocated" })
    const profiles = opts.profile
      ? await Promise.all([
        ...replicas.map(async (r, i) => ({ name: `replica-${i + 1}`, p: await profileOf(r.pid, r.inspectPort) })),
        profileOf(create.child.pid!, agentsInspectPort).then((p: any) => ({ name: "agents", p }))
      ])
      : []
    const t0 = performance.now()
    const perReplicaUsers = Math.max(1, Math.round(Number(opts.users) / replicas.length))
    const dashboards = replicas.map((r) =>
      scaletest([
        "dashboard",
        "--users",
        String(perReplicaUsers),
        "--duration",
        `${windowS}s`,
        "--interval",
        opts["people-interval"]!,
        "--jitter",
        opts["people-jitter"]!
      ], cliEnv(r.url))
    )
    const traffic = scaletest([
      "workspace-traffic",
      "--mode",
      "pty",
      "--concurrency",
      opts.terminals!,
      "--duration",
      `${windowS}s`,
      "--bytes-per-tick",
      "64",
      "--tick-interval",
      "100ms",
      // The echoes split by whether their agent is on the replica the terminals come through.
      ...agentUrls
    ], cliEnv(replicas[replicas.length - 1]!.url))
    const rssPeak = [...rssAtWindow]
    // The terminals' and the people's processes end with the window: their CPU as last seen alive.
    let peopleCpu = 0
    let terminalsCpu = 0
    while (performance.now() - t0 < windowS * 1000) {
      await sleep(5000)
      replicas.forEach((r, i) => (rssPeak[i] = Math.max(rssPeak[i]!, rssMb(r.pid) ?? 0)))
      peopleCpu = Math.max(peopleCpu, dashboards.reduce((s, d) => s + treeCpuMs(d.child.pid!), 0))
      terminalsCpu = Math.max(terminalsCpu, treeCpuMs(traffic.child.pid!))
    }
    const seconds = (performance.now() - t0) / 1000
    const profileDir = "/tmp/workbay-scale-profiles"
    if (profiles.length > 0) mkdirSync(profileDir, { recursive: true })
    const profileSummaries = await Promise.all(
      profiles.map(async ({ name, p }) => ({
        name,
        summary: await p.stop(
          join(profileDir, `${name}-${count}-${Date.now()}.${heapProfile ? "heapprofile" : "cpuprofile"}`)
        )
      }))
    )
    if (opts["agents-node-args"] !== "") {
      mkdirSync(profileDir, { recursive: true })
      writeFileSync(join(profileDir, `agents-${count}.out`), create.stdout() + create.stderr())
    }
    if (opts["node-args"] !== "") {
      mkdirSync(profileDir, { recursive: true })
      replicas.forEach((r, i) => writeFileSync(join(profileDir, `replica-${i + 1}-${count}.out`), r.output()))
    }
    const cpu1 = replicas.map((r) => cpuMs(r.pid) ?? 0)
    const tree1 = replicas.map((r) => treeCpuMs(r.pid))
    const pg1 = postgresCpuMs()
    const machine1 = machineCpuMs()
    const agentsCpu1 = treeCpuMs(create.child.pid!)
    const metrics1 = await scrape()
    const [dashboardResults, trafficResult] = await Promise.all([
      Promise.all(dashboards.map((d) => d.done)),
      traffic.done
    ])

    // ---- a replica's restart under the held agents: its stop on one SIGTERM, and the agents' return ----
    const last = replicas[replicas.length - 1]!
    const stopStarted = performance.now()
    const exitCode = await new Promise<number | string>((resolve) => {
      last.child.once("exit", (code, signal) => resolve(code ?? signal ?? -1))
      last.child.kill("SIGTERM")
    })
    const stopS = (performance.now() - stopStarted) / 1000
    log(`replica ${replicas.length} stopped in ${fmt(stopS)} s (exit ${exitCode}); starting it again`)
    const restartAt = performance.now()
    await last.restart()
    // The agents' own view (the held scaletest's "N of M agents connected" lines, checked each second):
    // the database's may still count the stopped replica's agents as connected.
    const connectedNow = () => {
      const lines = [...create.stderr().matchAll(/: (\d+) of (\d+) agents connected/g)]
      return lines.length === 0 ? created0(create) : Number(lines[lines.length - 1]![1])
    }
    let back = 0
    let backS = Number.NaN
    // The restarted replica's agents notice the close first: wait for the count to drop, then to come back.
    while (performance.now() - restartAt < 120_000) {
      back = connectedNow()
      if (back >= created0(create) && /agents connected/.test(create.stderr())) {
        backS = (performance.now() - restartAt) / 1000
        break
      }
      await sleep(250)
    }
    log(`${back} agents connected ${fmt((performance.now() - restartAt) / 1000)} s after the restart`)
    create.child.kill("SIGTERM")
    const created = await create.done

    // ---- 3. cleanup ----
    log("cleanup")
    const cleaned = await scaletest(["cleanup", "--concurrency", "50"], cliEnv(first.url)).done
    cleanupRan = true

    // ---- the report ----
    const minutes = seconds / 60
    const sum = (name: string, texts: Array<string>) => texts.reduce((s, t) => s + metric(t, name), 0)
    /** A series' growth over the window, summed over the replicas. */
    const delta = (name: string) => sum(name, metrics1) - sum(name, metrics0)
    const statements = delta("coderd_db_query_latencies_seconds_count")
    const writes = delta("workbay_db_writes_total")
    // Postgres: the waits for a pool connection over the window (how many, how many over 5 ms, their total).
    const waits = delta("workbay_db_connection_wait_seconds_count")
    const waitsOver5ms = waits - (delta(`workbay_db_connection_wait_seconds_bucket{le="0.005"}`))
    const serverCpu = replicas.map((_, i) => ((cpu1[i]! - cpu0[i]!) / (seconds * 1000)) * 100)
    const relayCpu = replicas.map((_, i) => ((tree1[i]! - cpu1[i]! - (tree0[i]! - cpu0[i]!)) / (seconds * 1000)) * 100)
    const pgCpu = pg0 === undefined || pg1 === undefined ? undefined : ((pg1 - pg0) / (seconds * 1000)) * 100
    const machineBusy = (machine1.busy - machine0.busy) / (machine1.total - machine0.total) * 100
    const share = (ms: number) => `${fmt(ms / (seconds * 1000) * 100, 0)}%`
    const perAgentKb = replicas.reduce((s, _, i) => s + (rssAtWindow[i]! - rssBefore[i]!), 0) * 1024 / count
    const held = created.held_requests ?? {}
    const users: Record<string, any> = {}
    for (const [i, d] of dashboardResults.entries()) {
      for (const [k, s] of Object.entries(d.requests as Record<string, any>)) users[`${k} (replica ${i + 1})`] = s
    }
    const report = [
      `# Scale: ${count.toLocaleString("en")} workspaces, ${replicaCount} replica(s) on ${storage}`,
      "",
      machineLine(startedAt, load0),
      "",
      "`npm run bench:scale -- " + process.argv.slice(2).join(" ") +
      "`: the server(s), the database and every `workbay scaletest` process on this one machine. " +
      "Agents at the reference agent's default rates (stats every 30 s, two metadata items every 10 s, " +
      "start-up logs, an app health check every 30 s), spread over the replicas.",
      "",
      `- Workspaces created: **${created.created}**; agents ready: **${created.agents_ready}** in ${fmt(rampS)} s (${
        created.errors - (created.held_errors ?? 0)
      } errors while creating; ${
        created.held_errors ?? 0
      } agent requests failed while held, the restart below included).`,
      `- Window: ${
        fmt(seconds, 0)
      } s with every agent connected, ${opts.users} people on the dashboard (one action every ${
        opts["people-interval"]
      }, give or take ${
        opts["people-jitter"]
      }) and ${trafficResult.workspaces} terminals typing 64 bytes every 100 ms.`,
      `- Agent API p95 (the held agents' periodic reports, stats and metadata, worst of the two): **${
        fmt(worstP95(held, "agent:update_stats", "agent:batch_update_metadata"))
      } ms**; user API p95 (worst kind): **${
        fmt(Math.max(...dashboardResults.map((d) => worstP95(d.requests, "user:"))))
      } ms**; first page of the workspaces list p95: **${
        fmt(Math.max(...dashboardResults.map((d) => d.requests["user:list workspaces"]?.p95_ms ?? 0)))
      } ms**; terminal echo p99: **${fmt(trafficResult.requests["traffic:pty echo"]?.p99_ms)} ms**.`,
      `- Server CPU: ${serverCpu.map((c) => `${fmt(c, 0)}%`).join(", ")} (its socket relay's process: ${
        relayCpu.map((c) => `${fmt(c, 0)}%`).join(", ")
      }); Postgres CPU: ${
        pgCpu === undefined ? "n/a" : `${fmt(pgCpu, 0)}%`
      }; the scaletest's agents (with their shells) ${share(agentsCpu1 - agentsCpu0)}, terminals ${
        share(terminalsCpu)
      }, people ${share(peopleCpu)} (of one core); the machine's ${cpus().length} cores ${
        fmt(machineBusy, 0)
      }% busy; server RSS at the window ${rssAtWindow.map((r) => `${fmt(r, 0)} MB`).join(", ")} (peak ${
        rssPeak.map((r) => `${fmt(r, 0)} MB`).join(", ")
      }); **${fmt(perAgentKb, 0)} KB per connected agent**.`,
      `- Event loop delay, p99 / max: ${
        metrics1.map((t, i) =>
          `replica ${i + 1} ${fmt(metric(t, "nodejs_eventloop_lag_p99_seconds") * 1000)} / ${
            fmt(metric(t, "nodejs_eventloop_lag_max_seconds") * 1000)
          } ms`
        ).join(", ")
      } over the window (the servers' own); ${
        [
          ["the agents' process while held", held],
          ["the terminals' process", trafficResult.requests],
          ...dashboardResults.map((d, i) => [`the dashboard's ${i + 1}`, d.requests])
        ].map(([name, requests]) => {
          const probe = (requests as Record<string, any>)[LOOP_DELAY_KIND]
          return `${name} ${fmt(probe?.p99_ms)} / ${fmt(probe?.max_ms)} ms`
        }).join(", ")
      } (the scaletest's, sampled every 100 ms).`,
      `- Database: ${fmt(statements / count / minutes, 2)} statements and **${
        fmt(writes / count / minutes, 2)
      } writes per agent per minute** (${fmt(statements / seconds, 0)} statements/s, ${
        fmt(writes / seconds, 0)
      } writes/s in all)${
        waits === 0 ?
          "" :
          `; ${fmt(waits, 0)} waits for a pool connection, ${fmt(waitsOver5ms, 0)} over 5 ms, ${
            fmt(delta("workbay_db_connection_wait_seconds_sum"), 1)
          } s in all`
      }.`,
      `- Restart of replica ${replicas.length}: stopped **${fmt(stopS)} s** after one SIGTERM (exit ${exitCode}); ${
        Number.isNaN(backS)
          ? `only ${back} agents back within 120 s`
          : `all ${back} agents connected again **${fmt(backS)} s**`
      } after it started again; the light agents logged ${created.agent_diagnostics} diagnostics in the whole run.`,
      `- Errors: create ${created.errors}, dashboard ${
        dashboardResults.map((d) => d.errors).join("+")
      }, traffic ${trafficResult.errors}, cleanup ${cleaned.errors} (${cleaned.workspaces_deleted} workspaces, ${cleaned.users_deleted} users deleted).`,
      "",
      "**What the light agents logged, by kind** (the most frequent 12)",
      "",
      "| count | line |",
      "|---:|---|",
      ...[...diagnostics.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, n]) =>
        `| ${n} | ${k.slice(0, 160).replaceAll("|", "\\|")} |`
      ),
      "",
      ...table("Agents while held (the window and the minute around it)", held),
      ...table("People on the dashboard", users),
      ...table("Terminals", trafficResult.requests),
      ...table("Creating (the ramp)", created.requests),
      ...profileSummaries.flatMap((
        { name, summary }
      ) => [`**${heapProfile ? "Allocations" : "CPU profile"} over the window: ${name}**`, "", summary, ""])
    ].join("\n")
    writeReport(report, `scale-${storage.toLowerCase()}-${replicaCount}x-${count}.md`, {
      write: !opts["no-write"],
      log
    })
  } finally {
    if (!cleanupRan) log("cleanup did not run: the databases go with the run anyway")
    await work.cleanup()
    await dropDatabase()
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
