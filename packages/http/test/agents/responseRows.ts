/**
 * The response schema table's rows of the agent endpoints (packages/http/src/agents/), run by
 * ../responseSchemas.ts.
 */
import { AGENT_REINIT_PREBUILD_CLAIMED, agentReinitChannel, PubSub } from "@workbay/core"
import { Effect } from "effect"
import { expect } from "vitest"
import { type Row, row, type World } from "../responseSchemas.js"
import { readEvents } from "../sse.js"
import { Client, SESSION_HEADER } from "../support.js"
import { connect, eventually } from "../websocket.js"
import { workspacesOf } from "../workspaces/responseFixtures.js"
import { withIdentityServer } from "./identityServer.js"

/**
 * The `laptop` agent of the running workspace connected, opening its end of each stream it is asked
 * for (`ends`: the status of each of those handshakes), until `close`.
 */
const laptopStreams = async (w: World) => {
  const running = (await w.owner.get(`/workspaces/${(await workspacesOf(w)).running.id}`)).body
  const agentId: string = (running.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])
    .find((a: any) => a.name === "laptop").id
  const credentials = await w.owner.get(`/workspaces/${running.id}/external-agent/laptop/credentials`)
  const token = credentials.body.agent_token
  const rpc = await connect(`${w.srv.wsUrl}/api/v2/workspaceagents/me/rpc`, { [SESSION_HEADER]: token })
  const ends: Array<number> = []
  rpc.socket.on("message", (data) => {
    const message = JSON.parse(data.toString())
    if (message.type !== "stream_open") return
    void connect(new URL(message.path, w.srv.wsUrl).toString(), { [SESSION_HEADER]: token }).then(
      (end) => {
        ends.push(101)
        end.socket.close()
      },
      (e) => ends.push(e.status ?? 0)
    )
  })
  for (let i = 0; i < 100; i++) {
    if ((await w.owner.get(`/workspaceagents/${agentId}`)).body.status === "connected") break
    await new Promise((r) => setTimeout(r, 20))
  }
  return {
    agentId,
    ends,
    close: async () => {
      rpc.socket.close()
      await rpc.closed
    }
  }
}

/** The dev container the scripted agent of {@link withContainersAgent} knows. */
const SCRIPTED_DEVCONTAINER = "1b4e28ba-2fa1-41d2-883f-0016d3cca427"

/**
 * Runs `f` while the running workspace's external agent "laptop" is connected and answers
 * `containers_request`s as the reference agent does (one dev container, one other container).
 */
const withContainersAgent = async <A>(w: World, f: (agentId: string) => Promise<A>): Promise<A> => {
  const running = (await w.owner.get(`/workspaces/${(await workspacesOf(w)).running.id}`)).body
  const agent = (running.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? []).find((a: any) =>
    a.name === "laptop"
  )
  const credentials = await w.owner.get(`/workspaces/${running.id}/external-agent/laptop/credentials`)
  const ws = await connect(`${w.srv.wsUrl}/api/v2/workspaceagents/me/rpc`, {
    [SESSION_HEADER]: credentials.body.agent_token
  })
  const container = (name: string, labels: Record<string, string>) => ({
    created_at: "2030-01-01T10:00:00.000Z",
    id: `${name}-0123456789abcdef`,
    name,
    image: "workbay-test/img:1",
    labels,
    running: true,
    ports: [{ port: 8080, network: "tcp", host_ip: "0.0.0.0", host_port: 18080 }, { port: 9000, network: "tcp" }],
    status: "running",
    volumes: { "/home/dev/p": "/workspaces/p" }
  })
  ws.socket.on("message", (data) => {
    const m = JSON.parse(data.toString())
    if (m.type !== "containers_request") return
    const dc = container("p-dc", { "devcontainer.local_folder": "/home/dev/p" })
    const answers: Record<string, { status: number; body?: unknown }> = {
      list: {
        status: 200,
        body: {
          devcontainers: [{
            id: SCRIPTED_DEVCONTAINER,
            name: "p",
            workspace_folder: "/home/dev/p",
            status: "running",
            dirty: false,
            container: dc
          }],
          containers: [dc, container("db", {})]
        }
      },
      delete: { status: 204 },
      recreate: { status: 202, body: { message: "Devcontainer recreation initiated", detail: "Started." } }
    }
    ws.socket.send(JSON.stringify({ type: "containers_response", request_id: m.request_id, ...answers[m.action] }))
  })
  ws.socket.send(JSON.stringify({ type: "heartbeat", id: 1 }))
  await eventually(() => ws.messages.some((m) => JSON.parse(m).id === 1))
  try {
    return await f(agent.id)
  } finally {
    ws.socket.close()
  }
}

/** A client with a fresh token of the running workspace's external agent `laptop`. */
const laptopAgent = async (w: World) => {
  const credentials = await w.owner.get(
    `/workspaces/${(await workspacesOf(w)).running.id}/external-agent/laptop/credentials`
  )
  return w.owner.as(credentials.body.agent_token)
}
const ROWS_LOG_SOURCE = "5f0c1c5e-6a59-4e44-9d77-3b1f1b0a2c11"

export const responseRows: ReadonlyArray<Row> = [
  // agents
  row("agents.get", "GET /api/v2/workspaceagents/:workspaceagent", 200, "WorkspaceAgent", async (w) => {
    const running = (await w.owner.get(`/workspaces/${(await workspacesOf(w)).running.id}`)).body
    const agents = (running.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])
    return Promise.all(agents.map((a: any) => w.owner.get(`/workspaceagents/${a.id}`)))
  }),
  row(
    "agents.externalCredentials",
    "GET /api/v2/workspaces/:workspace/external-agent/:agent/credentials",
    200,
    "ExternalAgentCredentials",
    async (w) => w.owner.get(`/workspaces/${(await workspacesOf(w)).running.id}/external-agent/laptop/credentials`)
  ),
  // The external agent "laptop" connects and answers the service's question on its connection.
  row(
    "agents.listeningPorts",
    "GET /api/v2/workspaceagents/:workspaceagent/listening-ports",
    200,
    "WorkspaceAgentListeningPortsResponse",
    async (w) => {
      const running = (await w.owner.get(`/workspaces/${(await workspacesOf(w)).running.id}`)).body
      const agent = (running.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? []).find((a: any) =>
        a.name === "laptop"
      )
      const credentials = await w.owner.get(`/workspaces/${running.id}/external-agent/laptop/credentials`)
      const ws = await connect(`${w.srv.wsUrl}/api/v2/workspaceagents/me/rpc`, {
        [SESSION_HEADER]: credentials.body.agent_token
      })
      ws.socket.on("message", (data) => {
        const m = JSON.parse(data.toString())
        if (m.type === "listening_ports_request") {
          ws.socket.send(
            JSON.stringify({
              type: "listening_ports",
              request_id: m.request_id,
              ports: [{ process_name: "node", network: "tcp", port: 3000 }]
            })
          )
        }
      })
      ws.socket.send(JSON.stringify({ type: "heartbeat", id: 1 }))
      await eventually(() => ws.messages.some((m) => JSON.parse(m).id === 1))
      const r = await w.owner.get(`/workspaceagents/${agent.id}/listening-ports`)
      ws.socket.close()
      expect(r.body.ports).toHaveLength(1)
      return r
    }
  ),
  // The external agent "laptop" connects and answers about its dev containers, as the reference agent does.
  row(
    "agents.containers",
    "GET /api/v2/workspaceagents/:workspaceagent/containers",
    200,
    "WorkspaceAgentListContainersResponse",
    (w) => withContainersAgent(w, (agentId) => w.owner.get(`/workspaceagents/${agentId}/containers`))
  ),
  row(
    "agents.watchContainers",
    "GET /api/v2/workspaceagents/:workspaceagent/containers/watch",
    101,
    "WorkspaceAgentListContainersResponse",
    (w) =>
      withContainersAgent(w, async (agentId) => {
        const ws = await connect(`${w.srv.wsUrl}/api/v2/workspaceagents/${agentId}/containers/watch`, {
          [SESSION_HEADER]: w.owner.token!
        })
        await eventually(() => ws.messages.length > 0)
        ws.socket.close()
        return { status: 101, body: JSON.parse(ws.messages[0]!), headers: new Headers() }
      })
  ),
  row(
    "agents.deleteDevcontainer",
    "DELETE /api/v2/workspaceagents/:workspaceagent/containers/devcontainers/:devcontainer",
    204,
    "none",
    (w) =>
      withContainersAgent(
        w,
        (agentId) => w.owner.delete(`/workspaceagents/${agentId}/containers/devcontainers/${SCRIPTED_DEVCONTAINER}`)
      )
  ),
  row(
    "agents.recreateDevcontainer",
    "POST /api/v2/workspaceagents/:workspaceagent/containers/devcontainers/:devcontainer/recreate",
    202,
    "Response",
    (w) =>
      withContainersAgent(
        w,
        (agentId) =>
          w.owner.post(`/workspaceagents/${agentId}/containers/devcontainers/${SCRIPTED_DEVCONTAINER}/recreate`)
      )
  ),
  row("agentMe.gitSshKey", "GET /api/v2/workspaceagents/me/gitsshkey", 200, "AgentGitSSHKey", async (w) => {
    const credentials = await w.owner.get(
      `/workspaces/${(await workspacesOf(w)).running.id}/external-agent/laptop/credentials`
    )
    return w.owner.as(credentials.body.agent_token).get("/workspaceagents/me/gitsshkey")
  }),
  // Instance identity needs trust roots: each row on a server of its own that has them.
  row(
    "agentIdentity.aws",
    "POST /api/v2/workspaceagents/aws-instance-identity",
    200,
    "AuthenticateResponse",
    () => withIdentityServer((s) => s.aws())
  ),
  row(
    "agentIdentity.azure",
    "POST /api/v2/workspaceagents/azure-instance-identity",
    200,
    "AuthenticateResponse",
    () => withIdentityServer((s) => s.azure())
  ),
  row(
    "agentIdentity.google",
    "POST /api/v2/workspaceagents/google-instance-identity",
    200,
    "AuthenticateResponse",
    () => withIdentityServer((s) => s.google())
  ),
  row(
    "agentBinaries.initScript",
    "GET /api/v2/init-script/:os/:arch",
    200,
    "binary text/plain; charset=utf-8",
    (w) => w.srv.anonymous.get("/init-script/linux/amd64")
  ),
  // At the root, outside /api/v2: the server of the rows serves one (fake) executable.
  row(
    "agentBinaries.binary",
    "GET /bin/workbay-agent-:os-:arch",
    200,
    "binary application/octet-stream",
    (w) => new Client(w.srv.url).get("/bin/workbay-agent-linux-amd64")
  ),
  row(
    "agentBinaries.binaryChecksum",
    "GET /bin/workbay-agent-:os-:arch.sha256",
    200,
    "binary text/plain; charset=utf-8",
    (w) => new Client(w.srv.url).get("/bin/workbay-agent-linux-amd64.sha256")
  ),
  row(
    "agentBinaries.cliBinary",
    "GET /bin/workbay-:os-:arch",
    200,
    "binary application/octet-stream",
    (w) => new Client(w.srv.url).get("/bin/workbay-linux-amd64")
  ),
  row(
    "agentBinaries.cliBinaryChecksum",
    "GET /bin/workbay-:os-:arch.sha256",
    200,
    "binary text/plain; charset=utf-8",
    (w) => new Client(w.srv.url).get("/bin/workbay-linux-amd64.sha256")
  ),

  // The agent connection's row checks the answer of `get_manifest`, after reports that fill the Agent record's times.
  row("agentRpc.rpc", "GET /api/v2/workspaceagents/me/rpc", 101, "AgentManifest", async (w) => {
    const credentials = await w.owner.get(
      `/workspaces/${(await workspacesOf(w)).running.id}/external-agent/laptop/credentials`
    )
    const ws = await connect(`${w.srv.wsUrl}/api/v2/workspaceagents/me/rpc`, {
      [SESSION_HEADER]: credentials.body.agent_token
    })
    ws.socket.send(JSON.stringify({ type: "update_lifecycle", id: 1, state: "ready" }))
    ws.socket.send(JSON.stringify({ type: "get_manifest", id: 2 }))
    await eventually(() => ws.messages.some((m) => JSON.parse(m).id === 2))
    ws.socket.close()
    const answer = ws.messages.map((m) => JSON.parse(m)).find((m) => m.id === 2)
    expect(Object.keys(answer).sort()).toEqual(["id", "result"])
    return { status: 101, body: answer.result, headers: new Headers() }
  }),
  row("agentRpc.manifest", "GET /api/v2/workspaceagents/me/manifest", 200, "AgentManifest", async (w) => {
    const credentials = await w.owner.get(
      `/workspaces/${(await workspacesOf(w)).running.id}/external-agent/laptop/credentials`
    )
    return w.owner.as(credentials.body.agent_token).get("/workspaceagents/me/manifest")
  }),
  // The event a claim's build sends (docs/prebuilds.md), published here on the workspace's channel.
  row(
    "agentRpc.reinit",
    "GET /api/v2/workspaceagents/me/reinit",
    200,
    "ReinitializationEvent",
    async (w) => {
      const workspaceId = (await workspacesOf(w)).running.id
      const credentials = await w.owner.get(`/workspaces/${workspaceId}/external-agent/laptop/credentials`)
      const sse = await readEvents(`${w.srv.url}/api/v2/workspaceagents/me/reinit`, {
        [SESSION_HEADER]: credentials.body.agent_token
      })
      await w.srv.run(
        Effect.flatMap(PubSub, (p) => p.publish(agentReinitChannel(workspaceId), AGENT_REINIT_PREBUILD_CLAIMED))
      )
      await eventually(() => sse.events.some((e) => e.event === "data"))
      await sse.stop()
      expect(sse.response.headers.get("content-type")).toBe("text/event-stream")
      return {
        status: sse.response.status,
        body: sse.events.find((e) => e.event === "data")!.data,
        headers: sse.response.headers
      }
    }
  ),

  row(
    "agentMetadata.watchMetadata",
    "GET /api/v2/workspaceagents/:workspaceagent/watch-metadata",
    200,
    "[WorkspaceAgentMetadata]",
    async (w) => {
      const running = (await w.owner.get(`/workspaces/${(await workspacesOf(w)).running.id}`)).body
      const agent = (running.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])[0]
      const sse = await readEvents(`${w.srv.url}/api/v2/workspaceagents/${agent.id}/watch-metadata`, {
        [SESSION_HEADER]: w.owner.token!
      })
      await eventually(() => sse.events.some((e) => e.event === "data"))
      await sse.stop()
      expect(sse.response.headers.get("content-type")).toBe("text/event-stream")
      return {
        status: sse.response.status,
        body: sse.events.find((e) => e.event === "data")!.data,
        headers: sse.response.headers
      }
    }
  ),
  row(
    "agentMetadata.watchMetadataWs",
    "GET /api/v2/workspaceagents/:workspaceagent/watch-metadata-ws",
    101,
    "[WorkspaceAgentMetadata]",
    async (w) => {
      const running = (await w.owner.get(`/workspaces/${(await workspacesOf(w)).running.id}`)).body
      const agent = (running.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])[0]
      const ws = await connect(`${w.srv.wsUrl}/api/v2/workspaceagents/${agent.id}/watch-metadata-ws`, {
        [SESSION_HEADER]: w.owner.token!
      })
      await eventually(() => ws.messages.length > 0)
      ws.socket.close()
      const data = JSON.parse(ws.messages[0]!)
      expect(Object.keys(data).sort()).toEqual(["data", "type"])
      return { status: 101, body: data.data, headers: new Headers() }
    }
  ),
  // streams (WebSockets of bytes; their frames are Workbay's own, checked in agents/Streams.test.ts):
  // the handshakes, with the laptop agent connected and opening its end when asked.
  ...(["pty", "tunnel", "ssh"] as const).map((kind) =>
    row(`agentStreams.${kind}`, `GET /api/v2/workspaceagents/:workspaceagent/${kind}`, 101, "none", async (w) => {
      const { agentId, close } = await laptopStreams(w)
      const ws = await connect(
        `${w.srv.wsUrl}/api/v2/workspaceagents/${agentId}/${kind}${kind === "tunnel" ? "?port=8080" : ""}`,
        { [SESSION_HEADER]: w.owner.token! }
      )
      ws.socket.close()
      await close()
      return { status: 101, body: undefined, headers: new Headers() }
    })
  ),
  row("agentStreamEnd.stream", "GET /api/v2/workspaceagents/me/streams/:stream", 101, "none", async (w) => {
    const { agentId, ends, close } = await laptopStreams(w)
    const ws = await connect(`${w.srv.wsUrl}/api/v2/workspaceagents/${agentId}/ssh`, {
      [SESSION_HEADER]: w.owner.token!
    })
    await eventually(() => ends.length > 0)
    ws.socket.close()
    await close()
    return { status: ends[0]!, body: undefined, headers: new Headers() }
  }),
  // connection routes (WebSockets): the derp map's first message; the coordination routes'
  // handshakes (their messages are Workbay's own, checked in agents/Tailnet.test.ts); the
  // connection watch's `agent` message.
  row("tailnet.derpMap", "GET /api/v2/derp-map", 101, "DERPMap", async (w) => {
    const ws = await connect(`${w.srv.wsUrl}/api/v2/derp-map`, { [SESSION_HEADER]: w.owner.token! })
    await eventually(() => ws.messages.length > 0)
    ws.socket.close()
    return { status: 101, body: JSON.parse(ws.messages[0]!), headers: new Headers() }
  }),
  row("tailnet.coordinate", "GET /api/v2/tailnet", 101, "none", async (w) => {
    const ws = await connect(`${w.srv.wsUrl}/api/v2/tailnet`, { [SESSION_HEADER]: w.owner.token! })
    ws.socket.close()
    return { status: 101, body: undefined, headers: new Headers() }
  }),
  row(
    "tailnet.agentCoordinate",
    "GET /api/v2/workspaceagents/:workspaceagent/coordinate",
    101,
    "none",
    async (w) => {
      const running = (await w.owner.get(`/workspaces/${(await workspacesOf(w)).running.id}`)).body
      const agent = (running.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])[0]
      const ws = await connect(`${w.srv.wsUrl}/api/v2/workspaceagents/${agent.id}/coordinate`, {
        [SESSION_HEADER]: w.owner.token!
      })
      await eventually(() => ws.messages.length > 0)
      ws.socket.close()
      expect(JSON.parse(ws.messages[0]!)).toEqual({ type: "subscribed", agent_id: agent.id })
      return { status: 101, body: undefined, headers: new Headers() }
    }
  ),
  row("tailnetAgent.coordinate", "GET /api/v2/workspaceagents/me/coordinate", 101, "none", async (w) => {
    const credentials = await w.owner.get(
      `/workspaces/${(await workspacesOf(w)).running.id}/external-agent/laptop/credentials`
    )
    const ws = await connect(`${w.srv.wsUrl}/api/v2/workspaceagents/me/coordinate`, {
      [SESSION_HEADER]: credentials.body.agent_token
    })
    ws.socket.close()
    return { status: 101, body: undefined, headers: new Headers() }
  }),
  row(
    "tailnet.agentConnectionWatch",
    "GET /api/v2/workspaces/:workspace/agent-connection-watch",
    101,
    "[ConnectionWatchEvent]",
    async (w) => {
      const { running } = await workspacesOf(w)
      const watch = async (query: string) => {
        const ws = await connect(`${w.srv.wsUrl}/api/v2/workspaces/${running.id}/agent-connection-watch${query}`, {
          [SESSION_HEADER]: w.owner.token!
        })
        await eventually(() => ws.messages.length >= 2)
        ws.socket.close()
        return ws.messages.map((m) => JSON.parse(m))
      }
      // The build and agent updates, then an error frame (no agent of that name).
      const frames = [...await watch("?agent_name=laptop"), ...await watch("?agent_name=ghost")]
      return { status: 101, body: frames, headers: new Headers() }
    }
  ),

  row(
    "agentReports.logSource",
    "POST /api/v2/workspaceagents/me/log-source",
    200,
    "WorkspaceAgentLogSource",
    async (w) =>
      (await laptopAgent(w)).post("/workspaceagents/me/log-source", {
        id: ROWS_LOG_SOURCE,
        display_name: "Rows",
        icon: "/icon/rows.svg"
      })
  ),
  row("agentReports.logs", "PATCH /api/v2/workspaceagents/me/logs", 200, "Response", async (w) => {
    const agent = await laptopAgent(w)
    await agent.post("/workspaceagents/me/log-source", { id: ROWS_LOG_SOURCE, display_name: "Rows" })
    return agent.patch("/workspaceagents/me/logs", {
      log_source_id: ROWS_LOG_SOURCE,
      logs: [{ created_at: new Date().toISOString(), level: "trace", output: "a line" }]
    })
  }),
  row("agentLogs.logs", "GET /api/v2/workspaceagents/:workspaceagent/logs", 200, "[WorkspaceAgentLog]", async (w) => {
    const running = (await w.owner.get(`/workspaces/${(await workspacesOf(w)).running.id}`)).body
    const laptop = (running.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? []).find((a: any) =>
      a.name === "laptop"
    )
    return w.owner.get(`/workspaceagents/${laptop.id}/logs`)
  }),
  row(
    "agentLogs.startupLogs",
    "GET /api/v2/workspaceagents/:workspaceagent/startup-logs",
    200,
    "[WorkspaceAgentLog]",
    async (w) => {
      const running = (await w.owner.get(`/workspaces/${(await workspacesOf(w)).running.id}`)).body
      const laptop = (running.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? []).find((a: any) =>
        a.name === "laptop"
      )
      return w.owner.get(`/workspaceagents/${laptop.id}/startup-logs`)
    }
  ),
  row(
    "agents.connection",
    "GET /api/v2/workspaceagents/:workspaceagent/connection",
    200,
    "AgentConnectionInfo",
    async (w) => {
      const running = (await w.owner.get(`/workspaces/${(await workspacesOf(w)).running.id}`)).body
      const laptop = (running.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? []).find((a: any) =>
        a.name === "laptop"
      )
      return w.owner.get(`/workspaceagents/${laptop.id}/connection`)
    }
  ),
  row(
    "agentReports.appStatus",
    "PATCH /api/v2/workspaceagents/me/app-status",
    200,
    "Response",
    async (w) =>
      (await laptopAgent(w)).patch("/workspaceagents/me/app-status", {
        app_slug: "board",
        state: "working",
        message: "Rows",
        uri: "",
        icon: ""
      })
  ),
  row(
    "agentReports.connection",
    "POST /api/v2/workspaceagents/me/connections",
    200,
    "Response",
    async (w) =>
      (await laptopAgent(w)).post("/workspaceagents/me/connections", {
        connection: { id: ROWS_LOG_SOURCE, action: "connect", type: "ssh", ip: "127.0.0.1" }
      })
  )
]
