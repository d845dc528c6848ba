/**
 * Agent connection test support on the real services: a workspace with one agent `main` (its token
 * recorded from the provisioner), and a served connection whose incoming messages are offered by
 * the test and whose outgoing ones land in a queue.
 */
import {
  AgentAuth,
  Agents,
  type BuildInput,
  CurrentAgent,
  type Provisioner,
  serveAgentConnection,
  workbayProvisioner,
  Workspaces
} from "@workbay/core"
import { Effect, Fiber, Queue } from "effect"
import { drain, signedInOwner, templateOf } from "../services.js"

const TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
      - name: main
`

const tokens = new Map<string, string>()

/** The agent token recorded for a workspace's agent `main`. */
export const tokenOf = (workspaceId: string): string => tokens.get(workspaceId)!

/** The built-in provisioner, recording each workspace's agent token. */
export const recording: Provisioner = {
  ...workbayProvisioner,
  build: (input: BuildInput) =>
    Effect.gen(function*() {
      tokens.set(input.workspace.id, yield* input.agentToken("main"))
      return yield* workbayProvisioner.build(input)
    })
}

/** A workspace (signed in at `t0`) with a running build; its agent's session (as its token authenticates) and a reader of its Agent record. */
export const setupAgent = (t0: number) =>
  Effect.gen(function*() {
    const { as, organizationId } = yield* signedInOwner(t0)
    const template = yield* as(templateOf(organizationId, TEMPLATE, "tpl"))
    const created = yield* as(
      Effect.flatMap(Workspaces, (w) => w.create(organizationId, "me", { name: "ws", template_id: template.id }))
    )
    yield* drain
    const session = yield* Effect.flatMap(AgentAuth, (a) => a.authenticate(tokens.get(created.id)!))
    const record = as(Effect.flatMap(Agents, (a) => a.get(session.agent.id)))
    return { session, record, workspaceId: created.id, agentId: session.agent.id, as }
  })

/**
 * `n` workspaces of one template (signed in at `t0`, each with `ttl_ms` when given, so its running
 * build has a deadline), each with its agent's session; `as` runs an effect as the owner.
 */
export const setupAgents = (t0: number, n: number, options: { readonly ttlMs?: number } = {}) =>
  Effect.gen(function*() {
    const { as, organizationId } = yield* signedInOwner(t0)
    const template = yield* as(templateOf(organizationId, TEMPLATE, "tpl"))
    const agents: Array<{ session: CurrentAgent["Type"]; workspaceId: string }> = []
    for (let i = 0; i < n; i++) {
      const created = yield* as(
        Effect.flatMap(Workspaces, (w) =>
          w.create(organizationId, "me", {
            name: `ws${i}`,
            template_id: template.id,
            ...(options.ttlMs === undefined ? {} : { ttl_ms: options.ttlMs })
          }))
      )
      yield* drain
      const session = yield* Effect.flatMap(AgentAuth, (a) => a.authenticate(tokens.get(created.id)!))
      agents.push({ session, workspaceId: created.id })
    }
    return { as, agents }
  })

/**
 * Serves a connection: `request` offers a message and takes the next one sent; `sent` holds what
 * the server sends; `roundTrip` offers the transport's next measured round trip (ms); `end` closes it.
 */
export const serve = (session: CurrentAgent["Type"]) =>
  Effect.gen(function*() {
    const incoming = yield* Queue.unbounded<string | null>()
    const sent = yield* Queue.unbounded<string>()
    const roundTrips = yield* Queue.unbounded<number>()
    const fiber = yield* serveAgentConnection({
      receive: Effect.map(Queue.take(incoming), (m) => m ?? undefined),
      send: (text) => Queue.offer(sent, text),
      nextRoundTrip: Queue.take(roundTrips),
      closeReplaced: Queue.offer(incoming, null)
    }).pipe(Effect.provideService(CurrentAgent, session), Effect.fork)
    const request = (message: object) =>
      Effect.zipRight(Queue.offer(incoming, JSON.stringify(message)), Queue.take(sent))
    const roundTrip = (ms: number) => Effect.zipRight(Queue.offer(roundTrips, ms), Effect.yieldNow())
    return { fiber, sent, request, roundTrip, end: Effect.zipRight(Queue.offer(incoming, null), Fiber.join(fiber)) }
  })
