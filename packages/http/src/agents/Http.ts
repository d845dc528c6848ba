/** Handlers of the agent groups. */
import {
  AgentListeningPorts,
  Agents,
  LISTENING_PORTS_TIMEOUT_SECONDS,
  WorkspaceAgentListeningPortsResponse
} from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { relayedRequest, relayRoute } from "../Relay.js"

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

export const AgentsHttp = implement(WorkbayApi, "agents", {
  get: ({ path }) => Effect.flatMap(Agents, (a) => a.get(path.workspaceagent)),
  externalCredentials: ({ path }) => Effect.flatMap(Agents, (a) => a.externalCredentials(path.workspace, path.agent)),
  connection: ({ path }) => Effect.flatMap(Agents, (a) => a.connectionInfo(path.workspaceagent)),
  listeningPorts: ({ path }) => listeningPorts(path.workspaceagent)
})

export const AgentMeHttp = implement(WorkbayApi, "agentMe", {
  gitSshKey: () => Effect.flatMap(Agents, (a) => a.gitSshKey)
})
