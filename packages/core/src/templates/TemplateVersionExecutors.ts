/**
 * What a worker does with a template version's jobs: the import (`template_version_import`)
 * and the dry run (`template_version_dry_run`). Each is a plain function from the claimed job
 * and its provisioner to the job's completion; it never fails and never dies, so a job is
 * never left running: a provisioner failure, a missing file or an unexpected defect all become
 * `{error}` (with `error_code` when the provisioner named a known one).
 * The provisioner workers (`Worker.ts`) run them: they are registered in `JobExecutors` by
 * `Services.ts`.
 */
import { Cause, Clock, Effect, Either, Option } from "effect"
import { newAgentToken } from "../AgentToken.js"
import { NIL_UUID } from "../Audit.js"
import { type Events, publish } from "../Events.js"
import { IdGenerator } from "../Ids.js"
import type { OrganizationRepo } from "../organizations/Repositories.js"
import type {
  ImportResult,
  ProvisionedResource,
  Provisioner,
  ProvisionerLogSink,
  WorkspaceTransition
} from "../provisioners/Provisioner.js"
import {
  type JobCompletion,
  jobErrorCodes,
  type ProvisionerJobRecord,
  ProvisionerJobRepo,
  type ProvisionerJobType
} from "../provisioners/ProvisionerJob.js"
import { UserRepo } from "../users/Repositories.js"
import { type ArchiveFiles, readArchive } from "./Archive.js"
import { TemplateVersionImportFailed } from "./Events.js"
import { FileRepo } from "./File.js"
import type { TemplateRepo } from "./Template.js"
import { type ImportedResource, type TemplateVersionImport, TemplateVersionRepo } from "./TemplateVersion.js"

/** What an executor gets beside the job: the provisioner of the job's type and where its log lines go. */
export interface JobExecutorContext {
  readonly provisioner: Provisioner
  readonly onLog: ProvisionerLogSink
}

/** The services the template version executors read and write (and notify with). */
export type TemplateVersionExecutorServices =
  | TemplateVersionRepo
  | FileRepo
  | UserRepo
  | IdGenerator
  | Events
  | TemplateRepo
  | OrganizationRepo
  | ProvisionerJobRepo

export type VersionJobExecutor<R> = (
  job: ProvisionerJobRecord,
  ctx: JobExecutorContext
) => Effect.Effect<JobCompletion, never, R>

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** A completion whose error code is one the API knows (others are dropped, the message stays). */
const failed = (error: string, code?: string): JobCompletion =>
  code !== undefined && (jobErrorCodes as ReadonlyArray<string>).includes(code)
    ? { error, error_code: code }
    : { error }

/** Turns any defect into a failed completion: a job must never be left running. */
const neverDie = <R>(effect: Effect.Effect<JobCompletion, never, R>, what: string) =>
  effect.pipe(
    Effect.catchAllCause((cause) =>
      Cause.isInterruptedOnly(cause)
        ? Effect.failCause(cause as Cause.Cause<never>)
        : Effect.as(Effect.logError(`${what} failed unexpectedly`, cause), failed(`The ${what} failed unexpectedly.`))
    )
  )

/** Gives every resource, agent, app and script an id. */
const withIds = (
  resources: ReadonlyArray<ProvisionedResource>,
  transition: WorkspaceTransition,
  jobId: string,
  at: Date
) =>
  Effect.flatMap(IdGenerator, (ids) =>
    Effect.forEach(resources, (r) =>
      Effect.gen(function*() {
        const agents = yield* Effect.forEach(r.agents, (a) =>
          Effect.gen(function*() {
            return {
              ...a,
              id: yield* ids.uuid,
              apps: yield* Effect.forEach(a.apps, (app) => Effect.map(ids.uuid, (id) => ({ ...app, id }))),
              scripts: yield* Effect.forEach(a.scripts, (s) => Effect.map(ids.uuid, (id) => ({ ...s, id })))
            }
          }))
        return {
          ...r,
          agents,
          id: yield* ids.uuid,
          job_id: jobId,
          created_at: at,
          transition
        } satisfies ImportedResource
      })))

const toImport = (result: ImportResult, jobId: string, at: Date) =>
  Effect.gen(function*() {
    const ids = yield* IdGenerator
    const resources = yield* Effect.forEach(result.resources, (t) => withIds(t.resources, t.transition, jobId, at))
    return {
      parameters: result.parameters,
      variables: result.variables,
      resources: resources.flat(),
      external_auth_providers: result.external_auth_providers,
      presets: yield* Effect.forEach(result.presets, (p) => Effect.map(ids.uuid, (id) => ({ ...p, id }))),
      has_ai_task: result.has_ai_task,
      ai_task_app_slug: result.ai_task_app_slug,
      has_external_agent: result.has_external_agent
    } satisfies TemplateVersionImport
  })

/** The names a version's readme may have, at the archive's root or in its single top folder. */
const README = "README.md"
const findReadme = (files: ArchiveFiles): string => {
  let data = files.get(README)
  if (data === undefined) {
    const tops = new Set([...files.keys()].map((p) => p.split("/")[0]))
    if (tops.size === 1) data = files.get(`${[...tops][0]}/${README}`)
  }
  return data === undefined ? "" : new TextDecoder().decode(data)
}

/**
 * The import: reads the version (by its job), its file, runs `provisioner.import` with the
 * version's variable values, and keeps what it found with fresh ids, and the archive's
 * README.md as the version's readme.
 */
export const importExecutor: VersionJobExecutor<TemplateVersionExecutorServices> = (job, ctx) =>
  Effect.tap(
    runImport(job, ctx),
    (completion) =>
      completion.error === undefined
        ? Effect.void
        : publish(new TemplateVersionImportFailed({ jobId: job.id, error: completion.error }))
  )

const runImport: VersionJobExecutor<TemplateVersionExecutorServices> = (job, ctx) =>
  neverDie(
    Effect.gen(function*() {
      const versions = yield* TemplateVersionRepo
      const files = yield* FileRepo
      const version = yield* versions.findByJobId(job.id)
      if (Option.isNone(version)) return failed("The template version of this import no longer exists.")
      const file = yield* files.findById(job.file_id)
      if (Option.isNone(file)) return failed("The template version's file no longer exists.")
      const result = yield* Effect.either(ctx.provisioner.import({
        archive: file.value.data,
        content_type: file.value.mimetype,
        variable_values: version.value.user_variable_values,
        onLog: ctx.onLog
      }))
      if (Either.isLeft(result)) {
        // Missing variable values: the version keeps the template's variables (and nothing else),
        // so `GET /templateversions/{id}/variables` lists what to give the next version.
        const variables = result.left.variables
        if (variables !== undefined && variables.length > 0) {
          const at = yield* now
          yield* versions.setImportResult(version.value.id, {
            parameters: [],
            variables,
            resources: [],
            external_auth_providers: [],
            presets: [],
            has_ai_task: false,
            ai_task_app_slug: "",
            has_external_agent: false
          }, at)
        }
        return failed(result.left.message, result.left.error_code)
      }
      // Canceled while it ran (a cancel during `build.delay_ms`, seen before the worker's next
      // heartbeat interrupts it): the job completes canceled and the version keeps nothing it found.
      const current = yield* (yield* ProvisionerJobRepo).findById(job.id)
      if (Option.isSome(current) && current.value.canceled_at !== null) return {}
      const at = yield* now
      yield* versions.setImportResult(version.value.id, yield* toImport(result.right, job.id, at), at)
      const archive = yield* Effect.either(readArchive(file.value.data, file.value.mimetype))
      const readme = Either.isRight(archive) ? findReadme(archive.right) : ""
      if (readme !== "") yield* Effect.orDie(versions.update(version.value.id, { readme }, at))
      return {}
    }),
    "template import"
  )

/**
 * The dry run: `provisioner.build` of the `start` transition with the dry run's parameter
 * values, no previous state, the requested workspace name and the initiator as owner; keeps
 * the resources it would create.
 */
export const dryRunExecutor: VersionJobExecutor<TemplateVersionExecutorServices> = (job, ctx) =>
  neverDie(
    Effect.gen(function*() {
      const versions = yield* TemplateVersionRepo
      const files = yield* FileRepo
      const users = yield* UserRepo
      const dryRun = yield* versions.findDryRun(job.id)
      if (Option.isNone(dryRun)) return failed("The dry run of this job no longer exists.")
      const version = yield* versions.findById(dryRun.value.template_version_id)
      if (Option.isNone(version)) return failed("The template version of this dry run no longer exists.")
      const file = yield* files.findById(job.file_id)
      if (Option.isNone(file)) return failed("The template version's file no longer exists.")
      const owner = yield* users.findById(job.initiator_id)
      const result = yield* Effect.either(ctx.provisioner.build({
        archive: file.value.data,
        content_type: file.value.mimetype,
        transition: "start",
        variable_values: dryRun.value.user_variable_values.length > 0
          ? dryRun.value.user_variable_values
          : version.value.user_variable_values,
        parameter_values: dryRun.value.rich_parameter_values,
        previous_state: new Uint8Array(0),
        workspace: {
          id: NIL_UUID,
          name: dryRun.value.workspace_name,
          owner: Option.match(owner, { onNone: () => "", onSome: (u) => u.username })
        },
        // A dry run starts no agent: its tokens are made for the provisioner and forgotten.
        agentToken: () => Effect.sync(newAgentToken),
        onLog: ctx.onLog
      }))
      if (Either.isLeft(result)) return failed(result.left.message, result.left.error_code)
      const resources = yield* withIds(result.right.resources, "start", job.id, yield* now)
      yield* versions.setDryRunResources(job.id, resources)
      return {}
    }),
    "dry run"
  )

/** The template version executors by job type (the worker loop registers them in its `JobExecutors`). */
export const templateVersionExecutors: Partial<
  Record<ProvisionerJobType, VersionJobExecutor<TemplateVersionExecutorServices>>
> = {
  template_version_import: importExecutor,
  template_version_dry_run: dryRunExecutor
}
