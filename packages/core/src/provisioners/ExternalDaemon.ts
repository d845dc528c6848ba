/**
 * External provisioner daemons (docs/provisioner-daemons.md): the server side of one daemon's
 * connection, speaking the documented JSON protocol over any message channel (the HTTP layer
 * hands it a WebSocket).
 *
 * A connected daemon is a worker like the built-in ones and goes through the same code: the
 * claim (`ProvisionerJobs.acquire`, SKIP LOCKED on Postgres), `ProvisionerWorkers.runJob` (the
 * executor of the job's type, its log sink, heartbeats, cancel and hang handling, completion)
 * and the daemon rows. Only the provisioner differs: a *remote provisioner* whose `import` and
 * `build` send the job to the daemon and wait for its `complete` or `fail`. The daemon's
 * `heartbeat` messages (and its log lines) are the job's heartbeats, so a daemon that goes
 * silent is found hung by the hang detector; one that disconnects has its job failed at once.
 *
 *   daemon                                  server
 *     ── (upgrade with its key) ──────────>   register the daemon row
 *     <──────────────────────────── welcome
 *     ── acquire ─────────────────────────>   claim (waits until a job it serves is queued)
 *     <──────────────────────────────── job
 *     ── log*, heartbeat*, agent_token* ──>
 *     ── complete | fail ─────────────────>   the executor stores the result; the job ends
 *     <─────────────────────────── job_done
 *     (a cancel: <── cancel, then job_done with status canceled)
 */
import { Cause, Deferred, Duration, Effect, Either, Option, ParseResult, Queue, Schema, type Scope } from "effect"
import { Conflict } from "../Errors.js"
import { IdGenerator } from "../Ids.js"
import { lazily } from "../Lazily.js"
import { PubSub } from "../PubSub.js"
import type { DaemonJob, DaemonWelcome } from "./DaemonClient.js"
import { JobSignal } from "./JobSignal.js"
import {
  type BuildInput,
  type BuildResult,
  type ImportInput,
  type ImportResult,
  type Provisioner,
  ProvisionerFailure,
  type ProvisionerLog,
  type VolumeMoveInput,
  type VolumeMoveResult,
  workspaceTransitions
} from "./Provisioner.js"
import { ProvisionerDaemonRepo } from "./ProvisionerDaemon.js"
import { ProvisionerDaemons } from "./ProvisionerDaemons.js"
import { DEFAULT_CAPACITY_INTERVAL, HostCapacity } from "./ProvisionerHost.js"
import { ProvisionerHosts } from "./ProvisionerHosts.js"
import {
  jobStatus,
  logLevels,
  type ProvisionerJobRecord,
  type ProvisionerTags,
  type ProvisionerWorker
} from "./ProvisionerJob.js"
import { JOB_SIGNAL_JOB, jobLogsChannel, ProvisionerJobs } from "./ProvisionerJobs.js"
import type { ProvisionerKeyRecord } from "./ProvisionerKey.js"
import { provisionerKeyDeletedChannel, ProvisionerKeys } from "./ProvisionerKeys.js"
import { DEFAULT_LOG_FLUSH_INTERVAL, DEFAULT_POLL_INTERVAL, ProvisionerWorkers } from "./Worker.js"

/** The protocol's version, sent in `welcome`. */
export const DAEMON_PROTOCOL_VERSION = "1.3"

/** Close codes of a daemon's connection beside RFC 6455's (1000, 1001, 1009, 1011). */
export const DaemonCloseCode = {
  /** A message that is not JSON, has an unknown `type`, or bad fields. The reason says which. */
  badMessage: 4400
} as const

/** How often the server asks a daemon to heartbeat (its running job and, idle, itself). */
export const DEFAULT_DAEMON_HEARTBEAT_INTERVAL: Duration.Duration = Duration.seconds(10)

/** A message channel to one daemon: the WebSocket, as the HTTP layer adapts it. */
export interface DaemonChannel {
  readonly send: (text: string) => Effect.Effect<void, unknown>
  /** The next message; fails once the channel is closed. */
  readonly receive: Effect.Effect<string, unknown>
  readonly close: (code: number, reason: string) => Effect.Effect<void>
}

/** Who connected: from the serve route's query and the key it authenticated with. */
export interface DaemonHello {
  readonly name: string
  readonly provisioners: ReadonlyArray<string>
  /** The daemon's tags (the key's, mutated: no `scope` means `scope=organization`). */
  readonly tags: ProvisionerTags
  /** The daemon's build version (free text). */
  readonly version: string
  readonly api_version: string
  readonly key: ProvisionerKeyRecord
  /** The host the daemon runs jobs on (protocol 1.2): it reports the host's capacity. */
  readonly host?: string | undefined
}

export interface DaemonSessionOptions {
  /** Asked of the daemon in `welcome`; the hang timeout (5 minutes) should be many of these. Default 10 s. */
  readonly heartbeatInterval?: Duration.DurationInput | undefined
  /** How often a waiting `acquire` looks again (jobs queued by this process wake it at once). Default 1 s. */
  readonly pollInterval?: Duration.DurationInput | undefined
  readonly logFlushInterval?: Duration.DurationInput | undefined
  /** Asked of a daemon that named its host in `welcome`. Default 5 s. */
  readonly capacityInterval?: Duration.DurationInput | undefined
}

/**
 * Refuses (409) a daemon name held by a daemon of another organization or by a built-in worker:
 * a new connection takes over the row of its name, so a key of one organization must not take
 * over another's daemons. Run before the upgrade.
 */
export const checkDaemonName = (organizationId: string, name: string) =>
  Effect.flatMap(ProvisionerDaemonRepo, (repo) => repo.findByName(name)).pipe(
    Effect.flatMap((found) =>
      Option.isSome(found) && found.value.organization_id !== organizationId
        ? Effect.fail(
          new Conflict({
            message: `The provisioner daemon name "${name}" is taken.`,
            detail: "Choose another name (the name query parameter)."
          })
        )
        : Effect.void
    )
  )

// --- What a daemon sends ---

const Str = (max: number) => Schema.String.pipe(Schema.maxLength(max))
const def = <S extends Schema.Schema.Any>(schema: S, value: () => NoInfer<Schema.Schema.Type<S>>) =>
  Schema.optionalWith(schema, { default: value as never })
const opt = <S extends Schema.Schema.Any>(schema: S) =>
  Schema.optionalWith(Schema.UndefinedOr(schema), { default: () => undefined })

const LogLine = Schema.Struct({
  level: def(Schema.Literal(...logLevels), () => "info" as const),
  stage: def(Str(256), () => ""),
  output: Str(65536),
  /** ISO time; the server's time when left out. */
  created_at: opt(Schema.DateFromString)
})

const NameValue = Schema.Struct({ name: Str(256), value: Str(65536) })

const RichParameter = Schema.Struct({
  name: Str(256),
  display_name: def(Str(256), () => ""),
  description: def(Str(65536), () => ""),
  type: def(Schema.Literal("string", "number", "bool", "list(string)"), () => "string" as const),
  mutable: def(Schema.Boolean, () => false),
  ephemeral: def(Schema.Boolean, () => false),
  default_value: def(Str(65536), () => ""),
  icon: def(Str(2048), () => ""),
  order: def(Schema.Int, () => 0),
  options: def(
    Schema.Array(Schema.Struct({
      name: Str(256),
      description: def(Str(65536), () => ""),
      value: Str(65536),
      icon: def(Str(2048), () => "")
    })),
    () => []
  ),
  validation_regex: def(Str(4096), () => ""),
  validation_error: def(Str(4096), () => ""),
  validation_min: opt(Schema.Number),
  validation_max: opt(Schema.Number),
  validation_monotonic: def(Schema.Literal("", "increasing", "decreasing"), () => "" as const),
  required: def(Schema.Boolean, () => false),
  form_type: opt(Str(64)),
  dynamic: opt(Schema.Struct({
    options: opt(Str(65536)),
    default: opt(Str(65536)),
    visible: opt(Str(65536)),
    form_type: opt(Str(65536)),
    min: opt(Str(65536)),
    max: opt(Str(65536)),
    regex: opt(Str(65536)),
    error: opt(Str(65536))
  }))
})

const TemplateVariable = Schema.Struct({
  name: Str(256),
  description: def(Str(65536), () => ""),
  type: def(Schema.Literal("string", "number", "bool"), () => "string" as const),
  value: def(Str(65536), () => ""),
  default_value: def(Str(65536), () => ""),
  required: def(Schema.Boolean, () => false),
  sensitive: def(Schema.Boolean, () => false)
})

const AgentApp = Schema.Struct({
  slug: Str(64),
  display_name: def(Str(256), () => ""),
  icon: def(Str(2048), () => ""),
  url: def(Str(2048), () => ""),
  command: def(Str(65536), () => ""),
  subdomain: def(Schema.Boolean, () => false),
  sharing_level: def(Schema.Literal("owner", "authenticated", "organization", "public"), () => "owner" as const),
  external: def(Schema.Boolean, () => false),
  hidden: def(Schema.Boolean, () => false),
  open_in: def(Schema.Literal("slim-window", "tab"), () => "slim-window" as const),
  group: def(Str(256), () => ""),
  tooltip: def(Str(4096), () => ""),
  healthcheck: opt(Schema.Struct({ url: Str(2048), interval: Schema.Int, threshold: Schema.Int })),
  order: def(Schema.Int, () => 0)
})

const AgentScript = Schema.Struct({
  display_name: def(Str(256), () => ""),
  script: Str(65536),
  cron: def(Str(256), () => ""),
  run_on_start: def(Schema.Boolean, () => false),
  run_on_stop: def(Schema.Boolean, () => false),
  start_blocks_login: def(Schema.Boolean, () => false),
  timeout_seconds: def(Schema.Int, () => 0),
  log_path: def(Str(4096), () => "")
})

const Agent = Schema.Struct({
  name: Str(64),
  external: def(Schema.Boolean, () => false),
  instance_id: def(Str(256), () => ""),
  operating_system: def(Str(64), () => "linux"),
  architecture: def(Str(64), () => "amd64"),
  directory: def(Str(4096), () => ""),
  env: def(Schema.Record({ key: Str(256), value: Str(65536) }), () => ({})),
  connection_timeout_seconds: def(Schema.Int, () => 120),
  troubleshooting_url: def(Str(2048), () => ""),
  startup_script_behavior: def(Schema.Literal("blocking", "non-blocking"), () => "non-blocking" as const),
  display_apps: def(
    Schema.Struct({
      vscode: def(Schema.Boolean, () => true),
      vscode_insiders: def(Schema.Boolean, () => false),
      web_terminal: def(Schema.Boolean, () => true),
      ssh_helper: def(Schema.Boolean, () => true),
      port_forwarding_helper: def(Schema.Boolean, () => true)
    }),
    () => ({ vscode: true, vscode_insiders: false, web_terminal: true, ssh_helper: true, port_forwarding_helper: true })
  ),
  apps: def(Schema.Array(AgentApp), () => []),
  scripts: def(Schema.Array(AgentScript), () => []),
  metadata: opt(Schema.Array(Schema.Struct({
    key: Str(256),
    display_name: def(Str(256), () => ""),
    script: Str(65536),
    interval: def(Schema.Int, () => 60),
    timeout: def(Schema.Int, () => 10)
  }))),
  kept: opt(Schema.Boolean)
})

const Resource = Schema.Struct({
  name: Str(256),
  type: def(Str(256), () => "resource"),
  hide: def(Schema.Boolean, () => false),
  icon: def(Str(2048), () => ""),
  daily_cost: def(Schema.Int, () => 0),
  metadata: def(
    Schema.Array(Schema.Struct({ key: Str(256), value: Str(65536), sensitive: def(Schema.Boolean, () => false) })),
    () => []
  ),
  agents: def(Schema.Array(Agent), () => [])
})

/** The result of an import (`complete` of a `template_version_import` or dry run). */
export const DaemonImportResult = Schema.Struct({
  parameters: def(Schema.Array(RichParameter), () => []),
  variables: def(Schema.Array(TemplateVariable), () => []),
  resources: def(
    Schema.Array(
      Schema.Struct({ transition: Schema.Literal(...workspaceTransitions), resources: Schema.Array(Resource) })
    ),
    () => []
  ),
  external_auth_providers: def(
    Schema.Array(Schema.Struct({ id: Str(256), optional: def(Schema.Boolean, () => false) })),
    () => []
  ),
  presets: def(
    Schema.Array(Schema.Struct({
      name: Str(256),
      default: def(Schema.Boolean, () => false),
      parameters: def(Schema.Array(NameValue), () => []),
      prebuild: opt(Schema.Struct({ instances: Schema.Int }))
    })),
    () => []
  ),
  has_ai_task: def(Schema.Boolean, () => false),
  ai_task_app_slug: opt(Str(64)),
  has_external_agent: def(Schema.Boolean, () => false)
})

/** The result of a move's side (`complete` of a `workspace_move`): the volumes the import verified. */
export const DaemonMoveResult = Schema.Struct({
  volumes: def(
    Schema.Array(Schema.Struct({
      name: Str(256),
      bytes: Schema.Number.pipe(Schema.nonNegative(), Schema.finite()),
      sha256: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/))
    })).pipe(Schema.maxItems(1000)),
    () => []
  )
})

/** The result of a build (`complete` of a `workspace_build`). */
export const DaemonBuildResult = Schema.Struct({
  resources: def(Schema.Array(Resource), () => []),
  /** Opaque state (base64), given back as the next build's `previous_state`. */
  state: def(Schema.String, () => ""),
  has_ai_task: def(Schema.Boolean, () => false),
  has_external_agent: def(Schema.Boolean, () => false)
})

const JobId = Schema.UUID

/** Every message a daemon may send. */
export const DaemonMessage = Schema.Union(
  Schema.Struct({ type: Schema.Literal("acquire") }),
  Schema.Struct({ type: Schema.Literal("heartbeat"), job_id: opt(JobId) }),
  Schema.Struct({ type: Schema.Literal("log"), job_id: JobId, logs: Schema.Array(LogLine).pipe(Schema.maxItems(500)) }),
  Schema.Struct({ type: Schema.Literal("agent_token"), job_id: JobId, name: Str(64) }),
  /** A build's planned daily cost, checked against its owner's quota before the daemon makes anything (1.1). */
  Schema.Struct({
    type: Schema.Literal("commit_quota"),
    job_id: JobId,
    daily_cost: Schema.Int.pipe(Schema.between(0, 1_000_000_000))
  }),
  /** The host's capacity (1.2), from a daemon that named its `host`. */
  Schema.Struct({ type: Schema.Literal("capacity"), ...HostCapacity.fields }),
  Schema.Struct({ type: Schema.Literal("complete"), job_id: JobId, result: def(Schema.Unknown, () => ({})) }),
  Schema.Struct({
    type: Schema.Literal("fail"),
    job_id: JobId,
    error: Str(65536),
    error_code: def(Str(64), () => ""),
    /** An import's template variables, when it failed for want of their values. */
    variables: opt(Schema.Array(TemplateVariable))
  })
)
export type DaemonMessage = typeof DaemonMessage.Type

const decodeMessage = lazily(() => Schema.decodeUnknownEither(Schema.parseJson(DaemonMessage)))
const decodeImport = lazily(() => Schema.decodeUnknownEither(DaemonImportResult))
const decodeBuild = lazily(() => Schema.decodeUnknownEither(DaemonBuildResult))
const decodeMove = lazily(() => Schema.decodeUnknownEither(DaemonMoveResult))

/** The one-line reason of a decoding failure (a close reason holds 123 bytes). */
const describeParse = (e: ParseResult.ParseError) =>
  ParseResult.ArrayFormatter.formatErrorSync(e)
    .map((i) => `${i.path.join(".") || "message"}: ${i.message}`)
    .join("; ")

const toBase64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64")

/** The job a daemon holds: what it runs, and how its answer gets back to the executor. */
interface HeldJob {
  readonly job: ProvisionerJobRecord
  readonly beats: Queue.Queue<void>
  /** Set once the executor asked the daemon (the `job` message was sent). */
  call?: {
    readonly kind: "import" | "build" | "move"
    readonly input: ImportInput | BuildInput | VolumeMoveInput
    readonly answer: Deferred.Deferred<ImportResult | BuildResult | VolumeMoveResult, ProvisionerFailure>
  }
}

/**
 * Serves one daemon until its channel closes (or its key is deleted): registers its row,
 * answers its messages, and runs each job it acquires through `ProvisionerWorkers.runJob`.
 */
export const serveDaemon = (channel: DaemonChannel, hello: DaemonHello, options: DaemonSessionOptions = {}) =>
  Effect.scoped(Effect.gen(function*() {
    const jobs = yield* ProvisionerJobs
    const workers = yield* ProvisionerWorkers
    const daemons = yield* ProvisionerDaemons
    const keys = yield* ProvisionerKeys
    const ids = yield* IdGenerator
    const pubsub = yield* PubSub
    const signal = yield* JobSignal
    const hosts = yield* ProvisionerHosts
    const capacityInterval = Duration.decode(options.capacityInterval ?? DEFAULT_CAPACITY_INTERVAL)
    const heartbeatInterval = Duration.decode(options.heartbeatInterval ?? DEFAULT_DAEMON_HEARTBEAT_INTERVAL)
    const pollInterval = options.pollInterval ?? DEFAULT_POLL_INTERVAL
    const logFlushInterval = options.logFlushInterval ?? DEFAULT_LOG_FLUSH_INTERVAL

    const worker: ProvisionerWorker = {
      id: yield* ids.uuid,
      name: hello.name,
      provisioners: hello.provisioners,
      tags: hello.tags,
      organization_id: hello.key.organization_id,
      ...(hello.host === undefined ? {} : { host: hello.host })
    }
    const send = (message: object) => channel.send(JSON.stringify(message)).pipe(Effect.ignore)
    const sendError = (code: string, message: string, jobId?: string) =>
      send(jobId === undefined ? { type: "error", code, message } : { type: "error", code, message, job_id: jobId })

    // A deleted key ends the session: subscribe first, then check it still exists.
    const deleted = yield* pubsub.subscribe(provisionerKeyDeletedChannel(hello.key.id))
    if (!(yield* keys.exists(hello.key.id))) return yield* channel.close(1001, "provisioner key deleted")

    yield* daemons.register(worker, {
      organization_id: hello.key.organization_id,
      key_id: hello.key.id,
      key_name: hello.key.name,
      version: hello.version,
      api_version: hello.api_version,
      host: hello.host
    })
    yield* send(
      {
        type: "welcome",
        protocol: DAEMON_PROTOCOL_VERSION,
        daemon_id: worker.id,
        name: worker.name,
        organization_id: hello.key.organization_id,
        provisioners: worker.provisioners,
        tags: worker.tags,
        heartbeat_interval_ms: Duration.toMillis(heartbeatInterval),
        ...(hello.host === undefined ? {} : { capacity_interval_ms: Duration.toMillis(capacityInterval) })
      } satisfies typeof DaemonWelcome.Encoded
    )

    let held: HeldJob | undefined
    let acquiring = false
    /** Which acquire is current: an ended one's clean-up must not undo the next one's state. */
    let acquisitions = 0
    const wake = yield* signal.subscribe

    /** The remote provisioner of one held job: sends it to the daemon and waits for its answer. */
    const remote = (h: HeldJob): Provisioner => {
      const call = <R extends ImportResult | BuildResult | VolumeMoveResult>(
        kind: "import" | "build" | "move",
        input: ImportInput | BuildInput | VolumeMoveInput,
        payload: NonNullable<(typeof DaemonJob.Encoded)["import" | "build" | "move"]>
      ) =>
        Effect.gen(function*() {
          const answer = yield* Deferred.make<ImportResult | BuildResult | VolumeMoveResult, ProvisionerFailure>()
          h.call = { kind, input, answer }
          yield* send({
            type: "job",
            job_id: h.job.id,
            job_type: h.job.type,
            provisioner: h.job.provisioner,
            organization_id: h.job.organization_id,
            tags: h.job.tags,
            operation: kind,
            [kind]: payload
          })
          return (yield* Deferred.await(answer)) as R
        }).pipe(Effect.onInterrupt(() => send({ type: "cancel", job_id: h.job.id })))
      return {
        type: h.job.provisioner,
        import: (input) =>
          call<ImportResult>(
            "import",
            input,
            {
              archive: toBase64(input.archive),
              content_type: input.content_type,
              variable_values: input.variable_values
            } satisfies NonNullable<(typeof DaemonJob.Encoded)["import"]>
          ),
        build: (input) =>
          call<BuildResult>(
            "build",
            input,
            {
              archive: toBase64(input.archive),
              content_type: input.content_type,
              transition: input.transition,
              variable_values: input.variable_values,
              parameter_values: input.parameter_values,
              previous_state: toBase64(input.previous_state),
              workspace: input.workspace,
              ...(input.task === undefined ? {} : { task: input.task }),
              ...(input.metadata === undefined ? {} : { metadata: input.metadata })
            } satisfies NonNullable<(typeof DaemonJob.Encoded)["build"]>
          ),
        moveVolumes: (input) =>
          call<VolumeMoveResult>(
            "move",
            input,
            {
              side: input.side,
              deployment_id: input.deployment_id,
              workspace_id: input.workspace_id,
              images: input.images,
              stream_path: input.stream.path,
              token: input.stream.token
            } satisfies NonNullable<(typeof DaemonJob.Encoded)["move"]>
          )
      }
    }

    /** Runs one claimed job through the workers' code, then tells the daemon how it ended. */
    const runHeld = (job: ProvisionerJobRecord) =>
      Effect.scoped(Effect.gen(function*() {
        const beats = yield* Queue.sliding<void>(1)
        const h: HeldJob = { job, beats }
        held = h
        // A cancel (or any move of the job) is looked at at once, not at the daemon's next heartbeat.
        const moves = yield* pubsub.subscribe(jobLogsChannel(job.id))
        yield* Effect.forkScoped(Effect.forever(Effect.flatMap(Queue.take(moves), (m) =>
          m === JOB_SIGNAL_JOB || m === "" ? Queue.offer(beats, undefined) : Effect.void)))
        yield* daemons.started(worker.id, job.id)
        yield* workers.runJob(worker, job, { provisioner: remote(h), heartbeat: Queue.take(beats), logFlushInterval })
        yield* daemons.finished(worker.id, job.id)
        const ended = yield* jobs.get(job.id).pipe(Effect.option)
        // Free before the answer: the daemon may send its next `acquire` the moment it reads it.
        held = undefined
        acquiring = false
        yield* send(Option.match(ended, {
          onNone: () => ({ type: "job_done", job_id: job.id, status: "unknown", error: "" }),
          onSome: (j) => ({ type: "job_done", job_id: job.id, status: jobStatus(j), error: j.error })
        }))
      })).pipe(Effect.ensuring(Effect.sync(() => {
        if (held?.job.id === job.id) {
          held = undefined
        }
      })))

    /** An `acquire` (the `current`th): waits for a job the daemon serves, runs it, answers `job_done`. */
    const acquire = (current: number) =>
      Effect.gen(function*() {
        while (true) {
          yield* Queue.takeAll(wake)
          yield* daemons.seen(worker.id)
          const claimed = yield* jobs.acquire(worker)
          if (Option.isSome(claimed)) return yield* runHeld(claimed.value)
          yield* Effect.timeoutOption(Queue.take(wake), pollInterval)
        }
      }).pipe(
        Effect.catchAllCause((cause) =>
          Cause.isInterruptedOnly(cause)
            ? Effect.failCause(cause)
            : Effect.logError("External provisioner daemon acquire failed", cause)
        ),
        Effect.ensuring(Effect.sync(() => {
          if (acquisitions === current) acquiring = false
        }))
      )

    /** The held job named by a message, or an `error` answer (`not_held`). */
    const holding = (jobId: string) =>
      held !== undefined && held.job.id === jobId.toLowerCase() ? Option.some(held) : Option.none()
    const notHeld = (jobId: string) => sendError("not_held", `This daemon does not hold job ${jobId}.`, jobId)

    const logsOf = (lines: ReadonlyArray<typeof LogLine.Type>, at: Date): ReadonlyArray<ProvisionerLog> =>
      lines.map((l) => ({ created_at: l.created_at ?? at, level: l.level, stage: l.stage, output: l.output }))

    const handle = (message: DaemonMessage): Effect.Effect<void, never, Scope.Scope> =>
      Effect.gen(function*() {
        switch (message.type) {
          case "acquire": {
            if (acquiring || held !== undefined) {
              return yield* sendError("busy", "This daemon is already acquiring or running a job.")
            }
            acquiring = true
            yield* Effect.forkScoped(acquire(++acquisitions))
            return
          }
          case "heartbeat": {
            if (message.job_id === undefined) {
              return yield* daemons.seen(worker.id)
            }
            const h = holding(message.job_id)
            if (Option.isNone(h)) return yield* notHeld(message.job_id)
            return yield* Queue.offer(h.value.beats, undefined)
          }
          case "log": {
            const h = holding(message.job_id)
            if (Option.isNone(h) || h.value.call === undefined) return yield* notHeld(message.job_id)
            const onLog = h.value.call.input.onLog
            const at = new Date(yield* Effect.clockWith((c) => c.currentTimeMillis))
            if (onLog !== undefined) yield* Effect.forEach(logsOf(message.logs, at), onLog, { discard: true })
            return yield* Queue.offer(h.value.beats, undefined)
          }
          case "commit_quota": {
            const h = holding(message.job_id)
            if (Option.isNone(h) || h.value.call === undefined) return yield* notHeld(message.job_id)
            if (h.value.call.kind !== "build") {
              return yield* sendError("not_build", "Quotas are committed for workspace builds only.", message.job_id)
            }
            const commit = (h.value.call.input as BuildInput).commitQuota
            const committed = commit === undefined ? Either.right(undefined) : yield* Effect.either(
              commit(message.daily_cost)
            )
            return yield* send(
              Either.isRight(committed)
                ? { type: "quota", job_id: h.value.job.id, ok: true }
                : { type: "quota", job_id: h.value.job.id, ok: false, message: committed.left.message }
            )
          }
          case "capacity": {
            if (hello.host === undefined) {
              return yield* sendError(
                "no_host",
                "Capacity is reported for a host: connect with the host query parameter."
              )
            }
            const { type: _, ...capacity } = message
            return yield* hosts.report({
              organization_id: hello.key.organization_id,
              name: hello.host,
              tags: hello.tags,
              provisioners: hello.provisioners,
              version: hello.version
            }, capacity)
          }
          case "agent_token": {
            const h = holding(message.job_id)
            if (Option.isNone(h) || h.value.call === undefined) return yield* notHeld(message.job_id)
            if (h.value.call.kind !== "build") {
              return yield* sendError("not_build", "Agent tokens are given for workspace builds only.", message.job_id)
            }
            const token = yield* (h.value.call.input as BuildInput).agentToken(message.name)
            return yield* send({ type: "agent_token", job_id: h.value.job.id, name: message.name, token })
          }
          case "complete": {
            const h = holding(message.job_id)
            if (Option.isNone(h) || h.value.call === undefined) return yield* notHeld(message.job_id)
            const call = h.value.call
            if (call.kind === "import") {
              const decoded = decodeImport(message.result)
              return yield* Either.match(decoded, {
                onLeft: (e) => Deferred.fail(call.answer, invalidResult(e)),
                onRight: (r) => Deferred.succeed(call.answer, { ...r, logs: [] } satisfies ImportResult)
              })
            }
            if (call.kind === "move") {
              return yield* Either.match(decodeMove(message.result), {
                onLeft: (e) => Deferred.fail(call.answer, invalidResult(e)),
                onRight: (r) => Deferred.succeed(call.answer, r satisfies VolumeMoveResult)
              })
            }
            const decoded = decodeBuild(message.result)
            return yield* Either.match(decoded, {
              onLeft: (e) => Deferred.fail(call.answer, invalidResult(e)),
              onRight: (r) =>
                Deferred.succeed(
                  call.answer,
                  {
                    resources: r.resources,
                    state: new Uint8Array(Buffer.from(r.state, "base64")),
                    daily_cost: r.resources.reduce((sum, res) => sum + res.daily_cost, 0),
                    has_ai_task: r.has_ai_task,
                    has_external_agent: r.has_external_agent,
                    logs: []
                  } satisfies BuildResult
                )
            })
          }
          case "fail": {
            const h = holding(message.job_id)
            if (Option.isNone(h) || h.value.call === undefined) return yield* notHeld(message.job_id)
            const failure = new ProvisionerFailure({
              message: message.error || "The provisioner daemon failed the job.",
              logs: [],
              ...(message.error_code === "" ? {} : { error_code: message.error_code }),
              ...(message.variables === undefined ? {} : { variables: message.variables })
            })
            return yield* Deferred.fail(h.value.call.answer, failure)
          }
        }
      }).pipe(Effect.asVoid)

    const reader = Effect.gen(function*() {
      while (true) {
        const text = yield* channel.receive
        const decoded = decodeMessage(text)
        if (Either.isLeft(decoded)) {
          return yield* channel.close(DaemonCloseCode.badMessage, describeParse(decoded.left))
        }
        yield* handle(decoded.right)
      }
    }).pipe(Effect.catchAll(() => Effect.void))

    const keyDeleted = Effect.zipRight(Queue.take(deleted), channel.close(1001, "provisioner key deleted"))
    yield* Effect.raceFirst(reader, keyDeleted)
  }))

const invalidResult = (e: ParseResult.ParseError) =>
  new ProvisionerFailure({ message: `The provisioner daemon's result is not valid: ${describeParse(e)}`, logs: [] })
