/**
 * Dev containers (docs/agents.md, "Dev containers"): the service sends `{type:
 * "containers_request", request_id, action, devcontainer_id?}` on `/workspaceagents/me/rpc`; the
 * agent answers `{type: "containers_response", request_id, status, body}` (an HTTP-like status and
 * its JSON body), asking the Docker daemon it can see: `DOCKER_HOST` (`unix://` or `tcp://`), else
 * `/var/run/docker.sock`, through the Engine API (no docker command needed).
 *
 * - `list`: every container (running or not) as codersdk's `WorkspaceAgentContainer`, and the dev
 *   containers among them: containers labelled `devcontainer.local_folder` (and
 *   `devcontainer.config_file`), as the Dev Containers command line labels what it makes. A dev
 *   container's id is derived from its folder and configuration file, so it stays the same across
 *   recreations and agent restarts. No daemon: empty lists and a warning saying why.
 * - `delete`: removes the dev container's container (forced); 204, or 404 for an unknown id.
 * - `recreate`: answers 202 at once and runs `devcontainer up --workspace-folder <folder> --config
 *   <file> --remove-existing-container` (the `@devcontainers/cli` command, or what
 *   `--devcontainer-cli` names); the dev container is `starting` meanwhile (a second recreate
 *   answers 409), then as Docker shows it, or `error` with why when the command failed.
 */
import { spawn } from "node:child_process"
import { createHash } from "node:crypto"
import { request } from "node:http"
import { basename } from "node:path"

/** The labels the Dev Containers command line puts on the containers it makes. */
export const DEVCONTAINER_LOCAL_FOLDER_LABEL = "devcontainer.local_folder"
export const DEVCONTAINER_CONFIG_FILE_LABEL = "devcontainer.config_file"

export interface ContainerPort {
  readonly port: number
  readonly network: string
  readonly host_ip?: string
  readonly host_port?: number
}

export interface Container {
  readonly created_at: string
  readonly id: string
  readonly name: string
  readonly image: string
  readonly labels: Record<string, string>
  readonly running: boolean
  readonly ports: ReadonlyArray<ContainerPort>
  readonly status: string
  readonly volumes: Record<string, string>
}

export interface Devcontainer {
  readonly id: string
  readonly name: string
  readonly workspace_folder: string
  readonly config_path?: string
  readonly status: "running" | "stopped" | "starting" | "error"
  readonly dirty: boolean
  readonly container?: Container
  readonly error?: string
}

export interface ContainersList {
  readonly devcontainers: ReadonlyArray<Devcontainer>
  readonly containers: ReadonlyArray<Container>
  readonly warnings?: ReadonlyArray<string>
}

export interface Answer {
  readonly status: number
  readonly body?: unknown
}

/** Where the Docker daemon listens: a unix socket path, or a TCP host and port. */
export type DockerEndpoint = { readonly socketPath: string } | { readonly host: string; readonly port: number }

/** The daemon `DOCKER_HOST` names (`unix:///path`, `tcp://host:port`), else the default socket. */
export const dockerEndpoint = (dockerHost: string | undefined = process.env.DOCKER_HOST): DockerEndpoint => {
  if (dockerHost === undefined || dockerHost === "") return { socketPath: "/var/run/docker.sock" }
  if (dockerHost.startsWith("unix://")) return { socketPath: dockerHost.slice("unix://".length) }
  const u = new URL(dockerHost.replace(/^tcp:/, "http:"))
  return { host: u.hostname, port: Number(u.port || 2375) }
}

/** One call of the Engine API: its status and parsed JSON body (undefined when empty). */
export const dockerCall = (
  endpoint: DockerEndpoint,
  method: string,
  path: string,
  timeoutMs = 15_000
): Promise<{ status: number; body: unknown }> =>
  new Promise((resolve, reject) => {
    const req = request(
      { ...endpoint, method, path, headers: { accept: "application/json" }, timeout: timeoutMs },
      (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (c: Buffer) => chunks.push(c))
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8")
          let body: unknown
          try {
            body = text === "" ? undefined : JSON.parse(text)
          } catch {
            body = text
          }
          resolve({ status: res.statusCode ?? 0, body })
        })
        res.on("error", reject)
      }
    )
    req.on("timeout", () => req.destroy(new Error(`the Docker daemon did not answer within ${timeoutMs} ms`)))
    req.on("error", reject)
    req.end()
  })

/** A stable id (UUID form) for the dev container of `folder` and `config`. */
export const devcontainerId = (folder: string, config: string): string => {
  const h = createHash("sha256").update(`workbay devcontainer\0${folder}\0${config}`).digest("hex")
  // Shaped as a version 4 UUID (RFC 9562 variant), so clients that parse UUIDs take it.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${
    ((parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16)
  }${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/** A container of `GET /containers/json` as codersdk's `WorkspaceAgentContainer`. */
export const toContainer = (raw: Record<string, any>): Container => {
  const ports: Array<ContainerPort> = []
  for (const p of (raw.Ports ?? []) as Array<Record<string, any>>) {
    if (typeof p.PrivatePort !== "number") continue
    ports.push({
      port: p.PrivatePort,
      network: typeof p.Type === "string" && p.Type !== "" ? p.Type : "tcp",
      ...(typeof p.IP === "string" && p.IP !== "" ? { host_ip: p.IP } : {}),
      ...(typeof p.PublicPort === "number" && p.PublicPort > 0 ? { host_port: p.PublicPort } : {})
    })
  }
  const volumes: Record<string, string> = {}
  for (const m of (raw.Mounts ?? []) as Array<Record<string, any>>) {
    if (typeof m.Source === "string" && typeof m.Destination === "string") volumes[m.Source] = m.Destination
  }
  const name = Array.isArray(raw.Names) && typeof raw.Names[0] === "string" ? raw.Names[0].replace(/^\//, "") : ""
  return {
    created_at: new Date((typeof raw.Created === "number" ? raw.Created : 0) * 1000).toISOString(),
    id: String(raw.Id ?? ""),
    name,
    image: String(raw.Image ?? ""),
    labels: Object.fromEntries(
      Object.entries((raw.Labels ?? {}) as Record<string, unknown>).filter(([, v]) => typeof v === "string")
    ) as Record<string, string>,
    running: raw.State === "running",
    ports,
    status: String(raw.State ?? ""),
    volumes
  }
}

/** What the agent remembers of a dev container between lists: its recreation's state. */
interface Known {
  readonly id: string
  readonly folder: string
  readonly config: string
  status?: "starting" | "error" | undefined
  error?: string | undefined
}

export interface ContainersOptions {
  /** The Docker daemon (default: from DOCKER_HOST). */
  readonly docker?: DockerEndpoint
  /** The Dev Containers command (default `devcontainer`, from PATH). */
  readonly devcontainerCli?: string
  readonly log?: (line: string) => void
}

export interface Containers {
  readonly list: () => Promise<ContainersList>
  readonly handle: (request: { readonly action?: unknown; readonly devcontainer_id?: unknown }) => Promise<Answer>
  /** Resolves when no recreation is running (for tests and the stop). */
  readonly idle: () => Promise<void>
}

const notFound = (): Answer => ({ status: 404, body: { message: "Devcontainer not found." } })

export const makeContainers = (options: ContainersOptions = {}): Containers => {
  const docker = options.docker ?? dockerEndpoint()
  const cli = options.devcontainerCli ?? "devcontainer"
  const log = options.log ?? (() => {})
  const known = new Map<string, Known>()
  const running = new Set<Promise<void>>()

  const list = async (): Promise<ContainersList> => {
    let raw: { status: number; body: unknown }
    try {
      raw = await dockerCall(docker, "GET", "/containers/json?all=1")
    } catch (e) {
      // No runtime here: nothing to list, and why (the service shows the warning).
      return {
        devcontainers: [],
        containers: [],
        warnings: [`No container runtime is reachable: ${e instanceof Error ? e.message : String(e)}`]
      }
    }
    if (raw.status !== 200 || !Array.isArray(raw.body)) {
      return {
        devcontainers: [],
        containers: [],
        warnings: [`The Docker daemon answered ${raw.status} to the list of containers.`]
      }
    }
    const containers = (raw.body as Array<Record<string, any>>).map(toContainer)
      .sort((a, b) => a.name.localeCompare(b.name))
    const seen = new Set<string>()
    const devcontainers: Array<Devcontainer> = []
    for (const c of containers) {
      const folder = c.labels[DEVCONTAINER_LOCAL_FOLDER_LABEL]
      if (folder === undefined || folder === "") continue
      const config = c.labels[DEVCONTAINER_CONFIG_FILE_LABEL] ?? ""
      const id = devcontainerId(folder, config)
      if (seen.has(id)) continue
      seen.add(id)
      const k = known.get(id) ?? { id, folder, config }
      known.set(id, k)
      devcontainers.push({
        id,
        name: basename(folder) || folder,
        workspace_folder: folder,
        ...(config === "" ? {} : { config_path: config }),
        status: k.status ?? (c.running ? "running" : "stopped"),
        dirty: false,
        container: c,
        ...(k.status === "error" && k.error !== undefined ? { error: k.error } : {})
      })
    }
    // Those being recreated (or that failed to be) whose container is gone meanwhile.
    for (const k of known.values()) {
      if (seen.has(k.id) || k.status === undefined) continue
      devcontainers.push({
        id: k.id,
        name: basename(k.folder) || k.folder,
        workspace_folder: k.folder,
        ...(k.config === "" ? {} : { config_path: k.config }),
        status: k.status,
        dirty: false,
        ...(k.error === undefined ? {} : { error: k.error })
      })
    }
    return { devcontainers, containers }
  }

  /** The dev container of `id`, as the last list (or one made now) knows it. */
  const find = async (id: unknown): Promise<{ known: Known; container?: Container } | undefined> => {
    if (typeof id !== "string") return undefined
    const now = await list()
    const dc = now.devcontainers.find((d) => d.id === id)
    const k = known.get(id)
    if (dc === undefined || k === undefined) return undefined
    return { known: k, ...(dc.container === undefined ? {} : { container: dc.container }) }
  }

  const remove = async (id: unknown): Promise<Answer> => {
    const found = await find(id)
    if (found === undefined) return notFound()
    if (found.known.status === "starting") {
      return { status: 409, body: { message: "Devcontainer is busy.", detail: "It is being recreated." } }
    }
    if (found.container !== undefined) {
      const r = await dockerCall(docker, "DELETE", `/containers/${encodeURIComponent(found.container.id)}?force=1`)
      if (r.status !== 204 && r.status !== 404) {
        const why = (r.body as { message?: string } | undefined)?.message ?? `status ${r.status}`
        return { status: 500, body: { message: "Could not remove the devcontainer's container.", detail: why } }
      }
    }
    known.delete(found.known.id)
    return { status: 204 }
  }

  const up = (k: Known) =>
    new Promise<void>((resolve) => {
      const args = ["up", "--workspace-folder", k.folder, "--remove-existing-container"]
      if (k.config !== "") args.push("--config", k.config)
      const child = spawn(cli, args, {
        stdio: ["ignore", "pipe", "pipe"],
        env: {
          ...process.env,
          ...("socketPath" in docker ? { DOCKER_HOST: `unix://${docker.socketPath}` } : {
            DOCKER_HOST: `tcp://${docker.host}:${docker.port}`
          })
        }
      })
      let tail = ""
      const keep = (c: Buffer) => {
        tail = (tail + c.toString("utf8")).slice(-4096)
      }
      child.stdout.on("data", keep)
      child.stderr.on("data", keep)
      const done = (error?: string) => {
        if (error === undefined) {
          k.status = undefined
          k.error = undefined
        } else {
          k.status = "error"
          k.error = error.slice(0, 1024)
          log(`devcontainer up for ${k.folder} failed: ${k.error}`)
        }
        resolve()
      }
      child.once("error", (e: NodeJS.ErrnoException) =>
        done(
          e.code === "ENOENT"
            ? `The Dev Containers command line (${cli}) is not installed: npm install -g @devcontainers/cli`
            : e.message
        ))
      child.once("exit", (code, signal) => {
        if (code === 0) return done()
        // Its last JSON line says why (`{"outcome":"error","message":...}`), else its last output.
        const lines = tail.trim().split("\n")
        let message = lines.at(-1) ?? ""
        for (const line of lines.reverse()) {
          try {
            const parsed = JSON.parse(line) as { outcome?: string; message?: string; description?: string }
            if (parsed.outcome === "error") {
              message = [parsed.message, parsed.description].filter(Boolean).join(": ")
              break
            }
          } catch {
            // not JSON
          }
        }
        done(`devcontainer up exited with ${code ?? signal}: ${message}`)
      })
    })

  const recreate = async (id: unknown): Promise<Answer> => {
    const found = await find(id)
    if (found === undefined) return notFound()
    const k = found.known
    if (k.status === "starting") {
      return {
        status: 409,
        body: {
          message: "Devcontainer recreation already in progress.",
          detail: `"${basename(k.folder)}" is starting.`
        }
      }
    }
    k.status = "starting"
    k.error = undefined
    const run = up(k)
    running.add(run)
    void run.finally(() => running.delete(run))
    return {
      status: 202,
      body: {
        message: "Devcontainer recreation initiated",
        detail: `Recreation of devcontainer "${basename(k.folder)}" has started.`
      }
    }
  }

  const handle = async (req: { readonly action?: unknown; readonly devcontainer_id?: unknown }): Promise<Answer> => {
    try {
      switch (req.action) {
        case "list":
          return { status: 200, body: await list() }
        case "delete":
          return await remove(req.devcontainer_id)
        case "recreate":
          return await recreate(req.devcontainer_id)
        default:
          return { status: 400, body: { message: `Unknown action ${JSON.stringify(req.action)}.` } }
      }
    } catch (e) {
      return { status: 502, body: { message: "The container runtime failed.", detail: String(e) } }
    }
  }

  const idle = async () => {
    while (running.size > 0) await Promise.all([...running])
  }

  return { list, handle, idle }
}

/** Answers the service's `containers_request`; false for any other message. */
export const handleContainersMessage = (
  message: Record<string, unknown>,
  send: (message: Record<string, unknown>) => void,
  containers: Containers
): boolean => {
  if (message.type !== "containers_request" || typeof message.request_id !== "string") return false
  const requestId = message.request_id
  void containers.handle(message).then((answer) =>
    send({
      type: "containers_response",
      request_id: requestId,
      status: answer.status,
      ...(answer.body === undefined ? {} : { body: answer.body })
    })
  )
  return true
}
