/**
 * `show <workspace>`: as the described system's cli/show.go with cliui/resources.go: the
 * workspace's build, then its resources as a tree, each agent with its status, health, latency,
 * version and how to reach it, its apps, and the ports its machine listens on (asked of each
 * connected agent, as the described system's `show` does); a resource's metadata under it.
 */
import type { Schemas } from "@workbay/client"
import type { Client } from "../Client.js"
import type { Context } from "../Context.js"
import { agentsOf, workspaceOf } from "../Lookup.js"
import { ago, printJson, printTable } from "../Output.js"

type Workspace = Schemas["Workspace"]
type WorkspaceAgent = Schemas["WorkspaceAgent"]
type ListeningPort = Schemas["WorkspaceAgentListeningPort"]

const pipe = (index: number, total: number) => (index === total - 1 ? "└─" : "├─")

const statusOf = (agent: WorkspaceAgent, now: number): string => {
  const since = (time: string | undefined) =>
    time === undefined ? "" : ` [${Math.max(0, Math.round((now - Date.parse(time)) / 1000))}s]`
  switch (agent.status) {
    case "connected":
      return "⦿ connected"
    case "disconnected":
      return `⦾ disconnected${since(agent.disconnected_at)}`
    default:
      return `⦾ ${agent.status}${since(agent.created_at)}`
  }
}

/** The preferred region's round trip, else the first region's; "" with none. */
const latencyOf = (agent: WorkspaceAgent): string => {
  const regions = Object.values(agent.latency ?? {})
  const region = regions.find((r) => r.preferred) ?? regions[0]
  return region === undefined ? "" : `${region.latency_ms.toFixed(1)} ms`
}

/** The listening ports of each connected agent (an agent that cannot answer has none shown). */
const portsOf = async (client: Client, agents: ReadonlyArray<WorkspaceAgent>) => {
  const out = new Map<string, ReadonlyArray<ListeningPort>>()
  await Promise.all(
    agents.filter((a) => a.status === "connected").map(async (a) => {
      const answer = await client.rest.GET("/api/v2/workspaceagents/{workspaceagent}/listening-ports", {
        params: { path: { workspaceagent: a.id } }
      })
      if (answer.data !== undefined) out.set(a.id, [...answer.data.ports].sort((x, y) => x.port - y.port))
    })
  )
  return out
}

export const show = async (ctx: Context, ident: string) => {
  const client = ctx.client()
  const w: Workspace = await workspaceOf(client, ident)
  if (ctx.output === "json") return printJson(w)
  const now = Date.now()
  const build = w.latest_build
  const version = build.template_version_name === "" ? "" : ` (version ${build.template_version_name})`
  process.stdout.write(
    `${w.owner_name}/${w.name}: ${build.status}, template ${w.template_name}${version}, built ${
      ago(build.created_at, now)
    }${w.outdated ? ", outdated" : ""}\n\n`
  )
  const agents = agentsOf(w)
  const ports = await portsOf(client, agents)
  const rows: Array<Array<string>> = []
  const resources = [...build.resources].sort((a, b) => `${a.type}.${a.name}`.localeCompare(`${b.type}.${b.name}`))
  for (const resource of resources) {
    rows.push([`${resource.type}.${resource.name}`, "", "", "", "", ""])
    for (const m of resource.metadata ?? []) rows.push([`   ${m.key}: ${m.sensitive ? "********" : m.value}`])
    const own = [...(resource.agents ?? [])].sort((a, b) => a.name.localeCompare(b.name))
    for (const [i, agent] of own.entries()) {
      const access = `workbay ssh ${w.name}${agents.length > 1 ? `.${agent.name}` : ""}`
      rows.push([
        `${pipe(i, own.length)} ${agent.name} (${agent.operating_system}, ${agent.architecture})`,
        statusOf(agent, now),
        agent.health.healthy ? "✔ healthy" : `✘ ${agent.health.reason ?? "unhealthy"}`,
        latencyOf(agent),
        agent.version === "" ? "(unknown)" : agent.version,
        access
      ])
      const indent = i === own.length - 1 ? "   " : "│  "
      const apps = [...agent.apps].sort((a, b) => a.slug.localeCompare(b.slug))
      const open = ports.get(agent.id) ?? []
      const children = apps.length + (open.length > 0 ? 1 : 0)
      for (const [j, app] of apps.entries()) {
        rows.push([`${indent}${pipe(j, children)} app ${app.display_name || app.slug}`, app.health])
      }
      if (open.length > 0) {
        rows.push([`${indent}└─ Open Ports`])
        for (const [k, p] of open.entries()) {
          const process = p.process_name === "" ? "" : ` [${p.process_name}]`
          rows.push([`${indent}   ${pipe(k, open.length)} ${p.port}/${p.network}${process}`])
        }
      }
    }
  }
  printTable(["resource", "status", "health", "latency", "version", "access"], rows, "resources")
}
