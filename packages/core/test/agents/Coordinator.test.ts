/**
 * Coordination between replicas without HTTP: two coordinator engines on one PubSub behave as two
 * replicas (a client on one, the agent on the other); outboxes keep the latest frame per peer
 * under backpressure; relay maps set on one service reach the listeners of another.
 */
import { describe, expect, it } from "@effect/vitest"
import { type CoordinatorEngine, type Outbox, PubSub, RelayMap, Settings } from "@workbay/core"
import { Context, Deferred, Duration, Effect, Exit, Fiber, Layer, Queue, Scope, TestClock } from "effect"
import { makeCoordinatorEngine, makeOutbox } from "../../src/agents/Coordinator.js"

const AGENT = "0f9988c8-4d59-41fd-9f5f-c44cfa914de0"

/** An outbox that keeps what it is handed, parsed. */
const recorder = () => {
  const frames: Array<any> = []
  const out: Outbox = {
    push: (_key, frame) =>
      void frames.push(JSON.parse(typeof frame === "string" ? frame : new TextDecoder().decode(frame)))
  }
  return { out, frames }
}

/** Lets the engines' channel fibers run (the PubSub hands messages to fibers). */
const settle = Effect.gen(function*() {
  for (let i = 0; i < 20; i++) yield* Effect.yieldNow()
})

const replicas = Effect.gen(function*() {
  const pubsub = yield* PubSub
  const a: CoordinatorEngine = yield* makeCoordinatorEngine(pubsub, "replica-a")
  const b: CoordinatorEngine = yield* makeCoordinatorEngine(pubsub, "replica-b")
  return { a, b }
})

const node = (id: number) => JSON.stringify({ id, key: `nodekey:${id}`, preferred_derp: 999 })

describe("Coordinator engines on one PubSub", () => {
  it.scoped("a client on one replica and the agent on another exchange nodes and disconnections", () =>
    Effect.gen(function*() {
      const { a, b } = yield* replicas
      const client = recorder()
      const agent = recorder()
      const clientScope = yield* Scope.make()
      const c = yield* Scope.extend(b.connectClient("client-1", client.out), clientScope)
      yield* c.updateNode(node(2))
      yield* c.subscribe(AGENT)
      yield* settle
      const agentScope = yield* Scope.make()
      const handle = yield* Scope.extend(a.connectAgent(AGENT, agent.out), agentScope)
      yield* settle
      // The agent hears of the client already waiting for it (its replica asked on connecting).
      expect(agent.frames).toEqual([{
        type: "peer_update",
        peer_id: "client-1",
        kind: "node",
        node: JSON.parse(node(2))
      }])
      yield* handle.updateNode(node(1))
      yield* settle
      expect(client.frames).toEqual([{ type: "peer_update", agent_id: AGENT, kind: "node", node: JSON.parse(node(1)) }])
      // A second client on replica B gets the node at once, from what B already knows.
      const late = recorder()
      yield* Effect.flatMap(b.connectClient("client-2", late.out), (h) => h.subscribe(AGENT))
      expect(late.frames.map((f) => f.node.id)).toEqual([1])
      // The client leaves: the agent hears it.
      yield* Scope.close(clientScope, Exit.void)
      yield* settle
      expect(agent.frames.at(-1)).toMatchObject({ peer_id: "client-1", kind: "disconnected" })
      // The agent leaves: the remaining client hears it.
      yield* Scope.close(agentScope, Exit.void)
      yield* settle
      expect(late.frames.at(-1)).toMatchObject({ type: "peer_update", agent_id: AGENT, kind: "disconnected" })
      expect(a.followed()).toBe(0)
      expect(b.followed()).toBe(1)
    }).pipe(Effect.provide(PubSub.memory)))

  it.scoped("a client subscribing after the agent published on another replica gets its node", () =>
    Effect.gen(function*() {
      const { a, b } = yield* replicas
      const agent = recorder()
      const handle = yield* a.connectAgent(AGENT, agent.out)
      yield* handle.updateNode(node(7))
      yield* settle
      const client = recorder()
      yield* Effect.flatMap(b.connectClient("client-1", client.out), (h) => h.subscribe(AGENT))
      yield* settle
      expect(client.frames).toEqual([{ type: "peer_update", agent_id: AGENT, kind: "node", node: JSON.parse(node(7)) }])
    }).pipe(Effect.provide(PubSub.memory)))

  it.scoped("an agent connecting where a client already follows it still hears of the other replicas' clients", () =>
    Effect.gen(function*() {
      const { a, b } = yield* replicas
      const local = yield* a.connectClient("local", recorder().out)
      yield* local.updateNode(node(10))
      yield* local.subscribe(AGENT)
      const remote = yield* b.connectClient("remote", recorder().out)
      yield* remote.updateNode(node(11))
      yield* remote.subscribe(AGENT)
      yield* settle
      const agent = recorder()
      yield* a.connectAgent(AGENT, agent.out)
      yield* settle
      expect(agent.frames.map((f) => `${f.peer_id}:${f.node.id}`).sort()).toEqual(["local:10", "remote:11"])
    }).pipe(Effect.provide(PubSub.memory)))

  it.scoped("an agent hears of a client announced while its replica is still saying hello", () =>
    Effect.gen(function*() {
      // Replica B's `hello` publish is slow (a Postgres round trip): it is sent, but B's
      // connectAgent waits on `gate` before it resumes. Meanwhile a client on replica A subscribes
      // and A announces it on the channel, which B's channel fiber handles at once. The agent's
      // connection must already be on B's entry then, or the client's node is dropped (the
      // cross-replica Postgres test's old flake: nothing asks again later).
      const pubsub = yield* PubSub
      const gate = yield* Deferred.make<void>()
      const held = yield* Deferred.make<void>()
      const slowHello: typeof pubsub = {
        subscribe: pubsub.subscribe,
        listen: pubsub.listen,
        publish: (channel, message) =>
          message.includes(`"t":"hello"`)
            ? Effect.zipRight(
              pubsub.publish(channel, message),
              Effect.zipRight(Deferred.succeed(held, undefined), Deferred.await(gate))
            )
            : pubsub.publish(channel, message)
      }
      const a = yield* makeCoordinatorEngine(pubsub, "replica-a")
      const b = yield* makeCoordinatorEngine(slowHello, "replica-b")
      const agent = recorder()
      const connecting = yield* Effect.fork(b.connectAgent(AGENT, agent.out))
      yield* Deferred.await(held)
      const client = yield* a.connectClient("client-1", recorder().out)
      yield* client.updateNode(node(4))
      yield* client.subscribe(AGENT)
      yield* settle
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.join(connecting)
      yield* settle
      expect(agent.frames).toEqual([{
        type: "peer_update",
        peer_id: "client-1",
        kind: "node",
        node: JSON.parse(node(4))
      }])
    }).pipe(Effect.provide(PubSub.memory)))

  it.scoped("an agent's updates do not wait for the PubSub; while one is on its way only the latest waits", () =>
    Effect.gen(function*() {
      // Replica A's publishes of node messages are held (a slow NOTIFY) until `gate` opens.
      const pubsub = yield* PubSub
      const gate = yield* Deferred.make<void>()
      const slow: typeof pubsub = {
        subscribe: pubsub.subscribe,
        listen: pubsub.listen,
        publish: (channel, message) =>
          message.includes(`"t":"agent"`)
            ? Effect.zipRight(Deferred.await(gate), pubsub.publish(channel, message))
            : pubsub.publish(channel, message)
      }
      const a = yield* makeCoordinatorEngine(slow, "replica-a")
      const b = yield* makeCoordinatorEngine(pubsub, "replica-b")
      const local = recorder()
      const remote = recorder()
      yield* Effect.flatMap(a.connectClient("local", local.out), (h) => h.subscribe(AGENT))
      yield* Effect.flatMap(b.connectClient("remote", remote.out), (h) => h.subscribe(AGENT))
      yield* settle
      const handle = yield* a.connectAgent(AGENT, recorder().out)
      // Each update returns at once and reaches the local client, though the first is still being published.
      yield* handle.updateNode(node(1))
      yield* settle
      yield* handle.updateNode(node(2))
      yield* handle.updateNode(node(3))
      expect(local.frames.map((f) => f.node.id)).toEqual([1, 2, 3])
      yield* settle
      expect(remote.frames).toEqual([])
      // Published in order, the second replaced by the third while the first was on its way.
      yield* Deferred.succeed(gate, undefined)
      yield* settle
      expect(remote.frames.map((f) => f.node.id)).toEqual([1, 3])
    }).pipe(Effect.provide(PubSub.memory)))

  it.scoped("fans one update out to 500 local subscribers once each, and forgets an agent nobody follows", () =>
    Effect.gen(function*() {
      const { a } = yield* replicas
      const scope = yield* Scope.make()
      const clients = Array.from({ length: 500 }, recorder)
      for (const [i, c] of clients.entries()) {
        yield* Effect.flatMap(Scope.extend(a.connectClient(`c${i}`, c.out), scope), (h) => h.subscribe(AGENT))
      }
      const handle = yield* a.connectAgent(AGENT, recorder().out)
      // Delivered within the update itself (speed is bench:tailnet's, not a test's).
      yield* handle.updateNode(node(3))
      expect(clients.every((c) => c.frames.length === 1 && c.frames[0].node.id === 3)).toBe(true)
      yield* Scope.close(scope, Exit.void)
      expect(a.followed()).toBe(1)
    }).pipe(Effect.provide(PubSub.memory)))
})

describe("outbox", () => {
  it.scoped("sends in order, and while the peer is slow keeps only the latest frame per key", () =>
    Effect.gen(function*() {
      const sent: Array<string> = []
      const gate = yield* Deferred.make<void>()
      const out = yield* makeOutbox((frame) =>
        Effect.zipRight(
          Effect.sync(() => sent.push(String(frame))),
          sent.length === 0 ? Deferred.await(gate) : Effect.void
        )
      )
      out.push("a", "a1")
      yield* settle
      expect(sent).toEqual(["a1"])
      out.push("b", "b1")
      out.push("a", "a2")
      out.push("a", "a3")
      yield* Deferred.succeed(gate, undefined)
      yield* settle
      expect(sent).toEqual(["a1", "b1", "a3"])
      // Idle again: the next push starts another send.
      out.push("c", "c1")
      yield* settle
      expect(sent).toEqual(["a1", "b1", "a3", "c1"])
    }))
})

describe("RelayMap", () => {
  const map = (id: number) => ({
    Regions: { [id]: { RegionID: id, RegionCode: `r${id}`, RegionName: `Region ${id}`, Nodes: [] } }
  })

  it.scoped("a map set on one service reaches the listeners of another on the same PubSub", () =>
    Effect.gen(function*() {
      const a = Context.get(yield* Layer.build(RelayMap.Default), RelayMap)
      const b = Context.get(yield* Layer.build(RelayMap.Default), RelayMap)
      const seen = yield* Queue.unbounded<string>()
      yield* b.listen((json) => Queue.unsafeOffer(seen, json))
      expect(JSON.parse(yield* Queue.take(seen)).Regions["999"].Nodes[0].HostName).toBe("localhost")
      yield* a.set(map(5))
      const next = yield* Effect.race(Queue.take(seen), Effect.as(TestClock.adjust(Duration.seconds(1)), "none"))
      expect(JSON.parse(next)).toEqual(map(5))
      expect(yield* b.get).toEqual(map(5))
    }).pipe(Effect.provide(Layer.merge(PubSub.memory, Settings.layer()))))
})
