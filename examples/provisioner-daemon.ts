/**
 * An external provisioner daemon in TypeScript, written from docs/provisioner-daemons.md: it
 * serves a provisioner type of its own ("script" by default) for one organization, connecting
 * with a provisioner key. An import answers the template's parameters (read from `params.json`
 * in the archive, if any); a build answers one resource with one agent, asking the server for
 * the agent's token. Jobs can be made to fail, hang or stall through the template.
 *
 *   npx tsx examples/provisioner-daemon.ts http://127.0.0.1:3000 <organization> <key> [type]
 *
 * `startDaemon` is the same daemon for a program (the examples test runs it in-process).
 */
import WebSocket from "ws"

export interface DaemonOptions {
  /** The deployment's URL, e.g. http://127.0.0.1:3000. */
  readonly url: string
  readonly organization: string
  /** A provisioner key of the organization (`POST /organizations/{organization}/provisionerkeys`). */
  readonly key: string
  readonly name?: string
  /** The provisioner type served. Default "script". */
  readonly provisioner?: string
  /** Called with every message received (for tests and logs). */
  readonly onMessage?: (message: any) => void
}

export interface Daemon {
  /** The server's `welcome`, once connected. */
  readonly welcome: Promise<any>
  /** Resolves with the close code and reason. */
  readonly closed: Promise<{ code: number; reason: string }>
  /** Jobs finished, by id: the server's `job_done`. */
  readonly done: Map<string, any>
  /** Closes the connection as a clean daemon would. */
  readonly stop: () => void
  /** Drops the connection without a closing handshake, as a crashed daemon does. */
  readonly kill: () => void
  readonly socket: WebSocket
}

/** A small tar reader: the files of an archive by name (ustar, regular files only). */
const untar = (bytes: Uint8Array): Map<string, string> => {
  const files = new Map<string, string>()
  const text = new TextDecoder()
  let at = 0
  while (at + 512 <= bytes.length) {
    const header = bytes.subarray(at, at + 512)
    const name = text.decode(header.subarray(0, 100)).replace(/\0.*$/s, "")
    if (name === "") break
    const size = parseInt(text.decode(header.subarray(124, 136)).replace(/\0.*$/s, "").trim() || "0", 8)
    files.set(name.replace(/^\.\//, ""), text.decode(bytes.subarray(at + 512, at + 512 + size)))
    at += 512 + Math.ceil(size / 512) * 512
  }
  return files
}

/** What a template for this daemon may say (`script.json` in the archive). */
interface Script {
  /** Fail every job with this message. */
  readonly fail?: string
  /** Never answer (the job waits for a cancel, or for the hang detector). */
  readonly hang?: boolean
  /** Log lines to send before answering. */
  readonly logs?: ReadonlyArray<string>
  /** Parameters the import answers. */
  readonly parameters?: ReadonlyArray<Record<string, unknown>>
  /** The workspace's daily cost: a start commits it with the service (`commit_quota`) before making anything. */
  readonly daily_cost?: number
}

export const startDaemon = (options: DaemonOptions): Daemon => {
  const query = new URLSearchParams({
    provisioner: options.provisioner ?? "script",
    name: options.name ?? "example-daemon",
    version: "1.0"
  })
  const base = options.url.replace(/^http/, "ws").replace(/\/$/, "")
  const socket = new WebSocket(
    `${base}/api/v2/organizations/${options.organization}/provisionerdaemons/serve?${query}`,
    {
      headers: { "Coder-Provisioner-Daemon-Key": options.key }
    }
  )
  const send = (message: object) => socket.readyState === WebSocket.OPEN && socket.send(JSON.stringify(message))
  const done = new Map<string, any>()
  const tokens = new Map<string, (token: string) => void>()
  const quotas = new Map<string, (answer: any) => void>()
  let welcomed: (w: any) => void = () => {}
  let heartbeat: NodeJS.Timeout | undefined
  const welcome = new Promise<any>((resolve, reject) => {
    welcomed = resolve
    socket.once("unexpected-response", (_req, res) => reject(new Error(`refused: ${res.statusCode}`)))
    socket.once("error", reject)
    socket.once("close", (code, reason) => reject(new Error(`closed before the welcome: ${code} ${reason.toString()}`)))
  })
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on("close", (code, reason) => {
      clearInterval(heartbeat)
      resolve({ code, reason: reason.toString() })
    })
  )

  const runJob = async (job: any) => {
    const archive = Buffer.from(job[job.operation].archive, "base64")
    const files = untar(archive)
    const script: Script = JSON.parse(files.get("script.json") ?? "{}")
    // Heartbeats while the job runs, as the protocol asks.
    const beat = setInterval(() => send({ type: "heartbeat", job_id: job.job_id }), heartbeatMs)
    try {
      const lines = script.logs ?? [`Running the ${job.operation} of job ${job.job_id}`]
      send({
        type: "log",
        job_id: job.job_id,
        logs: lines.map((output) => ({ level: "info", stage: "Running script", output }))
      })
      if (script.hang === true) return
      if (script.fail !== undefined) return send({ type: "fail", job_id: job.job_id, error: script.fail })
      if (job.operation === "import") {
        return send({
          type: "complete",
          job_id: job.job_id,
          result: {
            parameters: script.parameters ?? [],
            resources: [{
              transition: "start",
              resources: [{ name: "box", type: "script_machine", agents: [{ name: "main" }] }]
            }]
          }
        })
      }
      const build = job.build
      if (build.transition === "delete") {
        return send({ type: "complete", job_id: job.job_id, result: { resources: [] } })
      }
      const cost = script.daily_cost ?? 0
      if (build.transition === "start" && cost > 0) {
        // Checked against the owner's quota before anything is made, as a real daemon must.
        const quota = await new Promise<any>((resolve) => {
          quotas.set(job.job_id, resolve)
          send({ type: "commit_quota", job_id: job.job_id, daily_cost: cost })
        })
        if (quota.ok !== true) return send({ type: "fail", job_id: job.job_id, error: quota.message })
      }
      const token = await new Promise<string>((resolve) => {
        tokens.set(`${job.job_id}/main`, resolve)
        send({ type: "agent_token", job_id: job.job_id, name: "main" })
      })
      send({
        type: "complete",
        job_id: job.job_id,
        result: {
          resources: [{
            name: "box",
            type: "script_machine",
            daily_cost: cost,
            metadata: [{ key: "owner", value: build.workspace.owner }, {
              key: "token_length",
              value: String(token.length)
            }],
            agents: build.transition === "start" ? [{ name: "main", env: { WORKBAY_AGENT_TOKEN: token } }] : []
          }],
          state: Buffer.from(JSON.stringify({ transition: build.transition })).toString("base64")
        }
      })
    } finally {
      if (script.hang !== true) clearInterval(beat)
      else hung.push(beat)
    }
  }
  const hung: Array<NodeJS.Timeout> = []
  let heartbeatMs = 10_000

  socket.on("message", (data) => {
    const message = JSON.parse(data.toString())
    options.onMessage?.(message)
    switch (message.type) {
      case "welcome":
        heartbeatMs = message.heartbeat_interval_ms
        heartbeat = setInterval(() => send({ type: "heartbeat" }), heartbeatMs)
        welcomed(message)
        send({ type: "acquire" })
        return
      case "job":
        void runJob(message)
        return
      case "agent_token":
        tokens.get(`${message.job_id}/${message.name}`)?.(message.token)
        return
      case "quota":
        quotas.get(message.job_id)?.(message)
        return
      case "cancel":
        // Stop the job's work; the server finishes it as canceled and answers job_done.
        for (const h of hung.splice(0)) clearInterval(h)
        return
      case "job_done":
        done.set(message.job_id, message)
        send({ type: "acquire" })
        return
    }
  })
  return {
    welcome,
    closed,
    done,
    socket,
    stop: () => socket.close(1000),
    kill: () => {
      for (const h of hung.splice(0)) clearInterval(h)
      socket.terminate()
    }
  }
}

if (process.argv[1]?.endsWith("provisioner-daemon.ts")) {
  const [url, organization, key, provisioner] = process.argv.slice(2)
  if (url === undefined || organization === undefined || key === undefined) {
    console.error("usage: provisioner-daemon.ts <url> <organization> <key> [provisioner type]")
    process.exit(2)
  }
  const daemon = startDaemon({
    url,
    organization,
    key,
    provisioner,
    onMessage: (m) => console.log(m.type, m.job_id ?? "")
  })
  void daemon.closed.then(({ code, reason }) => {
    console.log(`closed ${code} ${reason}`)
    process.exit(code === 1000 ? 0 : 1)
  })
}
