/**
 * The access table's rows of the agents' connection info, logs, dev containers, coordination and
 * reinitialization routes (packages/http/src/agents/), run by ../accessTable.ts.
 */
import type { AreaRows, Attempt, Row } from "../accessTable.js"
import { SESSION_HEADER } from "../support.js"
import { runJobs } from "../templates/versions.js"
import { connect, type WsResult } from "../websocket.js"
import { READ, routeWorkspaces, wsCheck } from "../workspaces/accessFixtures.js"
import { makeTemplate as importTemplate } from "../workspaces/fixtures.js"

export const accessRows: AreaRows = (tbl) => {
  const { unique } = tbl

  // The routes that reach an agent over its connection (docs/agents.md, "Dev containers" and
  // "Coordination"): a workspace of `someone` whose external agent is connected for the whole table,
  // answering `containers_request`s as the reference agent does. Who may read the workspace lists
  // and watches its containers; removing or recreating a dev container and coordinating with the
  // agent need `ssh` on the workspace (owners and organization admins here; 404 for the rest, template
  // admins included). The watch and the coordination are WebSockets: 101 when opened.
  const DEVCONTAINER = "1b4e28ba-2fa1-41d2-883f-0016d3cca427"
  let liveAgent: Promise<{ workspace: { id: string }; agentId: string }> | undefined
  const agentSockets: Array<WsResult> = []
  const connectedAgent = () => (liveAgent ??= (async () => {
    const t = await importTemplate(
      tbl.srv,
      tbl.admin,
      tbl.org.id,
      "resources:\n  - name: box\n    type: machine\n    agents:\n      - name: main\n        external: true\n"
    )
    const r = await tbl.admin.post(`/organizations/${tbl.org.id}/members/${tbl.someone}/workspaces`, {
      name: unique("tbl-agent-ws"),
      template_id: t.id
    })
    if (r.status !== 200) throw new Error(`workspace: ${r.status} ${JSON.stringify(r.body)}`)
    await runJobs(tbl.srv)
    const built = await tbl.admin.get(`/workspaces/${r.body.id}`)
    const agentId: string = built.body.latest_build.resources.flatMap((x: any) => x.agents ?? [])[0].id
    const credentials = await tbl.admin.get(`/workspaces/${r.body.id}/external-agent/main/credentials`)
    if (credentials.status !== 200) throw new Error(`credentials: ${JSON.stringify(credentials.body)}`)
    const ws = await connect(`${tbl.srv.wsUrl}/api/v2/workspaceagents/me/rpc`, {
      [SESSION_HEADER]: credentials.body.agent_token
    })
    agentSockets.push(ws)
    ws.socket.on("message", (data) => {
      const m = JSON.parse(data.toString())
      if (m.type !== "containers_request") return
      const answer = (status: number, body?: unknown) =>
        ws.socket.send(JSON.stringify({ type: "containers_response", request_id: m.request_id, status, body }))
      if (m.action === "list") return answer(200, { devcontainers: [], containers: [] })
      if (m.action === "delete") return answer(204)
      return answer(202, { message: "Devcontainer recreation initiated", detail: "Recreation has started." })
    })
    for (let i = 0; i < 200; i++) {
      if ((await tbl.admin.get(`/workspaceagents/${agentId}`)).body.status === "connected") break
      await new Promise((done) => setTimeout(done, 20))
    }
    return { workspace: { id: r.body.id as string }, agentId }
  })())
  tbl.onClose(() => {
    for (const ws of agentSockets) ws.socket.close(1000)
  })
  const SSH: Row["expected"] = [0, 404, 404, 404, 404, 0, 404, 404, 404, 404]
  const sshExpected = (ok: number) => SSH.map((s) => (s === 0 ? ok : s)) as unknown as Row["expected"]
  const agentRow = (
    route: string,
    action: "read" | "ssh",
    ok: number,
    attempt: (agentId: string) => Pick<Attempt, "method" | "path" | "websocket">
  ): Row => ({
    kind: "workspace",
    action,
    route,
    expected: action === "read" ? READ.map((s) => (s === 200 ? ok : s)) as unknown as Row["expected"] : sshExpected(ok),
    attempt: async () => {
      const { workspace, agentId } = await connectedAgent()
      return { ...attempt(agentId), check: wsCheck(action, workspace) }
    }
  })
  const { readOnly } = routeWorkspaces(tbl)
  /** A read row of the shared workspace's agent (its latest build's first). */
  const agentReadRow = (route: string, suffix: string): Row => ({
    kind: "workspace",
    action: "read",
    route,
    expected: READ,
    attempt: async () => {
      const w = await readOnly()
      const agent =
        (await tbl.admin.get(`/workspaces/${w.id}`)).body.latest_build.resources.flatMap((r: any) => r.agents ?? [])[0]
      return { method: "GET", path: `/workspaceagents/${agent.id}/${suffix}`, check: wsCheck("read", w) }
    }
  })
  return [
    agentReadRow("GET /workspaceagents/{workspaceagent}/connection", "connection"),
    agentReadRow("GET /workspaceagents/{workspaceagent}/startup-logs", "startup-logs"),
    agentRow("GET /workspaceagents/{workspaceagent}/containers", "read", 200, (id) => ({
      method: "GET",
      path: `/workspaceagents/${id}/containers`
    })),
    agentRow("GET /workspaceagents/{workspaceagent}/containers/watch", "read", 101, (id) => ({
      method: "GET",
      path: `/workspaceagents/${id}/containers/watch`,
      websocket: true
    })),
    agentRow("DELETE /workspaceagents/{workspaceagent}/containers/devcontainers/{devcontainer}", "ssh", 204, (id) => ({
      method: "DELETE",
      path: `/workspaceagents/${id}/containers/devcontainers/${DEVCONTAINER}`
    })),
    agentRow(
      "POST /workspaceagents/{workspaceagent}/containers/devcontainers/{devcontainer}/recreate",
      "ssh",
      202,
      (id) => ({ method: "POST", path: `/workspaceagents/${id}/containers/devcontainers/${DEVCONTAINER}/recreate` })
    ),
    agentRow("GET /workspaceagents/{workspaceagent}/coordinate", "ssh", 101, (id) => ({
      method: "GET",
      path: `/workspaceagents/${id}/coordinate`,
      websocket: true
    })),
    {
      // The agent's reinitialization events (docs/prebuilds.md): its token only, as above.
      kind: "workspace_agent",
      action: "(agent token)",
      route: "GET /workspaceagents/me/reinit",
      expected: [401, 401, 401, 401, 401, 401, 401, 401, 401, 401],
      attempt: async () => ({ method: "GET", path: "/workspaceagents/me/reinit" })
    }
  ]
}
