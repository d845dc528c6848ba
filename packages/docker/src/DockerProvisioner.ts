/**
 * The `docker` provisioner: the template language of the built-in provisioner (template.yaml,
 * docs/templates.md) with its `docker_container` and `docker_volume` resources made real on a
 * Docker Engine, as the described system's Docker starter template does (docs/docker.md):
 *
 * - `start` creates each volume when missing, then creates and starts each container from the
 *   build's version and parameters, its agents' tokens and init scripts substituted in (a claim
 *   of a prebuilt workspace keeps its running containers instead);
 * - `stop` removes the containers and keeps the volumes;
 * - `delete` removes containers and volumes.
 *
 * Everything it makes carries labels naming deployment, workspace, owner and build
 * (Labels.ts); it lists, removes and reconciles only by those labels, so a container left by a
 * start that crashed is found and replaced by the next build, and nothing it did not make is
 * touched. A daemon that refuses fails the build with its own message.
 */
import {
  DOCKER_CONTAINER,
  DOCKER_VOLUME,
  keptAgents,
  makeTemplateProvisioner,
  parseCpus,
  parseMemory,
  type ProvisionedAgent,
  type ProvisionedResource,
  type Provisioner,
  type ResourceMetadata,
  substitute,
  type Substitutions,
  type TemplateApply,
  type TemplateIssue,
  type TemplateSpec
} from "@workbay/core"
import type Docker from "dockerode"
import { Duration, Effect } from "effect"
import { builtProblems, type ContainerSpec, literalIssues } from "./Checks.js"
import { call, labelFilter, orMissing, refuseRedirects } from "./Client.js"
import {
  LABEL_BUILD_ID,
  LABEL_BUILD_NUMBER,
  LABEL_DEPLOYMENT,
  LABEL_OWNER_ID,
  LABEL_OWNER_NAME,
  LABEL_RESOURCE,
  LABEL_TEMPLATE_ID,
  LABEL_WORKSPACE_ID,
  LABEL_WORKSPACE_NAME,
  workspaceSelector
} from "./Labels.js"
import { moveVolumes } from "./Move.js"

/** The provisioner type jobs name. */
export const DOCKER_PROVISIONER = "docker"

/**
 * What templates may ask for that weakens a container's isolation from its host: each refused
 * unless the deployment allows it (`--docker-allow`, docs/docker.md "Dangerous settings").
 */
export interface DockerAllowances {
  /** `privileged: true`. */
  readonly privileged: boolean
  /** `network: host` (and `container:<id>`), the host's network namespace. */
  readonly hostNetwork: boolean
  /** `pid_mode: host`, the host's process namespace. */
  readonly hostPid: boolean
  /** `mounts: [{type: bind}]`, a folder of the host. */
  readonly bindMounts: boolean
}

export const noAllowances: DockerAllowances = {
  privileged: false,
  hostNetwork: false,
  hostPid: false,
  bindMounts: false
}

export interface DockerProvisionerOptions {
  readonly docker: Docker
  readonly allow?: Partial<DockerAllowances> | undefined
  /**
   * The network of containers whose template names none: the deployment's choice, so `host`
   * here needs no allowance (default `bridge`).
   */
  readonly defaultNetwork?: string | undefined
  /**
   * The service's URL as agents in containers reach it. Default: the access URL for containers
   * on the host's network; for others the access URL with a loopback host (`localhost`,
   * `127.0.0.1`, `[::1]`) replaced by `host.docker.internal`, which every container is given
   * (the host's gateway), as the described system's Docker template does.
   */
  readonly agentUrl?: string | undefined
  /** Pull an image that is not on the daemon (default true). */
  readonly pull?: boolean | undefined
  /** The longest a pull may take (default 10 minutes). */
  readonly pullTimeout?: Duration.DurationInput | undefined
}

/** The driver's state (inside the build's state): what the build made, for the record. */
export interface DockerState {
  readonly containers: ReadonlyArray<{ readonly resource: string; readonly id: string; readonly name: string }>
  readonly volumes: ReadonlyArray<{ readonly resource: string; readonly name: string }>
}

/** A container as a start makes it, worked out before the first call to the daemon. */
interface ContainerPlan {
  readonly network: string
  readonly agentUrl: string
  readonly spec: ContainerSpec
  readonly memory: number | undefined
  readonly cpus: number | undefined
  readonly name: string
}

/** The most problems a failed build lists. */
const MAX_PROBLEMS = 10

const isHostNetwork = (network: string) => network === "host" || network.startsWith("container:")

/** The allowances' rules on one container spec (a template's, or one a build substituted). */
const containerIssues = (
  spec: ContainerSpec,
  allow: DockerAllowances,
  at: ReadonlyArray<PropertyKey>,
  defaultNetwork: string
): Array<TemplateIssue> => {
  const issues: Array<TemplateIssue> = []
  const refuse = (key: ReadonlyArray<PropertyKey>, what: string, flag: string) =>
    issues.push({
      path: [...at, ...key],
      message: `${what} is refused on this deployment (an operator may allow it with --docker-allow ${flag})`
    })
  if (spec.privileged === true && !allow.privileged) refuse(["privileged"], "a privileged container", "privileged")
  if (spec.pid_mode === "host" && !allow.hostPid) refuse(["pid_mode"], "the host's process namespace", "host-pid")
  const network = spec.network ?? defaultNetwork
  if (spec.network !== undefined && isHostNetwork(network) && !allow.hostNetwork) {
    refuse(["network"], `network "${network}" (the host's or another container's network)`, "host-network")
  }
  spec.mounts?.forEach((m, j) => {
    if (m.type === "bind" && !allow.bindMounts) refuse(["mounts", j, "type"], "a host path (bind) mount", "bind-mounts")
  })
  return issues
}

/** Every string of a spec with references substituted (keys stay as written). */
const substituteDeep = <A>(value: A, subs: Substitutions): A => {
  if (typeof value === "string") return substitute(value, subs) as A
  if (typeof value === "number" || typeof value === "boolean") return value
  if (Array.isArray(value)) return value.map((v) => substituteDeep(v, subs)) as A
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteDeep(v, subs)])) as A
  }
  return value
}

const LOOPBACK = /^(localhost|127(?:\.\d+){3}|\[::1\])$/i

/** The access URL as a container on `network` reaches it. */
export const agentUrlFor = (accessUrl: string, network: string): string => {
  if (isHostNetwork(network)) return accessUrl
  try {
    const url = new URL(accessUrl)
    if (!LOOPBACK.test(url.hostname)) return accessUrl
    url.hostname = "host.docker.internal"
    return url.toString().replace(/\/$/, "")
  } catch {
    return accessUrl
  }
}

const sanitize = (text: string) => text.toLowerCase().replace(/[^a-z0-9_.-]+/g, "-").replace(/^[^a-z0-9]+/, "")

const formatBytes = (bytes: number) => {
  for (const [unit, size] of [["GiB", 1024 ** 3], ["MiB", 1024 ** 2]] as const) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(2))} ${unit}`
  }
  return `${bytes} B`
}

/** Builds the `docker` provisioner over `options.docker`. */
export const makeDockerProvisioner = (options: DockerProvisionerOptions): Provisioner => {
  // Whoever made the client, this provisioner's calls never follow a redirect (Client.ts).
  const docker = refuseRedirects(options.docker)
  const allow: DockerAllowances = { ...noAllowances, ...options.allow }
  const defaultNetwork = options.defaultNetwork ?? "bridge"
  const pullTimeout = options.pullTimeout ?? Duration.minutes(10)

  const rules = (template: TemplateSpec): ReadonlyArray<TemplateIssue> => [
    ...(template.resources ?? []).flatMap((r, i) =>
      r.container === undefined
        ? []
        : containerIssues(r.container, allow, ["resources", i, "container"], defaultNetwork)
    ),
    ...literalIssues(template)
  ]

  const apply = (ctx: TemplateApply) =>
    Effect.gen(function*() {
      const { input } = ctx
      const { stage } = ctx
      const metadata = input.metadata
      if (metadata === undefined) {
        return yield* ctx.fail(stage, "The docker provisioner needs the build's metadata (deployment and build ids).")
      }
      const selector = workspaceSelector(metadata.deployment_id, input.workspace.id)
      const labels = (resource: string): Record<string, string> => ({
        ...selector,
        [LABEL_WORKSPACE_NAME]: input.workspace.name,
        [LABEL_OWNER_ID]: metadata.workspace_owner_id,
        [LABEL_OWNER_NAME]: input.workspace.owner,
        [LABEL_BUILD_ID]: metadata.workspace_build_id,
        [LABEL_BUILD_NUMBER]: String(metadata.build_number),
        [LABEL_TEMPLATE_ID]: metadata.template_id,
        [LABEL_RESOURCE]: resource
      })
      /**
       * Removes this workspace's containers (of one resource, or all but those of the resources
       * `except` names), stopping each first.
       */
      const removeContainers = (extra: Record<string, string> = {}, except: ReadonlySet<string> = new Set()) =>
        Effect.gen(function*() {
          const listed = yield* call(
            "list the workspace's containers",
            () => docker.listContainers({ all: true, filters: labelFilter({ ...selector, ...extra }) })
          )
          const found = listed.filter((c) => !except.has(c.Labels[LABEL_RESOURCE] ?? ""))
          for (const c of found) {
            const name = (c.Names[0] ?? c.Id).replace(/^\//, "")
            if (c.State === "running") {
              yield* call(`stop the container ${name}`, () => docker.getContainer(c.Id).stop({ t: 10 }))
                .pipe(Effect.catchIf((e) => e.status === 304 || e.status === 404, () => Effect.void))
            }
            yield* orMissing(
              call(`remove the container ${name}`, () => docker.getContainer(c.Id).remove({ force: true, v: false }))
            )
            yield* ctx.log("info", stage, `Container ${name}: removed.`)
          }
          return found.length
        })

      const volumeName = (r: { name: string }, spec: { name?: string | undefined } | undefined) =>
        spec?.name !== undefined && spec.name !== "" ? spec.name : `workbay-${input.workspace.id}-${sanitize(r.name)}`

      const templateResources = ctx.template.resources ?? []
      const volumeSpecs = new Map(
        templateResources.filter((r) => r.type === DOCKER_VOLUME).map((r) => [
          r.name,
          substituteDeep(r.volume ?? {}, ctx.subs)
        ])
      )

      /** A container as this build makes it: its spec with references, tokens and init scripts substituted. */
      const planContainer = (r: ProvisionedResource, written: ContainerSpec) =>
        Effect.gen(function*() {
          const network = written.network === undefined ? defaultNetwork : substitute(written.network, ctx.subs)
          const agentUrl = options.agentUrl ?? agentUrlFor(metadata.access_url, network)
          const agents = new Map<string, { token: string; init_script: string }>()
          for (const a of r.agents) {
            const script = input.agentInitScript?.(a.operating_system, a.architecture, agentUrl)
            if (script === undefined) {
              return yield* ctx.fail(
                stage,
                `No init script for agent "${a.name}" (${a.operating_system}-${a.architecture}) on this deployment.`
              )
            }
            agents.set(a.name, { token: yield* input.agentToken(a.name), init_script: script })
          }
          const spec = substituteDeep(written, { ...ctx.subs, agents })
          // A parameter may have made the spec what the template's own could not be.
          const issues = containerIssues(spec, allow, [], defaultNetwork)
          if (issues.length > 0) return yield* ctx.fail(stage, `Container ${r.name}: ${issues[0]!.message}.`)
          const memory = spec.memory === undefined ? undefined : parseMemory(spec.memory)
          if (spec.memory !== undefined && memory === undefined) {
            return yield* ctx.fail(
              stage,
              `Container ${r.name}: memory "${spec.memory}" is not a size such as 512m or 2g, at least 6m.`
            )
          }
          const cpus = spec.cpus === undefined ? undefined : parseCpus(spec.cpus)
          if (spec.cpus !== undefined && cpus === undefined) {
            return yield* ctx.fail(stage, `Container ${r.name}: cpus "${spec.cpus}" is not a number of CPUs above 0.`)
          }
          const name = spec.name !== undefined && spec.name !== ""
            ? spec.name
            : sanitize(`workbay-${input.workspace.owner}-${input.workspace.name}-${input.workspace.id.slice(0, 8)}`)
          return { network, agentUrl, spec, memory, cpus, name } satisfies ContainerPlan
        })

      if (input.transition !== "start") {
        const removed = yield* removeContainers()
        if (removed === 0) yield* ctx.log("info", stage, "No container of this workspace is running.")
        if (input.transition === "delete") {
          const volumes = yield* call(
            "list the workspace's volumes",
            () => docker.listVolumes({ filters: labelFilter(selector) })
          )
          for (const v of volumes.Volumes ?? []) {
            yield* orMissing(call(`remove the volume ${v.Name}`, () => docker.getVolume(v.Name).remove()))
            yield* ctx.log("info", stage, `Volume ${v.Name}: removed.`)
          }
        }
        const kept = ctx.resources.map((r) => {
          if (r.type !== DOCKER_VOLUME) return r
          const name = volumeName(r, volumeSpecs.get(r.name))
          return { ...r, metadata: [...r.metadata, { key: "volume", value: name, sensitive: false }] }
        })
        return {
          resources: kept,
          state: { containers: [], volumes: [] } satisfies DockerState
        }
      }

      // start: every value the daemon is to be given is worked out and checked before the first call to it.
      const plans = new Map<ProvisionedResource, ContainerPlan>()
      const problems: Array<string> = []
      for (const r of ctx.resources) {
        const written = templateResources.find((t) => t.type === r.type && t.name === r.name)
        if (r.type === DOCKER_VOLUME) {
          const spec = volumeSpecs.get(r.name) ?? {}
          problems.push(
            ...builtProblems(`${r.type}.${r.name}`, { volume: { ...spec, name: volumeName(r, spec) } }, written ?? {})
          )
        } else if (r.type === DOCKER_CONTAINER && written?.container !== undefined) {
          const plan = yield* planContainer(r, written.container)
          plans.set(r, plan)
          problems.push(
            ...builtProblems(
              `${r.type}.${r.name}`,
              { container: { ...plan.spec, name: plan.name, network: plan.network } },
              written
            )
          )
        }
      }
      if (problems.length > 0) return yield* ctx.fail(stage, problems.slice(0, MAX_PROBLEMS).join("\n"))

      // Then the containers of resources this version no longer has (an update that renamed one).
      yield* removeContainers(
        {},
        new Set(ctx.resources.filter((r) => r.type === DOCKER_CONTAINER).map((r) => `${r.type}.${r.name}`))
      )
      const state: {
        containers: Array<DockerState["containers"][number]>
        volumes: Array<DockerState["volumes"][number]>
      } = { containers: [], volumes: [] }
      const built = new Map<ProvisionedResource, ProvisionedResource>()
      const byKind = (r: ProvisionedResource) => (r.type === DOCKER_VOLUME ? 0 : 1)
      // Volumes first, so containers mount them whatever the template's order.
      for (const r of [...ctx.resources].sort((a, b) => byKind(a) - byKind(b))) {
        if (r.type === DOCKER_VOLUME) {
          const spec = volumeSpecs.get(r.name)
          const name = volumeName(r, spec)
          const existing = yield* orMissing(call(`inspect the volume ${name}`, () => docker.getVolume(name).inspect()))
          if (existing === undefined) {
            yield* call(
              `create the volume ${name}`,
              () => docker.createVolume({ Name: name, Labels: { ...spec?.labels, ...labels(`${r.type}.${r.name}`) } })
            )
            yield* ctx.log("info", stage, `Volume ${name}: created.`)
          } else {
            const own = existing.Labels ?? {}
            if (own[LABEL_DEPLOYMENT] !== metadata.deployment_id || own[LABEL_WORKSPACE_ID] !== input.workspace.id) {
              return yield* ctx.fail(
                stage,
                `A volume named ${name} exists that this workspace did not make; Workbay leaves it alone. Name another volume in the template, or remove that one.`
              )
            }
            yield* ctx.log("info", stage, `Volume ${name}: found, kept from an earlier build.`)
          }
          state.volumes.push({ resource: r.name, name })
          built.set(r, { ...r, metadata: [...r.metadata, { key: "volume", value: name, sensitive: false }] })
          continue
        }
        const plan = plans.get(r)
        if (plan === undefined) continue
        const { agentUrl, cpus, memory, name, network, spec } = plan
        /** The resource as built, on container `id` named `named`. */
        const madeOn = (id: string, named: string, agents: ReadonlyArray<ProvisionedAgent>): ProvisionedResource => {
          const extra: Array<ResourceMetadata> = [
            { key: "image", value: spec.image, sensitive: false },
            { key: "container_id", value: id.slice(0, 12), sensitive: false },
            { key: "container_name", value: named, sensitive: false },
            { key: "memory", value: memory === undefined ? "unlimited" : formatBytes(memory), sensitive: false },
            ...(cpus === undefined ? [] : [{ key: "cpus", value: String(cpus), sensitive: false }]),
            { key: "network", value: network, sensitive: false }
          ]
          const taken = new Set(r.metadata.map((m) => m.key))
          return { ...r, agents, metadata: [...r.metadata, ...extra.filter((m) => !taken.has(m.key))] }
        }

        // A claimed prebuilt workspace keeps its running container: its agent reinitializes as the
        // new owner's (docs/prebuilds.md, "Claiming"), so the workspace is ready without a new machine.
        if (metadata.prebuilt_workspace_build_stage === "claim") {
          const running = (yield* call(
            "list the workspace's containers",
            () =>
              docker.listContainers({
                filters: labelFilter({ ...selector, [LABEL_RESOURCE]: `${r.type}.${r.name}` })
              })
          )).find((c) => c.State === "running")
          if (running !== undefined) {
            const named = (running.Names[0] ?? running.Id).replace(/^\//, "")
            yield* ctx.log(
              "info",
              stage,
              `Container ${named}: kept running for the new owner, ${input.workspace.owner}; its agents reinitialize.`
            )
            state.containers.push({ resource: r.name, id: running.Id, name: named })
            built.set(r, madeOn(running.Id, named, keptAgents(r).agents))
            continue
          }
          yield* ctx.log("info", stage, "The prebuilt workspace's container is not running: making a new one.")
        }

        // The image: on the daemon, or pulled.
        const image = yield* orMissing(
          call(`inspect the image ${spec.image}`, () => docker.getImage(spec.image).inspect())
        )
        if (image === undefined) {
          if (options.pull === false) {
            return yield* ctx.fail(
              stage,
              `The image ${spec.image} is not on the Docker daemon, and this deployment does not pull images.`
            )
          }
          yield* ctx.log("info", stage, `Image ${spec.image}: not on the daemon; pulling.`)
          yield* pull(docker, spec.image, pullTimeout)
          yield* ctx.log("info", stage, `Image ${spec.image}: pulled.`)
        } else {
          yield* ctx.log("info", stage, `Image ${spec.image}: found (${image.Id.slice(0, 19)}).`)
        }

        // A container of this resource left by an earlier build (one that crashed or was killed) goes first.
        yield* removeContainers({ [LABEL_RESOURCE]: `${r.type}.${r.name}` })

        const volumeNames = new Map(state.volumes.map((v) => [v.resource, v.name]))
        const hostConfig: Docker.HostConfig = {
          NetworkMode: network,
          Mounts: (spec.mounts ?? []).map((m) => ({
            Type: m.type,
            Source: m.type === "volume" ? volumeNames.get(m.source ?? "") ?? m.source ?? "" : m.source ?? "",
            Target: m.target,
            ReadOnly: m.read_only ?? false
          })),
          ...(isHostNetwork(network) || network === "none"
            ? {}
            : { ExtraHosts: ["host.docker.internal:host-gateway"] }),
          ...(memory === undefined ? {} : { Memory: memory }),
          ...(cpus === undefined ? {} : { NanoCpus: Math.round(cpus * 1e9) }),
          Init: spec.init ?? true,
          ...(spec.privileged === true ? { Privileged: true } : {}),
          ...(spec.pid_mode === "host" ? { PidMode: "host" } : {})
        }
        const created = yield* call(`create the container ${name}`, () =>
          docker.createContainer({
            name,
            Image: spec.image,
            ...(spec.hostname === undefined ? {} : { Hostname: spec.hostname }),
            ...(spec.entrypoint === undefined ? {} : { Entrypoint: [...spec.entrypoint] }),
            ...(spec.command === undefined ? {} : { Cmd: [...spec.command] }),
            ...(spec.user === undefined ? {} : { User: spec.user }),
            ...(spec.working_dir === undefined ? {} : { WorkingDir: spec.working_dir }),
            // Each value is one environment entry as written: data, never shell.
            Env: Object.entries(spec.env ?? {}).map(([k, v]) => `${k}=${String(v)}`),
            Labels: { ...spec.labels, ...labels(`${r.type}.${r.name}`) },
            ...(spec.stop_timeout_seconds === undefined ? {} : { StopTimeout: spec.stop_timeout_seconds }),
            HostConfig: hostConfig
          }))
        yield* ctx.log("info", stage, `Container ${name}: created (${created.id.slice(0, 12)}).`)
        yield* call(`start the container ${name}`, () => created.start()).pipe(
          // A container that cannot start is not left behind.
          Effect.tapError(() =>
            Effect.ignore(call(`remove the container ${name}`, () => created.remove({ force: true })))
          )
        )
        yield* ctx.log("info", stage, `Container ${name}: started.`)
        for (const a of r.agents) {
          yield* ctx.log(
            "info",
            stage,
            `Agent "${a.name}": the container's init script fetches it from ${agentUrl}/bin/workbay-agent-${a.operating_system}-${a.architecture}; if the agent does not connect within ${a.connection_timeout_seconds} s, the container cannot reach that URL (docs/docker.md, "The agent does not connect"; docker logs ${name}).`
          )
        }
        state.containers.push({ resource: r.name, id: created.id, name })
        built.set(r, madeOn(created.id, name, r.agents))
      }
      return { resources: ctx.resources.map((r) => built.get(r) ?? r), state: state satisfies DockerState }
    }).pipe(
      Effect.catchTag("DockerError", (e) =>
        ctx.fail(
          ctx.stage,
          `Could not ${e.action}: ${e.message}${e.status === 0 ? "" : ` (Docker answered ${e.status})`}`
        )),
      Effect.withSpan("DockerProvisioner.apply")
    )

  return {
    ...makeTemplateProvisioner({ type: DOCKER_PROVISIONER, driver: { rules, apply } }),
    moveVolumes: (input) => moveVolumes(docker, input)
  }
}

/** The most of a progress line a pull holds while it waits for the line's end. */
const MAX_PROGRESS_LINE = 1024 * 1024

/**
 * Pulls `image`, waiting for the daemon to finish; a failure carries the daemon's message. The
 * progress is read here, not by docker-modem's `followProgress`, whose `JSON.parse` of a line that
 * is not JSON throws inside the stream's event and ends the process; here such a line fails the pull.
 * A pull that times out closes its stream.
 */
const pull = (docker: Docker, image: string, timeout: Duration.DurationInput) =>
  call(
    `pull the image ${image}`,
    (signal) =>
      new Promise<void>((resolve, reject) => {
        docker.pull(image, {}, (error: unknown, stream: NodeJS.ReadableStream | undefined) => {
          if (error !== null && error !== undefined) return reject(error)
          if (stream === undefined) return reject(new Error("the daemon sent no progress"))
          const close = () => (stream as { destroy?: (e?: Error) => void }).destroy?.()
          if (signal.aborted) return close()
          signal.addEventListener("abort", close, { once: true })
          let buffered = ""
          let failed: string | undefined
          const read = (line: string) => {
            if (line.trim() === "" || failed !== undefined) return
            try {
              const progress = JSON.parse(line) as { error?: unknown } | null
              if (typeof progress?.error === "string") failed = progress.error
            } catch {
              failed = `the daemon's pull progress is not JSON: ${line.slice(0, 100)}`
            }
          }
          stream.on("data", (chunk: Buffer | string) => {
            buffered += chunk.toString()
            let newline = buffered.indexOf("\n")
            while (newline >= 0) {
              read(buffered.slice(0, newline))
              buffered = buffered.slice(newline + 1)
              newline = buffered.indexOf("\n")
            }
            if (buffered.length > MAX_PROGRESS_LINE) {
              failed ??= "the daemon's pull progress has a line longer than 1 MiB"
              buffered = ""
            }
          })
          stream.on("error", reject)
          stream.on("end", () => {
            read(buffered)
            if (failed === undefined) resolve()
            else reject(new Error(failed))
          })
          // After "end" this changes nothing; before it, the daemon went away in the middle of the pull.
          stream.on("close", () => reject(new Error("the daemon closed the pull before it finished")))
        })
      }),
    timeout
  )
