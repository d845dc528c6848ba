// Terminals and tunnels through the service (npm run bench:streams). Not a test: it measures and reports.
//
// The service runs as the standalone bundle (packages/server/dist/main.mjs, built when not current)
// in its own process, on SQLite in a temp folder; the reference agent (packages/agent/bin, the
// bundle) runs in its own process as the external agent of a `workbay` template's workspace. The
// bench process is the client, and the TCP sink of the tunnels. Everything on 127.0.0.1.
// (1) Keystroke echo: a WebSocket on GET /workspaceagents/{id}/pty?command=cat; one byte
//     `{data:"x"}` at a time, sequential, timed until the tty's echo comes back (--samples, after a
//     warm-up; a "\r" every 64 bytes keeps the line short, untimed). Beside it, interleaved in
//     rounds, the bare baseline: bench/bare/pty-echo.mjs, a `ws` server joining the same
//     `<shell> -c cat` under @lydell/node-pty straight to the socket. p50, p99, ratio.
// (2) Tunnel throughput: --mib MiB from the client through GET .../tunnel?port=<sink> (16 KiB
//     binary frames, at most 1 MiB buffered in the client socket) to a TCP sink here, timed until
//     the sink has all of it; beside a direct TCP copy of the same into the same sink, interleaved
//     for --rounds rounds. The service's (and agent's) RSS every 100 ms during each transfer.
// (2b) The same through `workbay port-forward` (the npm package's command, its own process): a local
//     TCP connection to the port it listens on, into the sink, beside a direct copy, interleaved.
//     Service figures (CPU, RSS) include its socket relay's process, the agent's its shells.
// (3) --terminals terminals at once (command=cat), each typing a line (16 bytes + "\r") once a
//     second for --seconds s, once each has echoed its first line (timed apart: the terminals'
//     processes starting): time from a line sent to its echo back (and to cat's copy of it),
//     the service's and the agent's CPU (% of one core) and RSS. The same load on the bare server
//     after it, as the machine's reference.
// (4) Two replicas (two server processes, one fresh Postgres database, --database-url; dropped at
//     the end): the agent connected to B; (1) and (2) with the client on A (relayed to B) beside
//     the client on B, interleaved.
// Writes bench/results/streams.md. Options: --samples 2000 --mib 256 --rounds 2 --terminals 200
// --seconds 20 --database-url postgres://postgres@127.0.0.1:5432/postgres --no-postgres --no-write.
import { type ChildProcess, spawn } from "node:child_process"
import { randomUUID } from "node:crypto"
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeSync } from "node:fs"
import { connect as tcpConnect, createServer as createTcpServer, type Server as TcpServer } from "node:net"
import { loadavg } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import WebSocket from "ws"
import { externalWorkspace, type Headers, startAgent as startExternalAgent } from "./externalAgent.js"
import {
  benchWork,
  buildBundle,
  bundle,
  bundleIsCurrent,
  cpuMs,
  fmt,
  freePort,
  logger,
  machineLine,
  root,
  rssMb,
  seedFirstUser,
  SESSION_HEADER,
  sleep,
  writeReport
} from "./lib.mjs"

const { values: opts } = parseArgs({
  options: {
    samples: { type: "string", default: "2000" },
    mib: { type: "string", default: "256" },
    rounds: { type: "string", default: "2" },
    terminals: { type: "string", default: "200" },
    seconds: { type: "string", default: "20" },
    "database-url": { type: "string", default: "postgres://postgres@127.0.0.1:5432/postgres" },
    "no-postgres": { type: "boolean", default: false },
    "no-write": { type: "boolean", default: false }
  }
})
const log = logger("streams")
const samples = Number(opts.samples)
const mib = Number(opts.mib)
const rounds = Number(opts.rounds)
const terminals = Number(opts.terminals)
const seconds = Number(opts.seconds)
const startedAt = new Date()
const load0 = loadavg()

const BARE_PTY = join(root, "bench/bare/pty-echo.mjs")

if (!bundleIsCurrent()) buildBundle(log)
const work = benchWork("workbay-bench-streams-")
// Everything to undo at the end, last first: processes, the sink, the database.
const undo: Array<() => Promise<unknown>> = []
let cleaned = false
const cleanup = async () => {
  if (cleaned) return
  cleaned = true
  for (const u of undo.reverse()) await u().catch((e) => log(`cleanup: ${(e as Error).message}`))
  await work.cleanup()
}
// benchWork's own Ctrl-C handler would exit before the agent and the database are seen to: this one does all.
process.removeAllListeners("SIGINT")
process.once("SIGINT", () => void cleanup().then(() => process.exit(130)))
process.once("SIGTERM", () => void cleanup().then(() => process.exit(143)))

/** Each process's output (the servers log warnings and errors only), for the report. */
const outputs: Array<{ name: string; output: () => string }> = []

const percentile = (xs: ReadonlyArray<number>, p: number) => {
  if (xs.length === 0) return Number.NaN
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

/** A server process: the standalone bundle with `args`, in its own data folder, `--access-url` its own. */
const startServer = async (name: string, args: Array<string>, env: Record<string, string> = {}) => {
  const dir = await work.workbayDir(name, bundle)
  const url = `http://127.0.0.1:${dir.port}`
  const s = await dir.start({ args: ["--access-url", url, ...args], env })
  outputs.push({ name: `server ${name}`, output: s.output })
  return { url, base: dir.base, child: s.child as ChildProcess, output: s.output as () => string }
}

/** The reference agent for this bench's servers (bench/externalAgent.ts). */
const startAgent = (
  name: string,
  url: string,
  token: string,
  check: { base: string; auth: Headers; agentId: string }
) => startExternalAgent({ work: work.work, undo, outputs }, name, url, token, check)

/** The bare terminal server (bench/bare/pty-echo.mjs). */
const startBare = async () => {
  const port = await freePort()
  const s = await work.spawn([BARE_PTY, "--port", String(port)], `http://127.0.0.1:${port}/`)
  return { url: `ws://127.0.0.1:${port}/pty`, child: s.child as ChildProcess }
}

/**
 * A terminal client: a WebSocket whose received bytes are counted, and `type(data, expect)` that
 * sends `{data}` and resolves, with the ms it took, once `expect` more bytes than were expected
 * before have arrived (the bytes typed so far decide where each answer ends, whatever the framing).
 */
const terminal = async (url: string, headers: Headers) => {
  const ws = new WebSocket(url, { headers, perMessageDeflate: false })
  let received = 0
  let expected = 0
  const waiting: Array<{ at: number; done: (ms: number) => void; t0: number }> = []
  ws.on("message", (d: Buffer) => {
    received += d.length
    const now = performance.now()
    while (waiting.length > 0 && received >= waiting[0]!.at) {
      const w = waiting.shift()!
      w.done(now - w.t0)
    }
  })
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() }))
  )
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve())
    ws.once("error", reject)
    ws.once("unexpected-response", (_req, res) => reject(new Error(`${url}: ${res.statusCode}`)))
  })
  ws.on("error", (e) => log(`terminal socket: ${e.message}`))
  /** Sends `data`; answers the ms until each of `marks` (cumulative byte counts of the answer) arrived. */
  const type = (data: string, marks: ReadonlyArray<number>): Array<Promise<number>> => {
    const t0 = performance.now()
    const base = expected
    expected += marks[marks.length - 1]!
    const out = marks.map((m) => new Promise<number>((done) => waiting.push({ at: base + m, done, t0 })))
    ws.send(JSON.stringify({ data }))
    return out
  }
  /** Ends `cat` (Ctrl-D at the start of a line), so the session ends with it; waits for the close. */
  const end = async () => {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ data: "\x04" }))
    const timer = setTimeout(() => ws.terminate(), 5000)
    const c = await closed
    clearTimeout(timer)
    return c
  }
  return { ws, type, end, received: () => received, expected: () => expected, closed }
}
type Terminal = Awaited<ReturnType<typeof terminal>>

/** One keystroke echo (ms); every 64 keystrokes a "\r" ends the line (echo "\r\n", cat's copy), untimed. */
const keystrokes = async (t: Terminal, n: number, state: { column: number }) => {
  const out: Array<number> = []
  for (let i = 0; i < n; i++) {
    const [ms] = t.type("x", [1])
    out.push(await ms!)
    // Each answer is exactly the bytes expected (else the times would be of other answers).
    if (t.received() !== t.expected()) throw new Error(`${t.received()} bytes received, ${t.expected()} expected`)
    if (++state.column === 64) {
      // The echo of "\r" is "\r\n", then cat writes the 64 bytes and "\r\n".
      await Promise.all(t.type("\r", [2 + 64 + 2]))
      state.column = 0
    }
  }
  return out
}

/** Echo of `samples` keystrokes on each of `sides` (terminal URLs), interleaved in 10 rounds after a warm-up of 100. */
const echoSides = async (sides: Array<{ url: string; headers: Headers }>) => {
  const ts = await Promise.all(sides.map((s) => terminal(s.url, s.headers)))
  const states = ts.map(() => ({ column: 0 }))
  const results: Array<Array<number>> = ts.map(() => [])
  await sleep(300)
  for (const [i, t] of ts.entries()) await keystrokes(t, 100, states[i]!)
  const per = Math.ceil(samples / 10)
  for (let r = 0; r < 10; r++) {
    for (const [i, t] of ts.entries()) results[i]!.push(...(await keystrokes(t, per, states[i]!)))
  }
  for (const t of ts) await t.end()
  return results
}

// The TCP sink: counts each connection's bytes; `expect(n)` resolves when one connection brought n bytes.
let sinkWaiter: { n: number; done: () => void } | undefined
const sink: TcpServer = createTcpServer((socket) => {
  let got = 0
  socket.on("data", (d) => {
    got += d.length
    if (sinkWaiter !== undefined && got >= sinkWaiter.n) {
      const w = sinkWaiter
      sinkWaiter = undefined
      w.done()
    }
  })
  socket.on("error", () => undefined)
})
await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", () => resolve()))
undo.push(() => new Promise((resolve) => sink.close(resolve)))
const sinkPort = (sink.address() as { port: number }).port
const sinkReceives = (n: number) => new Promise<void>((done) => (sinkWaiter = { n, done }))

const CHUNK = 16 * 1024
const payload = Buffer.alloc(CHUNK, 0x5a)
const total = mib * 1024 * 1024

/** The processes below `pid` (the service's socket relay, the agent's shells). */
const descendants = (pid: number): Array<number> => {
  let children: Array<number> = []
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim()
      if (text !== "") children = [...children, ...text.split(" ").map(Number)]
    }
  } catch {
    return []
  }
  return children.flatMap((c) => [c, ...descendants(c)])
}
/** A process's figure with its descendants' (the bench's own process: its own alone, its children are the servers). */
const withChildren = (pid: number, figure: (p: number) => number | undefined) =>
  [pid, ...(pid === process.pid ? [] : descendants(pid))].reduce((sum, p) => sum + (figure(p) ?? 0), 0)

/**
 * RSS of `pids` (each with its descendants: the service's socket relay carries the streams) every
 * 100 ms while `run` runs: before, and the max of each; their CPU over it.
 */
const sampled = async <A>(pids: Array<number>, run: () => Promise<A>) => {
  const rss = (p: number) => withChildren(p, rssMb)
  const cpu = (p: number) => withChildren(p, cpuMs)
  const before = pids.map(rss)
  const max = [...before]
  const cpu0 = pids.map(cpu)
  const t0 = performance.now()
  const timer = setInterval(() => {
    for (const [i, p] of pids.entries()) max[i] = Math.max(max[i]!, rss(p))
  }, 100)
  try {
    const result = await run()
    const wall = performance.now() - t0
    const cpuPct = pids.map((p, i) => ((cpu(p) - cpu0[i]!) / wall) * 100)
    return { result, before, max, cpuPct, after: pids.map(rss) }
  } finally {
    clearInterval(timer)
  }
}

/** `total` bytes through the tunnel route at `url`: MB/s, until the sink has all of it. */
const tunnelCopy = async (url: string, headers: Headers) => {
  const ws = new WebSocket(url, { headers, perMessageDeflate: false })
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve())
    ws.once("error", reject)
    ws.once("unexpected-response", (_req, res) => reject(new Error(`${url}: ${res.statusCode}`)))
  })
  const closed = new Promise<number>((resolve) => ws.on("close", (code) => resolve(code)))
  const arrived = sinkReceives(total)
  const t0 = performance.now()
  let sent = 0
  await new Promise<void>((resolve, reject) => {
    const pump = () => {
      while (sent < total && ws.bufferedAmount < 1024 * 1024) {
        if (ws.readyState !== WebSocket.OPEN) return reject(new Error("the tunnel closed while sending"))
        sent += CHUNK
        // Each frame handed to the network may bring the buffer under the mark: pump again.
        ws.send(payload, { binary: true }, (e) => (e ? reject(e) : pump()))
      }
      if (sent >= total) resolve()
    }
    pump()
  })
  await arrived
  const ms = performance.now() - t0
  ws.close(1000)
  await closed
  return (total / 1e6) / (ms / 1000)
}

/**
 * `workbay port-forward <workspace> --tcp 0:<remote>` (packages/cli/bin, the npm package's command)
 * logged in by its variables, against `url`: its process and the local port it listens on.
 */
const portForward = async (url: string, auth: Headers, workspace: string, remote: number) => {
  const home = join(work.work, "cli-home")
  mkdirSync(home, { recursive: true })
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config") }
  for (const k of Object.keys(env)) if (k.startsWith("WORKBAY_")) delete env[k]
  const child = spawn(
    process.execPath,
    [join(root, "packages/cli/bin/workbay.mjs"), "port-forward", workspace, "--tcp", `0:${remote}`],
    {
      env: { ...env, WORKBAY_URL: url, WORKBAY_SESSION_TOKEN: auth[SESSION_HEADER]! },
      stdio: ["ignore", "ignore", "pipe"]
    }
  )
  undo.push(async () => void child.kill("SIGTERM"))
  let output = ""
  outputs.push({ name: "workbay port-forward", output: () => output })
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr!.on("data", (d) => {
      output += d
      const m = /Forwarding 127\.0\.0\.1:(\d+)/.exec(output)
      if (m) resolve(Number(m[1]))
    })
    child.once("exit", (code) => reject(new Error(`workbay port-forward exited with ${code}:\n${output}`)))
  })
  return { pid: child.pid!, port }
}

/**
 * `total` bytes into `cat > /dev/null` in the workspace over OpenSSH, `workbay ssh --stdio
 * <workspace>` (the npm package's command) its ProxyCommand, as `config-ssh` sets it up: MB/s
 * from the start of `ssh` until it exits (the session's set-up included). Undefined without `ssh`.
 */
const sshCopy = async (url: string, auth: Headers, workspace: string) => {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: join(work.work, "cli-home") }
  for (const k of Object.keys(env)) if (k.startsWith("WORKBAY_")) delete env[k]
  const proxy = `${process.execPath} ${join(root, "packages/cli/bin/workbay.mjs")} ssh --stdio ${workspace}`
  const file = join(work.work, "ssh-source.bin")
  if (!existsSync(file)) {
    const fd = openSync(file, "w")
    for (let written = 0; written < total; written += CHUNK) writeSync(fd, payload)
    closeSync(fd)
  }
  const source = openSync(file, "r")
  const ssh = spawn("ssh", [
    "-o",
    "StrictHostKeyChecking=no",
    "-o",
    "UserKnownHostsFile=/dev/null",
    "-o",
    "LogLevel=ERROR",
    "-o",
    `ProxyCommand=${proxy}`,
    `workbay.${workspace}`,
    "cat > /dev/null"
  ], {
    env: { ...env, WORKBAY_URL: url, WORKBAY_SESSION_TOKEN: auth[SESSION_HEADER]! },
    // ssh reads the bytes from a file, as `ssh host 'cat > x' < file` does.
    stdio: [source, "ignore", "pipe"]
  })
  let stderr = ""
  ssh.stderr!.on("data", (d) => (stderr += d))
  const t0 = performance.now()
  const exited = new Promise<number | null>((resolve, reject) => {
    ssh.once("error", reject)
    ssh.once("exit", resolve)
  })
  try {
    const code = await exited
    if (code !== 0) throw new Error(`ssh exited with ${code}: ${stderr}`)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined
    throw e
  } finally {
    closeSync(source)
  }
  return (total / 1e6) / ((performance.now() - t0) / 1000)
}

/** `total` bytes over a TCP connection to `port` (the sink's: a direct copy), until the sink has them: MB/s. */
const directCopy = async (port = sinkPort) => {
  const socket = tcpConnect(port, "127.0.0.1")
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject))
  const arrived = sinkReceives(total)
  const t0 = performance.now()
  for (let sent = 0; sent < total; sent += CHUNK) {
    if (!socket.write(payload)) await new Promise((resolve) => socket.once("drain", resolve))
  }
  await arrived
  const ms = performance.now() - t0
  socket.destroy()
  return (total / 1e6) / (ms / 1000)
}

/**
 * `count` terminals at `url()` at once, each typing a line of 16 bytes + "\r" once a second (each
 * at its own offset) for `seconds` s: echo (18 bytes: the line and "\r\n") and cat's copy (18 more)
 * times, CPU and RSS of `pids` over it.
 */
const manyTerminals = async (url: () => string, headers: Headers, count: number, pids: Array<number>) => {
  const ts: Array<Terminal> = []
  for (let i = 0; i < count; i += 20) {
    ts.push(...(await Promise.all(Array.from({ length: Math.min(20, count - i) }, () => terminal(url(), headers)))))
  }
  // Each terminal's first line ("\r": its echo and cat's copy) before the measured load, timed apart:
  // it waits for the terminal's process to start, and the agent starts 200 of them one after another.
  const first = await Promise.all(
    ts.map((t) => Promise.race([t.type("\r", [2, 4])[1]!, sleep(10_000).then(() => Number.POSITIVE_INFINITY)]))
  )
  await sleep(1000)
  const echo: Array<number> = []
  const line: Array<number> = []
  let unanswered = 0
  const rss0 = pids.map((p) => rssMb(p) ?? Number.NaN)
  const rssMax = [...rss0]
  const rssTimer = setInterval(() => {
    for (const [i, p] of pids.entries()) rssMax[i] = Math.max(rssMax[i]!, rssMb(p) ?? 0)
  }, 100)
  const cpu0 = pids.map((p) => cpuMs(p) ?? Number.NaN)
  const t0 = performance.now()
  const pending: Array<Promise<void>> = []
  await Promise.all(ts.map(async (t, i) => {
    await sleep((i / count) * 1000)
    for (let s = 0; s < seconds; s++) {
      const next = t0 + (i / count) * 1000 + (s + 1) * 1000
      const [e, l] = t.type(`${String(i).padStart(4, "0")}-abcdefghijk\r`, [18, 36])
      pending.push(
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            unanswered++
            resolve()
          }, 10_000)
          void Promise.all([e!, l!]).then(([a, b]) => {
            clearTimeout(timer)
            echo.push(a)
            line.push(b)
            resolve()
          })
        })
      )
      await sleep(Math.max(0, next - performance.now()))
    }
  }))
  await Promise.all(pending)
  const wallMs = performance.now() - t0
  const cpuPct = pids.map((p, i) => (((cpuMs(p) ?? Number.NaN) - cpu0[i]!) / wallMs) * 100)
  clearInterval(rssTimer)
  const rss1 = pids.map((p) => rssMb(p) ?? Number.NaN)
  const closes = await Promise.all(ts.map((t) => t.end()))
  const unclean = closes.filter((c) => c.code !== 1000)
  return { first, echo, line, unanswered, cpuPct, rss0, rssMax, rss1, unclean, wallMs }
}

/**
 * A throughput table: a row per round (MB/s through `what`, the direct copy's, their ratio, RSS and
 * CPU of the sampled processes, `cpu` naming them), then the best of each.
 */
const throughputTable = (
  what: string,
  cpu: string,
  runs: ReadonlyArray<{ result: number; before: Array<number>; max: Array<number>; cpuPct: Array<number> }>,
  direct: ReadonlyArray<number>
) => {
  const best = (xs: ReadonlyArray<number>) => Math.max(...xs)
  const results = runs.map((r) => r.result)
  return [
    `| round | ${what} MB/s | direct TCP MB/s | ratio | service RSS before → max MB | agent RSS before → max MB | CPU % of one core: ${cpu} |`,
    "|---|---|---|---|---|---|---|",
    ...runs.map((r, i) =>
      `| ${i + 1} | ${fmt(r.result, 0)} | ${fmt(direct[i]!, 0)} | ${fmt(r.result / direct[i]!, 3)} | ${
        fmt(r.before[0], 0)
      } → ${fmt(r.max[0], 0)} | ${fmt(r.before[1], 0)} → ${fmt(r.max[1], 0)} | ${
        r.cpuPct.map((c) => fmt(c, 0)).join(" / ")
      } |`
    ),
    `| best | ${fmt(best(results), 0)} | ${fmt(best(direct), 0)} | ${fmt(best(results) / best(direct), 3)} | | | |`
  ]
}

const report: Array<string> = []
const ms = (x: number) => fmt(x, 2)
try {
  // The single replica on SQLite, its external agent, the bare terminal server.
  const single = await startServer("single", ["--provisioner-daemons", "1"])
  const { orgId, auth } = await seedFirstUser(single.base)
  const ws1 = await externalWorkspace(single.base, auth, orgId, "single")
  const agent1 = await startAgent("single", single.url, ws1.token, { base: single.base, auth, agentId: ws1.agentId })
  const bare = await startBare()
  const wsBase = single.base.replace("http", "ws")
  const ptyUrl = (base: string, agentId: string) =>
    `${base.replace("http", "ws")}/workspaceagents/${agentId}/pty?command=cat&reconnect=${randomUUID()}`
  const pids = [single.child.pid!, agent1.child.pid!]
  log(`service pid ${pids[0]}, agent pid ${pids[1]}, bare pid ${bare.child.pid}; load ${loadavg()[0]!.toFixed(2)}`)

  // (1) keystroke echo.
  const [svcEcho, bareEcho] = await echoSides([
    { url: ptyUrl(single.base, ws1.agentId), headers: auth },
    { url: `${bare.url}?command=cat`, headers: {} }
  ])
  log(
    `echo p50 ${ms(percentile(svcEcho!, 50))} ms (bare ${ms(percentile(bareEcho!, 50))}), p99 ${
      ms(percentile(svcEcho!, 99))
    } (bare ${ms(percentile(bareEcho!, 99))})`
  )

  // (2) tunnel throughput.
  const tunnelUrl = `${wsBase}/workspaceagents/${ws1.agentId}/tunnel?port=${sinkPort}`
  const tunnelRuns: Array<Awaited<ReturnType<typeof sampled<number>>>> = []
  const directRuns: Array<number> = []
  for (let r = 0; r < rounds; r++) {
    // The bench process too: the client's framing and masking, and the sink.
    tunnelRuns.push(await sampled([...pids, process.pid], () => tunnelCopy(tunnelUrl, auth)))
    directRuns.push(await directCopy())
    log(
      `round ${r + 1}: tunnel ${fmt(tunnelRuns[r]!.result, 0)} MB/s (service CPU ${
        fmt(tunnelRuns[r]!.cpuPct[0], 0)
      }%, agent ${fmt(tunnelRuns[r]!.cpuPct[1], 0)}%), direct ${fmt(directRuns[r]!, 0)} MB/s`
    )
  }
  // (2b) the same through `workbay port-forward` (the npm package's command): a local TCP
  // connection to the port it listens on, carried to the sink's port in the workspace.
  const forwarder = await portForward(single.url, auth, "single", sinkPort)
  const forwardRuns: Array<Awaited<ReturnType<typeof sampled<number>>>> = []
  const forwardDirect: Array<number> = []
  for (let r = 0; r < rounds; r++) {
    forwardRuns.push(
      await sampled([...pids, forwarder.pid, process.pid], () => directCopy(forwarder.port))
    )
    forwardDirect.push(await directCopy())
    log(
      `round ${r + 1}: port-forward ${fmt(forwardRuns[r]!.result, 0)} MB/s (service CPU ${
        fmt(forwardRuns[r]!.cpuPct[0], 0)
      }%, agent ${fmt(forwardRuns[r]!.cpuPct[1], 0)}%, command ${fmt(forwardRuns[r]!.cpuPct[2], 0)}%), direct ${
        fmt(forwardDirect[r]!, 0)
      } MB/s`
    )
  }
  // (2c) over OpenSSH through `workbay ssh --stdio` into `cat > /dev/null` in the workspace.
  const sshRuns: Array<Awaited<ReturnType<typeof sampled<number | undefined>>>> = []
  const sshDirect: Array<number> = []
  for (let r = 0; r < rounds; r++) {
    const run = await sampled([...pids, process.pid], () => sshCopy(single.url, auth, "single"))
    if (run.result === undefined) {
      log("SKIPPED: ssh through workbay ssh --stdio (no ssh on this machine)")
      break
    }
    sshRuns.push(run)
    sshDirect.push(await directCopy())
    log(
      `round ${r + 1}: ssh ${fmt(run.result, 0)} MB/s (service CPU ${fmt(run.cpuPct[0], 0)}%, agent ${
        fmt(run.cpuPct[1], 0)
      }%), direct ${fmt(sshDirect[r]!, 0)} MB/s`
    )
  }
  await sleep(2000)
  const rssAfterTunnels = pids.map((p) => withChildren(p, rssMb))

  // (3) many terminals at once: the service, then the bare server with the same load.
  const many = await manyTerminals(() => ptyUrl(single.base, ws1.agentId), auth, terminals, pids)
  log(`${terminals} terminals: echo p99 ${ms(percentile(many.echo, 99))} ms, service CPU ${fmt(many.cpuPct[0], 0)}%`)
  const manyBare = await manyTerminals(() => `${bare.url}?command=cat`, {}, terminals, [bare.child.pid!])
  log(`${terminals} bare terminals: echo p99 ${ms(percentile(manyBare.echo, 99))} ms`)
  await sleep(1000)
  const agentAfterMany = rssMb(agent1.child.pid!)

  // (4) two replicas on Postgres.
  let relay:
    | {
      echoA: Array<number>
      echoB: Array<number>
      tputA: Array<number>
      tputB: Array<number>
      rssA: Array<number>
      rssB: Array<number>
    }
    | string
  if (opts["no-postgres"]) relay = "skipped (--no-postgres)"
  else {
    try {
      const pg = (await import("pg")).default
      const name = `workbay_bench_streams_${Math.random().toString(16).slice(2, 10)}`
      const admin = new pg.Client({ connectionString: opts["database-url"] })
      await admin.connect()
      await admin.query(`CREATE DATABASE "${name}"`)
      await admin.end()
      undo.push(async () => {
        const c = new pg.Client({ connectionString: opts["database-url"] })
        await c.connect()
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
        await c.end()
        log(`dropped database ${name}`)
      })
      const dbUrl = new URL(opts["database-url"]!)
      dbUrl.pathname = `/${name}`
      const env = { DATABASE_URL: dbUrl.toString() }
      const a = await startServer("replica-a", ["--provisioner-daemons", "1"], env)
      const b = await startServer("replica-b", ["--provisioner-daemons", "0"], env)
      const owner = await seedFirstUser(a.base)
      const ws2 = await externalWorkspace(a.base, owner.auth, owner.orgId, "relayed")
      await startAgent("relayed", b.url, ws2.token, { base: a.base, auth: owner.auth, agentId: ws2.agentId })
      const [echoA, echoB] = await echoSides([
        { url: ptyUrl(a.base, ws2.agentId), headers: owner.auth },
        { url: ptyUrl(b.base, ws2.agentId), headers: owner.auth }
      ])
      log(`relay echo p50 ${ms(percentile(echoA!, 50))} ms (on B ${ms(percentile(echoB!, 50))})`)
      const tputA: Array<number> = []
      const tputB: Array<number> = []
      const rssA = [rssMb(a.child.pid!) ?? Number.NaN, 0]
      const rssB = [rssMb(b.child.pid!) ?? Number.NaN, 0]
      const tunnelOn = (base: string) =>
        `${base.replace("http", "ws")}/workspaceagents/${ws2.agentId}/tunnel?port=${sinkPort}`
      for (let r = 0; r < rounds; r++) {
        const ra = await sampled([a.child.pid!, b.child.pid!], () => tunnelCopy(tunnelOn(a.base), owner.auth))
        const rb = await sampled([a.child.pid!, b.child.pid!], () => tunnelCopy(tunnelOn(b.base), owner.auth))
        tputA.push(ra.result)
        tputB.push(rb.result)
        rssA[1] = Math.max(rssA[1]!, ra.max[0]!, rb.max[0]!)
        rssB[1] = Math.max(rssB[1]!, ra.max[1]!, rb.max[1]!)
        log(`relay round ${r + 1}: via A ${fmt(ra.result, 0)} MB/s, on B ${fmt(rb.result, 0)} MB/s`)
      }
      relay = { echoA: echoA!, echoB: echoB!, tputA, tputB, rssA, rssB }
    } catch (e) {
      relay = `failed: ${(e as Error).message.split("\n")[0]}`
      log(`relay: ${(e as Error).stack}`)
    }
  }

  // The report.
  const echoRow = (what: string, xs: Array<number>) =>
    `| ${what} | ${xs.length} | ${ms(percentile(xs, 50))} | ${ms(percentile(xs, 99))} | ${ms(Math.max(...xs))} |`
  const best = (xs: Array<number>) => Math.max(...xs)
  report.push(
    "# Terminals and tunnels through the service",
    "",
    machineLine(startedAt, load0),
    "",
    "The standalone server (dist/main.mjs, SQLite; its figures include its socket relay's process, which carries the streams) and the reference agent (its bundle, the workspace's external agent; with its shells) each in its own process; the client and the TCP sink in the bench process; everything on 127.0.0.1. The bare baseline: bench/bare/pty-echo.mjs (`ws` + @lydell/node-pty, the same `<shell> -c cat`, joined straight to the socket).",
    "",
    `## Keystroke echo (one byte \`{data:"x"}\`, sequential; interleaved in 10 rounds after 100 warm-up keystrokes each)`,
    "",
    "| | samples | p50 ms | p99 ms | max ms |",
    "|---|---|---|---|---|",
    echoRow("client → service → agent → pty (`command=cat`) and back", svcEcho!),
    echoRow("bare: client → ws + node-pty and back", bareEcho!),
    `| ratio | | ${fmt(percentile(svcEcho!, 50) / percentile(bareEcho!, 50), 2)} | ${
      fmt(percentile(svcEcho!, 99) / percentile(bareEcho!, 99), 2)
    } | |`,
    "",
    `The issue aims at p99 under 20 ms through the service: ${ms(percentile(svcEcho!, 99))} ms here.`,
    "",
    `## Tunnel throughput (${mib} MiB, 16 KiB frames, ≤ 1 MiB buffered in the client; ${rounds} round${
      rounds === 1 ? "" : "s"
    }, interleaved)`,
    "",
    ...throughputTable("tunnel", "service / agent / client + sink", tunnelRuns, directRuns),
    "",
    "The client is the bench process, which masks every frame (`ws` with `bufferutil`'s native masking, as the agent and the command line have it): its CPU, in the last column, bounds the tunnel's figure as much as the service's and the agent's do. The direct copy masks nothing. The first round includes the socket relay's start and the code's first compilation.",
    "",
    `### Through \`workbay port-forward\` (${mib} MiB over a local TCP connection to the port it listens on; ${rounds} round${
      rounds === 1 ? "" : "s"
    }, interleaved)`,
    "",
    ...throughputTable("port-forward", "service / agent / command / client + sink", forwardRuns, forwardDirect),
    "",
    "The command is its own process (Node, the npm package's bundle), as people run it; the client writes plain TCP to it.",
    "",
    `### Over OpenSSH through \`workbay ssh --stdio\` (${mib} MiB from a file into \`cat > /dev/null\` in the workspace; ${rounds} round${
      rounds === 1 ? "" : "s"
    }, interleaved)`,
    "",
    ...(sshRuns.length === 0 ? ["Not measured: no `ssh` on this machine.", ""] : [
      ...throughputTable(
        "ssh",
        "service / agent / the bench (ssh and the command not counted)",
        sshRuns.map((r) => ({ ...r, result: r.result! })),
        sshDirect
      ),
      "",
      "Timed from `ssh`'s start to its exit: the session's set-up (the command's start, the key exchange) is in it. The agent's SSH server is ssh2's (JavaScript, with Node's ciphers); the bytes are encrypted by ssh and decrypted in the agent.",
      ""
    ]),
    `RSS 2 s after the transfers: service ${fmt(rssAfterTunnels[0], 0)} MB, agent ${fmt(rssAfterTunnels[1], 0)} MB.`,
    "",
    `## ${terminals} terminals at once (\`command=cat\`), each typing 16 bytes + "\\r" once a second for ${seconds} s`,
    "",
    "| | lines | echo p50 ms | echo p99 ms | cat's copy p99 ms | unanswered | closes not 1000 |",
    "|---|---|---|---|---|---|---|",
    `| through the service and agent | ${many.echo.length} | ${ms(percentile(many.echo, 50))} | ${
      ms(percentile(many.echo, 99))
    } | ${ms(percentile(many.line, 99))} | ${many.unanswered} | ${many.unclean.length} |`,
    `| bare (same load, after) | ${manyBare.echo.length} | ${ms(percentile(manyBare.echo, 50))} | ${
      ms(percentile(manyBare.echo, 99))
    } | ${ms(percentile(manyBare.line, 99))} | ${manyBare.unanswered} | ${manyBare.unclean.length} |`,
    "",
    `Before the measured load, each terminal's first line (\`"\\r"\`, its echo and cat's copy; it waits for the terminal's process to start) came back within ${
      ms(Math.max(...many.first))
    } ms (p50 ${ms(percentile(many.first, 50))} ms) through the service and agent, ${
      ms(Math.max(...manyBare.first))
    } ms (p50 ${ms(percentile(manyBare.first, 50))} ms) on the bare server.`,
    "",
    "| process | CPU % of one core | RSS before MB | RSS max MB | RSS after MB |",
    "|---|---|---|---|---|",
    `| service | ${fmt(many.cpuPct[0], 1)} | ${fmt(many.rss0[0], 0)} | ${fmt(many.rssMax[0], 0)} | ${
      fmt(many.rss1[0], 0)
    } |`,
    `| agent (${terminals} ptys) | ${fmt(many.cpuPct[1], 1)} | ${fmt(many.rss0[1], 0)} | ${fmt(many.rssMax[1], 0)} | ${
      fmt(many.rss1[1], 0)
    } |`,
    `| bare server (${terminals} ptys) | ${fmt(manyBare.cpuPct[0], 1)} | ${fmt(manyBare.rss0[0], 0)} | ${
      fmt(manyBare.rssMax[0], 0)
    } | ${fmt(manyBare.rss1[0], 0)} |`,
    "",
    `Agent RSS 1 s after every terminal ended (Ctrl-D: cat and the session end): ${fmt(agentAfterMany, 0)} MB.`,
    ...(many.unclean.length > 0
      ? ["", `Closes that were not 1000: ${JSON.stringify(many.unclean.slice(0, 5))}`]
      : []),
    "",
    "## Two replicas on one Postgres database (the agent connected to B)",
    ""
  )
  if (typeof relay === "string") report.push(relay)
  else {
    report.push(
      "| | echo samples | echo p50 ms | echo p99 ms | tunnel MB/s (best of " + rounds + ") |",
      "|---|---|---|---|---|",
      `| client on A (relayed to B) | ${relay.echoA.length} | ${ms(percentile(relay.echoA, 50))} | ${
        ms(percentile(relay.echoA, 99))
      } | ${fmt(best(relay.tputA), 0)} |`,
      `| client on B (holds the agent) | ${relay.echoB.length} | ${ms(percentile(relay.echoB, 50))} | ${
        ms(percentile(relay.echoB, 99))
      } | ${fmt(best(relay.tputB), 0)} |`,
      `| ratio A/B | | ${fmt(percentile(relay.echoA, 50) / percentile(relay.echoB, 50), 2)} | ${
        fmt(percentile(relay.echoA, 99) / percentile(relay.echoB, 99), 2)
      } | ${fmt(best(relay.tputA) / best(relay.tputB), 3)} |`,
      "",
      `Each round's MB/s, A: ${relay.tputA.map((x) => fmt(x, 0)).join(", ")}; B: ${
        relay.tputB.map((x) => fmt(x, 0)).join(", ")
      }. RSS during the transfers: A ${fmt(relay.rssA[0], 0)} → max ${fmt(relay.rssA[1], 0)} MB, B ${
        fmt(relay.rssB[0], 0)
      } → max ${fmt(relay.rssB[1], 0)} MB.`
    )
  }
  // What the processes said (servers: warnings and errors; the agent: its log), in case of trouble.
  const lines = outputs.map((o) => ({
    name: o.name,
    // Less the start-up's note on unencrypted secrets (no keys are configured here).
    lines: o.output().split("\n").filter((l) => /warn|error|fail/i.test(l) && !/Secrets are stored unencrypted/.test(l))
  }))
  report.push(
    "",
    "## Warnings and errors the processes logged",
    "",
    ...lines.map((l) =>
      `- ${l.name}: ${l.lines.length}${
        l.lines.length > 0 ? ` (first: \`${l.lines[0]!.slice(0, 300).replaceAll("`", "'")}\`)` : ""
      }`
    )
  )
  for (const l of lines) if (l.lines.length > 0) log(`${l.name}:\n${l.lines.slice(0, 20).join("\n")}`)
} finally {
  await cleanup()
}
writeReport(report.join("\n") + "\n", "streams.md", { write: !opts["no-write"], log })
process.exit(0)
