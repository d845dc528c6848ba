/**
 * The Tasks service: AI tasks, a prompt that becomes a workspace running an AI agent. Creating a
 * task creates its workspace (one transaction), reading and listing derive every field from the
 * workspace (its latest build, the AI agent, the AI app and its statuses), the prompt changes
 * while the task is paused, pause and resume queue stop and start builds, delete queues a delete
 * build; input and logs go through the conversation (`TaskConversation`). See docs/tasks.md.
 *
 * Authorization: `task` objects (organization and owner) in the one evaluator: members on their
 * own tasks, organization admins on their organization's, owners on all. Reading needs `read`
 * (404 otherwise); changing the prompt, sending input, pausing and resuming `update`; deleting
 * `delete`; creating `create` for the owner in the template's organization (403), and the
 * workspace rules (`create` on the owner's workspace, `use` on the template).
 */
import { Clock, Effect, Option } from "effect"
import { allowed, authorize, authorizeRead, CurrentActor, decision } from "../Actor.js"
import type { AgentSession } from "../agents/AgentAuth.js"
import { auditAdditional, AuditRequest, auditResource, newAuditRequest } from "../Audit.js"
import { BadRequest, Conflict, Forbidden, NotFound, Validation } from "../Errors.js"
import { IdGenerator, isUuid, NullUuid } from "../Ids.js"
import { Transactions } from "../Repositories.js"
import { enumTerm, parseQuery } from "../SearchQuery.js"
import { templateObject, TemplateRepo } from "../templates/Template.js"
import { TemplateVersionRepo } from "../templates/TemplateVersion.js"
import { WorkspaceAgentHealth } from "../templates/TemplateVersionWire.js"
import { span } from "../Tracing.js"
import { UserRepo } from "../users/Repositories.js"
import { putNonEmpty, wireMaker, type WireProps } from "../Wire.js"
import { WorkspaceRepo } from "../workspaces/Workspace.js"
import type { BuildReason } from "../workspaces/WorkspaceBuild.js"
import { WorkspaceBuilds } from "../workspaces/WorkspaceBuilds.js"
import { Workspaces } from "../workspaces/Workspaces.js"
import type { Workspace } from "../workspaces/WorkspaceWire.js"
import { TaskConversation } from "./Conversation.js"
import {
  type CreateTaskRequest,
  type ListTasksQuery,
  MAX_TASK_LOG_SNAPSHOT_BYTES,
  type TaskLogSnapshotQuery,
  type TaskLogSnapshotRequest
} from "./Requests.js"
import { auditedTask, type TaskFilter, taskObject, type TaskRecord, TaskRepo, taskResource } from "./Task.js"
import { deriveTaskStatus } from "./TaskStatus.js"
import {
  Task,
  TaskBuildResponse,
  TaskLogEntryWire,
  TaskLogsResponse,
  TasksListResponse,
  type TaskState,
  TaskStateEntry,
  type TaskStatus,
  taskStatuses
} from "./TaskWire.js"

/** The default and the largest page of a task listing. */
export const DEFAULT_TASKS_PAGE = 100
export const MAX_TASKS_PAGE = 1000

/** The `q` keys of `GET /tasks`. */
export const taskSearchKeys = ["owner", "organization", "status"] as const

/** Rows read at a time when a status filter walks an owner's tasks (status is derived, not stored). */
const STATUS_SCAN_CHUNK = 200

const makeTask = wireMaker(Task)
const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
const taskNotFound = () => NotFound.resource("Task")

/** A name from the first words of the prompt's first line (letters and digits, single hyphens), at most `max` characters. */
export const nameFromPrompt = (prompt: string, max = 27): string => {
  const line = prompt.split("\n").find((l) => l.trim() !== "") ?? ""
  const words = line.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 0)
  let name = ""
  for (const w of words) {
    const next = name === "" ? w : `${name}-${w}`
    if (next.length > max) break
    name = next
  }
  return name === "" ? (words[0]?.slice(0, max) ?? "task") : name
}

/** The display name: the given one, else the prompt's first line (at most 64 characters), else the name. */
const displayNameOf = (given: string | undefined, prompt: string, name: string) => {
  if (given !== undefined && given.trim() !== "") return given.trim()
  const line = prompt.split("\n").find((l) => l.trim() !== "")?.trim() ?? ""
  if (line === "") return name
  return line.length > 64 ? `${line.slice(0, 63)}…` : line
}

const stateOf = (s: string): TaskState => (s === "failure" ? "failed" : s) as TaskState

/** Runs `effect` with an audit collector of its own, so the task's entry names the task alone. */
const unaudited = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.provideService(effect, AuditRequest, newAuditRequest("workspace", "create"))

export class Tasks extends Effect.Service<Tasks>()("@workbay/core/Tasks", {
  effect: Effect.gen(function*() {
    const repo = yield* TaskRepo
    const workspaceService = yield* Workspaces
    const buildService = yield* WorkspaceBuilds
    const workspaces = yield* WorkspaceRepo
    const templates = yield* TemplateRepo
    const versions = yield* TemplateVersionRepo
    const users = yield* UserRepo
    const conversation = yield* TaskConversation
    const ids = yield* IdGenerator
    const tx = yield* Transactions

    /**
     * The wire records of tasks: their workspaces (as the workspace routes show them, read in one
     * batch), owners and templates read once each. Status and the agent and app fields come from
     * the workspace's latest build (the agent that runs the AI app, the app of the task's slug).
     */
    const toWires = (list: ReadonlyArray<TaskRecord>) =>
      Effect.gen(function*() {
        if (list.length === 0) return []
        const workspaceIds = list.flatMap((t) => (t.workspace_id === null ? [] : [t.workspace_id]))
        const records = (yield* workspaces.findByIds(workspaceIds)).filter((w) => !w.deleted)
        const wires = new Map((yield* workspaceService.toWires(records)).map((w) => [w.id, w]))
        const owners = new Map(
          (yield* users.findByIds([...new Set(list.map((t) => t.owner_id))])).map((u) => [u.id, u])
        )
        const tpls = new Map(
          (yield* templates.findByIds([...new Set(list.map((t) => t.template_id))])).map((t) => [t.id, t])
        )
        return list.map((t) =>
          toWire(
            t,
            t.workspace_id === null ? undefined : wires.get(t.workspace_id),
            owners.get(t.owner_id),
            tpls.get(t.template_id)
          )
        )
      }).pipe(span("Tasks.toWires"))

    const toWire = (
      t: TaskRecord,
      w: Workspace | undefined,
      owner: { readonly username: string; readonly avatar_url: string } | undefined,
      template: { readonly name: string; readonly display_name: string; readonly icon: string } | undefined
    ): Task => {
      const build = w?.latest_build
      let agent: NonNullable<NonNullable<typeof build>["resources"][number]["agents"]>[number] | undefined
      let app: NonNullable<typeof agent>["apps"][number] | undefined
      for (const r of build?.resources ?? []) {
        for (const a of r.agents ?? []) {
          const found = a.apps.find((x) => x.slug === t.app_slug)
          if (found !== undefined && app === undefined) {
            agent = a
            app = found
          }
        }
      }
      const status = deriveTaskStatus({
        build: build === undefined ? undefined : { transition: build.transition, jobStatus: build.job.status },
        agent: agent === undefined ? undefined : { lifecycle: agent.lifecycle_state, status: agent.status },
        appHealth: app?.health
      })
      const latest = app?.statuses[0] ?? w?.latest_app_status ?? undefined
      const props: WireProps<typeof Task> = {
        id: t.id,
        organization_id: t.organization_id,
        owner_id: t.owner_id,
        owner_name: owner?.username ?? "",
        name: t.name,
        display_name: t.display_name,
        template_id: t.template_id,
        template_version_id: t.template_version_id,
        template_name: template?.name ?? "",
        template_display_name: template?.display_name ?? "",
        template_icon: template?.icon ?? "",
        workspace_id: w === undefined ? NullUuid.none : NullUuid.of(w.id),
        workspace_name: w?.name ?? "",
        workspace_agent_id: agent === undefined ? NullUuid.none : NullUuid.of(agent.id),
        workspace_agent_lifecycle: agent?.lifecycle_state ?? null,
        workspace_agent_health: agent === undefined ? null : new WorkspaceAgentHealth(agent.health, true),
        workspace_app_id: app === undefined ? NullUuid.none : NullUuid.of(app.id),
        initial_prompt: t.prompt,
        status,
        current_state: latest === undefined
          ? null
          : new TaskStateEntry({
            timestamp: latest.created_at,
            state: stateOf(latest.state),
            message: latest.message,
            uri: latest.uri
          }, true),
        created_at: t.created_at,
        updated_at: t.updated_at
      }
      putNonEmpty(props, "owner_avatar_url", owner?.avatar_url)
      putNonEmpty(props, "workspace_status", build?.status)
      putNonEmpty(props, "workspace_build_number", build?.build_number)
      return makeTask(props)
    }

    const wireOf = (t: TaskRecord) => Effect.map(toWires([t]), (ws) => ws[0]!)

    /** `{user}/{task}`: the owner's undeleted task by id or name, once the caller may read it (404 otherwise). */
    const locate = (userRef: string, taskRef: string) =>
      Effect.gen(function*() {
        const owner = yield* Effect.catchTag(workspaceService.resolveUser(userRef), "NotFound", () =>
          Effect.fail(taskNotFound()))
        let found: Option.Option<TaskRecord> = Option.none()
        if (isUuid(taskRef)) {
          found = Option.filter(yield* repo.findById(taskRef.toLowerCase()), (t) =>
            t.owner_id === owner.id && !t.deleted)
        }
        if (Option.isNone(found)) {
          found = yield* repo.findByOwnerAndName(owner.id, taskRef)
        }
        if (Option.isNone(found)) {
          return yield* taskNotFound()
        }
        yield* authorizeRead("Task", taskObject(found.value))
        return found.value
      })

    /** The task's workspace (undeleted), for the routes that build it. */
    const workspaceOf = (t: TaskRecord) =>
      Effect.gen(function*() {
        const found = t.workspace_id === null ? Option.none() : yield* workspaces.findById(t.workspace_id)
        if (Option.isNone(found) || found.value.deleted) {
          return yield* new BadRequest({
            message: "The task has no workspace.",
            detail: "Its workspace was deleted or never made."
          })
        }
        return found.value
      })

    const nameTaken = (name: string) =>
      new Conflict({
        message: `Task "${name}" already exists.`,
        validations: [new Validation({ field: "name", detail: "This value is already in use and should be unique." })]
      })

    /** A generated name, unique among the owner's tasks and workspaces: the prompt's words and a short suffix. */
    const generateName = (ownerId: string, prompt: string) =>
      Effect.gen(function*() {
        const base = nameFromPrompt(prompt)
        for (let attempt = 0; attempt < 8; attempt++) {
          const name = `${base}-${(yield* ids.uuid).replace(/-/g, "").slice(0, 4)}`
          const task = yield* repo.findByOwnerAndName(ownerId, name)
          const workspace = yield* workspaces.findByOwnerAndName(ownerId, name, false)
          if (Option.isNone(task) && Option.isNone(workspace)) return name
        }
        return `task-${(yield* ids.uuid).replace(/-/g, "").slice(0, 12)}`
      })

    /**
     * `POST /tasks/{user}`: the task and its workspace (a start build running the version with
     * the prompt), in one transaction; the prompt becomes the conversation's first input.
     */
    const create = (userRef: string, input: typeof CreateTaskRequest.Type) =>
      Effect.gen(function*() {
        const owner = yield* workspaceService.resolveUser(userRef)
        const versionNotFound = () =>
          BadRequest.field(
            "template_version_id",
            `Template version ${JSON.stringify(input.template_version_id)} doesn't exist.`,
            "Template version not found."
          )
        const version = Option.getOrUndefined(yield* versions.findById(input.template_version_id.toLowerCase()))
        const template = version?.template_id == null
          ? undefined
          : Option.getOrUndefined(yield* templates.findById(version.template_id))
        if (
          version === undefined || template === undefined || template.deleted ||
          !(yield* allowed("read", templateObject(template)))
        ) {
          return yield* versionNotFound()
        }
        yield* authorize("create", { type: "task", orgId: template.organization_id, ownerId: owner.id })
        const slug = version.import_result?.ai_task_app_slug
        if (version.import_result?.has_ai_task !== true || slug === undefined || slug === "") {
          return yield* BadRequest.field(
            "template_version_id",
            "The template version declares no AI task app (ai_task: {app}).",
            "Template does not have a valid AI task app."
          )
        }
        const given = input.name === "" ? undefined : input.name
        const name = given ?? (yield* generateName(owner.id, input.input))
        if (
          given !== undefined && Option.isSome(yield* repo.findByOwnerAndName(owner.id, name))
        ) return yield* nameTaken(name)
        const at = yield* now
        const record: TaskRecord = {
          id: yield* ids.uuid,
          created_at: at,
          updated_at: at,
          organization_id: template.organization_id,
          owner_id: owner.id,
          name,
          display_name: displayNameOf(input.display_name, input.input, name),
          prompt: input.input,
          template_id: template.id,
          template_version_id: version.id,
          app_slug: slug,
          template_version_preset_id: input.template_version_preset_id?.toLowerCase() ?? null,
          workspace_id: null,
          deleted: false
        }
        const workspace = yield* tx.atomic(Effect.gen(function*() {
          yield* repo.insert(record).pipe(Effect.catchTag("UniqueViolation", () => Effect.fail(nameTaken(name))))
          // The workspace's rules (quota, template use, presets, parameters) are the workspace route's.
          const w = yield* unaudited(workspaceService.create(undefined, owner.id, {
            name,
            template_version_id: version.id,
            ...(input.template_version_preset_id !== undefined
              ? { template_version_preset_id: input.template_version_preset_id }
              : {})
          }, { taskId: record.id }))
          yield* repo.update(record.id, { workspace_id: w.id })
          return w
        }))
        const created: TaskRecord = { ...record, workspace_id: workspace.id }
        yield* conversation.recordInput({ workspaceId: workspace.id, content: input.input })
        yield* auditResource(taskResource(created), undefined, auditedTask(created))
        return yield* wireOf(created)
      }).pipe(span("Tasks.create"))

    const get = (userRef: string, taskRef: string) =>
      Effect.flatMap(locate(userRef, taskRef), wireOf).pipe(span("Tasks.get"))

    /** Which tasks the caller may list: all, those of organizations whose tasks they may read, and their own. */
    const visibility = Effect.gen(function*() {
      const actor = yield* CurrentActor
      if ((yield* decision("read", { type: "task", ownerId: actor.user.id })) === "token") {
        return yield* Forbidden.default()
      }
      if (yield* allowed("read", { type: "task" })) return { all: true, organizationIds: [], userId: actor.user.id }
      const organizationIds: Array<string> = []
      for (const orgId of (yield* actor.orgRoles).keys()) {
        if (yield* allowed("read", { type: "task", orgId })) organizationIds.push(orgId)
      }
      return { all: false, organizationIds, userId: actor.user.id }
    })

    /**
     * `GET /tasks`: a page, newest first, and the count of every match. Status is derived from
     * each task's workspace, so a `status` filter walks the matches in chunks (its cost grows with
     * the tasks matched by the other filters); without it the page is one indexed read.
     */
    const list = (input: typeof ListTasksQuery.Type) =>
      Effect.gen(function*() {
        const parsed = yield* parseQuery(input.q, taskSearchKeys)
        const t = parsed.terms
        const empty = new TasksListResponse({ tasks: [], count: 0 }, true)
        const scope = yield* workspaceService.ownerAndOrganizationTerms(t)
        if (Option.isNone(scope)) return empty
        const { ownerIds, organizationIds } = scope.value
        const wanted = yield* enumTerm("status", t.get("status"), taskStatuses, "a task status")
        const statuses: ReadonlySet<TaskStatus> | undefined = wanted === undefined ? undefined : new Set(wanted)
        const limit = input.limit !== undefined && input.limit > 0
          ? Math.min(input.limit, MAX_TASKS_PAGE)
          : DEFAULT_TASKS_PAGE
        const offset = input.offset ?? 0
        const filter: TaskFilter = { visibility: yield* visibility, ownerIds, organizationIds, limit, offset }
        if (statuses === undefined) {
          const page = yield* repo.list(filter)
          return new TasksListResponse({ tasks: yield* toWires(page.tasks), count: page.count }, true)
        }
        const matched: Array<Task> = []
        let count = 0
        for (let at = 0;; at += STATUS_SCAN_CHUNK) {
          const chunk = yield* repo.list({ ...filter, limit: STATUS_SCAN_CHUNK, offset: at })
          for (const w of yield* toWires(chunk.tasks)) {
            if (!statuses.has(w.status)) continue
            if (count >= offset && matched.length < limit) matched.push(w)
            count++
          }
          if (chunk.tasks.length < STATUS_SCAN_CHUNK) break
        }
        return new TasksListResponse({ tasks: matched, count }, true)
      }).pipe(span("Tasks.list"))

    /** `PATCH /tasks/{user}/{task}/input`: a new prompt, only while the task is paused (or not yet built). */
    const updateInput = (userRef: string, taskRef: string, prompt: string) =>
      Effect.gen(function*() {
        const t = yield* locate(userRef, taskRef)
        yield* authorize("update", taskObject(t))
        // As the described system: an input of only white space is none (it is stored as sent otherwise).
        if (prompt.trim() === "") {
          return yield* new BadRequest({
            message: "Task input is required.",
            validations: [new Validation({ field: "input", detail: "The input must contain more than white space." })]
          })
        }
        const wire = yield* wireOf(t)
        if (wire.status !== "paused" && wire.status !== "pending") {
          return yield* new BadRequest({
            message: "Unable to update task input, task must be paused.",
            detail: `The task is ${wire.status}; pause it before changing its input.`,
            validations: [new Validation({ field: "input", detail: "The input of a running task cannot change." })]
          })
        }
        if (prompt === t.prompt) return
        const updated = yield* repo.update(t.id, { prompt, updated_at: yield* now }).pipe(
          Effect.flatMap(Option.match({ onNone: () => Effect.fail(taskNotFound()), onSome: Effect.succeed }))
        )
        yield* auditResource(taskResource(updated), auditedTask(t), auditedTask(updated))
      }).pipe(span("Tasks.updateInput"))

    /** Queues a build of the task's workspace, auditing it as a change of the task. */
    const build = (t: TaskRecord, transition: "start" | "stop" | "delete", reason: BuildReason) =>
      Effect.gen(function*() {
        const w = yield* workspaceOf(t)
        const queued = yield* unaudited(buildService.create(w.id, { transition }, { reason }))
        yield* auditResource(taskResource(t), auditedTask(t), auditedTask(t))
        yield* auditAdditional({
          build_number: String(queued.build_number),
          build_reason: reason,
          workspace_id: w.id,
          workspace_name: w.name
        })
        return queued
      })

    /** `POST /tasks/{user}/{task}/pause`: a stop build (409 when the task is paused already). */
    const pause = (userRef: string, taskRef: string) =>
      Effect.gen(function*() {
        const t = yield* locate(userRef, taskRef)
        yield* authorize("update", taskObject(t))
        const wire = yield* wireOf(t)
        if (wire.status === "paused") return yield* new Conflict({ message: "The task is already paused." })
        return new TaskBuildResponse({ workspace_build: yield* build(t, "stop", "task_manual_pause") }, true)
      }).pipe(span("Tasks.pause"))

    /** `POST /tasks/{user}/{task}/resume`: a start build (409 unless the task is paused or failed). */
    const resume = (userRef: string, taskRef: string) =>
      Effect.gen(function*() {
        const t = yield* locate(userRef, taskRef)
        yield* authorize("update", taskObject(t))
        const wire = yield* wireOf(t)
        if (wire.status !== "paused" && wire.status !== "error" && wire.status !== "unknown") {
          return yield* new Conflict({ message: "The task is not paused.", detail: `The task is ${wire.status}.` })
        }
        return new TaskBuildResponse({ workspace_build: yield* build(t, "start", "task_resume") }, true)
      }).pipe(span("Tasks.resume"))

    /**
     * `DELETE /tasks/{user}/{task}`: a delete build of the workspace; the task leaves listings when
     * that build has deleted the workspace. A task without a workspace is deleted at once.
     */
    const remove = (userRef: string, taskRef: string) =>
      Effect.gen(function*() {
        const t = yield* locate(userRef, taskRef)
        yield* authorize("delete", taskObject(t))
        if (t.workspace_id === null) {
          yield* repo.update(t.id, { deleted: true, updated_at: yield* now })
          yield* auditResource(taskResource(t), auditedTask(t), auditedTask({ ...t, deleted: true }))
          return
        }
        yield* build(t, "delete", "initiator")
      }).pipe(span("Tasks.remove"))

    /** The agent that runs the task's AI app, if its workspace has one now. */
    const agentOf = (t: TaskRecord) =>
      Effect.map(
        wireOf(t),
        (w) => ({ wire: w, agentId: w.workspace_agent_id.valid ? w.workspace_agent_id.uuid : undefined })
      )

    /** `POST /tasks/{user}/{task}/send`: input delivered to the running agent and recorded in the log. */
    const send = (userRef: string, taskRef: string, content: string) =>
      Effect.gen(function*() {
        const t = yield* locate(userRef, taskRef)
        yield* authorize("update", taskObject(t))
        const { agentId, wire } = yield* agentOf(t)
        if (agentId === undefined || wire.workspace_id.valid === false) {
          return yield* new BadRequest({
            message: "The task's agent is not running.",
            detail: `The task is ${wire.status}.`
          })
        }
        yield* conversation.send({ workspaceId: wire.workspace_id.uuid, agentId, content }).pipe(
          Effect.mapError((e) =>
            new Conflict({ message: e.message, ...(e.detail === undefined ? {} : { detail: e.detail }) })
          )
        )
        yield* auditResource(taskResource(t), undefined, undefined)
      }).pipe(span("Tasks.send"))

    /** `GET /tasks/{user}/{task}/logs`: the conversation, live while the workspace runs, else the last stored copy. */
    const logs = (userRef: string, taskRef: string) =>
      Effect.gen(function*() {
        const t = yield* locate(userRef, taskRef)
        const wire = yield* wireOf(t)
        if (!wire.workspace_id.valid) return new TaskLogsResponse({ logs: [] }, true)
        const live = wire.workspace_status === "running"
        const out = yield* conversation.logs({ workspaceId: wire.workspace_id.uuid, taskId: t.id, live })
        const props: { logs: Array<TaskLogEntryWire>; snapshot?: boolean; snapshot_at?: Date } = {
          logs: out.logs.map((l) =>
            new TaskLogEntryWire({ id: l.id, type: l.type, content: l.content, time: l.time }, true)
          )
        }
        if (out.snapshot) props.snapshot = true
        if (out.snapshot_at !== undefined) props.snapshot_at = out.snapshot_at
        return new TaskLogsResponse(props, true)
      }).pipe(span("Tasks.logs"))

    /**
     * `POST /workspaceagents/me/tasks/{task}/log-snapshot`: the calling agent's upload of its AI
     * agent's conversation, kept for the task's logs once the agent is gone. The task must be
     * undeleted and run in the agent's workspace (404 otherwise, as the described system); the
     * body, as stored, at most MAX_TASK_LOG_SNAPSHOT_BYTES (400 otherwise).
     */
    const uploadLogSnapshot = (
      session: AgentSession,
      taskId: string,
      query: typeof TaskLogSnapshotQuery.Type,
      body: typeof TaskLogSnapshotRequest.Type
    ) =>
      Effect.gen(function*() {
        const found = yield* repo.findById(taskId.toLowerCase())
        if (Option.isNone(found) || found.value.deleted || found.value.workspace_id !== session.workspace.id) {
          return yield* taskNotFound()
        }
        const bytes = Buffer.byteLength(JSON.stringify(body.messages), "utf8")
        if (bytes > MAX_TASK_LOG_SNAPSHOT_BYTES) {
          return yield* new BadRequest({
            message: "The log snapshot is too large.",
            detail: `The snapshot is ${bytes} bytes of JSON; at most ${MAX_TASK_LOG_SNAPSHOT_BYTES} are kept.`,
            validations: [
              new Validation({ field: "messages", detail: `At most ${MAX_TASK_LOG_SNAPSHOT_BYTES} bytes.` })
            ]
          })
        }
        yield* conversation.saveSnapshot(found.value.id, query.format, body.messages)
      }).pipe(span("Tasks.uploadLogSnapshot"))

    return { create, get, list, updateInput, pause, resume, remove, send, logs, uploadLogSnapshot, toWires } as const
  })
}) {}
