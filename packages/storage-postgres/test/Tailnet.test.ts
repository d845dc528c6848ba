/**
 * Coordination and the relay map across replicas: two services on one Postgres schema. A client
 * on replica A reaches an agent connected to replica B (nodes both ways, through LISTEN/NOTIFY),
 * and a relay map set on B reaches A's `/derp-map` streams.
 */
import { RelayMap } from "@workbay/core"
import { Effect } from "effect"
import { describe, expect, inject, it } from "vitest"
import { node, recordingProvisioner, send, waitFor } from "../../http/test/agents/tailnet.js"
import { AGENTS_TEMPLATE } from "../../http/test/agents/tailnet.js"
import { SESSION_HEADER } from "../../http/test/support.js"
import { connect, eventually } from "../../http/test/websocket.js"
import { makeTemplate, makeWorkspace } from "../../http/test/workspaces/fixtures.js"
import { twoReplicas } from "./replicas.js"

const url = inject("workbayPgUrl")

describe.skipIf(url === null)("coordination across replicas on Postgres", () => {
  const recording = recordingProvisioner()
  const replicas = twoReplicas(url, recording.provisioner)

  // The agent connects while replica A may still be following the agent's channel (the
  // `subscribed` answer comes before): both replicas say hello and announce at about the same
  // time, and whichever order the messages take, the agent must hear of the client. (It once did
  // not: replica B handled A's announcement before the agent's connection was on its entry; the
  // core test "an agent hears of a client announced while its replica is still saying hello".)
  it(
    "a client on replica A and the agent on replica B exchange nodes and disconnections",
    { timeout: 60_000 },
    async () => {
      const { a, b, owner, orgId } = replicas
      const template = await makeTemplate(a, owner, orgId, AGENTS_TEMPLATE)
      const w = await makeWorkspace(a, owner, orgId, template.id)
      const agentId = (w.latest_build.resources as Array<any>).flatMap((r) =>
        r.agents
      ).find((x: any) => x.name === "main").id
      const client = await connect(`${a.wsUrl}/api/v2/tailnet`, { [SESSION_HEADER]: owner.token! })
      send(client, { type: "node", node: node(2) })
      send(client, { type: "subscribe", agent_id: agentId })
      await waitFor(client, (m) => m.type === "subscribed", 0, 10_000)
      const agent = await connect(`${b.wsUrl}/api/v2/workspaceagents/me/coordinate`, {
        [SESSION_HEADER]: recording.token(w.id)!
      })
      // Replica B asks on the agent's channel; replica A answers with its client's node.
      expect((await waitFor(agent, (m) => m.type === "peer_update", 0, 10_000)).node.id).toBe(2)
      send(agent, { type: "node", node: node(1) })
      expect(await waitFor(client, (m) => m.type === "peer_update", 0, 10_000)).toMatchObject({
        agent_id: agentId,
        kind: "node",
        node: { id: 1 }
      })
      // A second client on replica B, subscribing later, gets the node too.
      const other = await connect(`${b.wsUrl}/api/v2/tailnet`, { [SESSION_HEADER]: owner.token! })
      send(other, { type: "subscribe", agent_id: agentId })
      expect((await waitFor(other, (m) => m.type === "peer_update", 0, 10_000)).node.id).toBe(1)
      const mark = client.messages.length
      agent.socket.close()
      await waitFor(client, (m) => m.type === "peer_update" && m.kind === "disconnected", mark, 10_000)
      client.socket.close()
      other.socket.close()
    }
  )

  it("a relay map set on replica B reaches replica A's streams", async () => {
    const { a, b, owner } = replicas
    const stream = await connect(`${a.wsUrl}/api/v2/derp-map`, { [SESSION_HEADER]: owner.token! })
    await eventually(() => stream.messages.length >= 1)
    const map = {
      Regions: {
        "3": {
          RegionID: 3,
          RegionCode: "par",
          RegionName: "Paris",
          Nodes: [{ Name: "3a", RegionID: 3, HostName: "relay.example.fr" }]
        }
      }
    }
    await b.run(Effect.flatMap(RelayMap, (r) => r.set(map)))
    await eventually(() => stream.messages.length >= 2)
    expect(JSON.parse(stream.messages.at(-1)!)).toEqual(map)
    stream.socket.close()
  })
})
