/**
 * The reference agent: connects with its token (or exchanges a cloud instance identity for one),
 * fetches its manifest over its connection (`/workspaceagents/me/rpc`), runs the start scripts
 * and reports its lifecycle (starting, then ready, start_error or start_timeout), streams the
 * scripts' output as logs, runs cron scripts, reports stats and metadata, probes app health
 * checks, and publishes its node on the coordination connection (`/workspaceagents/me/coordinate`).
 * Both connections reconnect with backoff. `stop` runs the stop scripts and reports
 * shutting_down, then off. Task input (`task_input`) goes to the `onTaskInput` listeners and the
 * task command; `reportTaskOutput` adds output to the task's log. Streams (`stream_open`: terminals,
 * TCP tunnels, SSH) are served by Streams.ts. It follows `/workspaceagents/me/reinit` and starts
 * again as the agent its token names once a claim of its prebuilt workspace hands it over
 * (Reinit.ts). The protocol is docs/agents.md's.
 */
import { unwrap } from "@workbay/client"
import { spawn } from "node:child_process"
import { randomBytes, randomInt } from "node:crypto"
import { makeApi, tokenFromIdentity } from "./Api.js"
import { handleContainersMessage, makeContainers } from "./Containers.js"
import { LogSender } from "./Logs.js"
import type { AgentOptions, AgentRunner, MetadataDescription } from "./Options.js"
import { handlePortsMessage } from "./Ports.js"
import { probeHealth } from "./Probe.js"
import { makeAppProxy } from "./Proxy.js"
import { followReinit } from "./Reinit.js"
import { runScript, scheduleCron, type Script, type ScriptEnvironment, type ScriptRun } from "./Scripts.js"
import type { SessionEnvironment } from "./Session.js"
import { Socket } from "./Socket.js"
import { makeStreams } from "./Streams.js"
import { parseTaskInput, splitOutput, type TaskInput, TaskInputs } from "./Tasks.js"

export const AGENT_VERSION = "0.1.0"
/** The agent API version this agent speaks (the service's `GET /buildinfo` reports its own). */
export const AGENT_API_VERSION = "2.0"

export type LifecycleState =
  | "created"
  | "starting"
  | "start_timeout"
  | "start_error"
  | "ready"
  | "shutting_down"
  | "shutdown_timeout"
  | "shutdown_error"
  | "off"

interface App {
  readonly id: string
  readonly slug: string
  readonly url?: string | undefined
  readonly healthcheck?: { readonly url: string; readonly interval: number; readonly threshold: number } | undefined
}

/** What the agent reads of its manifest. */
export interface Manifest {
  readonly agent_id: string
  readonly agent_name: string
  readonly workspace_id: string
  readonly workspace_name: string
  readonly directory: string
  readonly environment_variables: Readonly<Record<string, string>>
  readonly scripts: ReadonlyArray<Script>
  readonly apps: ReadonlyArray<App>
  readonly metadata?: ReadonlyArray<MetadataDescription> | undefined
  readonly derp_map?: { readonly Regions?: Record<string, unknown> } | undefined
}

export interface RunningAgent {
  /** Settles with the lifecycle state the start scripts led to (ready, start_error, start_timeout). */
  readonly started: Promise<LifecycleState>
  readonly lifecycle: () => LifecycleState
  readonly manifest: () => Manifest | undefined
  /** The nodes of clients that asked to reach this agent, by their id. */
  readonly peers: ReadonlyMap<string, unknown>
  /** Calls `listener` with each input sent to the task this agent runs; answers a function that removes it. */
  readonly onTaskInput: (listener: (input: TaskInput) => void) => () => void
  /**
   * Adds `content` to the task's log as output (split into several entries when it does not fit
   * one message); answers the entries' ids.
   */
  readonly reportTaskOutput: (content: string, time?: Date) => Promise<ReadonlyArray<number>>
  /** The terminals' attached sockets, the SSH connections and the TCP tunnels open now. */
  readonly sessions: () => { readonly reconnectingPty: number; readonly ssh: number; readonly tcp: number }
  /** The host key of the agent's SSH server, as a public key line (`ssh-ed25519 AAAA...`). */
  readonly sshPublicKey: () => string
  /** Whether the agent connection (`/workspaceagents/me/rpc`) is open now. */
  readonly connected: () => boolean
  readonly stop: () => Promise<void>
}

const now = () => new Date().toISOString()

/** How long collected metadata waits to be reported with what else is collected (the reference agent's 1 s). */
const METADATA_REPORT_MS = 1000

/** Runs `script` in `sh -c` within `timeoutSeconds`, answering its output (trimmed) or its error. */
const collect = (script: string, timeoutSeconds: number, environment: ScriptEnvironment) =>
  new Promise<{ value: string; error: string }>((resolve) => {
    const child = spawn("sh", ["-c", script], {
      cwd: environment.directory,
      env: { ...process.env, ...environment.env }
    })
    let out = ""
    let err = ""
    child.stdout.on("data", (d) => (out += d))
    child.stderr.on("data", (d) => (err += d))
    const timer = setTimeout(() => child.kill("SIGKILL"), Math.max(1, timeoutSeconds) * 1000)
    child.on("error", (e) => resolve({ value: "", error: e.message }))
    child.on("close", (code) => {
      clearTimeout(timer)
      resolve({ value: out.trim(), error: code === 0 ? "" : err.trim() || `exit code ${code}` })
    })
  })

/** The agent's work on its own machine: scripts and metadata in `sh -c`, health checks fetched. */
export const machineRunner: AgentRunner = {
  script: runScript,
  metadata: (item, environment) => collect(item.script, item.timeout, environment),
  probe: probeHealth
}

export const startAgent = async (options: AgentOptions): Promise<RunningAgent> => {
  const log = options.log ?? ((line: string) => process.stderr.write(`workbay-agent: ${line}\n`))
  const runner = options.runner ?? machineRunner
  let token = options.auth === "token" ? options.token! : await tokenFromIdentity(options)
  const api = makeApi(options.url, () => token)
  // Batches go over the agent connection while it is open (`rpc` is made below, before any line).
  const logs = new LogSender(api, log, {
    get connected() {
      return rpc.connected
    },
    call: (type, params) => rpc.call(type, params)
  })
  let lifecycle: LifecycleState = "created"
  let manifest: Manifest | undefined
  // The task command runs in the manifest's environment: inputs that arrive before the first
  // manifest (the service may send them the moment the agent connects) wait for it.
  let taskEnvironment: ScriptEnvironment | undefined
  let manifestRead!: () => void
  const firstManifest = new Promise<void>((resolve) => (manifestRead = resolve))
  const timers = new Set<NodeJS.Timeout>()
  const every = (ms: number, run: () => void) => {
    const t = setInterval(run, ms)
    t.unref()
    timers.add(t)
  }
  let stopped = false

  const reportLifecycle = (state: LifecycleState) => {
    lifecycle = state
    return rpc.call("update_lifecycle", { lifecycle: { state, changed_at: now() } }).catch((e) =>
      log(`lifecycle ${state}: ${String(e)}`)
    )
  }
  const reportScript = (run: ScriptRun, stage: "start" | "stop" | "cron") =>
    rpc.call("script_completed", { timing: { ...run, stage } }).catch((e) => log(`script result: ${String(e)}`))

  const rpc: Socket = new Socket({
    url: options.url,
    path: "/workspaceagents/me/rpc",
    token: () => token,
    log,
    onCall: options.onCall,
    onOpen: async (socket) => {
      if (manifest !== undefined) {
        // The token may name another agent now (a claimed prebuilt workspace whose
        // reinitialization event this agent missed): then it starts again as that one.
        const fresh = await socket.call<Manifest>("get_manifest")
        if (fresh.agent_id !== manifest.agent_id) return reinitialize(fresh, false)
      }
      // After a reconnection the service learns the current state again.
      if (lifecycle !== "created") {
        await socket.call("update_lifecycle", { lifecycle: { state: lifecycle, changed_at: now() } })
      }
    },
    onClose: ({ unauthorized }) => void (unauthorized && refused()),
    onMessage: (message) => {
      const input = parseTaskInput(message)
      if (input !== undefined) tasks.receive(input)
      else if (
        !handlePortsMessage(message, (m) => rpc.send(m)) && !handleContainersMessage(message, (m) =>
          rpc.send(m), containers)
        && !streams.handle(message)
      ) appProxy.handle(message)
    }
  })

  // The machine's containers and dev containers, asked over its connection (Containers.ts).
  const containers = makeContainers({
    ...(options.devcontainerCli === undefined ? {} : { devcontainerCli: options.devcontainerCli }),
    log
  })

  // Requests to the agent's web apps, carried over its connection (Proxy.ts).
  const appProxy = makeAppProxy({
    send: (message) => rpc.send(message),
    appUrls: () => (manifest?.apps ?? []).flatMap((a) => (a.url === undefined || a.url === "" ? [] : [a.url])),
    log
  })

  // Terminals, tunnels and SSH (Streams.ts), in the manifest's directory and environment: a
  // stream asked before the first manifest waits for it (or for the start to fail).
  const streams = makeStreams({
    url: options.url,
    token: () => token,
    environment: async (): Promise<SessionEnvironment> => {
      await Promise.race([firstManifest, started])
      return taskEnvironment ?? { directory: options.directory, env: {} }
    },
    report: (connection) =>
      void unwrap(api.POST("/api/v2/workspaceagents/me/connections", { body: { connection } })).catch((e) =>
        log(`connection report (${connection.type} ${connection.action}): ${String(e)}`)
      ),
    log,
    ptyIdleTimeoutMs: options.ptyIdleTimeoutMs
  })

  const reportTaskOutput = async (content: string, time?: Date) => {
    const ids: Array<number> = []
    // The service stores no NUL characters.
    for (const piece of splitOutput(content.replaceAll("\u0000", ""))) {
      const answer = await rpc.call<{ ids: Array<number> }>("append_task_log", {
        entries: [{ type: "output", content: piece, ...(time === undefined ? {} : { time: time.toISOString() }) }]
      })
      ids.push(...answer.ids)
    }
    return ids
  }
  const tasks = new TaskInputs({
    command: options.taskCommand,
    environment: () => firstManifest.then(() => taskEnvironment!),
    report: reportTaskOutput,
    log
  })

  /**
   * The service refused the token: with a token given, the agent's build was replaced (or its
   * workspace stopped), so the agent stops; with an instance identity, it asks for a new token
   * and connects again, and stops if the service knows the instance no more.
   */
  let exchanging: Promise<void> | undefined
  const refused = () => {
    if (stopped || exchanging !== undefined) return
    if (options.auth === "token") {
      log("the service refused the agent token (a newer build replaced this agent?): stopping")
      void running.stop()
      return
    }
    exchanging = tokenFromIdentity(options).then((fresh) => {
      token = fresh
      rpc.reconnect()
      coordinate.reconnect()
    }, (e) => {
      log(`exchanging the instance identity again failed, stopping: ${String(e)}`)
      void running.stop()
    }).finally(() => void (exchanging = undefined))
  }

  const peers = new Map<string, unknown>()
  let node: Record<string, unknown> | undefined
  const coordinate = new Socket({
    url: options.url,
    path: "/workspaceagents/me/coordinate",
    token: () => token,
    log,
    onOpen: (socket) => {
      if (node !== undefined) socket.send({ type: "node", node })
    },
    onClose: ({ unauthorized }) => void (unauthorized && refused()),
    onMessage: (message) => {
      if (message.type === "peer_update" && typeof message.peer_id === "string") {
        if (message.node === null || message.kind === "disconnected") peers.delete(message.peer_id)
        else peers.set(message.peer_id, message.node)
      }
    }
  })

  const startUp = async (given?: Manifest): Promise<LifecycleState> => {
    const session = generation
    manifest = given ?? await rpc.call<Manifest>("get_manifest")
    const environment: ScriptEnvironment = {
      directory: manifest.directory === ""
        ? options.directory
        : manifest.directory.replace(/^~(?=\/|$)/, options.directory),
      env: {
        ...manifest.environment_variables,
        WORKBAY_AGENT_URL: options.url,
        WORKBAY_WORKSPACE_NAME: manifest.workspace_name
      },
      logDir: options.logDir,
      logs
    }
    taskEnvironment = environment
    manifestRead()
    await rpc.call("update_startup", {
      startup: { version: AGENT_VERSION, expanded_directory: environment.directory, subsystems: [] }
    }).catch((e) => log(`startup report: ${String(e)}`))

    // The node others reach this agent by: its identity on the coordination connection.
    const regions = Object.keys(manifest.derp_map?.Regions ?? {})
    node = {
      id: randomInt(1, 2 ** 47),
      key: `nodekey:${randomBytes(32).toString("hex")}`,
      disco: `discokey:${randomBytes(32).toString("hex")}`,
      preferred_derp: regions.length === 0 ? 0 : Number(regions[0]),
      addresses: [],
      allowed_ips: [],
      endpoints: []
    }
    coordinate.send({ type: "node", node })

    await reportLifecycle("starting")
    for (const script of manifest.scripts) {
      await logs.source({ id: script.log_source_id, display_name: script.display_name, icon: "" }).catch((e) =>
        log(`log source ${script.display_name}: ${String(e)}`)
      )
    }
    const runs = await Promise.all(
      manifest.scripts.filter((s) => s.run_on_start).map(async (script) => {
        const run = await runner.script(script, environment)
        await reportScript(run, "start")
        return run
      })
    )
    await logs.flush()
    const state: LifecycleState = runs.some((r) => r.status === "timed_out")
      ? "start_timeout"
      : runs.some((r) => r.status !== "ok")
      ? "start_error"
      : "ready"
    if (stopped || session !== generation) return lifecycle
    await reportLifecycle(state)

    const cron = scheduleCron(
      manifest.scripts,
      environment,
      (run) => void reportScript(run, "cron"),
      log,
      runner.script
    )
    stopCron = cron.stop

    // Stats: what this agent knows of its own use since the last report (its terminals' sockets,
    // SSH connections, TCP tunnels and app requests, open now or opened since) at the interval the
    // service asks. Any of them bumps the workspace's deadline (docs/workspaces.md, "Extend, ttl, activity").
    const sendStats = async () => {
      const sessions = streams.usage()
      const apps = appProxy.usage()
      const answer = await rpc.call<{ report_interval_seconds?: number }>("update_stats", {
        stats: {
          connections_by_proto: {},
          connection_count: sessions.reconnectingPty + sessions.ssh + sessions.tcp + apps,
          connection_median_latency_ms: 0,
          rx_packets: 0,
          rx_bytes: 0,
          tx_packets: 0,
          tx_bytes: 0,
          session_count_vscode: 0,
          session_count_jetbrains: 0,
          session_count_reconnecting_pty: sessions.reconnectingPty,
          session_count_ssh: sessions.ssh
        }
      }).catch(() => undefined)
      const seconds = answer?.report_interval_seconds ?? 30
      if (!stopped && session === generation && seconds > 0) {
        const t = setTimeout(() => void sendStats(), seconds * 1000)
        t.unref()
        timers.add(t)
      }
    }
    void sendStats()

    // Metadata, as the reference agent reports it: each item collected at its own interval, and what was
    // collected within a second sent together (one report in flight at a time), so the items of one
    // interval cost one call.
    const collected = new Map<string, { collected_at: string; age: number; value: string; error: string }>()
    let reportDue: NodeJS.Timeout | undefined
    let reporting = false
    const reportMetadata = async () => {
      reportDue = undefined
      if (stopped || session !== generation || collected.size === 0) return
      if (reporting) return scheduleReport()
      const metadata = [...collected].map(([key, result]) => ({ key, result }))
      collected.clear()
      reporting = true
      await rpc.call("batch_update_metadata", { metadata }).catch((e) => log(`metadata: ${String(e)}`))
      reporting = false
    }
    const scheduleReport = () => {
      if (reportDue !== undefined) return
      reportDue = setTimeout(() => {
        timers.delete(reportDue!)
        void reportMetadata()
      }, METADATA_REPORT_MS)
      reportDue.unref()
      timers.add(reportDue)
    }
    for (const m of manifest.metadata ?? []) {
      const collectOne = async () => {
        const result = await runner.metadata(m, environment)
        collected.set(m.key, { collected_at: now(), age: 0, value: result.value, error: result.error })
        scheduleReport()
      }
      void collectOne()
      if (m.interval > 0) every(m.interval * 1000, () => void collectOne())
    }

    for (const app of manifest.apps) {
      const check = app.healthcheck
      if (check === undefined || check.url === "" || check.interval <= 0) continue
      let failures = 0
      let reported = "initializing"
      const probe = async () => {
        const ok = await runner.probe(check.url, Math.max(1, check.interval) * 1000)
        failures = ok ? 0 : failures + 1
        const health = ok ? "healthy" : failures >= Math.max(1, check.threshold) ? "unhealthy" : reported
        if (health !== reported) {
          reported = health
          await rpc.call("batch_update_app_health", { updates: [{ id: app.id, health }] }).catch((e) =>
            log(`app ${app.slug} health: ${String(e)}`)
          )
        }
      }
      void probe()
      every(check.interval * 1000, () => void probe())
    }
    return state
  }

  let stopCron = () => {}
  /** Each start of the agent's session (the first, then each reinitialization) is one generation. */
  let generation = 0
  const run = (given?: Manifest) =>
    startUp(given).catch(async (e) => {
      log(`starting failed: ${e instanceof Error ? e.message : String(e)}`)
      if (!stopped) await reportLifecycle("start_error")
      return "start_error" as LifecycleState
    })
  const started = run()

  /**
   * Starts again as the agent `fresh` describes (docs/agents.md, "Reinitialization"): a claimed
   * prebuilt workspace's build handed this agent's token to its own agent, of the new owner. The
   * scripts, metadata, health checks and stats of the old session stop; the coordination
   * connection (and, unless it is already the new agent's, the agent connection) reconnects; the
   * manifest's start scripts run again and the lifecycle is reported from `starting`.
   */
  const reinitialize = (fresh: Manifest, restartRpc: boolean) => {
    if (stopped || fresh.agent_id === manifest?.agent_id) return
    log(`reinitializing as agent ${fresh.agent_name} (${fresh.agent_id}) of workspace ${fresh.workspace_name}`)
    generation++
    stopCron()
    stopCron = () => {}
    for (const t of timers) clearTimeout(t)
    timers.clear()
    lifecycle = "created"
    manifest = fresh
    if (restartRpc) rpc.restart()
    coordinate.restart()
    void run(fresh)
  }
  // The service's word that the token names another agent now: read which, over plain HTTP.
  const reinit = followReinit({
    url: options.url,
    token: () => token,
    log,
    onEvent: (event) => {
      log(`reinitialization asked: ${event.reason}`)
      unwrap(api.GET("/api/v2/workspaceagents/me/manifest")).then(
        (fresh) => reinitialize(fresh, true),
        (e) => log(`reinit: reading the manifest failed: ${String(e)}`)
      )
    }
  })

  const running: RunningAgent = {
    started,
    lifecycle: () => lifecycle,
    manifest: () => manifest,
    peers,
    onTaskInput: (listener) => tasks.on(listener),
    reportTaskOutput,
    sessions: () => streams.counts(),
    sshPublicKey: () => streams.sshPublicKey(),
    connected: () => rpc.connected,
    stop: async () => {
      if (stopped) return
      // The stop scripts run whatever happens; their reports go only while the service answers.
      rpc.drain()
      stopCron()
      streams.close()
      await tasks.stop()
      for (const t of timers) clearTimeout(t)
      if (manifest !== undefined) {
        await reportLifecycle("shutting_down")
        const environment: ScriptEnvironment = {
          directory: manifest.directory === "" ? options.directory : manifest.directory,
          env: manifest.environment_variables,
          logDir: options.logDir,
          logs
        }
        const runs = await Promise.all(
          manifest.scripts.filter((s) => s.run_on_stop).map(async (script) => {
            const run = await runner.script(script, environment)
            await reportScript(run, "stop")
            return run
          })
        )
        await logs.flush()
        await reportLifecycle(
          runs.some((r) => r.status === "timed_out")
            ? "shutdown_timeout"
            : runs.some((r) => r.status !== "ok")
            ? "shutdown_error"
            : "off"
        )
      }
      stopped = true
      reinit.close()
      appProxy.close()
      await logs.flush()
      await Promise.all([rpc.close(), coordinate.close()])
    }
  }
  return running
}
