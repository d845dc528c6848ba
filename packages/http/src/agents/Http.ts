/** Handlers of the agent groups. */
import {
  AgentListeningPorts,
  Agents,
  BadGateway,
  BadRequest,
  Forbidden,
  GatewayTimeout,
  LISTENING_PORTS_TIMEOUT_SECONDS,
  NotFound,
  ResponseBody,
  WorkspaceAgentListeningPortsResponse
} from "@workbay/core"
import { Effect, Schema } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { relayedRequest, relayHeaders, relayJson } from "../Relay.js"

/** The errors a replica's answer may carry back, by status (any other status comes back as 502). */
const relayedErrors = {
  400: BadRequest,
  403: Forbidden,
  404: NotFound,
  502: BadGateway,
  504: GatewayTimeout
} as const

const decodePorts = Schema.decodeUnknown(WorkspaceAgentListeningPortsResponse)
const decodeResponse = Schema.decodeUnknown(ResponseBody)

/**
 * `GET /workspaceagents/{id}/listening-ports`: asked here, or relayed to the replica that holds
 * the agent's connection, with the caller's credentials as they came; its answer is this one's.
 */
const listeningPorts = (ref: string) =>
  Effect.gen(function*() {
    const { ctx, relayed, self } = yield* relayedRequest
    const answer = yield* Effect.flatMap(AgentListeningPorts, (p) => p.list(ref, relayed))
    if (answer instanceof WorkspaceAgentListeningPortsResponse) return answer
    const credentials: Record<string, string> = {}
    for (const name of [ctx.sessionHeaderName, "cookie", "authorization", "user-agent"]) {
      const value = name === undefined ? undefined : ctx.header(name)
      if (name !== undefined && value !== undefined) credentials[name.toLowerCase()] = value
    }
    const relayedAnswer = yield* relayJson({
      address: answer.address,
      method: "GET",
      url: `/api/v2/workspaceagents/${encodeURIComponent(ref)}/listening-ports`,
      headers: { ...credentials, accept: "application/json", ...relayHeaders(self.relaySecret, ctx.ip) },
      timeoutMs: (LISTENING_PORTS_TIMEOUT_SECONDS + 5) * 1000
    })
    if (relayedAnswer.status === 200) {
      return yield* Effect.mapError(decodePorts(relayedAnswer.body), () =>
        new BadGateway({
          message: "The replica that holds the workspace agent's connection answered no list of ports.",
          detail: `Its answer to the relayed request was not a WorkspaceAgentListeningPortsResponse.`
        }))
    }
    const body = yield* Effect.orElseSucceed(
      decodeResponse(relayedAnswer.body),
      () =>
        new ResponseBody({
          message: `The replica that holds the workspace agent's connection answered ${relayedAnswer.status}.`
        })
    )
    const error = relayedErrors[relayedAnswer.status as keyof typeof relayedErrors]
    const fields = {
      message: body.message,
      ...(body.detail !== undefined ? { detail: body.detail } : {}),
      ...(body.validations !== undefined ? { validations: body.validations } : {})
    }
    if (error !== undefined) return yield* Effect.fail(new error(fields))
    return yield* new BadGateway({
      message: body.message,
      detail: `The replica that holds the workspace agent's connection answered ${relayedAnswer.status}${
        body.detail === undefined || body.detail === "" ? "" : `: ${body.detail}`
      }`
    })
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
