/**
 * Tailnet coordination: clients (`GET /tailnet`) and agents (`GET /workspaceagents/me/coordinate`)
 * exchange their nodes (how to reach them: keys, relay region, addresses, endpoints) so that they
 * can connect to each other. The node is opaque here: a JSON object, checked for size and shape
 * only. The protocol is JSON over a WebSocket; see docs/agents.md "Coordination".
 *
 * State lives in memory, per process: the agents connected here, the clients connected here and
 * what they subscribed to, and the latest node of each agent a client here follows. Between
 * replicas it travels on the PubSub port, one channel per agent followed (`tailnet_<agent id>`),
 * which a replica listens on while it has that agent connected or a client subscribed to it.
 * Nodes are small (MAX_NODE_BYTES), so they travel whole; nothing is written to the database.
 *
 * A node update costs one pass over the agent's local subscribers, each handed the same frame
 * (encoded once) through its outbox, plus one PubSub message: no per-message storage, nothing
 * quadratic. An outbox keeps, under backpressure, only the latest frame per peer.
 */
import { Effect, Either, ExecutionStrategy, Exit, Option, type Runtime, Schema, Scope } from "effect"
import { allowed, type CurrentActor } from "../Actor.js"
import { acquireReleaseInPlace, addFinalizerInPlace, extendInPlace, scopedInPlace } from "../ContextOverlay.js"
import { NotFound } from "../Errors.js"
import { isUuid, newUuid } from "../Ids.js"
import { lazily } from "../Lazily.js"
import { onSignals, PubSub, PUBSUB_RESYNC, type PubSubShape } from "../PubSub.js"
import { span } from "../Tracing.js"
import { whileWork } from "../WhileWork.js"
import { WorkspaceSharing } from "../workspaces/Sharing.js"
import { AgentRepo } from "./Agent.js"
import { CurrentAgent } from "./AgentAuth.js"
import { AgentReports } from "./Reports.js"

/** The largest node, in UTF-8 bytes of its JSON. */
export const MAX_NODE_BYTES = 4096

/** Agents one client connection may subscribe to at once. */
export const MAX_SUBSCRIPTIONS = 256

/** The PubSub channel of an agent's coordination: `tailnet_` and the id's 32 hex digits. */
export const tailnetChannel = (agentId: string): string => `tailnet_${agentId.replaceAll("-", "").toLowerCase()}`

// ---------------------------------------------------------------------------
// Outbox: a peer's outgoing frames

/** Frames for one peer, sent in order; under backpressure only the latest per key waits. */
export interface Outbox {
  /** Queues `frame` under `key`, replacing a frame of that key still waiting. Synchronous. */
  readonly push: (key: string, frame: string | Uint8Array) => void
}

/**
 * The outbox of a peer whose frames go out with `send`, for the life of the scope: frames are sent
 * by a fiber that runs only while some wait (started by a push, ended when none is left), not one
 * waiting the whole session (memory per connected agent). Once `send` fails, nothing more is sent.
 */
export const makeOutbox = <E>(
  send: (frame: string | Uint8Array) => Effect.Effect<void, E>,
  /** What the sends run on (a service's, shared: see `onSignals`); default: the caller's. */
  runtime?: Runtime.Runtime<never>
): Effect.Effect<Outbox, never, Scope.Scope> =>
  Effect.gen(function*() {
    const pending = new Map<string, string | Uint8Array>()
    let stopped = false
    const drain: Effect.Effect<void, E> = Effect.suspend(() => {
      if (pending.size === 0) return Effect.void
      const frames = [...pending.values()]
      pending.clear()
      return Effect.zipRight(Effect.forEach(frames, send, { discard: true }), drain)
    })
    const sends = yield* whileWork(
      Effect.catchAll(drain, () =>
        Effect.sync(() => {
          stopped = true
          pending.clear()
        })),
      runtime
    )
    return {
      push: (key, frame) => {
        if (stopped) return
        pending.delete(key)
        pending.set(key, frame)
        sends.wake()
      }
    }
  })

// ---------------------------------------------------------------------------
// Frames

const text = new TextEncoder()

/** What a client receives about an agent. */
const agentNodeFrame = (agentId: string, node: string) =>
  text.encode(`{"type":"peer_update","agent_id":"${agentId}","kind":"node","node":${node}}`)
const agentGoneFrame = (agentId: string, reason: string) =>
  JSON.stringify({ type: "peer_update", agent_id: agentId, kind: "disconnected", reason })
/** What an agent receives about a client. */
const clientNodeFrame = (clientId: string, node: string) =>
  `{"type":"peer_update","peer_id":"${clientId}","kind":"node","node":${node}}`
const clientGoneFrame = (clientId: string, reason: string) =>
  JSON.stringify({ type: "peer_update", peer_id: clientId, kind: "disconnected", reason })

// ---------------------------------------------------------------------------
// The engine: in-process maps and the PubSub between replicas

interface LocalClient {
  readonly id: string
  readonly out: Outbox
  node: string | undefined
  readonly subscriptions: Set<string>
}

interface LocalAgent {
  readonly out: Outbox
}

interface AgentEntry {
  readonly id: string
  /** Connections of this agent to this replica (normally one; a reconnect may overlap). */
  readonly conns: Set<LocalAgent>
  /** Clients of this replica subscribed to the agent. */
  readonly subscribers: Set<LocalClient>
  /** Clients of other replicas subscribed to the agent, with their nodes (kept while the agent is connected here). */
  readonly remoteClients: Map<string, string>
  /** The agent's latest node, from here or another replica. */
  node: string | undefined
  readonly scope: Scope.CloseableScope
}

/** Messages between replicas on an agent's channel. */
type Wire =
  | { readonly t: "agent"; readonly r: string; readonly n: unknown }
  | { readonly t: "agent_gone"; readonly r: string }
  | { readonly t: "client"; readonly r: string; readonly c: string; readonly n: unknown }
  | { readonly t: "client_gone"; readonly r: string; readonly c: string }
  | { readonly t: "hello"; readonly r: string }

/** An agent's coordination connection, as the engine sees it. */
export interface AgentHandle {
  /** The agent's new node (JSON of an object, checked by the caller). */
  readonly updateNode: (node: string) => Effect.Effect<void>
}

/** A client's coordination connection, as the engine sees it. */
export interface ClientHandle {
  readonly id: string
  readonly subscribe: (agentId: string) => Effect.Effect<void>
  readonly unsubscribe: (agentId: string) => Effect.Effect<void>
  readonly subscriptions: () => ReadonlySet<string>
  /** The client's new node (JSON of an object, checked by the caller). */
  readonly updateNode: (node: string) => Effect.Effect<void>
}

export interface CoordinatorEngine {
  /** Registers an agent's connection until the scope closes; its outbox gets its subscribers' nodes. */
  readonly connectAgent: (agentId: string, out: Outbox) => Effect.Effect<AgentHandle, never, Scope.Scope>
  /** Registers a client's connection until the scope closes (its subscriptions end with it). */
  readonly connectClient: (clientId: string, out: Outbox) => Effect.Effect<ClientHandle, never, Scope.Scope>
  /** Agents followed by this replica (connected here or subscribed to here). */
  readonly followed: () => number
}

const send = (out: Outbox, key: string, frame: string | Uint8Array) => {
  try {
    out.push(key, frame)
  } catch {
    // One peer's failure is its own.
  }
}

/**
 * The coordination state of one replica (`replicaId` tells its own PubSub messages from the
 * others'). Two engines on one PubSub behave as two replicas.
 */
export const makeCoordinatorEngine = (
  pubsub: PubSubShape,
  replicaId: string
): Effect.Effect<CoordinatorEngine, never, Scope.Scope> =>
  Effect.gen(function*() {
    const entries = new Map<string, AgentEntry>()
    const lock = yield* Effect.makeSemaphore(1)
    // The channels' handlers run on the engine's runtime (one for all its entries).
    const runtime = yield* Effect.runtime<never>()
    const outer = yield* Effect.scope
    yield* Effect.addFinalizer(() =>
      Effect.forEach([...entries.values()], (e) => Scope.close(e.scope, Exit.void), { discard: true })
    )

    const publish = (agentId: string, message: Wire) => pubsub.publish(tailnetChannel(agentId), JSON.stringify(message))

    /**
     * What this replica says on an agent's channel about nodes (its agent's, its clients'): sent
     * one message at a time per channel, in order, by a fiber of the engine, so that no
     * connection waits for the PubSub (a Postgres round trip, a pool connection) before its next
     * message; while one is on its way only the latest message per `key` waits (a node replaces
     * the last one not yet sent; `agent_gone` an agent's node, `client_gone` a client's). A channel
     * has one sender at a time (`outgoing`, kept while it has messages), so a reconnected agent's
     * node never overtakes the `agent_gone` of its last connection.
     */
    const outgoing = new Map<string, Map<string, string>>()
    const post = (agentId: string, key: string, message: string): Effect.Effect<void> =>
      Effect.suspend(() => {
        const waiting = outgoing.get(agentId)
        if (waiting !== undefined) {
          waiting.delete(key)
          waiting.set(key, message)
          return Effect.void
        }
        const queue = new Map([[key, message]])
        outgoing.set(agentId, queue)
        const channel = tailnetChannel(agentId)
        const drain: Effect.Effect<void> = Effect.suspend(() => {
          const next = queue.entries().next()
          if (next.done === true) {
            outgoing.delete(agentId)
            return Effect.void
          }
          queue.delete(next.value[0])
          return Effect.zipRight(pubsub.publish(channel, next.value[1]), drain)
        })
        return Effect.asVoid(Effect.forkIn(drain, outer))
      })
    const agentWire = (node: string) => `{"t":"agent","r":${JSON.stringify(replicaId)},"n":${node}}`
    const clientWire = (clientId: string, node: string) =>
      `{"t":"client","r":${JSON.stringify(replicaId)},"c":${JSON.stringify(clientId)},"n":${node}}`

    const fanOutAgentNode = (entry: AgentEntry) => {
      if (entry.node === undefined || entry.subscribers.size === 0) return
      const frame = agentNodeFrame(entry.id, entry.node)
      for (const client of entry.subscribers) send(client.out, entry.id, frame)
    }

    const fanOutAgentGone = (entry: AgentEntry, reason: string) => {
      if (entry.subscribers.size === 0) return
      const frame = agentGoneFrame(entry.id, reason)
      for (const client of entry.subscribers) send(client.out, entry.id, frame)
    }

    const toAgents = (entry: AgentEntry, clientId: string, frame: string) => {
      for (const conn of entry.conns) send(conn.out, clientId, frame)
    }

    /** What this replica tells the others about an agent: its connected agent's node, its clients' nodes. */
    const announce = (entry: AgentEntry) =>
      Effect.gen(function*() {
        if (entry.conns.size > 0 && entry.node !== undefined) yield* post(entry.id, "agent", agentWire(entry.node))
        for (const client of entry.subscribers) {
          if (client.node !== undefined) yield* post(entry.id, `c:${client.id}`, clientWire(client.id, client.node))
        }
      })

    const receive = (entry: AgentEntry, message: string) =>
      Effect.gen(function*() {
        if (message === PUBSUB_RESYNC) {
          // Messages may have been lost: ask the others again, and say again what is ours.
          yield* publish(entry.id, { t: "hello", r: replicaId })
          return yield* announce(entry)
        }
        let m: Wire
        try {
          m = JSON.parse(message) as Wire
        } catch {
          return
        }
        if (m.r === replicaId) return
        switch (m.t) {
          case "agent": {
            entry.node = JSON.stringify(m.n)
            return fanOutAgentNode(entry)
          }
          case "agent_gone": {
            if (entry.conns.size > 0) return
            entry.node = undefined
            return fanOutAgentGone(entry, "The agent disconnected.")
          }
          case "client": {
            if (entry.conns.size === 0) return
            const node = JSON.stringify(m.n)
            entry.remoteClients.set(m.c, node)
            return toAgents(entry, m.c, clientNodeFrame(m.c, node))
          }
          case "client_gone": {
            if (entry.remoteClients.delete(m.c)) toAgents(entry, m.c, clientGoneFrame(m.c, "The client left."))
            return
          }
          case "hello":
            return yield* announce(entry)
        }
      })

    /**
     * The entry of `agentId`, made (and its channel followed) when new. Under the lock; never left
     * half made. `join` registers the caller on the entry before its channel is followed: once
     * followed, the channel's messages are handled at once (while this still publishes its
     * `hello`), and they must already see the caller (an agent's connection: the other replicas'
     * clients reach it only so).
     */
    const ensure = (agentId: string, join: (entry: AgentEntry) => void = () => {}) =>
      Effect.uninterruptible(Effect.gen(function*() {
        const found = entries.get(agentId)
        if (found !== undefined) {
          join(found)
          return found
        }
        const scope = yield* Scope.fork(outer, ExecutionStrategy.sequential)
        const entry: AgentEntry = {
          id: agentId,
          conns: new Set(),
          subscribers: new Set(),
          remoteClients: new Map(),
          node: undefined,
          scope
        }
        entries.set(agentId, entry)
        join(entry)
        // Follow first, then ask: no answer is missed. No fiber waits between messages (`onSignals`);
        // the scope's close ends a run.
        yield* extendInPlace(
          onSignals(
            pubsub,
            tailnetChannel(agentId),
            (messages) => Effect.forEach(messages, (m) => receive(entry, m)),
            runtime
          ),
          scope
        )
        yield* publish(agentId, { t: "hello", r: replicaId })
        return entry
      }))

    /** Forgets `entry` once nothing here follows it. Under the lock. */
    const release = (entry: AgentEntry) =>
      entry.conns.size > 0 || entry.subscribers.size > 0 || entries.get(entry.id) !== entry
        ? Effect.void
        : Effect.suspend(() => {
          entries.delete(entry.id)
          return Scope.close(entry.scope, Exit.void)
        })

    const connectAgent = (agentId: string, out: Outbox) =>
      Effect.gen(function*() {
        const conn: LocalAgent = { out }
        const entry = yield* acquireReleaseInPlace(
          lock.withPermits(1)(Effect.gen(function*() {
            const existed = entries.has(agentId)
            // The other replicas' clients known when the connection joins (another connection of the
            // agent is here); those announced from now on reach it through the channel.
            let known: ReadonlyArray<[string, string]> = []
            const entry = yield* ensure(agentId, (e) => {
              e.conns.add(conn)
              known = [...e.remoteClients]
            })
            // Followed here already (by local clients): ask the other replicas for their clients' nodes now.
            if (existed && entry.conns.size === 1) yield* publish(agentId, { t: "hello", r: replicaId })
            // The nodes of the clients already waiting for it.
            for (const client of entry.subscribers) {
              if (client.node !== undefined) send(out, client.id, clientNodeFrame(client.id, client.node))
            }
            for (const [id, node] of known) send(out, id, clientNodeFrame(id, node))
            return entry
          })),
          (entry) =>
            lock.withPermits(1)(Effect.gen(function*() {
              entry.conns.delete(conn)
              if (entry.conns.size === 0) {
                entry.node = undefined
                entry.remoteClients.clear()
                fanOutAgentGone(entry, "The agent disconnected.")
                yield* post(agentId, "agent", JSON.stringify({ t: "agent_gone", r: replicaId } satisfies Wire))
              }
              yield* release(entry)
            }))
        )
        return {
          updateNode: (node: string) =>
            Effect.suspend(() => {
              entry.node = node
              fanOutAgentNode(entry)
              return post(agentId, "agent", agentWire(node))
            })
        } satisfies AgentHandle
      })

    const connectClient = (clientId: string, out: Outbox) =>
      Effect.gen(function*() {
        const client: LocalClient = { id: clientId, out, node: undefined, subscriptions: new Set() }

        const subscribe = (agentId: string) =>
          lock.withPermits(1)(Effect.uninterruptible(Effect.gen(function*() {
            if (client.subscriptions.has(agentId)) return
            const entry = yield* ensure(agentId)
            client.subscriptions.add(agentId)
            entry.subscribers.add(client)
            if (entry.node !== undefined) send(out, agentId, agentNodeFrame(agentId, entry.node))
            if (client.node !== undefined) {
              toAgents(entry, clientId, clientNodeFrame(clientId, client.node))
              yield* post(agentId, `c:${clientId}`, clientWire(clientId, client.node))
            }
          })))

        const unsubscribe = (agentId: string) =>
          lock.withPermits(1)(Effect.uninterruptible(Effect.gen(function*() {
            if (!client.subscriptions.delete(agentId)) return
            const entry = entries.get(agentId)
            if (entry === undefined) return
            entry.subscribers.delete(client)
            toAgents(entry, clientId, clientGoneFrame(clientId, "The client unsubscribed."))
            yield* post(
              agentId,
              `c:${clientId}`,
              JSON.stringify({ t: "client_gone", r: replicaId, c: clientId } satisfies Wire)
            )
            yield* release(entry)
          })))

        yield* addFinalizerInPlace(() => Effect.forEach([...client.subscriptions], unsubscribe, { discard: true }))

        return {
          id: clientId,
          subscribe,
          unsubscribe,
          subscriptions: () => client.subscriptions,
          updateNode: (node: string) =>
            Effect.gen(function*() {
              client.node = node
              const wire = clientWire(clientId, node)
              for (const agentId of client.subscriptions) {
                const entry = entries.get(agentId)
                if (entry !== undefined) toAgents(entry, clientId, clientNodeFrame(clientId, node))
                yield* post(agentId, `c:${clientId}`, wire)
              }
            })
        } satisfies ClientHandle
      })

    return { connectAgent, connectClient, followed: () => entries.size } satisfies CoordinatorEngine
  })

// ---------------------------------------------------------------------------
// The protocol: JSON messages over a connection

/** A node: a JSON object (the described system's tailnet `Node`), opaque here. */
export const TailnetNode = Schema.Record({ key: Schema.String, value: Schema.Unknown })

const AgentId = Schema.String

/** What a client sends on `GET /tailnet`. */
export const TailnetClientMessage = Schema.Union(
  Schema.Struct({ type: Schema.Literal("subscribe"), agent_id: AgentId }),
  Schema.Struct({ type: Schema.Literal("unsubscribe"), agent_id: AgentId }),
  Schema.Struct({ type: Schema.Literal("node"), node: TailnetNode })
)

/** What an agent sends on `GET /workspaceagents/me/coordinate`. */
export const TailnetAgentMessage = Schema.Struct({ type: Schema.Literal("node"), node: TailnetNode })

const CLIENT_EXPECTED = `{"type": "subscribe" | "unsubscribe", "agent_id": ...} or {"type": "node", "node": {...}}`
const AGENT_EXPECTED = `{"type": "node", "node": {...}}`

const decodeClientMessage = lazily(() => Schema.decodeUnknownEither(TailnetClientMessage))
const decodeAgentMessage = lazily(() => Schema.decodeUnknownEither(TailnetAgentMessage))

/** The connection a coordination session runs on (a WebSocket's). */
export interface PeerConnection {
  /** The next message from the peer; fails once it is gone. */
  readonly receive: Effect.Effect<string, unknown>
  readonly send: (frame: string | Uint8Array) => Effect.Effect<void, unknown>
}

/** An agent's coordination connection: a peer's, which the service ends when the agent is replaced. */
export interface AgentPeerConnection extends PeerConnection {
  /** Closes the connection with `AGENT_REPLACED_REASON`; `receive` then fails once the messages received were taken. */
  readonly closeReplaced: Effect.Effect<void>
}

let errorSeq = 0
const errorFrame = (message: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: "error", message, ...extra })
const pushError = (out: Outbox, message: string, extra: Record<string, unknown> = {}) =>
  send(out, `error:${++errorSeq}`, errorFrame(message, extra))

/** The message as JSON, and its node's JSON when within MAX_NODE_BYTES; else the error to answer. */
const parseMessage = <A>(
  raw: string,
  decode: (u: unknown) => Either.Either<A, unknown>,
  expected: string
): { readonly ok: A; readonly node?: string } | { readonly error: string } => {
  if (Buffer.byteLength(raw, "utf8") > MAX_NODE_BYTES + 1024) {
    return { error: `The message is over ${MAX_NODE_BYTES + 1024} bytes.` }
  }
  let json: unknown
  try {
    json = JSON.parse(raw)
  } catch {
    return { error: "The message is not JSON." }
  }
  const decoded = decode(json)
  if (Either.isLeft(decoded)) return { error: `Unknown message: send ${expected}.` }
  const value = decoded.right as A & { readonly node?: unknown }
  if (value.node === undefined) return { ok: value }
  const node = JSON.stringify(value.node)
  if (Buffer.byteLength(node, "utf8") > MAX_NODE_BYTES) return { error: `The node is over ${MAX_NODE_BYTES} bytes.` }
  return { ok: value, node }
}

const newClientId = () => newUuid()

export class Coordinator extends Effect.Service<Coordinator>()("@workbay/core/Coordinator", {
  scoped: Effect.gen(function*() {
    const pubsub = yield* PubSub
    const agents = yield* AgentRepo
    const sharing = yield* WorkspaceSharing
    const reports = yield* AgentReports
    const engine = yield* makeCoordinatorEngine(pubsub, newUuid())
    // The sessions' outboxes send on the service's runtime (one for all).
    const runtime = yield* Effect.runtime<never>()

    /**
     * Whether the caller may reach agent `id`: an agent of its workspace's latest build, in a
     * workspace the caller may `ssh` into or connect to applications of. Answers the refusal.
     */
    const mayReach = (id: string): Effect.Effect<Option.Option<string>, never, CurrentActor> =>
      Effect.gen(function*() {
        const found = isUuid(id) ? yield* agents.findById(id.toLowerCase()) : Option.none()
        const notFound = Option.some("Workspace agent not found.")
        if (Option.isNone(found)) return notFound
        const { workspace, build, latest_build_number } = found.value
        if (workspace.deleted || build.build_number !== latest_build_number) return notFound
        const object = sharing.object(workspace)
        if ((yield* allowed("ssh", object)) || (yield* allowed("application_connect", object))) return Option.none()
        return (yield* allowed("read", object)) ? Option.some("You may not connect to this workspace agent.") : notFound
      })

    /**
     * The check of `GET /workspaceagents/{workspaceagent}/coordinate`, before the upgrade, as the
     * described system's: the agent of its workspace's latest build (the workspace not deleted),
     * and the caller may `ssh` into that workspace; 404 otherwise (a stranger learns nothing).
     * Answers the agent's id.
     */
    const checkAgentClient = (id: string): Effect.Effect<string, NotFound, CurrentActor> =>
      Effect.gen(function*() {
        const found = yield* agents.findById(id.toLowerCase())
        const notFound = NotFound.resource("Workspace agent")
        if (Option.isNone(found)) return yield* notFound
        const { agent, workspace, build, latest_build_number } = found.value
        if (workspace.deleted || build.build_number !== latest_build_number) return yield* notFound
        if (!(yield* allowed("ssh", sharing.object(workspace)))) return yield* notFound
        return agent.id
      })

    /**
     * Runs a client's coordination session until the connection ends: `GET /tailnet` (the client
     * subscribes to the agents it follows), or, with `only`, `GET /workspaceagents/{id}/coordinate`:
     * subscribed to that one agent at once (its check made before the upgrade), and no other.
     */
    const serveClient = (conn: PeerConnection, only?: string): Effect.Effect<void, never, CurrentActor> =>
      scopedInPlace(Effect.gen(function*() {
        const out = yield* makeOutbox(conn.send, runtime)
        const client = yield* engine.connectClient(newClientId(), out)
        if (only !== undefined) {
          send(out, `ack:${only}`, JSON.stringify({ type: "subscribed", agent_id: only }))
          yield* client.subscribe(only)
        }
        const handle = (raw: string) =>
          Effect.gen(function*() {
            const parsed = parseMessage(raw, decodeClientMessage, CLIENT_EXPECTED)
            if ("error" in parsed) return pushError(out, parsed.error)
            const m = parsed.ok
            if (only !== undefined && m.type !== "node" && m.agent_id.toLowerCase() !== only) {
              return pushError(out, "This connection follows its one agent; use /tailnet to follow others.", {
                agent_id: m.agent_id
              })
            }
            switch (m.type) {
              case "node":
                return yield* client.updateNode(parsed.node!)
              case "subscribe": {
                const agentId = m.agent_id.toLowerCase()
                if (client.subscriptions().has(agentId)) {
                  return send(out, `ack:${agentId}`, JSON.stringify({ type: "subscribed", agent_id: agentId }))
                }
                if (client.subscriptions().size >= MAX_SUBSCRIPTIONS) {
                  return pushError(out, `A connection may follow at most ${MAX_SUBSCRIPTIONS} agents.`, {
                    agent_id: m.agent_id
                  })
                }
                const refused = yield* mayReach(agentId)
                if (Option.isSome(refused)) {
                  return pushError(out, refused.value, { agent_id: m.agent_id })
                }
                send(out, `ack:${agentId}`, JSON.stringify({ type: "subscribed", agent_id: agentId }))
                return yield* client.subscribe(agentId)
              }
              case "unsubscribe": {
                const agentId = m.agent_id.toLowerCase()
                yield* client.unsubscribe(agentId)
                return send(out, `ack:${agentId}`, JSON.stringify({ type: "unsubscribed", agent_id: agentId }))
              }
            }
          })
        yield* Effect.forever(Effect.flatMap(conn.receive, handle))
      })).pipe(Effect.ignore, span("Coordinator.serveClient"))

    /**
     * Opens an agent's coordination session (`GET /workspaceagents/me/coordinate`) for the life of
     * the scope: gives what takes each of the agent's messages (in order, one at a time). Once the
     * agent's token stops working (a newer build, its workspace deleted, its token rotated) the
     * connection is closed ("replaced"), as the agent connection's is, and no message is taken.
     */
    const openAgent = (conn: Omit<AgentPeerConnection, "receive">) =>
      Effect.gen(function*() {
        const session = yield* CurrentAgent
        const out = yield* makeOutbox(conn.send, runtime)
        const agent = yield* engine.connectAgent(session.agent.id, out)
        // The replacement closes the connection, which ends its messages: no fiber of its own.
        const replaced = yield* reports.closeWhenReplaced(session, conn.closeReplaced)
        const handle = (raw: string): Effect.Effect<void> => {
          if (replaced()) return Effect.void
          const parsed = parseMessage(raw, decodeAgentMessage, AGENT_EXPECTED)
          if ("error" in parsed) return Effect.sync(() => pushError(out, parsed.error))
          return agent.updateNode(parsed.node!)
        }
        return { handle, replaced } as const
      }).pipe(span("Coordinator.openAgent"))

    /**
     * Runs an agent's coordination session (`openAgent`, with a fiber that takes its messages) until
     * the connection ends ("closed"), or until the agent's token stops working ("replaced").
     */
    const serveAgent = (conn: AgentPeerConnection): Effect.Effect<"replaced" | "closed", never, CurrentAgent> =>
      scopedInPlace(Effect.gen(function*() {
        const open = yield* openAgent(conn)
        yield* Effect.ignore(Effect.forever(Effect.flatMap(
          conn.receive,
          (raw) => open.replaced() ? Effect.fail("replaced" as const) : open.handle(raw)
        )))
        return open.replaced() ? "replaced" as const : "closed" as const
      })).pipe(Effect.orElseSucceed(() => "closed" as const), span("Coordinator.serveAgent"))

    return { serveClient, checkAgentClient, openAgent, serveAgent, engine } as const
  })
}) {}
