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
 */
import { type AgentRunner, machineRunner, type RunningAgent, startAgent } from "@workbay/agent"
import { unwrap } from "@workbay/client"
import { createServer, type Server } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Client } from "../../Client.js"
import type { Metrics } from "./Metrics.js"

/** The runner of a light agent: no process is started. */
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
  readonly agent: RunningAgent
  /** Milliseconds from the agent's start to its `ready`. */
  readonly readyMs: number
}

export class LightAgents {
  private readonly running: Array<RunningAgent> = []
  private readonly apps = new Map<string, Server>()
  private stopping = false
  private started = 0

  /** `agentUrls`: where the agents connect, in turn (several replicas); default the client's URL. */
  /** `metrics` takes every later request's time (a run swaps it to measure its hold apart). */
  constructor(
    private readonly client: Client,
    public metrics: Metrics,
    private readonly log: (line: string) => void,
    private readonly agentUrls: ReadonlyArray<string> = []
  ) {}

  get count(): number {
    return this.running.length
  }

  /** How many of the agents have their agent connection open now. */
  get connected(): number {
    let n = 0
    for (const a of this.running) if (a.connected()) n++
    return n
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
  async start(workspaceId: string, agentId: string, agentName: string): Promise<LightAgent> {
    const { agent_token } = await this.metrics.time(
      "user:agent credentials",
      () =>
        unwrap(this.client.rest.GET("/api/v2/workspaces/{workspace}/external-agent/{agent}/credentials", {
          params: { path: { workspace: workspaceId, agent: agentName } }
        }))
    )
    if (this.stopping) throw new Error("the scaletest is stopping")
    const since = performance.now()
    const url = this.agentUrls.length === 0
      ? this.client.url
      : this.agentUrls[this.started++ % this.agentUrls.length]!.replace(/\/+$/, "")
    const agent = await startAgent({
      url,
      token: agent_token,
      auth: "token",
      directory: join(tmpdir(), "workbay-scaletest"),
      logDir: join(tmpdir(), "workbay-scaletest"),
      runner: lightRunner,
      log: (line) => this.log(`agent of ${workspaceId}: ${line}`),
      onCall: (type, ms, error) => this.metrics.record(`agent:${type}`, ms, error)
    })
    this.running.push(agent)
    const state = await agent.started
    if (state !== "ready") throw new Error(`the agent of workspace ${workspaceId} ended its start-up ${state}`)
    return { workspaceId, agentId, agent, readyMs: performance.now() - since }
  }

  /** Stops every agent (their lifecycle goes to `off`) and the echo apps. */
  async stop() {
    this.stopping = true
    const agents = this.running.splice(0)
    for (let i = 0; i < agents.length; i += 200) {
      await Promise.all(agents.slice(i, i + 200).map((a) => a.stop().catch(() => undefined)))
    }
    await Promise.all([...this.apps.values()].map((s) => new Promise((resolve) => s.close(resolve))))
    this.apps.clear()
  }
}
