/**
 * The scaletest's light agents: for each workspace, the reference agent itself (`startAgent` of
 * @workbay/agent: the agent connection, the coordination connection, the reinitialization stream,
 * the manifest, lifecycle, start-up, logs, stats at the service's interval, each metadata item at
 * its interval, app health), in this process, with a runner that does no work on the machine: a
 * script writes two log lines and succeeds, a metadata item answers a made-up value. So the
 * deployment serves each exactly as it serves a real agent, and thousands fit in one process.
 * Each request on an agent connection is timed (`agent:<type>`). The apps' health checks are
 * real requests: the echo app (which `workspace-traffic --mode app` also reaches through the
 * service) is served here at each local app URL the manifests name.
 *
 * With `--agent-processes N` the agents run in N child processes of this one (this module, forked),
 * taken in turn, as real agents each run in a process of their own: an agent then shares its event
 * loop and its collector with a share of the others, not with all of them and the rest of the
 * scaletest. This process asks for each agent's credentials and serves the echo app; a child starts
 * the agents it is handed and sends back their start's outcome, their requests' times (in batches)
 * and how many of them are connected.
 */
import { type AgentRunner, machineRunner, type RunningAgent, startAgent } from "@workbay/agent"
import { unwrap } from "@workbay/client"
import { type ChildProcess, fork } from "node:child_process"
import { createServer, type Server } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Client } from "../../Client.js"
import { isLightAgentsChild, LIGHT_AGENTS_CHILD as CHILD_MARK } from "./ChildMark.js"
import { type Metrics, probeLoopDelay } from "./Metrics.js"
import { numberOf } from "./Tag.js"

/** The runner of a light agent: no process is started. */
/**
 * Where the agent of the scaletest's workspace `scaletest-<run>-<n>` connects among `urls` (several
 * replicas): the `n`th in turn, so that every command of a run can tell which replica holds an
 * agent (`workspace-traffic` splits its echoes so). Undefined without urls.
 */
export const agentUrlOf = (urls: ReadonlyArray<string>, workspaceName: string): string | undefined =>
  urls.length === 0 ? undefined : urls[(numberOf(workspaceName) ?? 0) % urls.length]!.replace(/\/+$/, "")

export const lightRunner: AgentRunner = {
  script: async (script, environment) => {
    const started = new Date().toISOString()
    environment.logs.add(script.log_source_id, "info", `scaletest: ${script.display_name} running`)
    environment.logs.add(script.log_source_id, "info", `scaletest: ${script.display_name} done`)
    return {
      script_id: script.id,
      started_at: started,
      ended_at: new Date().toISOString(),
      exit_code: 0,
      status: "ok",
      timeout: false
    }
  },
  metadata: async (item) => ({ value: `${item.key} ${(Math.random() * 100).toFixed(1)}`, error: "" }),
  probe: machineRunner.probe
}

/** The echo app: `/healthz` answers 200; any other request gets its method, path and body back. */
const echoApp = (): Server =>
  createServer((req, res) => {
    if (req.url === "/healthz") return void res.end("ok")
    const chunks: Array<Buffer> = []
    req.on("data", (d: Buffer) => chunks.push(d))
    req.on("end", () => {
      res.setHeader("content-type", "application/octet-stream")
      res.end(Buffer.concat([Buffer.from(`${req.method} ${req.url}\n`), ...chunks]))
    })
  })

export interface LightAgent {
  readonly workspaceId: string
  readonly agentId: string
  /** Milliseconds from the agent's start to its `ready`. */
  readonly readyMs: number
}

/** What a light agent needs to start: where it connects, its token, and its workspace (for its log lines). */
interface AgentStart {
  readonly url: string
  readonly token: string
  readonly workspaceId: string
}

/** Where the light agents keep their (unused) files. */
const scratch = join(tmpdir(), "workbay-scaletest")

/** Starts one light agent; `record` takes each of its requests' times, `log` its lines. */
const startLightAgent = (
  start: AgentStart,
  record: (kind: string, ms: number, error?: string) => void,
  log: (line: string) => void
): Promise<RunningAgent> =>
  startAgent({
    url: start.url,
    token: start.token,
    auth: "token",
    directory: scratch,
    logDir: scratch,
    runner: lightRunner,
    log: (line) => log(`agent of ${start.workspaceId}: ${line}`),
    onCall: (type, ms, error) => record(`agent:${type}`, ms, error)
  })

/** Stops agents 200 at a time. */
const stopAll = async (agents: ReadonlyArray<RunningAgent>) => {
  for (let i = 0; i < agents.length; i += 200) {
    await Promise.all(agents.slice(i, i + 200).map((a) => a.stop().catch(() => undefined)))
  }
}

const countConnected = (agents: ReadonlyArray<RunningAgent>): number => {
  let n = 0
  for (const a of agents) if (a.connected()) n++
  return n
}

/** The messages to a child process of agents. */
type ToChild = { readonly t: "start"; readonly id: number; readonly start: AgentStart } | { readonly t: "stop" }

/** The messages from a child process of agents. */
type FromChild =
  | { readonly t: "started"; readonly id: number; readonly state?: string; readonly error?: string }
  | { readonly t: "records"; readonly records: ReadonlyArray<readonly [string, number, string | null]> }
  | { readonly t: "log"; readonly line: string }
  | { readonly t: "connected"; readonly count: number; readonly connected: number }
  | { readonly t: "stopped" }

/** How often a child sends its requests' times and its connected count. */
const CHILD_REPORT_MS = 200

/** A child process of agents, as its parent sees it. */
class AgentProcess {
  private readonly pending = new Map<number, { resolve: (state: string) => void; reject: (e: Error) => void }>()
  private next = 0
  private exited = false
  private stoppedSignal: (() => void) | undefined
  count = 0
  connected = 0

  constructor(
    private readonly child: ChildProcess,
    record: (kind: string, ms: number, error?: string) => void,
    log: (line: string) => void
  ) {
    child.on("message", (m: FromChild) => {
      if (m.t === "started") {
        const p = this.pending.get(m.id)
        this.pending.delete(m.id)
        if (m.error !== undefined) p?.reject(new Error(m.error))
        else p?.resolve(m.state ?? "")
      } else if (m.t === "records") {
        for (const [kind, ms, error] of m.records) record(kind, ms, error ?? undefined)
      } else if (m.t === "log") log(m.line)
      else if (m.t === "connected") {
        this.count = m.count
        this.connected = m.connected
      } else this.stoppedSignal?.()
    })
    child.on("exit", (code, signal) => {
      this.exited = true
      this.connected = 0
      for (const p of this.pending.values()) {
        p.reject(new Error(`the agents' process ${child.pid} ended (${signal ?? `exit ${code}`})`))
      }
      this.pending.clear()
      this.stoppedSignal?.()
    })
  }

  /** Starts an agent there; resolves with the state its start-up ended in. */
  start(start: AgentStart): Promise<string> {
    if (this.exited) return Promise.reject(new Error(`the agents' process ${this.child.pid} ended`))
    const id = this.next++
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      this.child.send({ t: "start", id, start } satisfies ToChild)
    })
  }

  /** Stops its agents, then the process (killed when it has not ended 30 s later). */
  async stop() {
    if (this.exited) return
    const stopped = new Promise<void>((resolve) => (this.stoppedSignal = resolve))
    this.child.send({ t: "stop" } satisfies ToChild)
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 30_000)
    await stopped
    clearTimeout(timer)
    if (!this.exited) {
      const exited = new Promise((resolve) => this.child.once("exit", resolve))
      this.child.disconnect()
      await exited
    }
  }
}

/**
 * A child process of agents (this module run with {@link CHILD_MARK}): starts the agents it is
 * handed, reports as {@link FromChild} says, and stops them all and ends when asked or when its
 * parent goes.
 */
const serveAsChild = () => {
  const send = (m: FromChild) => {
    if (process.connected) process.send!(m)
  }
  const running: Array<RunningAgent> = []
  let records: Array<readonly [string, number, string | null]> = []
  const record = (kind: string, ms: number, error?: string) => records.push([kind, ms, error ?? null])
  const flush = () => {
    if (records.length > 0) {
      send({ t: "records", records })
      records = []
    }
  }
  let shown = { count: -1, connected: -1 }
  const report = () => {
    flush()
    const now = { count: running.length, connected: countConnected(running) }
    if (now.count !== shown.count || now.connected !== shown.connected) send({ t: "connected", ...(shown = now) })
  }
  const reporting = setInterval(report, CHILD_REPORT_MS)
  const stopProbe = probeLoopDelay(() => ({ record }))
  let stopping = false
  const stop = async () => {
    if (stopping) return
    stopping = true
    await stopAll(running.splice(0))
    clearInterval(reporting)
    stopProbe()
    report()
    send({ t: "stopped" })
    process.disconnect?.()
  }
  process.on("message", (m: ToChild) => {
    if (m.t === "stop") return void stop()
    if (stopping) return send({ t: "started", id: m.id, error: "the scaletest is stopping" })
    startLightAgent(m.start, record, (line) => send({ t: "log", line })).then((agent) => {
      // Stopped while it connected: stopped here, as the others were.
      if (stopping) return void agent.stop().catch(() => undefined)
      running.push(agent)
      // Its start-up's requests are counted before its start is (the parent swaps its metrics then).
      return agent.started.then((state) => {
        flush()
        send({ t: "started", id: m.id, state })
      })
    }).catch((e) => send({ t: "started", id: m.id, error: e instanceof Error ? e.message : String(e) }))
  })
  process.on("disconnect", () => void stop().finally(() => process.exit(0)))
  // Signals are the parent's to handle: it stops this process's agents through the channel.
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => undefined)
}

if (isLightAgentsChild()) serveAsChild()

export class LightAgents {
  private readonly running: Array<RunningAgent> = []
  private readonly apps = new Map<string, Server>()
  private processes: Array<AgentProcess> | undefined
  /** Into the metrics of the moment, wherever the agent runs. */
  private readonly record = (kind: string, ms: number, error?: string) => this.metrics.record(kind, ms, error)
  private stopping = false
  private handed = 0

  /** `agentUrls`: where the agents connect (several replicas, `agentUrlOf`); default the client's URL. */
  /** `metrics` takes every later request's time (a run swaps it to measure its hold apart). */
  /** `processes`: how many child processes run the agents (0: this one). */
  constructor(
    private readonly client: Client,
    public metrics: Metrics,
    private readonly log: (line: string) => void,
    private readonly agentUrls: ReadonlyArray<string> = [],
    private readonly processCount = 0
  ) {}

  get count(): number {
    let n = this.running.length
    for (const p of this.processes ?? []) n += p.count
    return n
  }

  /** How many of the agents have their agent connection open now (a child's as it last said). */
  get connected(): number {
    let n = countConnected(this.running)
    for (const p of this.processes ?? []) n += p.connected
    return n
  }

  private agentProcesses(): Array<AgentProcess> {
    if (this.processes !== undefined) return this.processes
    const script = fileURLToPath(import.meta.url)
    return this.processes = Array.from({ length: this.processCount }, () =>
      new AgentProcess(
        fork(script, [CHILD_MARK], { stdio: ["ignore", "ignore", "inherit", "ipc"], serialization: "advanced" }),
        this.record,
        this.log
      ))
  }

  /** Serves the echo app at `url` when it is a local address not served yet (another process may serve it). */
  serveApp(url: string) {
    let u: URL
    try {
      u = new URL(url)
    } catch {
      return
    }
    if (!["127.0.0.1", "localhost", "[::1]"].includes(u.hostname) || u.protocol !== "http:") return
    const key = `${u.hostname}:${u.port || "80"}`
    if (this.apps.has(key)) return
    const server = echoApp()
    this.apps.set(key, server)
    server.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code !== "EADDRINUSE") this.log(`the echo app at ${key}: ${e.message}`)
    })
    server.listen(Number(u.port || 80), u.hostname.replace(/^\[|\]$/g, ""))
  }

  /**
   * Starts the light agent of the workspace's agent `agentName` (with the token the credentials
   * route answers) and waits until its start-up ends; throws unless it reached `ready`.
   */
  async start(workspaceId: string, workspaceName: string, agentId: string, agentName: string): Promise<LightAgent> {
    const { agent_token } = await this.metrics.time(
      "user:agent credentials",
      () =>
        unwrap(this.client.rest.GET("/api/v2/workspaces/{workspace}/external-agent/{agent}/credentials", {
          params: { path: { workspace: workspaceId, agent: agentName } }
        }))
    )
    if (this.stopping) throw new Error("the scaletest is stopping")
    const since = performance.now()
    const url = agentUrlOf(this.agentUrls, workspaceName) ?? this.client.url
    const start = { url, token: agent_token, workspaceId }
    let state: string
    if (this.processCount > 0) {
      const processes = this.agentProcesses()
      state = await processes[this.handed++ % processes.length]!.start(start)
    } else {
      const agent = await startLightAgent(start, this.record, this.log)
      this.running.push(agent)
      state = await agent.started
    }
    if (state !== "ready") throw new Error(`the agent of workspace ${workspaceId} ended its start-up ${state}`)
    return { workspaceId, agentId, readyMs: performance.now() - since }
  }

  /** Stops every agent (their lifecycle goes to `off`) and the echo apps. */
  async stop() {
    this.stopping = true
    await Promise.all([stopAll(this.running.splice(0)), ...(this.processes ?? []).map((p) => p.stop())])
    await Promise.all([...this.apps.values()].map((s) => new Promise((resolve) => s.close(resolve))))
    this.apps.clear()
  }
}
