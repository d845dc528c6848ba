/**
 * `GET /workspaceagents/{workspaceagent}/listening-ports` (docs/agents.md, "Listening ports"):
 * the TCP ports the agent's machine listens on, asked of the agent over its own connection
 * (`listening_ports_request` / `listening_ports`, through {@link AgentTunnels}), less the ports the
 * described system leaves out: below 9, those of the agent's apps, and common ports of services
 * that are not web apps (SSH, databases, mail, ...). Who may read the workspace may ask. Asked
 * on a replica that does not hold the agent's connection, the request is relayed to the one that
 * does (Holder.ts; the relay itself is http's).
 */
import { Effect, Schema } from "effect"
import { Replicas } from "../enterprise/Replicas.js"
import { span } from "../Tracing.js"
import { Agents } from "./Agents.js"
import { connectedAgentHolder } from "./Holder.js"
import { AgentTunnels, type ListeningPort } from "./Tunnels.js"

/** The lowest port listed (the described system's `AgentMinimumListeningPort`). */
export const MINIMUM_LISTENING_PORT = 9

/** Ports never listed: common services that are not web apps (the described system's `AgentIgnoredListeningPorts`). */
export const IGNORED_LISTENING_PORTS: ReadonlySet<number> = new Set([
  0,
  20,
  21,
  22,
  23,
  25,
  53,
  110,
  143,
  179,
  389,
  465,
  587,
  636,
  989,
  990,
  993,
  995,
  3306,
  3389,
  5432,
  27017,
  27018,
  27019,
  28017
])

export class WorkspaceAgentListeningPort
  extends Schema.Class<WorkspaceAgentListeningPort>("WorkspaceAgentListeningPort")({
    process_name: Schema.String,
    network: Schema.String,
    port: Schema.Int
  })
{}

export class WorkspaceAgentListeningPortsResponse
  extends Schema.Class<WorkspaceAgentListeningPortsResponse>("WorkspaceAgentListeningPortsResponse")({
    ports: Schema.Array(WorkspaceAgentListeningPort)
  })
{}

/** The port of an app's URL, when it names one (`http://localhost:8080` → 8080; no port → none). */
const appPort = (url: string): number | undefined => {
  try {
    const port = new URL(url).port
    return port === "" ? undefined : Number(port)
  } catch {
    return undefined
  }
}

/** The ports worth listing: not below the minimum, not an app's, not an ignored one; each port once. */
export const filterListeningPorts = (
  ports: ReadonlyArray<ListeningPort>,
  appUrls: ReadonlyArray<string>
): ReadonlyArray<ListeningPort> => {
  const apps = new Set(appUrls.flatMap((u) => {
    const p = appPort(u)
    return p === undefined ? [] : [p]
  }))
  const seen = new Set<string>()
  return ports.filter((p) => {
    const key = `${p.network}/${p.port}`
    if (p.port < MINIMUM_LISTENING_PORT || apps.has(p.port) || IGNORED_LISTENING_PORTS.has(p.port) || seen.has(key)) {
      return false
    }
    seen.add(key)
    return true
  })
}

export class AgentListeningPorts extends Effect.Service<AgentListeningPorts>()("@workbay/core/AgentListeningPorts", {
  effect: Effect.gen(function*() {
    const agents = yield* Agents
    const tunnels = yield* AgentTunnels
    const replicas = yield* Replicas

    /**
     * The agent's listening ports, asked here; or, when another replica holds the agent's
     * connection, where to relay the request (`relayed`: it came from another replica, which is
     * never relayed again).
     */
    const list = (ref: string, relayed = false) =>
      Effect.gen(function*() {
        const found = yield* agents.resolve(ref)
        const holder = yield* connectedAgentHolder(found.agent, {
          connectedHere: tunnels.connectedHere(found.agent.id),
          relayed
        }).pipe(Effect.provideService(Replicas, replicas))
        if (holder._tag === "Relay") return holder
        const ports = yield* tunnels.listeningPorts(found.agent.id)
        const appUrls = found.agent.apps.flatMap((a) => (a.url === "" ? [] : [a.url]))
        return new WorkspaceAgentListeningPortsResponse({
          ports: filterListeningPorts(ports, appUrls).map((p) => new WorkspaceAgentListeningPort(p, true))
        }, true)
      }).pipe(span("AgentListeningPorts.list"))

    return { list } as const
  })
}) {}
