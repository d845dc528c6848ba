/** Handlers of the agent groups. */
import {
  AgentContainers,
  AgentListeningPorts,
  Agents,
  Conflict,
  CONTAINERS_TIMEOUT_SECONDS,
  LISTENING_PORTS_TIMEOUT_SECONDS,
  ResponseBody,
  WorkspaceAgentListContainersResponse,
  WorkspaceAgentListeningPortsResponse
} from "@workbay/core"
import { Effect, Schema } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { relayedRequest, relayHeaders, relayRoute } from "../Relay.js"
import { relayWebSocket, streamSession, upgradeWebSocket } from "../WebSocket.js"

/**
 * `GET /workspaceagents/{id}/listening-ports`: asked here, or relayed to the replica that holds
 * the agent's connection, with the caller's credentials as they came; its answer is this one's.
 */
const listeningPorts = (ref: string) =>
  Effect.gen(function*() {
    const { relayed } = yield* relayedRequest
    const answer = yield* Effect.flatMap(AgentListeningPorts, (p) => p.list(ref, relayed))
    if (answer instanceof WorkspaceAgentListeningPortsResponse) return answer
    return yield* relayRoute(
      answer.address,
      `/api/v2/workspaceagents/${encodeURIComponent(ref)}/listening-ports`,
      WorkspaceAgentListeningPortsResponse,
      (LISTENING_PORTS_TIMEOUT_SECONDS + 5) * 1000
    )
  })

const RELAY_TIMEOUT_MS = (CONTAINERS_TIMEOUT_SECONDS + 5) * 1000
const containersPath = (ref: string) => `/api/v2/workspaceagents/${encodeURIComponent(ref)}/containers`
const devcontainerPath = (ref: string, id: string) => `${containersPath(ref)}/devcontainers/${encodeURIComponent(id)}`

/**
 * The dev container routes (docs/agents.md, "Dev containers"): asked of the agent here, or relayed
 * to the replica that holds its connection (the watch as a WebSocket), whose answer is this one's.
 */
const containers = {
  list: (ref: string, label: string | ReadonlyArray<string> | undefined) =>
    Effect.gen(function*() {
      const { relayed } = yield* relayedRequest
      const labels = label === undefined ? [] : typeof label === "string" ? [label] : label
      const answer = yield* Effect.flatMap(AgentContainers, (c) => c.list(ref, labels, relayed))
      if (answer instanceof WorkspaceAgentListContainersResponse) return answer
      const query = new URLSearchParams(labels.map((l) => ["label", l])).toString()
      return yield* relayRoute(
        answer.address,
        `${containersPath(ref)}${query === "" ? "" : `?${query}`}`,
        WorkspaceAgentListContainersResponse,
        RELAY_TIMEOUT_MS
      )
    }),
  watch: (ref: string) =>
    Effect.gen(function*() {
      const { ctx, relayed, self } = yield* relayedRequest
      const plan = yield* Effect.flatMap(AgentContainers, (c) => c.watch(ref, relayed))
      if (plan._tag === "Relay") {
        return relayWebSocket({ address: plan.address, headers: relayHeaders(self.relaySecret, ctx.ip) })
      }
      return yield* upgradeWebSocket(streamSession(plan.messages, (e) => e.message))
    }),
  remove: (ref: string, id: string) =>
    Effect.gen(function*() {
      const { relayed } = yield* relayedRequest
      const answer = yield* Effect.flatMap(AgentContainers, (c) => c.remove(ref, id, relayed))
      if (answer._tag === "Done") return
      yield* relayRoute(answer.address, devcontainerPath(ref, id), Schema.Void, RELAY_TIMEOUT_MS, {
        method: "DELETE",
        status: 204,
        errors: { 409: (fields) => new Conflict(fields) }
      })
    }),
  recreate: (ref: string, id: string) =>
    Effect.gen(function*() {
      const { relayed } = yield* relayedRequest
      const answer = yield* Effect.flatMap(AgentContainers, (c) => c.recreate(ref, id, relayed))
      if (answer._tag === "Done") return answer.body
      return yield* relayRoute(
        answer.address,
        `${devcontainerPath(ref, id)}/recreate`,
        ResponseBody,
        RELAY_TIMEOUT_MS,
        {
          method: "POST",
          status: 202,
          errors: { 409: (fields) => new Conflict(fields) }
        }
      )
    })
}

export const AgentsHttp = implement(WorkbayApi, "agents", {
  get: ({ path }) => Effect.flatMap(Agents, (a) => a.get(path.workspaceagent)),
  externalCredentials: ({ path }) => Effect.flatMap(Agents, (a) => a.externalCredentials(path.workspace, path.agent)),
  connection: ({ path }) => Effect.flatMap(Agents, (a) => a.connectionInfo(path.workspaceagent)),
  listeningPorts: ({ path }) => listeningPorts(path.workspaceagent),
  containers: ({ path, urlParams }) => containers.list(path.workspaceagent, urlParams.label),
  watchContainers: ({ path }) => containers.watch(path.workspaceagent),
  deleteDevcontainer: ({ path }) => containers.remove(path.workspaceagent, path.devcontainer),
  recreateDevcontainer: ({ path }) => containers.recreate(path.workspaceagent, path.devcontainer)
})

export const AgentMeHttp = implement(WorkbayApi, "agentMe", {
  gitSshKey: () => Effect.flatMap(Agents, (a) => a.gitSshKey)
})
