/**
 * What a worker does with a `workspace_build` job: runs the provisioner's `build` with the
 * version's archive and variable values, the build's parameter values, the state the build was
 * queued with (the previous build's, kept when a build fails) and the workspace ({id, name,
 * owner username}); keeps the resources and agents it made (each agent with its token, the one
 * the provisioner was handed for it, stored as its SHA-256, and an external agent's also kept
 * sealed for its credentials route), the new state, the daily cost
 * and the AI task and external agent flags. A start build whose cost would take its owner past
 * their quota budget in the organization fails with the described system's message. A delete
 * that succeeds marks the workspace deleted; an orphan delete skips the provisioner.
 *
 * Like the template version executors it never fails and never dies: every problem becomes the
 * job's `{error}`.
 */
import { Cause, Clock, Context, Effect, Either, Option } from "effect"
import { hashAgentToken, newAgentToken } from "../AgentToken.js"
import { type Events, publish } from "../Events.js"
import { GroupRepo } from "../groups/Group.js"
import { PREBUILDS_USER_ID } from "../Identity.js"
import { IdGenerator } from "../Ids.js"
import type { OrganizationRepo } from "../organizations/Repositories.js"
import {
  type ProvisionedResource,
  type Provisioner,
  type ProvisionerLogSink,
  QuotaExceeded,
  type WorkspaceTransition
} from "../provisioners/Provisioner.js"
import type { JobCompletion, ProvisionerJobRecord } from "../provisioners/ProvisionerJob.js"
import { PubSub } from "../PubSub.js"
import { Transactions } from "../Repositories.js"
import { Settings } from "../Settings.js"
import { FileRepo } from "../templates/File.js"
import { TemplateRepo } from "../templates/Template.js"
import { TemplateVersionRepo } from "../templates/TemplateVersion.js"
import { UserRepo } from "../users/Repositories.js"
import { AGENT_REINIT_PREBUILD_CLAIMED, agentReinitChannel } from "../WorkspaceChannel.js"
import { WorkspaceBuildEnded, WorkspaceOutOfQuota } from "./Events.js"
import { exceedsQuota } from "./Quotas.js"
import { calculateAutostop } from "./Schedule.js"
import { WorkspaceRepo } from "./Workspace.js"
import {
  type NewStoredResource,
  type WorkspaceBuildRecord,
  WorkspaceBuildRepo,
  WorkspaceResourceRepo
} from "./WorkspaceBuild.js"
import { INSUFFICIENT_QUOTA } from "./WorkspaceBuilds.js"
import { ownerQuietHours } from "./WorkspaceSchedules.js"

export type WorkspaceBuildExecutorServices =
  | WorkspaceRepo
  | WorkspaceBuildRepo
  | WorkspaceResourceRepo
  | TemplateVersionRepo
  | FileRepo
  | UserRepo
  | GroupRepo
  | IdGenerator
  | TemplateRepo
  | Settings
  | TaskPrompts
  | AgentInitScripts
  | Events
  | OrganizationRepo
  | Transactions
  | PubSub

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/**
 * The task a task's workspace runs, as its builds hand it to the provisioner (its current
 * prompt). The tasks area gives it (tasks/Task.ts `taskPromptsLayer`), through the assembly.
 */
export class TaskPrompts extends Context.Tag("@workbay/core/TaskPrompts")<TaskPrompts, {
  readonly find: (taskId: string) => Effect.Effect<Option.Option<{ readonly id: string; readonly prompt: string }>>
}>() {}

/**
 * The init scripts a build hands its provisioner (`BuildInput.agentInitScript`): what a machine
 * runs to download and start its agent. The agents area gives it (agents/InitScript.ts
 * `agentInitScriptsLayer`, with the executables' hashes), through the assembly.
 */
export class AgentInitScripts extends Context.Tag("@workbay/core/AgentInitScripts")<AgentInitScripts, {
  /** The scripts as of now: `(os, arch, accessUrl)` → the script, undefined for a platform with none. */
  readonly current: Effect.Effect<(os: string, arch: string, accessUrl: string) => string | undefined>
}>() {}

/**
 * The agent tokens of one build, by agent name: minted when the provisioner first asks for one,
 * or when the build is stored. A second agent of the same name (in another resource) gets a token
 * of its own when stored.
 */
const agentTokens = () => {
  const byName = new Map<string, string>()
  const taken = new Set<string>()
  return {
    forProvisioner: (name: string): string => {
      let token = byName.get(name)
      if (token === undefined) {
        token = newAgentToken()
        byName.set(name, token)
      }
      return token
    },
    /** The token of a stored agent: its name's, once; any further agent of that name, a new one. */
    forStored: (name: string): string => {
      const token = byName.get(name)
      if (token !== undefined && !taken.has(name)) {
        taken.add(name)
        return token
      }
      taken.add(name)
      return newAgentToken()
    }
  }
}

/** The stored records of what a build made, each agent with its token's hash. */
const toStored = (
  resources: ReadonlyArray<ProvisionedResource>,
  transition: WorkspaceTransition,
  jobId: string,
  at: Date,
  tokenOf: (name: string) => string
) =>
  Effect.flatMap(IdGenerator, (ids) =>
    Effect.forEach(resources, (r) =>
      Effect.gen(function*() {
        const resourceId = yield* ids.uuid
        const agents = yield* Effect.forEach(r.agents, (a) =>
          Effect.gen(function*() {
            const token = tokenOf(a.name)
            return {
              id: yield* ids.uuid,
              created_at: at,
              updated_at: at,
              resource_id: resourceId,
              name: a.name,
              external: a.external,
              instance_id: a.instance_id,
              auth_token_hash: hashAgentToken(token),
              // An external agent's credentials hand its token out again: kept, sealed at rest.
              auth_token: a.external ? token : undefined,
              operating_system: a.operating_system,
              architecture: a.architecture,
              directory: a.directory,
              environment_variables: a.env,
              connection_timeout_seconds: a.connection_timeout_seconds,
              troubleshooting_url: a.troubleshooting_url,
              startup_script_behavior: a.startup_script_behavior,
              display_apps: a.display_apps,
              apps: yield* Effect.forEach(a.apps, (app) => Effect.map(ids.uuid, (id) => ({ ...app, id }))),
              scripts: yield* Effect.forEach(a.scripts, (s) => Effect.map(ids.uuid, (id) => ({ ...s, id }))),
              lifecycle_state: "created",
              first_connected_at: null,
              last_connected_at: null,
              disconnected_at: null,
              started_at: null,
              ready_at: null,
              version: "",
              api_version: "",
              logs_length: 0,
              logs_overflowed: false,
              expanded_directory: "",
              subsystems: [],
              script_results: {},
              metadata: a.metadata ?? []
            }
          }))
        return {
          resource: {
            id: resourceId,
            created_at: at,
            job_id: jobId,
            transition,
            type: r.type,
            name: r.name,
            hide: r.hide,
            icon: r.icon,
            daily_cost: r.daily_cost,
            metadata: r.metadata
          },
          agents
        } satisfies NewStoredResource
      })))

const failed = (error: string): JobCompletion => ({ error })

/**
 * The agents the provisioner `kept` (a claimed prebuilt workspace's machine runs on) take the
 * token hashes of the previous build's agents of the same resource and name, whose tokens are
 * retired: the running agent's token now names this build's agent (docs/prebuilds.md, "Claiming").
 */
const takeOverKeptTokens = (
  build: WorkspaceBuildRecord,
  workspaceId: string,
  provisioned: ReadonlyArray<ProvisionedResource>,
  made: ReadonlyArray<NewStoredResource>
) =>
  Effect.gen(function*() {
    const kept = provisioned.some((r) => r.agents.some((a) => a.kept === true))
    if (!kept || build.build_number <= 1) return { stored: made, retired: [] as ReadonlyArray<string> }
    const previous = yield* (yield* WorkspaceBuildRepo).findByNumber(workspaceId, build.build_number - 1)
    if (Option.isNone(previous)) return { stored: made, retired: [] as ReadonlyArray<string> }
    const before = yield* (yield* WorkspaceResourceRepo).listByJobs([previous.value.job_id])
    const key = (type: string, resource: string, agent: string) => JSON.stringify([type, resource, agent])
    const old = new Map(
      before.flatMap((r) => r.agents.map((a) => [key(r.resource.type, r.resource.name, a.name), a] as const))
    )
    const retired: Array<string> = []
    const stored = made.map((r, i) => ({
      ...r,
      agents: r.agents.map((a, j) => {
        const was = provisioned[i]?.agents[j]?.kept === true
          ? old.get(key(r.resource.type, r.resource.name, a.name))
          : undefined
        if (was === undefined || retired.includes(was.id)) return a
        retired.push(was.id)
        return { ...a, auth_token_hash: was.auth_token_hash, auth_token: undefined }
      })
    }))
    return { stored, retired }
  })

/** The `workspace_build` executor; its outcome is notified (a delete, a failed build: docs/notifications.md). */
export const workspaceBuildExecutor = (
  job: ProvisionerJobRecord,
  ctx: { readonly provisioner: Provisioner; readonly onLog: ProvisionerLogSink }
): Effect.Effect<JobCompletion, never, WorkspaceBuildExecutorServices> =>
  Effect.tap(
    runBuild(job, ctx),
    (completion) =>
      Effect.flatMap(
        Effect.flatMap(WorkspaceBuildRepo, (b) => b.findByJobId(job.id)),
        Option.match({
          onNone: () => Effect.void,
          onSome: (build) =>
            Effect.flatMap(
              Effect.flatMap(WorkspaceRepo, (w) => w.findById(build.workspace_id)),
              Option.match({
                onNone: () => Effect.void,
                onSome: (workspace) => publish(new WorkspaceBuildEnded({ workspace, build, error: completion.error }))
              })
            )
        })
      )
  )

const runBuild = (
  job: ProvisionerJobRecord,
  ctx: { readonly provisioner: Provisioner; readonly onLog: ProvisionerLogSink }
): Effect.Effect<JobCompletion, never, WorkspaceBuildExecutorServices> =>
  Effect.gen(function*() {
    const builds = yield* WorkspaceBuildRepo
    const workspaces = yield* WorkspaceRepo
    const resources = yield* WorkspaceResourceRepo
    const versions = yield* TemplateVersionRepo
    const files = yield* FileRepo
    const users = yield* UserRepo
    const groups = yield* GroupRepo
    const found = yield* builds.findByJobId(job.id)
    if (Option.isNone(found)) return failed("The workspace build of this job no longer exists.")
    const build = found.value
    const workspace = Option.getOrUndefined(yield* workspaces.findById(build.workspace_id))
    if (workspace === undefined) return failed("The workspace of this build no longer exists.")
    const finishDelete = (at: Date) =>
      build.transition === "delete"
        ? Effect.asVoid(workspaces.update(workspace.id, { deleted: true, updated_at: at }).pipe(Effect.orDie))
        : Effect.void

    if (build.orphan) {
      const at = yield* now
      yield* ctx.onLog({
        created_at: at,
        level: "warn",
        stage: "Orphaning resources",
        output: "Deleting the workspace without destroying its resources."
      })
      yield* builds.setResult(build.id, {
        provisioner_state: new Uint8Array(0),
        daily_cost: 0,
        has_ai_task: false,
        has_external_agent: false,
        deadline: null,
        max_deadline: null
      }, at)
      yield* finishDelete(at)
      return {}
    }

    const version = Option.getOrUndefined(yield* versions.findById(build.template_version_id))
    if (version === undefined) return failed("The template version of this build no longer exists.")
    const file = Option.getOrUndefined(yield* files.findById(job.file_id))
    if (file === undefined) return failed("The template version's file no longer exists.")
    const owner = yield* users.findById(workspace.owner_id)
    // A task's workspace hands its current prompt to the provisioner.
    const task = workspace.task_id == null
      ? undefined
      : Option.getOrUndefined(yield* (yield* TaskPrompts).find(workspace.task_id))
    const tokens = agentTokens()
    const initScript = yield* (yield* AgentInitScripts).current
    const template = Option.getOrUndefined(yield* (yield* TemplateRepo).findById(workspace.template_id))
    const settings = yield* Settings
    // The owner's quota, checked once: by the provisioner before it makes anything, else after it answers.
    let quotaChecked = false
    const context = yield* Effect.context<Events>()
    const checkQuota = (dailyCost: number): Effect.Effect<void, QuotaExceeded> =>
      Effect.gen(function*() {
        quotaChecked = true
        // The prebuilds user has no budget: a prebuilt workspace costs its claimer, whose claim's build checks it.
        if (build.transition !== "start" || dailyCost <= 0 || workspace.owner_id === PREBUILDS_USER_ID) return
        // The budget there; one above 0 is some group's allowance, so quotas are on without asking.
        const budget = yield* groups.quotaAllowanceIn(workspace.organization_id, workspace.owner_id)
        const quotasOn = budget > 0 || (yield* groups.quotasOn(workspace.organization_id))
        if (!quotasOn) return
        // Credits in use by the owner's other workspaces in this organization.
        const consumed = yield* workspaces.creditsConsumed(workspace.organization_id, workspace.owner_id, workspace.id)
        if (!exceedsQuota({ cost: dailyCost, consumed, budget, quotasOn })) return
        yield* ctx.onLog({
          created_at: yield* now,
          level: "error",
          stage: "Committing quota",
          output: `The workspace costs ${dailyCost} credits a day; ${consumed} of a budget of ${budget} are in use.`
        })
        yield* publish(new WorkspaceOutOfQuota({ workspace, cost: dailyCost, remaining: budget - consumed }))
        return yield* Effect.fail(new QuotaExceeded({ message: INSUFFICIENT_QUOTA }))
      }).pipe(Effect.provide(context))
    const result = yield* Effect.either(ctx.provisioner.build({
      archive: file.data,
      content_type: file.mimetype,
      transition: build.transition,
      variable_values: version.user_variable_values,
      parameter_values: build.parameters,
      // The state the build was queued with: the previous build's (or a template administrator's own).
      previous_state: build.provisioner_state,
      workspace: {
        id: workspace.id,
        name: workspace.name,
        owner: Option.match(owner, { onNone: () => "", onSome: (u) => u.username })
      },
      ...(task === undefined ? {} : { task: { id: task.id, prompt: task.prompt } }),
      agentToken: (name) => Effect.sync(() => tokens.forProvisioner(name)),
      onLog: ctx.onLog,
      metadata: {
        deployment_id: settings.deploymentId,
        access_url: settings.accessUrl,
        workspace_build_id: build.id,
        build_number: build.build_number,
        workspace_owner_id: workspace.owner_id,
        template_id: workspace.template_id,
        template_name: template?.name ?? "",
        template_version_id: build.template_version_id,
        ...(job.input.prebuilt_workspace_build_stage === "claim" ? { prebuilt_workspace_build_stage: "claim" } : {})
      },
      commitQuota: checkQuota,
      agentInitScript: initScript
    }))
    if (Either.isLeft(result)) return failed(result.left.message)
    const out = result.right

    if (!quotaChecked) {
      const quota = yield* Effect.either(checkQuota(out.daily_cost))
      if (Either.isLeft(quota)) return failed(quota.left.message)
    }

    const at = yield* now
    // A build that ran on a provisioner host names it in each resource's metadata (docs/provisioner-daemons.md).
    const host = job.host ?? null
    const provisioned = host === null
      ? out.resources
      : out.resources.map((r) =>
        r.metadata.some((m) => m.key === "host")
          ? r
          : { ...r, metadata: [...r.metadata, { key: "host", value: host, sensitive: false }] }
      )
    const made = yield* toStored(provisioned, build.transition, job.id, at, tokens.forStored)
    // A claimed prebuilt workspace's kept agents take over the tokens of the previous build's.
    const { stored, retired } = yield* takeOverKeptTokens(build, workspace.id, provisioned, made)
    yield* (yield* Transactions).atomic(
      Effect.zipRight(resources.retireAgentTokens(retired, at), resources.insert(stored))
    )
    if (retired.length > 0) {
      // Committed: the running agents (connected to any replica) reinitialize as this build's.
      yield* (yield* PubSub).publish(agentReinitChannel(workspace.id), AGENT_REINIT_PREBUILD_CLAIMED)
    }
    // Deadlines: the workspace's ttl, the template's autostop requirement and the owner's quiet hours.
    const times = template === undefined || build.transition !== "start"
      ? Either.right({ deadline: null, max_deadline: null })
      : calculateAutostop({
        now: at,
        transition: build.transition,
        workspace,
        template,
        quietHoursSchedule: ownerQuietHours(Option.getOrUndefined(owner), settings)
      })
    if (Either.isLeft(times)) {
      yield* Effect.logWarning(`workspace build ${build.id}: no deadline: ${times.left.message}`)
    }
    const { deadline, max_deadline } = Either.getOrElse(times, () => ({ deadline: null, max_deadline: null }))
    yield* builds.setResult(build.id, {
      provisioner_state: out.state,
      daily_cost: out.daily_cost,
      has_ai_task: out.has_ai_task,
      has_external_agent: out.has_external_agent,
      deadline,
      max_deadline
    }, at)
    yield* finishDelete(at)
    return {}
  }).pipe(
    Effect.catchAllCause((cause) =>
      Cause.isInterruptedOnly(cause)
        ? Effect.failCause(cause as Cause.Cause<never>)
        : Effect.as(
          Effect.logError("workspace build failed unexpectedly", cause),
          failed("The workspace build failed unexpectedly.")
        )
    )
  )
