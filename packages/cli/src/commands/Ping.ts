/**
 * `ping` and `speedtest`: the way to a workspace measured through the service, as the described
 * system's `coder ping` and `coder speedtest` measure theirs over its tailnet.
 *
 * - `ping <workspace>` opens a terminal running `cat` (`GET /workspaceagents/{id}/pty`), then
 *   types a fresh line each `--wait` and times until the terminal echoes it: a round trip from here
 *   through the service (and the replica holding the agent, when it is another) and the agent's
 *   connection, to the terminal and back. The first echo opens the way and is not counted. Then
 *   the same through each other replica `GET /replicas` lists (its relay address; an owner's
 *   view), so that each replica's way to the agent is timed.
 * - `speedtest <workspace>` reads (`--direction down`, the default) or writes (`up`) as fast as the
 *   way carries them for `--time`, through an SSH session on the agent's SSH server
 *   (`GET /workspaceagents/{id}/ssh`): `cat /dev/zero` read, or written to `cat > /dev/null`.
 */
import { randomBytes, randomUUID } from "node:crypto"
import type { ClientChannel } from "ssh2"
import { Client } from "../Client.js"
import type { Context } from "../Context.js"
import { CliError, usageError } from "../Errors.js"
import { parseDuration, wholeNumber } from "../Flags.js"
import { printJson, printTable } from "../Output.js"
import { webSocketDuplex } from "../Pipe.js"
import { resolveAgent } from "./Ssh.js"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export interface PingFlags {
  readonly num: string
  readonly wait: string
  readonly timeout: string
}

/** Round trips through one way to the agent's terminal: ms each, undefined for a ping with no pong in time. */
const pingThrough = async (
  client: Client,
  agentId: string,
  label: string,
  plan: { readonly count: number; readonly waitMs: number; readonly timeoutMs: number },
  each: (took: number | undefined) => void
): Promise<Array<number | undefined>> => {
  const ws = await client.socket(`/workspaceagents/${agentId}/pty`, {
    reconnect: randomUUID(),
    width: 200,
    height: 24,
    command: "cat"
  })
  let seen = ""
  let waiting: { readonly marker: string; readonly done: () => void } | undefined
  ws.on("message", (data: Buffer) => {
    seen = (seen + data.toString("utf8")).slice(-4096)
    if (waiting !== undefined && seen.includes(waiting.marker)) waiting.done()
  })
  const closed = new Promise<void>((resolve) => ws.once("close", () => resolve()))
  ws.resume()
  /** Types a fresh line; its round trip in ms, or undefined when no echo came in time. */
  const exchange = async (limitMs: number): Promise<number | undefined> => {
    const marker = `workbay-ping-${randomBytes(6).toString("hex")}`
    const echoed = new Promise<boolean>((resolve) => {
      waiting = { marker, done: () => resolve(true) }
      void closed.then(() => resolve(false))
      setTimeout(() => resolve(false), limitMs).unref()
    })
    seen = ""
    const sent = performance.now()
    ws.send(JSON.stringify({ data: `${marker}\r` }))
    const ok = await echoed
    waiting = undefined
    return ok ? performance.now() - sent : undefined
  }
  const times: Array<number | undefined> = []
  try {
    if ((await exchange(Math.max(plan.timeoutMs, 30_000))) === undefined) {
      throw new CliError(`The terminal of ${label} did not answer.`)
    }
    for (let i = 0; i < plan.count; i++) {
      if (i > 0) await sleep(plan.waitMs)
      const took = await exchange(plan.timeoutMs)
      times.push(took)
      each(took)
    }
  } finally {
    ws.close(1000)
  }
  return times
}

/** Sent, received, min/avg/max of round trips. */
const summarize = (times: ReadonlyArray<number | undefined>) => {
  const answered = times.filter((t): t is number => t !== undefined)
  return {
    sent: times.length,
    received: answered.length,
    min_ms: answered.length === 0 ? null : Math.min(...answered),
    avg_ms: answered.length === 0 ? null : answered.reduce((a, b) => a + b, 0) / answered.length,
    max_ms: answered.length === 0 ? null : Math.max(...answered)
  }
}

const summaryLine = (s: ReturnType<typeof summarize>) => {
  const lost = Math.round((100 * (s.sent - s.received)) / Math.max(1, s.sent))
  return `${s.sent} pings, ${s.received} pongs, ${lost}% lost` +
    (s.received === 0
      ? ""
      : `; round trip min/avg/max ${s.min_ms!.toFixed(1)}/${s.avg_ms!.toFixed(1)}/${s.max_ms!.toFixed(1)} ms`)
}

/**
 * The deployment's other replicas a client can reach, by their relay address (`GET /replicas`,
 * which an owner may read; none for whoever may not): each a way to ping through.
 */
const otherReplicas = async (client: Client) => {
  const answer = await client.rest.GET("/api/v2/replicas").catch(() => undefined)
  const own = new URL(client.url)
  return (answer?.data ?? []).filter((r) => {
    if (r.relay_address === "") return false
    try {
      const u = new URL(r.relay_address)
      return u.origin !== own.origin
    } catch {
      return false
    }
  })
}

export const ping = async (ctx: Context, host: string, flags: PingFlags) => {
  const count = wholeNumber(flags.num, "-n, --num", 1, 10_000)
  const waitMs = parseDuration(flags.wait, "--wait")
  const timeoutMs = parseDuration(flags.timeout, "-t, --timeout")
  const client = ctx.client()
  const { agent, workspace } = await resolveAgent(client, host)
  const label = `${workspace.owner_name}/${workspace.name}`
  const plan = { count, waitMs, timeoutMs }
  const line = (through: string) => (took: number | undefined) => {
    if (ctx.output === "json") return
    process.stdout.write(
      took === undefined
        ? `no pong from ${label} through ${through} in ${timeoutMs / 1000}s\n`
        : `pong from ${label} through ${through} in ${took.toFixed(1)}ms\n`
    )
  }
  const summary = summarize(await pingThrough(client, agent.id, label, plan, line(client.url)))
  // The same through each other replica the deployment lists: the way through the one holding the
  // agent's connection, and through those that relay to it.
  const replicas: Array<Record<string, unknown>> = []
  for (const replica of await otherReplicas(client)) {
    const through = new Client(replica.relay_address.replace(/\/+$/, ""), client.token)
    try {
      const times = await pingThrough(through, agent.id, label, plan, line(`${replica.hostname} (${through.url})`))
      replicas.push({ hostname: replica.hostname, url: through.url, ...summarize(times) })
    } catch (e) {
      replicas.push({ hostname: replica.hostname, url: through.url, error: e instanceof Error ? e.message : String(e) })
    }
  }
  // The replica's own round trip to the agent's connection (its WebSocket pings), by region.
  const agentLatency = Object.fromEntries(Object.entries(agent.latency ?? {}).map(([k, v]) => [k, v.latency_ms]))
  if (ctx.output === "json") {
    printJson({ workspace: label, agent: agent.name, ...summary, replicas, agent_latency_ms: agentLatency })
  } else {
    process.stdout.write(`\n${summaryLine(summary)}\n`)
    for (const r of replicas) {
      process.stdout.write(
        `through ${r.hostname} (${r.url}): ${
          r.error === undefined ? summaryLine(r as ReturnType<typeof summarize>) : `not reached: ${r.error}`
        }\n`
      )
    }
    for (const [region, ms] of Object.entries(agentLatency)) {
      process.stdout.write(`the agent's connection (${region}): ${ms.toFixed(1)} ms\n`)
    }
  }
  if (summary.received === 0) throw new CliError(`No pong from ${label}.`)
}

export interface SpeedtestFlags {
  readonly time: string
  readonly direction: string
}

const bandwidth = (bytes: number, ms: number) => `${((bytes * 8) / (ms / 1000) / 1e6).toFixed(1)} Mbits/sec`
const transfer = (bytes: number) => `${((bytes * 8) / 1e6).toFixed(1)} Mbits`

export const speedtest = async (ctx: Context, host: string, flags: SpeedtestFlags) => {
  const durationMs = parseDuration(flags.time, "-t, --time")
  if (durationMs < 1000) throw usageError("-t, --time is at least 1s.")
  if (flags.direction !== "up" && flags.direction !== "down") {
    throw usageError(`--direction takes up or down, not "${flags.direction}".`)
  }
  const client = ctx.client()
  const { agent, workspace } = await resolveAgent(client, host)
  const { Client: SshClient } = await import("ssh2")
  const ws = await client.socket(`/workspaceagents/${agent.id}/ssh`)
  const sock = webSocketDuplex(ws)
  const ssh = new SshClient()
  // The connection's end fails the test at once (a channel waiting for its window would wait on).
  const lost = new Promise<never>((_, reject) =>
    ssh.once("close", () => reject(new CliError("The connection to the workspace closed during the test.")))
  )
  lost.catch(() => undefined)
  const up = flags.direction === "up"
  const out = ctx.output === "json" ? process.stderr : process.stdout
  try {
    const channel = await new Promise<ClientChannel>((resolve, reject) => {
      ssh.once("error", reject)
      ssh.once(
        "ready",
        () => ssh.exec(up ? "cat > /dev/null" : "cat /dev/zero", (err, ch) => (err ? reject(err) : resolve(ch)))
      )
      ssh.connect({ sock, username: "workbay", readyTimeout: 30_000 })
    })
    out.write(`Starting a ${durationMs / 1000}s ${up ? "upload" : "download"} test with ${workspace.name}...\n`)
    const intervals: Array<{ readonly from: number; readonly to: number; readonly bytes: number }> = []
    let total = 0
    let inInterval = 0
    const start = performance.now()
    let mark = start
    const tick = setInterval(() => {
      const now = performance.now()
      intervals.push({ from: mark - start, to: now - start, bytes: inInterval })
      inInterval = 0
      mark = now
    }, 1000)
    const count = (n: number) => {
      total += n
      inInterval += n
    }
    const closed = new Promise<void>((resolve) => channel.once("close", () => resolve()))
    // The channel closes once its output is read to its end too (`cat > /dev/null` writes none).
    channel.stderr.resume()
    if (up) channel.resume()
    try {
      if (up) {
        const chunk = Buffer.alloc(64 * 1024)
        let writing = true
        await Promise.race([
          lost,
          closed.then(() =>
            writing ? Promise.reject(new CliError("The SSH session closed during the test.")) : undefined
          ),
          new Promise<void>((resolve) => {
            const write = () => {
              while (performance.now() - start < durationMs) {
                count(chunk.length)
                if (!channel.write(chunk)) return void channel.once("drain", write)
              }
              resolve()
            }
            write()
          })
        ])
        writing = false
        // What was written counts once it arrived: `cat` ends when it read the end of it all.
        channel.end()
        await Promise.race([lost, closed])
      } else {
        await Promise.race([
          lost,
          closed,
          new Promise<void>((resolve) =>
            channel.on("data", (d: Buffer) => {
              count(d.length)
              if (performance.now() - start >= durationMs) resolve()
            })
          )
        ])
      }
    } finally {
      clearInterval(tick)
    }
    const elapsed = performance.now() - start
    if (inInterval > 0) intervals.push({ from: mark - start, to: elapsed, bytes: inInterval })
    channel.close()
    const rows = intervals.map((i) => ({
      interval: `${(i.from / 1000).toFixed(2)}-${(i.to / 1000).toFixed(2)} sec`,
      transfer: transfer(i.bytes),
      bandwidth: bandwidth(i.bytes, i.to - i.from)
    }))
    const all = {
      interval: `0.00-${(elapsed / 1000).toFixed(2)} sec`,
      transfer: transfer(total),
      bandwidth: bandwidth(total, elapsed)
    }
    if (total === 0) throw new CliError(`Nothing crossed in ${flags.time}: the SSH session carried no bytes.`)
    if (ctx.output === "json") {
      return printJson({
        direction: flags.direction,
        bytes: total,
        seconds: elapsed / 1000,
        bits_per_second: (total * 8) / (elapsed / 1000),
        intervals: rows
      })
    }
    printTable(
      ["interval", "transfer", "bandwidth"],
      [...rows, all].map((r) => [r.interval, r.transfer, r.bandwidth]),
      "intervals"
    )
  } finally {
    // The stream may still be full of the test's bytes: the socket is closed, and dropped when its
    // close is not answered at once (a paused socket never reads the answer).
    ssh.end()
    const gone = new Promise<void>((resolve) => ws.once("close", () => resolve()))
    ws.close(1000)
    const late = setTimeout(() => ws.terminate(), 1000)
    await gone
    clearTimeout(late)
  }
}
