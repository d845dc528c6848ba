/**
 * The daemon's side of the external provisioner daemon protocol (docs/provisioner-daemons.md):
 * what `workbay provisioner start` runs on each Docker host. Over one link to the service it takes
 * a job (`acquire`), runs it with a provisioner of its own process (the Docker driver: the same
 * code as the service's in-process one), streams the job's log lines, asks the service for the
 * agents' tokens, heart-beats, and answers `complete` or `fail`; a `cancel` interrupts the job.
 *
 * The mirror of ExternalDaemon.ts (the service's side). Both speak over a plain message link, so
 * core's tests run them against each other without a network, and the CLI gives this one a
 * WebSocket.
 */
import { Cause, Deferred, Duration, Effect, Either, Fiber, Option, Schedule, Schema, type Scope } from "effect"
import { lazily } from "../Lazily.js"
import {
  type BuildInput,
  type BuildResult,
  type ImportResult,
  type MoveLink,
  ProvisionerFailure,
  type ProvisionerLog,
  type ProvisionerRegistry,
  QuotaExceeded,
  workspaceTransitions
} from "./Provisioner.js"
import type { HostCapacity } from "./ProvisionerHost.js"

/** A message link to the service: the WebSocket of the serve route, as the CLI adapts it. */
export interface DaemonLink {
  readonly send: (text: string) => Effect.Effect<void>
  /** The next message; fails once the link is closed. */
  readonly receive: Effect.Effect<string, unknown>
  /** Closes the link as a daemon that is done (1000). */
  readonly close: Effect.Effect<void>
}

export interface DaemonClientOptions {
  /** The provisioners this daemon runs jobs with, by type (it serves the types the service welcomed it for). */
  readonly provisioners: ProvisionerRegistry
  /** The agents' init scripts, for builds whose containers start an agent. */
  readonly agentInitScript?: ((os: string, arch: string, accessUrl: string) => string | undefined) | undefined
  /** A line about what the daemon does: a job taken, how it ended, a refusal. */
  readonly log?: ((line: string) => Effect.Effect<void>) | undefined
  /**
   * Completes when the daemon should stop: it takes no further job, lets the one it runs finish,
   * then closes the link (a graceful stop on SIGTERM).
   */
  readonly stop?: Effect.Effect<void> | undefined
  /**
   * The host's capacity, reported every `capacity_interval_ms` the welcome asks for (protocol 1.2;
   * only to a connection that named its `host`). A failed reading is logged and skipped.
   */
  readonly capacity?: Effect.Effect<HostCapacity, unknown> | undefined
  /**
   * Opens a move's link (protocol 1.3): a WebSocket to the service's `path` with the one-time
   * `token`. Without it the daemon fails every move.
   */
  readonly openMoveLink?:
    | ((stream: { readonly path: string; readonly token: string }) => Effect.Effect<MoveLink, ProvisionerFailure>)
    | undefined
}

/** The service's `welcome`: who this connection is. */
export const DaemonWelcome = Schema.Struct({
  type: Schema.Literal("welcome"),
  protocol: Schema.String,
  daemon_id: Schema.String,
  name: Schema.String,
  organization_id: Schema.String,
  provisioners: Schema.Array(Schema.String),
  tags: Schema.Record({ key: Schema.String, value: Schema.String }),
  heartbeat_interval_ms: Schema.Number,
  /** Since 1.2, to a connection that named its `host`: how often to report the host's capacity. */
  capacity_interval_ms: Schema.optional(Schema.Number)
})
export type DaemonWelcome = typeof DaemonWelcome.Type

const NameValues = Schema.Array(Schema.Struct({ name: Schema.String, value: Schema.String }))

/** The service's `job`: what both sides of the protocol hold it to (ExternalDaemon.ts writes it). */
export const DaemonJob = Schema.Struct({
  type: Schema.Literal("job"),
  job_id: Schema.String,
  job_type: Schema.String,
  provisioner: Schema.String,
  operation: Schema.Literal("import", "build", "move"),
  import: Schema.optional(Schema.Struct({
    archive: Schema.String,
    content_type: Schema.String,
    variable_values: NameValues
  })),
  build: Schema.optional(Schema.Struct({
    archive: Schema.String,
    content_type: Schema.String,
    transition: Schema.Literal(...workspaceTransitions),
    variable_values: NameValues,
    parameter_values: NameValues,
    previous_state: Schema.String,
    workspace: Schema.Struct({ id: Schema.String, name: Schema.String, owner: Schema.String }),
    task: Schema.optional(Schema.Struct({ id: Schema.String, prompt: Schema.String })),
    metadata: Schema.optional(Schema.Struct({
      deployment_id: Schema.String,
      access_url: Schema.String,
      workspace_build_id: Schema.String,
      build_number: Schema.Number,
      workspace_owner_id: Schema.String,
      template_id: Schema.String,
      template_name: Schema.String,
      template_version_id: Schema.String,
      prebuilt_workspace_build_stage: Schema.optional(Schema.Literal("claim"))
    }))
  })),
  /** Since 1.3: one side of a move of a stopped workspace's volumes (docs/provisioner-daemons.md, "Moving a workspace"). */
  move: Schema.optional(Schema.Struct({
    side: Schema.Literal("export", "import", "cleanup"),
    deployment_id: Schema.String,
    workspace_id: Schema.String,
    images: Schema.Array(Schema.String),
    /** The link's path on the service (export and import), opened with `token` in `Workbay-Move-Token`. */
    stream_path: Schema.String,
    token: Schema.String
  }))
})
type Job = typeof DaemonJob.Type

const ServerMessage = Schema.Union(
  DaemonWelcome,
  DaemonJob,
  Schema.Struct({
    type: Schema.Literal("agent_token"),
    job_id: Schema.String,
    name: Schema.String,
    token: Schema.String
  }),
  Schema.Struct({ type: Schema.Literal("cancel"), job_id: Schema.String }),
  Schema.Struct({
    type: Schema.Literal("quota"),
    job_id: Schema.String,
    ok: Schema.Boolean,
    message: Schema.optional(Schema.String)
  }),
  Schema.Struct({
    type: Schema.Literal("job_done"),
    job_id: Schema.String,
    status: Schema.String,
    error: Schema.String
  }),
  Schema.Struct({ type: Schema.Literal("error"), code: Schema.String, message: Schema.String })
)
const decodeServerMessage = lazily(() => Schema.decodeUnknownEither(Schema.parseJson(ServerMessage)))

const fromBase64 = (text: string) => new Uint8Array(Buffer.from(text, "base64"))
const toBase64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64")

/** An import's result as the protocol's `complete` carries it (its log lines went as `log` messages). */
const importWire = ({ logs: _logs, ...result }: ImportResult) => result

/** A build's result as the protocol's `complete` carries it. */
const buildWire = (result: BuildResult) => ({
  resources: result.resources,
  state: toBase64(result.state),
  has_ai_task: result.has_ai_task,
  has_external_agent: result.has_external_agent
})

/** A running job: its fiber, the agent tokens asked for it, and its quota commit waiting for an answer. */
interface Running {
  readonly id: string
  readonly tokens: Map<string, Deferred.Deferred<string>>
  quota?: Deferred.Deferred<void, QuotaExceeded>
  fiber?: Fiber.RuntimeFiber<void>
}

/**
 * Runs one link's session until the link closes or the daemon stopped: answers the service's
 * welcome (None when the link closed before it). One job at a time, as the protocol has it; a
 * daemon runs several links for several at once.
 */
export const runDaemonSession = (
  link: DaemonLink,
  options: DaemonClientOptions
): Effect.Effect<Option.Option<DaemonWelcome>> =>
  Effect.scoped(Effect.gen(function*() {
    const log = options.log ?? (() => Effect.void)
    const send = (message: object) => link.send(JSON.stringify(message)).pipe(Effect.ignore)
    const next = Effect.map(Effect.either(link.receive), (e) =>
      Either.match(e, {
        onLeft: () => undefined,
        onRight: (text) => Either.getOrUndefined(decodeServerMessage(text))
      }))

    const first = yield* next
    if (first?.type !== "welcome") return Option.none()
    const welcome = first
    const beat = Duration.millis(Math.max(100, welcome.heartbeat_interval_ms))
    const every = (message: object) => Effect.forever(Effect.delay(send(message), beat))
    yield* Effect.forkScoped(every({ type: "heartbeat" }))
    const capacity = options.capacity
    if (capacity !== undefined && welcome.capacity_interval_ms !== undefined) {
      const report = capacity.pipe(
        Effect.flatMap((figures) => send({ type: "capacity", ...figures })),
        Effect.catchAllCause((cause) => log(`Could not read the host's capacity: ${Cause.pretty(cause)}`))
      )
      yield* Effect.forkScoped(Effect.repeat(
        report,
        Schedule.spaced(Duration.millis(Math.max(100, welcome.capacity_interval_ms)))
      ))
    }

    let running: Running | undefined
    let stopping = false
    const stopped = yield* Deferred.make<void>()
    if (options.stop !== undefined) {
      yield* Effect.forkScoped(Effect.zipRight(
        options.stop,
        Effect.suspend(() => {
          stopping = true
          // Between jobs: close now; else once the running job ended (its job_done).
          return running === undefined ? Deferred.succeed(stopped, undefined) : Effect.void
        })
      ))
    }

    /** Runs one job with this process's provisioner of its type, answering `complete` or `fail`. */
    const runJob = (job: Job, current: Running): Effect.Effect<void, never, Scope.Scope> =>
      Effect.gen(function*() {
        yield* Effect.forkScoped(every({ type: "heartbeat", job_id: job.job_id }))
        const fail = (error: string, extra: object = {}) => send({ type: "fail", job_id: job.job_id, error, ...extra })
        const provisioner = options.provisioners.get(job.provisioner)
        if (Option.isNone(provisioner)) {
          return yield* fail(`This provisioner daemon runs no provisioner of type "${job.provisioner}".`)
        }
        const onLog = (line: ProvisionerLog) =>
          send({
            type: "log",
            job_id: job.job_id,
            logs: [{
              level: line.level,
              stage: line.stage,
              output: line.output,
              created_at: line.created_at.toISOString()
            }]
          })
        const answer = (result: Either.Either<object, ProvisionerFailure>) =>
          Either.match(result, {
            onLeft: (failure) =>
              fail(failure.message, {
                ...(failure.error_code === undefined ? {} : { error_code: failure.error_code }),
                ...(failure.variables === undefined ? {} : { variables: failure.variables })
              }),
            onRight: (wire) => send({ type: "complete", job_id: job.job_id, result: wire })
          })
        if (job.operation === "import" && job.import !== undefined) {
          const given = job.import
          const result = yield* Effect.either(provisioner.value.import({
            archive: fromBase64(given.archive),
            content_type: given.content_type,
            variable_values: given.variable_values,
            onLog
          }))
          return yield* answer(Either.map(result, importWire))
        }
        if (job.operation === "build" && job.build !== undefined) {
          const given = job.build
          const agentToken = (name: string) =>
            Effect.gen(function*() {
              const known = current.tokens.get(name)
              if (known !== undefined) return yield* Deferred.await(known)
              const token = yield* Deferred.make<string>()
              current.tokens.set(name, token)
              yield* send({ type: "agent_token", job_id: job.job_id, name })
              return yield* Deferred.await(token)
            })
          // The planned cost goes to the service, which checks it against the owner's quota (`commit_quota`).
          const commitQuota = (dailyCost: number) =>
            Effect.gen(function*() {
              const answer = yield* Deferred.make<void, QuotaExceeded>()
              current.quota = answer
              yield* send({ type: "commit_quota", job_id: job.job_id, daily_cost: Math.max(0, Math.round(dailyCost)) })
              return yield* Deferred.await(answer)
            })
          const input: BuildInput = {
            archive: fromBase64(given.archive),
            content_type: given.content_type,
            transition: given.transition,
            variable_values: given.variable_values,
            parameter_values: given.parameter_values,
            previous_state: fromBase64(given.previous_state),
            workspace: given.workspace,
            ...(given.task === undefined ? {} : { task: given.task }),
            ...(given.metadata === undefined ? {} : { metadata: given.metadata }),
            agentToken,
            commitQuota,
            onLog,
            agentInitScript: options.agentInitScript
          }
          const result = yield* Effect.either(provisioner.value.build(input))
          return yield* answer(Either.map(result, buildWire))
        }
        if (job.operation === "move" && job.move !== undefined) {
          const given = job.move
          const moveVolumes = provisioner.value.moveVolumes
          if (moveVolumes === undefined) {
            return yield* fail(`The ${job.provisioner} provisioner of this daemon cannot move workspaces.`)
          }
          const openLink = options.openMoveLink
          const result = yield* Effect.either(moveVolumes({
            side: given.side,
            deployment_id: given.deployment_id,
            workspace_id: given.workspace_id,
            images: given.images,
            stream: { path: given.stream_path, token: given.token },
            openLink: openLink ??
              (() =>
                Effect.fail(
                  new ProvisionerFailure({ message: "This provisioner daemon cannot open a move's link.", logs: [] })
                )),
            onLog
          }))
          return yield* answer(result)
        }
        return yield* fail(`The job's ${job.operation} has no input.`)
      }).pipe(Effect.scoped)

    const reader = Effect.gen(function*() {
      yield* send({ type: "acquire" })
      while (true) {
        const message = yield* next
        if (message === undefined) {
          // Closed (or a message this daemon cannot read: the service never sends one).
          if (running !== undefined && running.fiber !== undefined) yield* Fiber.interrupt(running.fiber)
          return
        }
        switch (message.type) {
          case "job": {
            const current: Running = { id: message.job_id, tokens: new Map() }
            running = current
            yield* log(`job ${message.job_id}: ${message.job_type} (${message.provisioner}) taken`)
            current.fiber = yield* Effect.forkScoped(runJob(message, current))
            break
          }
          case "agent_token": {
            const token = running?.id === message.job_id ? running.tokens.get(message.name) : undefined
            if (token !== undefined) yield* Deferred.succeed(token, message.token)
            break
          }
          case "quota": {
            const waiting = running?.id === message.job_id ? running.quota : undefined
            if (waiting !== undefined) {
              yield* message.ok
                ? Deferred.succeed(waiting, undefined)
                : Deferred.fail(waiting, new QuotaExceeded({ message: message.message ?? "The quota is exceeded." }))
            }
            break
          }
          case "cancel": {
            if (running?.id === message.job_id && running.fiber !== undefined) {
              yield* log(`job ${message.job_id}: canceled`)
              yield* Effect.forkScoped(Fiber.interrupt(running.fiber))
            }
            break
          }
          case "job_done": {
            yield* log(`job ${message.job_id}: ${message.status}${message.error === "" ? "" : ` (${message.error})`}`)
            if (running?.id === message.job_id) running = undefined
            if (stopping) return yield* Deferred.succeed(stopped, undefined)
            yield* send({ type: "acquire" })
            break
          }
          case "error": {
            yield* log(`the service refused a message: ${message.code}: ${message.message}`)
            break
          }
        }
      }
    })

    yield* Effect.raceFirst(reader, Deferred.await(stopped))
    if (yield* Deferred.isDone(stopped)) yield* link.close
    return Option.some(welcome)
  }))
