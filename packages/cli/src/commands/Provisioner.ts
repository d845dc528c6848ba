/**
 * `workbay provisioner start`, as the described system's `coder provisioner start`: a provisioner
 * daemon for one Docker host. It runs the Docker driver (@workbay/docker, the same code as the
 * service's in-process `docker` provisioner) against the host's own engine, and takes the jobs of
 * its organization over the daemon protocol (docs/provisioner-daemons.md), authenticated by a
 * provisioner key. `--concurrency n` runs n jobs at once (one connection each, named
 * `<name>`, `<name>-2`, ...). It reconnects after the deployment restarts, and on SIGTERM or
 * SIGINT takes no further job, lets the running ones finish, and exits. `--memory` and `--cpus`
 * cap the memory and CPUs the host offers (reported as its capacity, at most the engine's own).
 *
 * `workbay provisioner hosts list|drain|undrain`: the hosts such daemons run workspaces on, with
 * their capacity (`GET /organizations/{org}/provisionerhosts`), and draining one (`PATCH
 * /organizations/{org}/provisionerhosts/{host}` `{"draining": true}`: placement skips it, its
 * workspaces stay) or taking it back (docs/provisioner-daemons.md, "Draining").
 */
import { isStatus, makeClient, type Schemas, unwrap } from "@workbay/client"
import {
  agentInitScript,
  type DaemonLink,
  INIT_SCRIPT_PLATFORMS,
  makeProvisioners,
  moveLinkOf,
  parseCpus,
  parseMemory,
  ProvisionerFailure,
  runDaemonSession
} from "@workbay/core"
import { dockerClient, hostCapacityReader, makeDockerProvisioner, ping } from "@workbay/docker"
import { Deferred, Effect, Option, Queue } from "effect"
import { hostname } from "node:os"
import WebSocket from "ws"
import { Client } from "../Client.js"
import type { Context } from "../Context.js"
import { ApiError, CliError, usageError } from "../Errors.js"
import { isNotFound, organizationOf } from "../Lookup.js"
import { ago, printJson, printTable } from "../Output.js"

export interface ProvisionerStartOptions {
  readonly key?: string
  readonly tag: ReadonlyArray<string>
  readonly name?: string
  readonly dockerHost?: string
  readonly dockerCertPath?: string
  readonly dockerNetwork?: string
  readonly agentUrl?: string
  readonly concurrency?: string
  /** The memory the host offers (`512m`, `2g`), at most the engine's. */
  readonly memory?: string
  /** The CPUs the host offers (a whole number), at most the engine's. */
  readonly cpus?: string
}

/** The caps `--memory` and `--cpus` put on the host's reported capacity; a value that is none is a usage error. */
const capsOf = (options: ProvisionerStartOptions) => {
  const memoryLimit = options.memory === undefined ? undefined : parseMemory(options.memory)
  if (options.memory !== undefined && memoryLimit === undefined) {
    throw usageError(`--memory "${options.memory}" is not a size such as 512m or 2g, at least 6m.`)
  }
  const cpusLimit = options.cpus === undefined ? undefined : parseCpus(options.cpus)
  if (options.cpus !== undefined && (cpusLimit === undefined || !Number.isInteger(cpusLimit))) {
    throw usageError(`--cpus "${options.cpus}" is not a whole number of CPUs from 1 to 1024.`)
  }
  return { memoryLimit, cpusLimit }
}

/** `k=v` tags as the serve route takes them; a tag that is not one is a usage error. */
const tagsOf = (given: ReadonlyArray<string>): ReadonlyArray<string> =>
  given.flatMap((t) => t.split(",")).filter((t) => t !== "").map((t) => {
    if (!/^[^=\s]+=[^=\s]*$/.test(t)) throw usageError(`--tag "${t}" is not key=value.`)
    return t
  })

/** The agent executables' SHA-256 by `os-arch`, from the deployment's `/bin` files (their ETag). */
const agentChecksums = async (url: string): Promise<Map<string, string>> => {
  const sums = new Map<string, string>()
  const platforms = Object.entries(INIT_SCRIPT_PLATFORMS).flatMap(([os, arches]) => arches.map((arch) => [os, arch]))
  await Promise.all(platforms.map(async ([os, arch]) => {
    const response = await fetch(`${url}/bin/workbay-agent-${os}-${arch}`, { method: "HEAD" }).catch(() => undefined)
    const etag = response?.ok === true ? response.headers.get("etag") : null
    if (etag !== null && etag !== undefined) sums.set(`${os}-${arch}`, etag.replace(/^(W\/)?"|"$/g, ""))
  }))
  return sums
}

/** The serve route's WebSocket (opened and paused by `Client.socket`) as the protocol's link; `closed` settles with its close. */
const linkOf = (socket: WebSocket) => {
  const messages = Effect.runSync(Queue.unbounded<string>())
  const closed = Effect.runSync(Deferred.make<{ code: number; reason: string }>())
  socket.on("message", (data) => Effect.runSync(Queue.offer(messages, data.toString())))
  socket.on("close", (code, reason) => Effect.runSync(Deferred.succeed(closed, { code, reason: reason.toString() })))
  socket.on("error", () => {})
  socket.resume()
  const link: DaemonLink = {
    send: (text) => Effect.sync(() => socket.readyState === WebSocket.OPEN && socket.send(text)),
    receive: Effect.raceFirst(
      Queue.take(messages),
      Effect.flatMap(Deferred.await(closed), (c) => Effect.fail(c))
    ),
    close: Effect.async<void>((resume) => {
      if (socket.readyState === WebSocket.CLOSED) return resume(Effect.void)
      socket.once("close", () => resume(Effect.void))
      socket.close(1000)
    })
  }
  return { link, closed: Effect.runPromise(Deferred.await(closed)) }
}

export const provisionerStart = async (ctx: Context, options: ProvisionerStartOptions): Promise<number> => {
  const url = ctx.url
  if (url === undefined) throw usageError("Name the deployment with --url (or WORKBAY_URL).")
  const key = options.key ?? process.env.WORKBAY_PROVISIONER_DAEMON_KEY ?? ""
  if (key === "") throw usageError("A provisioner key is required: --key (or WORKBAY_PROVISIONER_DAEMON_KEY).")
  const tags = tagsOf([...options.tag, ...(process.env.WORKBAY_PROVISIONERD_TAGS ?? "").split(",")])
  const name = options.name ?? process.env.WORKBAY_PROVISIONER_DAEMON_NAME ?? hostname()
  const concurrency = Number(options.concurrency ?? "1")
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
    throw usageError("--concurrency is a whole number from 1 to 64.")
  }
  const caps = capsOf(options)
  const log = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`)

  // The key names its organization (GET /provisionerkeys/{key}, authenticated by the key itself).
  const anonymous = makeClient({ url })
  const own = await unwrap(anonymous.GET("/api/v2/provisionerkeys/{provisionerkey}", {
    params: { path: { provisionerkey: key } },
    headers: { "Coder-Provisioner-Daemon-Key": key }
  })).catch((e: unknown) => {
    if (isStatus(e, 401)) throw new CliError("The provisioner key is not valid on this deployment.")
    throw e
  })
  const docker = dockerClient({
    host: options.dockerHost ?? process.env.DOCKER_HOST ?? "",
    certPath: options.dockerCertPath ?? process.env.DOCKER_CERT_PATH ?? ""
  })
  const engine = await Effect.runPromise(Effect.either(ping(docker)))
  if (engine._tag === "Left") {
    throw new CliError(
      `No Docker engine answers at ${options.dockerHost ?? process.env.DOCKER_HOST ?? "the default socket"}.`
    )
  }
  const provisioners = makeProvisioners([
    makeDockerProvisioner({
      docker,
      ...(options.dockerNetwork === undefined ? {} : { defaultNetwork: options.dockerNetwork }),
      ...(options.agentUrl === undefined ? {} : { agentUrl: options.agentUrl })
    })
  ])
  // The engine's disk is readable when it runs on this machine (a unix socket, the default).
  const engineAddress = options.dockerHost ?? process.env.DOCKER_HOST ?? ""
  const capacity = hostCapacityReader(docker, {
    localDisk: engineAddress === "" || engineAddress.startsWith("unix:"),
    ...caps
  })
  const sums = await agentChecksums(url)
  const initScript = (os: string, arch: string, accessUrl: string) =>
    agentInitScript({ os, arch, accessUrl, sha256: sums.get(`${os}-${arch}`) })

  const stop = Effect.runSync(Deferred.make<void>())
  let stopping = false
  const onSignal = () => {
    if (stopping) process.exit(130)
    stopping = true
    log("stopping: no further job is taken; the running ones finish (again to exit at once)")
    Effect.runSync(Deferred.succeed(stop, undefined))
  }
  process.on("SIGTERM", onSignal)
  process.on("SIGINT", onSignal)

  const serve = new Client(url, undefined)
  const headers = { "Coder-Provisioner-Daemon-Key": key, "Coder-Build-Version": `workbay-cli ${engine.right.Version}` }
  let fatal: CliError | undefined
  /** A move's link (protocol 1.3): the path the job named, with the key and the job's one-time token. */
  const openMoveLink = (stream: { readonly path: string; readonly token: string }) =>
    Effect.tryPromise({
      try: async () => {
        const at = new URL(stream.path, "http://link")
        const query = Object.fromEntries(at.searchParams)
        const socket = await serve.socket(at.pathname.replace(/^\/api\/v2/, ""), query, {
          ...headers,
          "Workbay-Move-Token": stream.token
        })
        return moveLinkOf(socket)
      },
      catch: (e) =>
        new ProvisionerFailure({
          message: `Could not open the move's link: ${e instanceof Error ? e.message : String(e)}`,
          logs: []
        })
    })

  /** One connection, reconnected with a growing pause until the daemon stops. */
  const connection = async (index: number) => {
    const daemonName = index === 0 ? name : `${name}-${index + 1}`
    // Every connection names the host (its daemons' name); the first one reports the host's capacity.
    const query = { provisioner: "docker", version: "1.3", name: daemonName, host: name, tag: tags }
    let pause = 1_000
    while (!stopping && fatal === undefined) {
      let socket: WebSocket
      try {
        socket = await serve.socket(`/organizations/${own.organization}/provisionerdaemons/serve`, query, headers)
      } catch (e) {
        // A refusal (tags, name, key) stays one: only an unreachable deployment is tried again.
        if (e instanceof ApiError && [400, 401, 403, 409].includes(e.status)) {
          fatal = new CliError(
            `The deployment refused the daemon ${daemonName} (${e.status}): ${e.message}`,
            1,
            e.detail
          )
          break
        }
        log(`${daemonName}: ${e instanceof Error ? e.message : String(e)}; again in ${pause / 1000} s`)
        await new Promise((resolve) => setTimeout(resolve, pause))
        pause = Math.min(pause * 2, 30_000)
        continue
      }
      const { closed, link } = linkOf(socket)
      const welcome = await Effect.runPromise(runDaemonSession(link, {
        provisioners,
        agentInitScript: initScript,
        log: (line) => Effect.sync(() => log(`${daemonName}: ${line}`)),
        stop: Deferred.await(stop),
        openMoveLink,
        ...(index === 0 ? { capacity } : {})
      }))
      if (Option.isSome(welcome)) pause = 1_000
      const end = await closed
      if (end.code === 1001 && end.reason === "provisioner key deleted") {
        fatal = new CliError("The provisioner key was deleted: the daemon stops.")
        break
      }
      if (stopping) break
      log(
        `${daemonName}: disconnected (${end.code}${end.reason === "" ? "" : ` ${end.reason}`}); again in ${
          pause / 1000
        } s`
      )
      await new Promise((resolve) => setTimeout(resolve, pause))
      pause = Math.min(pause * 2, 30_000)
    }
  }

  const capped = [
    ...(caps.memoryLimit === undefined ? [] : [`${bytes(caps.memoryLimit)} of memory`]),
    ...(caps.cpusLimit === undefined ? [] : [`${caps.cpusLimit} CPU(s)`])
  ]
  log(
    `provisioner daemon ${name}: Docker ${engine.right.Version}, ${concurrency} job(s) at once, organization ${own.organization}, ${url}${
      capped.length === 0 ? "" : `; offers at most ${capped.join(" and ")}`
    }`
  )
  await Promise.all(Array.from({ length: concurrency }, (_, i) => connection(i)))
  process.off("SIGTERM", onSignal)
  process.off("SIGINT", onSignal)
  if (fatal !== undefined) throw fatal
  log("stopped")
  return 0
}

type ProvisionerHost = Schemas["ProvisionerHost"]

const figure = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2, useGrouping: false })
const sized = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1, useGrouping: false })
const BYTE_UNITS: ReadonlyArray<readonly [string, number]> = [
  ["TiB", 1024 ** 4],
  ["GiB", 1024 ** 3],
  ["MiB", 1024 ** 2],
  ["KiB", 1024]
]

/** "512 MiB", "1.5 GiB": in the largest binary unit the amount reaches (as the dashboard's hosts table). */
const bytes = (n: number) => {
  const unit = BYTE_UNITS.find(([, size]) => n >= size)
  return unit === undefined ? `${sized.format(n)} B` : `${sized.format(n / unit[1])} ${unit[0]}`
}

export interface HostsFlags {
  readonly org?: string
}

/** `provisioner hosts list`: the organization's hosts; CPUs and memory as promised to workspaces, of the host's total. */
export const hostsList = async (ctx: Context, flags: HostsFlags) => {
  const client = ctx.client()
  const org = await organizationOf(client, flags.org)
  const hosts = await unwrap(
    client.rest.GET("/api/v2/organizations/{organization}/provisionerhosts", {
      params: { path: { organization: org.id } }
    })
  )
  if (ctx.output === "json") return printJson(hosts)
  printTable(
    ["name", "status", "draining", "cpus", "memory", "containers", "free disk", "last seen"],
    hosts.map((h: ProvisionerHost) => [
      h.name,
      h.status,
      String(h.draining),
      `${figure.format(h.cpus_promised)} of ${figure.format(h.cpus)}`,
      `${bytes(h.memory_promised_bytes)} of ${bytes(h.memory_bytes)}`,
      figure.format(h.containers),
      h.disk_free_bytes === null ? "unknown" : bytes(h.disk_free_bytes),
      ago(h.last_seen_at)
    ]),
    "provisioner hosts"
  )
}

/** `provisioner hosts drain|undrain <host>`: one line saying what changed (and the host under `--output json`). */
const setDraining = async (ctx: Context, host: string, draining: boolean, flags: HostsFlags) => {
  const client = ctx.client()
  const org = await organizationOf(client, flags.org)
  const updated = await unwrap(
    client.rest.PATCH("/api/v2/organizations/{organization}/provisionerhosts/{host}", {
      params: { path: { organization: org.id, host } },
      body: { draining }
    })
  ).catch((e: unknown) => {
    // The organization is one of the caller's (organizationOf): a 404 is the host's.
    if (isNotFound(e)) {
      throw new CliError(
        `Organization ${org.name} has no provisioner host named "${host}".`,
        1,
        "See its hosts with: workbay provisioner hosts list"
      )
    }
    throw e
  })
  const out = ctx.output === "json" ? process.stderr : process.stdout
  out.write(
    draining
      ? `Host ${updated.name} is draining: no new workspace is placed on it; its workspaces stay.\n`
      : `Host ${updated.name} is no longer draining: new workspaces may be placed on it.\n`
  )
  if (ctx.output === "json") printJson(updated)
}

export const hostsDrain = (ctx: Context, host: string, flags: HostsFlags) => setDraining(ctx, host, true, flags)
export const hostsUndrain = (ctx: Context, host: string, flags: HostsFlags) => setDraining(ctx, host, false, flags)
