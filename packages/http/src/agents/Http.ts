/** Handlers of the agent groups. */
import { AgentListeningPorts, Agents } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"

export const AgentsHttp = implement(WorkbayApi, "agents", {
  get: ({ path }) => Effect.flatMap(Agents, (a) => a.get(path.workspaceagent)),
  externalCredentials: ({ path }) => Effect.flatMap(Agents, (a) => a.externalCredentials(path.workspace, path.agent)),
  connection: ({ path }) => Effect.flatMap(Agents, (a) => a.connectionInfo(path.workspaceagent)),
  listeningPorts: ({ path }) => Effect.flatMap(AgentListeningPorts, (p) => p.list(path.workspaceagent))
})

export const AgentMeHttp = implement(WorkbayApi, "agentMe", {
  gitSshKey: () => Effect.flatMap(Agents, (a) => a.gitSshKey)
})
