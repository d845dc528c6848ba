/**
 * `workbay scaletest`: load a deployment as many people and workspaces would, and measure it
 * (after the described system's `coder exp scaletest`; docs/scaletest.md).
 *
 * - `create-workspaces`: users (one per workspace, unless `--use-host-login`) and workspaces of a
 *   template, each workspace's agent run here as a light agent (LightAgents.ts) until `ready`;
 *   `--hold` keeps the agents reporting that long before the command ends.
 * - `workspace-traffic`: one terminal (`pty`), SSH session (`ssh`) or app (`app`) per scaletest
 *   workspace, through the service, writing `--bytes-per-tick` every `--tick-interval` and timing
 *   each echo, for `--duration`.
 * - `dashboard`: `--users` people listing workspaces, opening a workspace's page and following its
 *   status, one action every `--interval`, give or take `--jitter` (the described system's 10 s and 5 s).
 * - `cleanup`: deletes the scaletests' workspaces and users (Tag.ts), nothing else.
 *
 * Each prints its progress on standard error, then a summary (counts, p50/p90/p95/p99 of each kind
 * of request, errors); `--output json` prints the summary as JSON with each kind's histogram. The
 * exit code is 1 when any request failed.
 */
import { type Schemas, unwrap } from "@workbay/client"
import { randomBytes, randomUUID } from "node:crypto"
import type { ClientChannel } from "ssh2"
import type { Client } from "../../Client.js"
import type { Context } from "../../Context.js"
import { CliError, usageError } from "../../Errors.js"
import { parseDuration, wholeNumber } from "../../Flags.js"
import { organizationOf } from "../../Lookup.js"
import { printJson, printTable } from "../../Output.js"
import { webSocketDuplex } from "../../Pipe.js"
import { agentUrlOf, LightAgents } from "./LightAgents.js"
import { type KindSummary, Metrics, probeLoopDelay, SUMMARY_HEADERS, summaryRows } from "./Metrics.js"
import { EMAIL_DOMAIN, isScaletestName, isScaletestUser, nameOf, newRunId } from "./Tag.js"

type Workspace = Schemas["Workspace"]

/** The most workspaces one run makes (a bound on what a mistyped count can do). */
export const MAX_COUNT = 10_000

/** The most child processes `--agent-processes` starts. */
const MAX_AGENT_PROCESSES = 64

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Runs `work` for each of `items`, `concurrency` at a time. */
const pool = async <A>(items: ReadonlyArray<A>, concurrency: number, work: (a: A) => Promise<void>) => {
  let next = 0
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!)
  }))
}

/** Prints `line()` on standard error every 5 s until the returned function is called. */
const progress = (line: () => string) => {
  const timer = setInterval(() => process.stderr.write(`${line()}\n`), 5000)
  return () => clearInterval(timer)
}

/** The light agents' own diagnostics (a refused connection, a report that failed): counted, the first kept. */
class Diagnostics {
  count = 0
  readonly first: Array<string> = []
  /** `verbose`: each line also goes to standard error as it comes. */
  constructor(private readonly verbose = false) {}
  readonly log = (line: string) => {
    this.count++
    if (this.first.length < 5) this.first.push(line)
    if (this.verbose) process.stderr.write(`agent: ${line}\n`)
  }
}

/** Prints the run's summary (table or JSON); answers the exit code: 1 when anything failed. */
const finish = (
  ctx: Context,
  summary: Record<string, unknown>,
  metrics: Metrics,
  failed: number,
  diagnostics?: Diagnostics
): number => {
  const requests = metrics.summaries()
  const errors = metrics.errors + failed
  if (diagnostics !== undefined) {
    summary = { ...summary, agent_diagnostics: diagnostics.count }
    for (const line of diagnostics.first) process.stderr.write(`agent: ${line}\n`)
  }
  if (ctx.output === "json") printJson({ ...summary, errors, requests })
  else {
    const { held_requests, ...counts } = summary as { held_requests?: Record<string, KindSummary> }
    for (const [k, v] of Object.entries(counts)) process.stdout.write(`${k.replaceAll("_", " ")}: ${String(v)}\n`)
    if (held_requests !== undefined) {
      process.stdout.write("\nwhile held:\n")
      printTable(SUMMARY_HEADERS, summaryRows(held_requests), "requests")
      process.stdout.write("\nin all:\n")
    }
    process.stdout.write(`errors: ${errors}\n\n`)
    printTable(SUMMARY_HEADERS, summaryRows(requests), "requests")
    for (const [kind, s] of Object.entries(requests)) {
      for (const e of s.first_errors) process.stderr.write(`${kind}: ${e}\n`)
    }
  }
  return errors === 0 ? 0 : 1
}

/** Runs `body` until it ends or the process is told to stop (SIGINT, SIGTERM): then `stop` runs. */
const untilSignal = async (stop: () => Promise<void>, body: (stopped: Promise<void>) => Promise<number>) => {
  let signalled!: () => void
  const stopped = new Promise<void>((resolve) => (signalled = resolve))
  const onSignal = () => signalled()
  process.once("SIGINT", onSignal)
  process.once("SIGTERM", onSignal)
  try {
    return await body(stopped)
  } finally {
    process.off("SIGINT", onSignal)
    process.off("SIGTERM", onSignal)
    await stop()
  }
}

export interface CreateWorkspacesFlags {
  readonly count: string
  readonly template?: string
  readonly parameter: ReadonlyArray<string>
  readonly concurrency: string
  readonly useHostLogin?: boolean
  readonly hold?: string
  readonly timeout: string
  readonly org?: string
  readonly agentUrl: ReadonlyArray<string>
  /** How many child processes run the light agents (0: this one). */
  readonly agentProcesses: string
  readonly verbose?: boolean
}

/** The daily cost of one workspace of the template's active version (its resources' costs). */
const costOf = async (client: Client, versionId: string): Promise<number> => {
  const resources = await unwrap(
    client.rest.GET("/api/v2/templateversions/{templateversion}/resources", {
      params: { path: { templateversion: versionId } }
    })
  )
  return resources.reduce((sum, r) => sum + (r.daily_cost ?? 0), 0)
}

/**
 * What the run may do, checked before anything is made: the count, the template, the right to
 * make users (unless `--use-host-login`), and the caller's quota for `count` workspaces.
 */
const preflight = async (client: Client, flags: CreateWorkspacesFlags, count: number) => {
  if (flags.template === undefined) throw usageError("Which template? Pass --template <name>.")
  const org = await organizationOf(client, flags.org)
  const template = await unwrap(
    client.rest.GET("/api/v2/organizations/{organization}/templates/{templatename}", {
      params: { path: { organization: org.id, templatename: flags.template } }
    })
  )
  if (flags.useHostLogin !== true) {
    const check = await unwrap(client.rest.POST("/api/v2/authcheck", {
      body: {
        checks: {
          create_users: { object: { resource_type: "user" }, action: "create" },
          create_for_others: {
            object: { resource_type: "workspace", organization_id: org.id, owner_id: randomUUID() },
            action: "create"
          }
        }
      }
    }))
    if (check.create_users !== true || check.create_for_others !== true) {
      throw new CliError(
        "You may not create users and their workspaces: a scaletest makes one user per workspace.",
        1,
        "Run it with --use-host-login to make every workspace your own."
      )
    }
  } else {
    const cost = await costOf(client, template.active_version_id)
    const quota = await unwrap(
      client.rest.GET("/api/v2/workspace-quota/{user}", { params: { path: { user: "me" } } })
    )
    if (cost > 0 && quota.budget > 0 && quota.credits_consumed + cost * count > quota.budget) {
      throw new CliError(
        `${count} workspaces of ${template.name} cost ${cost * count} credits a day; your quota has ${
          quota.budget - quota.credits_consumed
        } left.`,
        1,
        "Lower --count, or ask for a larger quota allowance."
      )
    }
  }
  return { org, template }
}

/** The workspace's build once its job ended (polled). */
const builtWorkspace = async (client: Client, metrics: Metrics, id: string, until: number): Promise<Workspace> => {
  for (;;) {
    const w = await metrics.time(
      "user:get workspace",
      () => unwrap(client.rest.GET("/api/v2/workspaces/{workspace}", { params: { path: { workspace: id } } }))
    )
    const status: string = w.latest_build.job.status
    if (status === "succeeded") return w
    if (status === "failed" || status === "canceled") {
      throw new Error(`the build of ${w.name} ${status}: ${w.latest_build.job.error ?? ""}`)
    }
    if (Date.now() > until) throw new Error(`the build of ${w.name} did not end in time (${status})`)
    await sleep(500)
  }
}

/** Starts the light agents of a built workspace; answers how many reached `ready`. */
const runAgentsOf = async (agents: LightAgents, metrics: Metrics, w: Workspace): Promise<number> => {
  const list = w.latest_build.resources.flatMap((r) => r.agents ?? [])
  if (list.length === 0) throw new Error(`${w.name} has no agent (its build ${w.latest_build.status})`)
  let ready = 0
  for (const a of list) {
    // The echo app answers before the agent's first health check.
    for (const app of a.apps ?? []) {
      if (app.healthcheck?.url) agents.serveApp(app.healthcheck.url)
      else if (app.url) agents.serveApp(app.url)
    }
    const started = await agents.start(w.id, w.name, a.id, a.name)
    metrics.record("agent:connect to ready", started.readyMs)
    ready++
  }
  return ready
}

export const createWorkspaces = async (ctx: Context, flags: CreateWorkspacesFlags): Promise<number> => {
  const count = wholeNumber(flags.count, "--count", 1, MAX_COUNT)
  const concurrency = wholeNumber(flags.concurrency, "--concurrency", 1, 1000)
  const agentProcesses = wholeNumber(flags.agentProcesses, "--agent-processes", 0, MAX_AGENT_PROCESSES)
  const holdMs = flags.hold === undefined ? 0 : parseDuration(flags.hold, "--hold")
  const timeoutMs = parseDuration(flags.timeout, "--timeout")
  const parameters = flags.parameter.map((pair) => {
    const i = pair.indexOf("=")
    if (i <= 0) throw usageError(`--parameter takes name=value, not "${pair}".`)
    return { name: pair.slice(0, i), value: pair.slice(i + 1) }
  })
  const client = ctx.client()
  const { org, template } = await preflight(client, flags, count)
  const run = newRunId()
  const metrics = new Metrics()
  const diagnostics = new Diagnostics(flags.verbose === true)
  const agents = new LightAgents(client, metrics, diagnostics.log, flags.agentUrl, agentProcesses)
  // Into the agents' metrics: while held, into the held ones.
  const stopProbe = probeLoopDelay(() => agents.metrics)
  const appUrl = parameters.find((p) => p.name === "app_url")?.value ?? "http://127.0.0.1:13337"
  agents.serveApp(appUrl)
  const until = Date.now() + timeoutMs
  const started = performance.now()
  let created = 0
  let ready = 0
  const failures: Array<string> = []
  process.stderr.write(`scaletest ${run}: ${count} workspaces of ${template.name}, ${concurrency} at a time\n`)
  const stopProgress = progress(() =>
    `scaletest ${run}: ${created}/${count} workspaces created, ${ready} agents ready, ${
      metrics.errors + failures.length
    } errors`
  )
  return untilSignal(async () => {
    stopProgress()
    await agents.stop()
  }, async (stopped) => {
    let interrupted = false
    void stopped.then(() => (interrupted = true))
    await pool(Array.from({ length: count }, (_, i) => i + 1), concurrency, async (n) => {
      if (interrupted || Date.now() > until) return
      const name = nameOf(run, n)
      try {
        let owner = "me"
        if (flags.useHostLogin !== true) {
          const user = await metrics.time("user:create user", () =>
            unwrap(client.rest.POST("/api/v2/users", {
              body: { username: name, email: `${name}@${EMAIL_DOMAIN}`, login_type: "none", organization_ids: [org.id] }
            })))
          owner = user.id
        }
        const w = await metrics.time(
          "user:create workspace",
          () =>
            unwrap(client.rest.POST("/api/v2/organizations/{organization}/members/{user}/workspaces", {
              params: { path: { organization: org.id, user: owner } },
              body: { name, template_id: template.id, rich_parameter_values: parameters }
            }))
        )
        created++
        const built = await builtWorkspace(client, metrics, w.id, until)
        const connected = await runAgentsOf(agents, metrics, built)
        ready += connected
      } catch (e) {
        failures.push(`${name}: ${e instanceof Error ? e.message : String(e)}`)
      }
    })
    const seconds = (performance.now() - started) / 1000
    // The hold is measured apart: the agents' requests while all of them run, without the ramp.
    const held = new Metrics()
    stopProgress()
    if (holdMs > 0 && !interrupted) {
      agents.metrics = held
      process.stderr.write(`scaletest ${run}: holding ${ready} agents for ${holdMs / 1000} s\n`)
      // While held, checked each second: how many agents have their connection open, when it changed
      // (a replica's restart shows here).
      let shown = ready
      const connectedLines = setInterval(() => {
        const now = agents.connected
        if (now !== shown) process.stderr.write(`scaletest ${run}: ${shown = now} of ${ready} agents connected\n`)
      }, 1000)
      await Promise.race([sleep(holdMs), stopped]).finally(() => clearInterval(connectedLines))
    }
    stopProgress()
    stopProbe()
    for (const f of failures.slice(0, 10)) process.stderr.write(`failed: ${f}\n`)
    return finish(
      ctx,
      {
        run,
        template: template.name,
        count,
        created,
        agents_ready: ready,
        seconds_to_ready: Math.round(seconds * 10) / 10,
        held_seconds: holdMs / 1000,
        ...(holdMs > 0 ? { held_errors: held.errors, held_requests: held.summaries() } : {})
      },
      metrics,
      failures.length + held.errors,
      diagnostics
    )
  })
}

/** Every scaletest workspace the caller may read (of `run`, when given). */
const scaletestWorkspaces = async (client: Client, run?: string): Promise<Array<Workspace>> => {
  const out: Array<Workspace> = []
  for (let offset = 0;; offset += 100) {
    const page = await unwrap(client.rest.GET("/api/v2/workspaces", {
      params: { query: { q: `name:scaletest-${run ?? ""}`, limit: "100", offset: String(offset) } }
    }))
    out.push(...page.workspaces.filter((w) => isScaletestName(w.name, run)))
    if (page.workspaces.length < 100) return out
  }
}

export interface TrafficFlags {
  readonly mode: string
  readonly bytesPerTick: string
  readonly tickInterval: string
  readonly duration: string
  readonly concurrency?: string
  readonly runAgents?: boolean
  readonly run?: string
  readonly agentUrl: ReadonlyArray<string>
  /** How many child processes run the light agents (0: this one). */
  readonly agentProcesses: string
  readonly verbose?: boolean
}

/** A printable payload of `n` bytes (no control characters, which a terminal would act on). */
const payload = (n: number) => randomBytes(n).toString("base64").replace(/[^A-Za-z0-9]/g, "x").slice(0, n)

/** How long a connection's first echo may take (its shell starting, among a run's others). */
const FIRST_ECHO_MS = 30_000

/** What each tick of a run sends and how often. */
interface Ticks {
  readonly bytes: number
  readonly tickMs: number
}

/**
 * An open connection of `workspace-traffic`: `run` ticks until `until`, `close` ends it. Every
 * connection of a run is opened first (each open timed on its own), and the ticks start once all
 * are open: the echoes measure typing in open terminals, not the burst of opens.
 */
interface TrafficSession {
  readonly run: (until: number) => Promise<void>
  readonly close: () => void
}

/**
 * Runs `tick` every `tickMs` until `until` (or until it answers false), starting at a random phase
 * within the first interval: a run's connections start together, and people do not type in step
 * (200 terminals writing in the same millisecond queue behind each other).
 */
const everyTick = async (tickMs: number, until: number, tick: () => Promise<boolean>) => {
  await sleep(Math.random() * tickMs)
  while (Date.now() < until) {
    const started = performance.now()
    if (!(await tick())) return
    await sleep(Math.max(0, tickMs - (performance.now() - started)))
  }
}

/**
 * Every `tickMs` until `until`: writes a fresh marker of `bytes` through `write` and times, as
 * `kind`, until the output given to `feed` holds it (an error after 10 s, or once `closed`).
 */
const echoTicks = (
  metrics: Metrics,
  /** The kinds each echo's time goes to: the mode's, and its agent's placement's (`placementOf`). */
  kinds: ReadonlyArray<string>,
  tick: Ticks,
  write: (marker: string) => void,
  closed: Promise<void>
) => {
  let seen = ""
  let waiting: { marker: string; settle: (answer: "ok" | "closed" | "late") => void } | undefined
  let isClosed = false
  // One reaction to the close for the whole run (one per tick would pile up on a promise that stays pending).
  void closed.then(() => {
    isClosed = true
    waiting?.settle("closed")
  })
  const feed = (text: string) => {
    seen = (seen + text).slice(-4 * tick.bytes - 1024)
    if (waiting !== undefined && seen.includes(waiting.marker)) waiting.settle("ok")
  }
  /** Writes a fresh marker and waits for its echo, at most `timeoutMs`. */
  const exchange = async (timeoutMs: number) => {
    const marker = payload(Math.max(8, tick.bytes))
    // Its timer is cleared once answered: the measuring process keeps no 10 s timer per echo
    // alive (20,000 of them at 200 terminals, each outliving collections).
    let timer: ReturnType<typeof setTimeout> | undefined
    const outcome = new Promise<"ok" | "closed" | "late">((resolve) => {
      waiting = { marker, settle: resolve }
      if (isClosed) resolve("closed")
      else timer = setTimeout(() => resolve("late"), timeoutMs)
    })
    write(marker)
    const answer = await outcome
    clearTimeout(timer)
    waiting = undefined
    seen = ""
    return answer
  }
  /** The first echo, not timed as one: the connection is open once its command runs and answers. */
  const first = async () => {
    const answer = await exchange(FIRST_ECHO_MS)
    if (answer !== "ok") {
      throw new Error(answer === "closed" ? "the connection closed" : `no echo in ${FIRST_ECHO_MS / 1000} s`)
    }
  }
  const run = (until: number) =>
    everyTick(tick.tickMs, until, async () => {
      const sent = performance.now()
      const answer = await exchange(10_000)
      const error = answer === "ok" ? undefined : answer === "closed" ? "the connection closed" : "no echo in 10 s"
      const took = performance.now() - sent
      for (const kind of kinds) metrics.record(kind, took, error)
      return answer !== "closed"
    })
  return { feed, first, run }
}

/** An echo's kinds: the mode's, and with `placement` the mode's at that placement (`traffic:pty echo (agent on this replica)`). */
const echoKinds = (kind: string, placement: string | undefined): ReadonlyArray<string> =>
  placement === undefined ? [kind] : [kind, `${kind} (${placement})`]

/** One terminal, opened: each tick writes a line and times until the terminal echoed it. */
const ptyTraffic = async (
  client: Client,
  metrics: Metrics,
  agentId: string,
  ticks: Ticks,
  placement: string | undefined
): Promise<TrafficSession> => {
  // Open once the terminal's command runs: its first echo is part of the open.
  return metrics.time("traffic:pty open", async () => {
    const ws = await client.socket(`/workspaceagents/${agentId}/pty`, {
      reconnect: randomUUID(),
      width: 200,
      height: 50,
      command: "cat"
    })
    const closed = new Promise<void>((resolve) => ws.once("close", () => resolve()))
    const echo = echoTicks(
      metrics,
      echoKinds("traffic:pty echo", placement),
      ticks,
      (marker) => ws.send(JSON.stringify({ data: `${marker}\r` })),
      closed
    )
    ws.on("message", (data: Buffer) => echo.feed(data.toString("utf8")))
    ws.resume()
    try {
      await echo.first()
    } catch (e) {
      ws.close(1000)
      throw e
    }
    return { run: echo.run, close: () => ws.close(1000) }
  })
}

/** One app, ready to send to: each tick posts the bytes through the service's app proxy and times the echo. */
const appTraffic = async (
  client: Client,
  metrics: Metrics,
  w: Workspace,
  agentName: string,
  ticks: Ticks
): Promise<TrafficSession> => {
  const url = `${client.url}/@${w.owner_name}/${w.name}.${agentName}/apps/echo/`
  // An app opens for its workspace's owner only (docs/agents.md, "Web apps"): a token of theirs,
  // made by the caller for a scaletest user (it goes with the user at cleanup).
  const me = await unwrap(client.rest.GET("/api/v2/users/{user}", { params: { path: { user: "me" } } }))
  const token = w.owner_id === me.id ?
    client.token ?? "" :
    (await metrics.time("user:create token", () =>
      unwrap(client.rest.POST("/api/v2/users/{user}/keys/tokens", {
        params: { path: { user: w.owner_id } },
        body: { token_name: `scaletest-traffic-${randomBytes(4).toString("hex")}`, lifetime: 3_600_000_000_000 }
      })))).key
  const run = (until: number) =>
    everyTick(ticks.tickMs, until, async () => {
      const body = payload(ticks.bytes)
      const sent = performance.now()
      try {
        const res = await fetch(url, {
          method: "POST",
          body,
          headers: { authorization: `Bearer ${token}` },
          redirect: "manual"
        })
        const text = await res.text()
        if (res.status !== 200 || !text.endsWith(body)) throw new Error(`answered ${res.status}`)
        metrics.record("traffic:app echo", performance.now() - sent)
      } catch (e) {
        metrics.record("traffic:app echo", performance.now() - sent, e instanceof Error ? e.message : String(e))
      }
      return true
    })
  return { run, close: () => undefined }
}

/** One SSH session, opened: `cat` on the agent's SSH server through the service; each tick times the echo. */
const sshTraffic = async (
  client: Client,
  metrics: Metrics,
  agentId: string,
  ticks: Ticks,
  placement: string | undefined
): Promise<TrafficSession> => {
  const { Client: SshClient } = await import("ssh2")
  const ws = await metrics.time("traffic:ssh open", () => client.socket(`/workspaceagents/${agentId}/ssh`))
  const sock = webSocketDuplex(ws)
  const ssh = new SshClient()
  try {
    // The session is open once its `cat` runs: its first echo is part of it.
    const { channel, echo } = await metrics.time("traffic:ssh session", async () => {
      const channel = await new Promise<ClientChannel>((resolve, reject) => {
        ssh.once("error", reject)
        ssh.once(
          "ready",
          () => ssh.exec("cat", (err, ch) => (err === undefined || err === null ? resolve(ch) : reject(err)))
        )
        ssh.connect({ sock, username: "scaletest", readyTimeout: 20_000 })
      })
      const closed = new Promise<void>((resolve) => channel.once("close", () => resolve()))
      const echo = echoTicks(
        metrics,
        echoKinds("traffic:ssh echo", placement),
        ticks,
        (m) => channel.write(`${m}\n`),
        closed
      )
      channel.on("data", (d: Buffer) => echo.feed(d.toString("utf8")))
      await echo.first()
      return { channel, echo }
    })
    return {
      run: echo.run,
      close: () => {
        channel.end()
        ssh.end()
      }
    }
  } catch (e) {
    ssh.end()
    throw e
  }
}

export const workspaceTraffic = async (ctx: Context, flags: TrafficFlags): Promise<number> => {
  if (!["pty", "ssh", "app"].includes(flags.mode)) {
    throw usageError(`--mode takes pty, ssh or app, not "${flags.mode}".`)
  }
  const bytes = wholeNumber(flags.bytesPerTick, "--bytes-per-tick", 1, 64 * 1024)
  const tickMs = parseDuration(flags.tickInterval, "--tick-interval")
  const durationMs = parseDuration(flags.duration, "--duration")
  const agentProcesses = wholeNumber(flags.agentProcesses, "--agent-processes", 0, MAX_AGENT_PROCESSES)
  const client = ctx.client()
  const metrics = new Metrics()
  const diagnostics = new Diagnostics(flags.verbose === true)
  const agents = new LightAgents(client, metrics, diagnostics.log, flags.agentUrl, agentProcesses)
  const workspaces = (await scaletestWorkspaces(client, flags.run)).filter((w) =>
    w.latest_build.transition === "start" && w.latest_build.job.status === "succeeded"
  )
  const limit = flags.concurrency === undefined
    ? workspaces.length
    : wholeNumber(flags.concurrency, "--concurrency", 1, MAX_COUNT)
  const chosen = workspaces.slice(0, limit)
  if (chosen.length === 0) throw new CliError("No running scaletest workspace found: run create-workspaces first.")
  return untilSignal(() => agents.stop(), async (stopped) => {
    let failed = 0
    if (flags.runAgents === true) {
      await pool(chosen, 20, async (w) => {
        await runAgentsOf(agents, metrics, w).catch(() => void failed++)
      })
    }
    const ticks: Ticks = { bytes, tickMs }
    // With several replicas, each echo is counted by where its agent is too: the replica the
    // traffic comes through, or another one (relayed to it; docs/agents.md, "Several replicas").
    const placementOf = (w: Workspace): string | undefined =>
      flags.agentUrl.length < 2 ? undefined : agentUrlOf(flags.agentUrl, w.name) === client.url.replace(/\/+$/, "")
        ? "agent on this replica"
        : "agent on another replica"
    const open = async (w: Workspace): Promise<TrafficSession | undefined> => {
      const agent = w.latest_build.resources.flatMap((r) => r.agents ?? [])[0]
      if (agent === undefined) return void failed++
      try {
        if (flags.mode === "pty") return await ptyTraffic(client, metrics, agent.id, ticks, placementOf(w))
        if (flags.mode === "ssh") return await sshTraffic(client, metrics, agent.id, ticks, placementOf(w))
        return await appTraffic(client, metrics, w, agent.name, ticks)
      } catch (e) {
        metrics.record(`traffic:${flags.mode} open`, 0, e instanceof Error ? e.message : String(e))
        return undefined
      }
    }
    const stopProbe = probeLoopDelay(() => metrics)
    const opened: ReadonlyArray<TrafficSession | undefined> = await Promise.race([
      Promise.all(chosen.map(open)),
      stopped.then(() => [])
    ])
    const sessions = opened.filter((t): t is TrafficSession => t !== undefined)
    process.stderr.write(
      `scaletest: ${flags.mode} traffic to ${sessions.length} of ${chosen.length} workspaces for ${
        durationMs / 1000
      } s\n`
    )
    const until = Date.now() + durationMs
    try {
      await Promise.race([Promise.all(sessions.map((t) => t.run(until))), stopped])
    } finally {
      for (const t of sessions) t.close()
    }
    stopProbe()
    return finish(
      ctx,
      {
        mode: flags.mode,
        workspaces: chosen.length,
        bytes_per_tick: bytes,
        tick_interval_ms: tickMs,
        duration_seconds: durationMs / 1000
      },
      metrics,
      failed,
      flags.runAgents === true ? diagnostics : undefined
    )
  })
}

export interface DashboardFlags {
  readonly users: string
  readonly duration: string
  readonly interval: string
  readonly jitter: string
}

/** Follows the workspace's watch stream until its first event (the page's status), timed. */
const watchOnce = async (client: Client, id: string) => {
  const ws = await client.socket(`/workspaces/${id}/watch-ws`)
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no event in 10 s")), 10_000)
      ws.once("message", () => {
        clearTimeout(timer)
        resolve()
      })
      ws.once("close", () => reject(new Error("closed before its first event")))
      ws.resume()
    })
  } finally {
    ws.close(1000)
  }
}

export const dashboard = async (ctx: Context, flags: DashboardFlags): Promise<number> => {
  const users = wholeNumber(flags.users, "--users", 1, 1000)
  const durationMs = parseDuration(flags.duration, "--duration")
  const intervalMs = parseDuration(flags.interval, "--interval")
  const jitterMs = parseDuration(flags.jitter, "--jitter")
  if (jitterMs > intervalMs) {
    throw usageError(`--jitter (${flags.jitter}) may not be longer than --interval (${flags.interval}).`)
  }
  /** One person's wait before the next action: the interval, give or take the jitter. */
  const wait = () => intervalMs - jitterMs + Math.random() * 2 * jitterMs
  const client = ctx.client()
  const metrics = new Metrics()
  const until = Date.now() + durationMs
  let ids: Array<string> = []
  const person = async () => {
    await sleep(Math.random() * intervalMs)
    while (Date.now() < until) {
      const action = Math.random()
      try {
        if (action < 0.4 || ids.length === 0) {
          const page = await metrics.time(
            "user:list workspaces",
            () => unwrap(client.rest.GET("/api/v2/workspaces", { params: { query: { limit: "25" } } }))
          )
          if (page.workspaces.length > 0) ids = page.workspaces.map((w) => w.id)
        } else if (action < 0.8) {
          const id = ids[Math.floor(Math.random() * ids.length)]!
          await metrics.time(
            "user:workspace page",
            () => unwrap(client.rest.GET("/api/v2/workspaces/{workspace}", { params: { path: { workspace: id } } }))
          )
        } else {
          const id = ids[Math.floor(Math.random() * ids.length)]!
          await metrics.time("user:watch workspace", () => watchOnce(client, id))
        }
      } catch {
        // recorded by metrics.time
      }
      await sleep(wait())
    }
  }
  process.stderr.write(`scaletest: ${users} people on the dashboard for ${durationMs / 1000} s\n`)
  const stopProgress = progress(() => `scaletest: ${metrics.summaries()["user:list workspaces"]?.count ?? 0} lists`)
  const stopProbe = probeLoopDelay(() => metrics)
  try {
    await Promise.all(Array.from({ length: users }, person))
  } finally {
    stopProgress()
    stopProbe()
  }
  return finish(
    ctx,
    { users, duration_seconds: durationMs / 1000, interval_ms: intervalMs, jitter_ms: jitterMs },
    metrics,
    0
  )
}

export interface CleanupFlags {
  readonly run?: string
  readonly useHostLogin?: boolean
  readonly concurrency: string
  readonly timeout: string
}

/** Deletes a workspace (its delete build) and waits until it is gone. */
const deleteWorkspace = async (client: Client, metrics: Metrics, w: Workspace, until: number) => {
  await metrics.time("user:delete workspace", () =>
    unwrap(client.rest.POST("/api/v2/workspaces/{workspace}/builds", {
      params: { path: { workspace: w.id } },
      body: { transition: "delete" }
    })))
  for (;;) {
    const found = await client.rest.GET("/api/v2/workspaces/{workspace}", { params: { path: { workspace: w.id } } })
    if (found.response.status === 404 || found.response.status === 410) return
    const job: string = found.data?.latest_build.job.status ?? ""
    if (job === "failed" || job === "canceled") throw new Error(`the delete build of ${w.name} ${job}`)
    if (Date.now() > until) throw new Error(`${w.name} was not deleted in time`)
    await sleep(500)
  }
}

export const cleanup = async (ctx: Context, flags: CleanupFlags): Promise<number> => {
  const concurrency = wholeNumber(flags.concurrency, "--concurrency", 1, 1000)
  const until = Date.now() + parseDuration(flags.timeout, "--timeout")
  const client = ctx.client()
  const metrics = new Metrics()
  const me = await unwrap(client.rest.GET("/api/v2/users/{user}", { params: { path: { user: "me" } } }))
  // The scaletest's users (name and email both), when the caller may list them.
  const users: Array<{ id: string; username: string }> = []
  for (let offset = 0;; offset += 100) {
    const page = await client.rest.GET("/api/v2/users", {
      params: { query: { q: `scaletest-${flags.run ?? ""}`, limit: "100", offset: String(offset) } }
    })
    if (page.data === undefined) break
    users.push(...page.data.users.filter((u) => isScaletestUser(u, flags.run)))
    if (page.data.users.length < 100) break
  }
  const owners = new Set(users.map((u) => u.id))
  const workspaces = (await scaletestWorkspaces(client, flags.run)).filter((w) =>
    owners.has(w.owner_id) || (flags.useHostLogin === true && w.owner_id === me.id)
  )
  process.stderr.write(`scaletest cleanup: ${workspaces.length} workspaces, ${users.length} users\n`)
  const failures: Array<string> = []
  await pool(
    workspaces,
    concurrency,
    (w) => deleteWorkspace(client, metrics, w, until).catch((e) => void failures.push(String(e)))
  )
  // A user goes once none of their workspaces is left (the service refuses otherwise).
  await pool(
    users,
    concurrency,
    (u) =>
      metrics.time(
        "user:delete user",
        () => unwrap(client.rest.DELETE("/api/v2/users/{user}", { params: { path: { user: u.id } } }))
      ).then(
        () => undefined,
        (e) => void failures.push(`${u.username}: ${String(e)}`)
      )
  )
  for (const f of failures.slice(0, 10)) process.stderr.write(`failed: ${f}\n`)
  return finish(ctx, { workspaces_deleted: workspaces.length, users_deleted: users.length }, metrics, failures.length)
}
