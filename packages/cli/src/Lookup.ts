/** Finding what a command names: the organization, a workspace (`[owner/]name`), its agent. */
import { isStatus, type Schemas, unwrap } from "@workbay/client"
import type { Client } from "./Client.js"
import { CliError } from "./Errors.js"

type Organization = Schemas["Organization"]
type Workspace = Schemas["Workspace"]
type WorkspaceAgent = Schemas["WorkspaceAgent"]

/**
 * The organization to work in: `--org` (a name or id) when given, else the caller's default
 * organization, else their only one.
 */
export const organizationOf = async (client: Client, org: string | undefined): Promise<Organization> => {
  const orgs = await unwrap(client.rest.GET("/api/v2/users/{user}/organizations", { params: { path: { user: "me" } } }))
  if (org !== undefined && org !== "") {
    const found = orgs.find((o) => o.name === org || o.id === org)
    if (found === undefined) throw new CliError(`You are not a member of an organization named "${org}".`)
    return found
  }
  const found = orgs.find((o) => o.is_default === true) ?? (orgs.length === 1 ? orgs[0] : undefined)
  if (found === undefined) {
    throw new CliError(
      orgs.length === 0
        ? "You are not a member of any organization."
        : `You are a member of several organizations: choose one with --org (${orgs.map((o) => o.name).join(", ")}).`
    )
  }
  return found
}

/** `owner/name` or `name` (the caller's). */
export const splitWorkspace = (ident: string): { readonly owner: string; readonly name: string } => {
  const i = ident.indexOf("/")
  if (i < 0) return { owner: "me", name: ident }
  return { owner: ident.slice(0, i) || "me", name: ident.slice(i + 1) }
}

/** The workspace `[owner/]name` (GET /users/{owner}/workspace/{name}); the service's 404 as it answers it. */
export const workspaceOf = async (client: Client, ident: string): Promise<Workspace> => {
  const { name, owner } = splitWorkspace(ident)
  if (name === "") throw new CliError(`"${ident}" names no workspace.`, 2)
  return unwrap(
    client.rest.GET("/api/v2/users/{user}/workspace/{workspacename}", {
      params: { path: { user: owner, workspacename: name } }
    })
  )
}

/** The agents of the workspace's latest build. */
export const agentsOf = (workspace: Workspace): Array<WorkspaceAgent> =>
  workspace.latest_build.resources.flatMap((r) => r.agents ?? [])

/**
 * The agent to reach in `workspace`: the one named `agentName`, else its only one. A workspace
 * that is not started is refused with a clear message (start it with `workbay start`).
 */
export const agentOf = (workspace: Workspace, agentName: string | undefined): WorkspaceAgent => {
  const build = workspace.latest_build
  const label = `${workspace.owner_name}/${workspace.name}`
  if (build.transition !== "start" || build.status !== "running") {
    const status: string = build.status
    throw new CliError(
      `Workspace ${label} is ${status}${build.transition === "start" ? "" : ` (last build: ${build.transition})`}.`,
      1,
      build.transition === "start" && ["pending", "starting"].includes(status)
        ? "Wait for its build to finish, then try again."
        : `Start it with: workbay start ${label}`
    )
  }
  const agents = agentsOf(workspace)
  if (agentName !== undefined && agentName !== "") {
    const found = agents.find((a) => a.name === agentName)
    if (found === undefined) {
      throw new CliError(
        `Workspace ${label} has no agent named "${agentName}".`,
        1,
        agents.length === 0 ? undefined : `Its agents: ${agents.map((a) => a.name).join(", ")}`
      )
    }
    return found
  }
  const [only] = agents
  if (only === undefined) throw new CliError(`Workspace ${label} has no agents.`)
  if (agents.length > 1) {
    throw new CliError(
      `Workspace ${label} has several agents: name one as <workspace>.<agent>.`,
      2,
      `Its agents: ${agents.map((a) => a.name).join(", ")}`
    )
  }
  return only
}

/** Whether `error` is the service's 404. */
export const isNotFound = (error: unknown) => isStatus(error, 404)
