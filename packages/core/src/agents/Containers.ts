/**
 * The dev container routes (docs/agents.md, "Dev containers"): the containers an agent's machine
 * runs and the dev containers among them (`GET /workspaceagents/{id}/containers`, its watch), the
 * removal and the recreation of a dev container. The service does not know them: it asks the agent
 * over the agent's own connection (`containers_request` / `containers_response`, through
 * {@link AgentTunnels}), as it asks for listening ports. Asked on a replica that does not hold the
 * agent's connection, the request is relayed to the one that does (Holder.ts; the relay itself is
 * http's). Who may read the workspace may list and watch; removing and recreating run commands on
 * the workspace's machine, so they need `ssh` on it (404 otherwise, as for the streams).
 */
import { Duration, Effect, Either, Option, Schema, Stream } from "effect"
import { allowed } from "../Actor.js"
import { type AuditResource, auditResource } from "../Audit.js"
import { Replicas } from "../enterprise/Replicas.js"
import { BadGateway, BadRequest, Conflict, type GatewayTimeout, NotFound, ResponseBody } from "../Errors.js"
import { lazily } from "../Lazily.js"
import { span } from "../Tracing.js"
import { omitEmpty } from "../Wire.js"
import { WorkspaceSharing } from "../workspaces/Sharing.js"
import { Agents } from "./Agents.js"
import { type AgentHolder, connectedAgentHolder } from "./Holder.js"
import { AgentTunnels, type ContainersAnswer } from "./Tunnels.js"

/** A port a container exposes (codersdk `WorkspaceAgentContainerPort`). */
export class WorkspaceAgentContainerPort
  extends Schema.Class<WorkspaceAgentContainerPort>("WorkspaceAgentContainerPort")({
    port: Schema.Int,
    network: Schema.String,
    host_ip: omitEmpty(Schema.String),
    host_port: omitEmpty(Schema.Int)
  })
{}

/** A container the agent's machine runs (codersdk `WorkspaceAgentContainer`). */
export class WorkspaceAgentContainer extends Schema.Class<WorkspaceAgentContainer>("WorkspaceAgentContainer")({
  created_at: Schema.Date,
  id: Schema.String,
  name: Schema.String,
  image: Schema.String,
  labels: Schema.Record({ key: Schema.String, value: Schema.String }),
  running: Schema.Boolean,
  ports: Schema.Array(WorkspaceAgentContainerPort),
  status: Schema.String,
  volumes: Schema.Record({ key: Schema.String, value: Schema.String })
}) {}

/** The sub-agent of a dev container (codersdk `WorkspaceAgentDevcontainerAgent`). */
export class WorkspaceAgentDevcontainerAgent
  extends Schema.Class<WorkspaceAgentDevcontainerAgent>("WorkspaceAgentDevcontainerAgent")({
    id: Schema.UUID,
    name: Schema.String,
    directory: Schema.String
  })
{}

/** A dev container's state (codersdk `WorkspaceAgentDevcontainerStatus`). */
export const WorkspaceAgentDevcontainerStatus = Schema.Literal("running", "stopped", "starting", "error")

/** A dev container the agent knows (codersdk `WorkspaceAgentDevcontainer`). */
export class WorkspaceAgentDevcontainer extends Schema.Class<WorkspaceAgentDevcontainer>("WorkspaceAgentDevcontainer")({
  id: Schema.UUID,
  name: Schema.String,
  workspace_folder: Schema.String,
  config_path: omitEmpty(Schema.String),
  status: WorkspaceAgentDevcontainerStatus,
  dirty: Schema.Boolean,
  container: omitEmpty(WorkspaceAgentContainer),
  agent: omitEmpty(WorkspaceAgentDevcontainerAgent),
  error: omitEmpty(Schema.String)
}) {}

/** `GET /workspaceagents/{id}/containers` and each message of its watch (codersdk `WorkspaceAgentListContainersResponse`). */
export class WorkspaceAgentListContainersResponse
  extends Schema.Class<WorkspaceAgentListContainersResponse>("WorkspaceAgentListContainersResponse")({
    devcontainers: Schema.Array(WorkspaceAgentDevcontainer),
    containers: Schema.Array(WorkspaceAgentContainer),
    warnings: omitEmpty(Schema.Array(Schema.String))
  })
{}

/** How often a watch asks the agent again, in seconds (the described system's agent looks every 10 s). */
export const CONTAINERS_WATCH_INTERVAL_SECONDS = 3

const decodeList = lazily(() => Schema.decodeUnknownEither(WorkspaceAgentListContainersResponse))
const decodeResponse = lazily(() => Schema.decodeUnknownEither(ResponseBody))

/** The agent's refusal as the route's error, by its status (anything else is a 502). */
const refusal = (answer: ContainersAnswer) => {
  const body = Either.getOrElse(decodeResponse(answer.body), () => new ResponseBody({ message: "" }))
  const fields = {
    message: body.message === "" ? `The workspace agent answered ${answer.status}.` : body.message,
    ...(body.detail === undefined ? {} : { detail: body.detail })
  }
  switch (answer.status) {
    case 400:
      return new BadRequest(fields)
    case 404:
      return new NotFound(fields)
    case 409:
      return new Conflict(fields)
    default:
      return new BadGateway({
        message: "The workspace agent could not do it.",
        detail: `It answered ${answer.status}: ${fields.message}${
          fields.detail === undefined ? "" : ` ${fields.detail}`
        }`
      })
  }
}

/** Keeps the containers carrying every label of `labels` (`key=value` each), as the described system filters. */
export const filterByLabels = (
  list: WorkspaceAgentListContainersResponse,
  labels: ReadonlyArray<string>
): WorkspaceAgentListContainersResponse => {
  if (labels.length === 0) return list
  const wanted = labels.map((l) => {
    const at = l.indexOf("=")
    return [l.slice(0, at), l.slice(at + 1)] as const
  })
  return new WorkspaceAgentListContainersResponse({
    ...list,
    containers: list.containers.filter((c) => wanted.every(([k, v]) => c.labels[k] === v))
  }, true)
}

/** Where a request is served: here (with the agent's id), or relayed. */
type Planned =
  | { readonly _tag: "Here"; readonly agentId: string; readonly resource: AuditResource }
  | Extract<AgentHolder, { _tag: "Relay" }>

export class AgentContainers extends Effect.Service<AgentContainers>()("@workbay/core/AgentContainers", {
  effect: Effect.gen(function*() {
    const agents = yield* Agents
    const sharing = yield* WorkspaceSharing
    const tunnels = yield* AgentTunnels
    const replicas = yield* Replicas
    /** Watchers of this process, by agent: woken at once after a removal or recreation here. */
    const wakers = new Map<string, Set<() => void>>()
    const wake = (agentId: string) => {
      for (const w of wakers.get(agentId) ?? []) w()
    }

    /**
     * Who may ask, whether the agent is connected, and where the request is served. `mutate`:
     * removal and recreation, which need `ssh` on the workspace (404 otherwise).
     */
    const plan = (ref: string, relayed: boolean, mutate: boolean) =>
      Effect.gen(function*() {
        const found = yield* agents.resolve(ref)
        if (mutate && !(yield* allowed("ssh", sharing.object(found.workspace)))) {
          return yield* NotFound.resource("Workspace agent")
        }
        const holder = yield* connectedAgentHolder(found.agent, {
          connectedHere: tunnels.connectedHere(found.agent.id),
          relayed
        }).pipe(Effect.provideService(Replicas, replicas))
        if (holder._tag === "Relay") return holder as Planned
        const resource: AuditResource = {
          type: "workspace_agent",
          id: found.agent.id,
          target: found.agent.name,
          organizationId: found.workspace.organization_id
        }
        return { _tag: "Here", agentId: found.agent.id, resource } as Planned
      })

    const askList = (agentId: string) =>
      Effect.gen(function*() {
        const answer = yield* tunnels.askContainers(agentId, { action: "list" })
        if (answer.status !== 200) return yield* refusal(answer)
        const decoded = decodeList(answer.body)
        if (Either.isLeft(decoded)) {
          return yield* new BadGateway({
            message: "The workspace agent answered something else.",
            detail: "Its list of containers is not a WorkspaceAgentListContainersResponse."
          })
        }
        return decoded.right
      })

    /** `GET .../containers`: the agent's containers, those with every `label` (`key=value`). */
    const list = (ref: string, labels: ReadonlyArray<string>, relayed = false) =>
      Effect.gen(function*() {
        const p = yield* plan(ref, relayed, false)
        if (p._tag === "Relay") return p
        return filterByLabels(yield* askList(p.agentId), labels)
      }).pipe(span("AgentContainers.list"))

    /**
     * `GET .../containers/watch`: the list at once, then again whenever it changes (asked every
     * CONTAINERS_WATCH_INTERVAL_SECONDS, and at once after a removal or recreation through this
     * process), as JSON text; the stream ends when the agent's connection here does.
     */
    const watch = (ref: string, relayed = false) =>
      Effect.gen(function*() {
        const p = yield* plan(ref, relayed, false)
        if (p._tag === "Relay") return p
        const agentId = p.agentId
        const encode = Schema.encodeSync(WorkspaceAgentListContainersResponse)
        const messages: Stream.Stream<string, BadGateway | GatewayTimeout | BadRequest | NotFound | Conflict> = Stream
          .unwrapScoped(Effect.gen(function*() {
            let woken: (() => void) | undefined
            const waker = () => woken?.()
            yield* Effect.acquireRelease(
              Effect.sync(() => wakers.set(agentId, (wakers.get(agentId) ?? new Set()).add(waker))),
              () =>
                Effect.sync(() => {
                  const set = wakers.get(agentId)
                  set?.delete(waker)
                  if (set?.size === 0) wakers.delete(agentId)
                })
            )
            const pause = Effect.race(
              Effect.sleep(Duration.seconds(CONTAINERS_WATCH_INTERVAL_SECONDS)),
              Effect.async<void>((resume) => {
                woken = () => resume(Effect.void)
                return Effect.sync(() => {
                  woken = undefined
                })
              })
            )
            let last: string | undefined
            return Stream.repeatEffectOption(
              Effect.gen(function*() {
                for (;;) {
                  if (last !== undefined) yield* pause
                  if (!tunnels.connectedHere(agentId)) return yield* Effect.fail(Option.none())
                  const text = JSON.stringify(encode(yield* Effect.mapError(askList(agentId), Option.some)))
                  if (text !== last) {
                    last = text
                    return text
                  }
                }
              })
            )
          }))
        return { _tag: "Here" as const, messages }
      }).pipe(span("AgentContainers.watch"))

    /** Asks the agent to remove (`delete`) or recreate a dev container; its refusal as the route's error. */
    const act =
      (action: "delete" | "recreate", expected: number) => (ref: string, devcontainerId: string, relayed = false) =>
        Effect.gen(function*() {
          const p = yield* plan(ref, relayed, true)
          if (p._tag === "Relay") return p
          const answer = yield* tunnels.askContainers(p.agentId, { action, devcontainer_id: devcontainerId })
          wake(p.agentId)
          // The agent's row does not change; the entry names the agent and what was asked of it.
          yield* auditResource(
            p.resource,
            action === "delete" ? { devcontainer: devcontainerId } : {},
            action === "delete" ? {} : { devcontainer: devcontainerId, recreated: true }
          )
          if (answer.status !== expected) return yield* refusal(answer)
          const body = Either.getOrElse(
            decodeResponse(answer.body),
            () => new ResponseBody({ message: "Devcontainer recreation initiated." })
          )
          return { _tag: "Done" as const, body }
        }).pipe(span(`AgentContainers.${action}`))

    return {
      list,
      watch,
      remove: act("delete", 204),
      recreate: act("recreate", 202)
    } as const
  })
}) {}
