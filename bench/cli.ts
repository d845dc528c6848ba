// The `workbay` command as people run it (npm run bench:cli). Not a test: it measures and reports.
//
// (1) The downloaded file: the size of each executable with no Node (packages/cli/dist/bin, built
//     when not current) beside the npm bundle's scripts.
// (2) Start-up: `workbay version` (no deployment known: nothing leaves the machine) as the
//     executable, as `node packages/cli/dist/workbay.mjs`, and as `npx workbay` in this checkout,
//     beside bare `node -e 0`: --starts rounds, the four interleaved in each; median and p90 of the
//     wall time to exit.
// (3) `workbay ping`: the executable pings a workspace's terminal (`cat`) through the standalone
//     server and the reference agent, both processes of their own, --pings times; beside it, the
//     same exchange (a fresh line typed, timed until it is echoed) straight to a bare `ws` +
//     node-pty server (bench/bare/pty-echo.mjs), the floor a terminal's round trip has here.
// (4) `workbay speedtest` down and up (--seconds each) through the service and the agent's SSH
//     server, beside a direct TCP copy of the same kind (/dev/zero read from, or written to, a
//     socket of another process on 127.0.0.1) for as long.
// Writes bench/results/cli.md. Options: --starts 20 --pings 200 --seconds 5 --no-write.
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdirSync, readdirSync, statSync } from "node:fs"
import { connect as tcpConnect } from "node:net"
import { loadavg } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import WebSocket from "ws"
import { buildCliBinaries } from "../scripts/executables.mjs"
import { type BenchPlace, externalWorkspace, startAgent } from "./externalAgent.js"
import {
  benchWork,
  buildBundle,
  bundle,
  bundleIsCurrent,
  fmt,
  freePort,
  logger,
  machineLine,
  root,
  seedFirstUser,
  writeReport
} from "./lib.mjs"

const { values: opts } = parseArgs({
  options: {
    starts: { type: "string", default: "20" },
    pings: { type: "string", default: "200" },
    seconds: { type: "string", default: "5" },
    "no-write": { type: "boolean", default: false }
  }
})
const log = logger("cli")
const starts = Number(opts.starts)
const pings = Number(opts.pings)
const seconds = Number(opts.seconds)
const startedAt = new Date()
const load0 = loadavg()

if (!bundleIsCurrent()) buildBundle(log)
const built = await buildCliBinaries({ log })
const arch = process.arch === "arm64" ? "arm64" : "amd64"
const EXE = join(root, "packages/cli/dist/bin", `workbay-linux-${arch}`)
const SCRIPT = join(root, "packages/cli/dist/workbay.mjs")
const work = benchWork("workbay-bench-cli-")
const place: BenchPlace = { work: work.work, undo: [], outputs: [] }
const cleanup = async () => {
  for (const u of place.undo.reverse()) await u().catch((e) => log(`cleanup: ${(e as Error).message}`))
  await work.cleanup()
}

const percentile = (xs: ReadonlyArray<number>, p: number) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`
const lines: Array<string> = []

try {
  // (1) Sizes.
  const chunks = join(root, "packages/cli/dist/chunks")
  const scriptBytes = statSync(SCRIPT).size +
    readdirSync(chunks).reduce((n, f) => n + statSync(join(chunks, f)).size, 0)
  lines.push(
    "## The downloaded file",
    "",
    "| file | size |",
    "|---|---:|",
    ...built.binaries.map((b) =>
      `| \`${b.file}\` (${b.verified === "run" ? "run here" : `checked: ${b.verified}`}) | ${mb(b.size)} |`
    ),
    `| the npm bundle (\`dist/workbay.mjs\` and \`dist/chunks/\`, needs Node and node_modules) | ${mb(scriptBytes)} |`,
    `| this Node's own executable (\`${process.execPath}\`) | ${mb(statSync(process.execPath).size)} |`,
    ""
  )

  // (2) Start-up: no deployment known, so `version` prints and exits.
  const home = join(work.work, "home")
  mkdirSync(home)
  const quietEnv: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config") }
  for (const k of Object.keys(quietEnv)) if (k.startsWith("WORKBAY_")) delete quietEnv[k]
  const kinds: Array<readonly [string, string, Array<string>]> = [
    ["bare `node -e 0`", process.execPath, ["-e", "0"]],
    ["the executable: `workbay version`", EXE, ["version"]],
    ["`node dist/workbay.mjs version`", process.execPath, [SCRIPT, "version"]],
    ["`npx workbay version` (this checkout)", "npx", ["workbay", "version"]]
  ]
  const times = kinds.map(() => [] as Array<number>)
  for (let round = 0; round < starts + 1; round++) {
    for (const [i, [, command, args]] of kinds.entries()) {
      const t0 = performance.now()
      execFileSync(command, args, { cwd: root, env: quietEnv, stdio: "ignore" })
      // The first round warms the page cache: not counted.
      if (round > 0) times[i]!.push(performance.now() - t0)
    }
  }
  const bare = percentile(times[0]!, 50)
  lines.push(
    `## Start-up: \`version\` with no deployment, ${starts} rounds, interleaved`,
    "",
    "| command | median | p90 | median over bare node |",
    "|---|---:|---:|---:|",
    ...kinds.map(([name], i) =>
      `| ${name} | ${fmt(percentile(times[i]!, 50))} ms | ${fmt(percentile(times[i]!, 90))} ms | ${
        fmt(percentile(times[i]!, 50) / bare, 2)
      }x |`
    ),
    ""
  )
  log("start-up measured")

  // A deployment with a workspace whose agent runs: the standalone server and the reference agent.
  const dir = await work.workbayDir("server", bundle)
  const url = `http://127.0.0.1:${dir.port}`
  const server = await dir.start({ args: ["--access-url", url, "--provisioner-daemons", "1"] })
  place.outputs.push({ name: "server", output: server.output })
  const owner = await seedFirstUser(dir.base)
  const { agentId, token } = await externalWorkspace(dir.base, owner.auth, owner.orgId, "box")
  await startAgent(place, "box", url, token, { base: dir.base, auth: owner.auth, agentId })
  const cliEnv = { ...quietEnv, WORKBAY_URL: url, WORKBAY_SESSION_TOKEN: owner.auth["Service-Session-Token"]! }
  const exe = (args: Array<string>) =>
    execFileSync(EXE, args, { env: cliEnv, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 600_000 })

  // (3) Ping: the executable's own lines, beside the bare server's echo of the same exchange.
  const pingLines = exe(["ping", "box", "-n", String(pings), "--wait", "0s"]).split("\n")
  const through = pingLines.flatMap((l) => {
    const m = / in ([\d.]+)ms$/.exec(l)
    return m === null ? [] : [Number(m[1])]
  })
  const barePort = await freePort()
  const bareServer = await work.spawn(
    [join(root, "bench/bare/pty-echo.mjs"), "--port", String(barePort)],
    `http://127.0.0.1:${barePort}/`
  )
  const direct = await echoTimes(`ws://127.0.0.1:${barePort}/pty?command=cat&width=200&height=24`, pings)
  await work.stop(bareServer.child)
  lines.push(
    `## \`workbay ping\` (${pings} pings, no wait) beside a direct WebSocket to a bare terminal server`,
    "",
    "| way | p50 | p90 | p99 | max |",
    "|---|---:|---:|---:|---:|",
    ...[["`workbay ping` through the server and the agent", through], ["direct: `ws` + node-pty `cat`", direct]]
      .map(([name, xs]) =>
        `| ${name as string} | ${fmt(percentile(xs as Array<number>, 50), 2)} ms | ${
          fmt(percentile(xs as Array<number>, 90), 2)
        } ms | ${fmt(percentile(xs as Array<number>, 99), 2)} ms | ${fmt(Math.max(...(xs as Array<number>)), 2)} ms |`
      ),
    "",
    `p50 ratio (ping over direct): ${
      fmt(percentile(through, 50) / percentile(direct, 50), 2)
    }x; ${through.length} of ${pings} pongs.`,
    ""
  )
  log("ping measured")

  // (4) Speedtest, each direction beside a direct TCP copy of as long.
  const rows: Array<string> = []
  for (const direction of ["down", "up"] as const) {
    const result = JSON.parse(exe(["speedtest", "box", "-t", `${seconds}s`, "--direction", direction, "-o", "json"]))
    const through = result.bytes / result.seconds
    const tcp = await tcpCopy(direction, seconds * 1000)
    rows.push(
      `| ${direction} | ${fmt(through / 1048576)} MiB/s | ${fmt(tcp / 1048576)} MiB/s | ${fmt(through / tcp, 3)}x |`
    )
    log(`speedtest ${direction} measured`)
  }
  lines.push(
    `## \`workbay speedtest\` (${seconds} s each way) beside a direct TCP copy`,
    "",
    "| direction | speedtest (SSH through the server and the agent) | direct TCP copy | ratio |",
    "|---|---:|---:|---:|",
    ...rows,
    ""
  )
} finally {
  await cleanup()
}

const report = [
  "# The `workbay` command (npm run bench:cli)",
  "",
  machineLine(startedAt, load0),
  "",
  ...lines
].join("\n")
console.log(report)
writeReport(report, "cli.md", { write: !opts["no-write"], log })

/** `n` exchanges with a terminal at `url` (`{data}` frames): a fresh line typed, ms until it is echoed. */
async function echoTimes(url: string, n: number): Promise<Array<number>> {
  const ws = new WebSocket(url, { perMessageDeflate: false })
  await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject))
  let seen = ""
  let waiting: { marker: string; done: () => void } | undefined
  ws.on("message", (d: Buffer) => {
    seen = (seen + d.toString("utf8")).slice(-4096)
    if (waiting !== undefined && seen.includes(waiting.marker)) waiting.done()
  })
  const exchange = () =>
    new Promise<number>((resolve) => {
      const marker = `workbay-ping-${randomBytes(6).toString("hex")}`
      seen = ""
      const t0 = performance.now()
      waiting = { marker, done: () => resolve(performance.now() - t0) }
      ws.send(JSON.stringify({ data: `${marker}\r` }))
    })
  await exchange()
  const out: Array<number> = []
  for (let i = 0; i < n; i++) out.push(await exchange())
  ws.close()
  return out
}

/**
 * Bytes per second of a direct TCP copy for `ms`: `down` reads /dev/zero from a socket that
 * another process (`node`) writes it to, `up` writes zeros to a socket whose reader drops them.
 */
async function tcpCopy(direction: "down" | "up", ms: number): Promise<number> {
  const port = await freePort()
  const peer: ChildProcess = spawn(process.execPath, [
    "-e",
    direction === "down"
      ? `require("net").createServer((s) => { s.on("error", () => {}); require("fs").createReadStream("/dev/zero", { highWaterMark: 65536 }).pipe(s) }).listen(${port}, "127.0.0.1", () => console.log("up"))`
      : `require("net").createServer((s) => { s.on("error", () => {}); s.resume() }).listen(${port}, "127.0.0.1", () => console.log("up"))`
  ], { stdio: ["ignore", "pipe", "inherit"] })
  await new Promise((resolve) => peer.stdout!.once("data", resolve))
  try {
    const socket = tcpConnect(port, "127.0.0.1")
    await new Promise((resolve) => socket.once("connect", resolve))
    let bytes = 0
    const t0 = performance.now()
    if (direction === "down") {
      await new Promise<void>((resolve) =>
        socket.on("data", (d: Buffer) => {
          bytes += d.length
          if (performance.now() - t0 >= ms) resolve()
        })
      )
    } else {
      const chunk = Buffer.alloc(64 * 1024)
      await new Promise<void>((resolve) => {
        const write = () => {
          while (performance.now() - t0 < ms) {
            bytes += chunk.length
            if (!socket.write(chunk)) return void socket.once("drain", write)
          }
          resolve()
        }
        write()
      })
    }
    const took = performance.now() - t0
    socket.destroy()
    return bytes / (took / 1000)
  } finally {
    peer.kill("SIGKILL")
  }
}
