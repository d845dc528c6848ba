/**
 * LISTEN/NOTIFY between replicas: two storage layers (two pools and two listening connections,
 * as two server processes) on one database see each other's messages; deployments in other
 * schemas of the same database do not.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, inject, it } from "@effect/vitest"
import { PubSub, PUBSUB_RESYNC } from "@workbay/core"
import * as Postgres from "@workbay/storage-postgres"
import { Chunk, Context, Effect, Exit, Layer, Queue, Scope } from "effect"
import { randomBytes } from "node:crypto"

const url = inject("workbayPgUrl")

const replica = (schema: string) => Postgres.layer({ url: url ?? "", schema, maxConnections: 2 })

const take = (q: Queue.Dequeue<string>, n: number) =>
  Effect.map(Effect.forEach(Array.from({ length: n }), () => Queue.take(q)), (xs) => xs).pipe(
    Effect.timeout("5 seconds")
  )

/** Two replicas of one deployment (a schema of their own) in the test's scope, and their PubSubs. */
const twoReplicas = Effect.gen(function*() {
  const schema = `t_${randomBytes(8).toString("hex")}`
  const scope = yield* Effect.scope
  const a = yield* Layer.buildWithScope(replica(schema), scope)
  const b = yield* Layer.buildWithScope(replica(schema), scope)
  return { a, b, pa: Context.get(a, PubSub), pb: Context.get(b, PubSub) }
})

describe.skipIf(url === null)("PubSub on Postgres", () => {
  it.scopedLive("two replicas see each other's messages; one LISTEN serves many subscribers", () =>
    Effect.gen(function*() {
      const { pa, pb } = yield* twoReplicas

      const onA = yield* pa.subscribe("job_logs_x")
      const onA2 = yield* pa.subscribe("job_logs_x")
      const onB = yield* pb.subscribe("job_logs_x")
      yield* pb.publish("job_logs_x", "from b")
      yield* pa.publish("job_logs_x", "from a")
      expect(yield* take(onA, 2)).toEqual(["from b", "from a"])
      expect(yield* take(onA2, 2)).toEqual(["from b", "from a"])
      expect(yield* take(onB, 2)).toEqual(["from b", "from a"])

      // An empty message and one at the payload limit pass.
      yield* pb.publish("job_logs_x", "")
      yield* pb.publish("job_logs_x", "é".repeat(3999))
      expect((yield* take(onA, 2)).map((m) => m.length)).toEqual([0, 3999])
    }))

  it.scopedLive("a subscriber that leaves does not stop another on the same channel; publish in a transaction leaves on commit", () =>
    Effect.gen(function*() {
      const { b, pa, pb } = yield* twoReplicas
      const stays = yield* pa.subscribe("chan")
      yield* Effect.scoped(pa.subscribe("chan"))
      yield* pb.publish("chan", "still here")
      expect(yield* take(stays, 1)).toEqual(["still here"])

      const sql = Context.get(b, SqlClient.SqlClient)
      yield* sql.withTransaction(Effect.gen(function*() {
        yield* pb.publish("chan", "committed")
        yield* Effect.sleep("200 millis")
        expect(yield* Queue.size(stays)).toBe(0)
      }))
      expect(yield* take(stays, 1)).toEqual(["committed"])
    }))

  it.scopedLive("deployments in other schemas of the database do not hear each other", () =>
    Effect.gen(function*() {
      const scope = yield* Effect.scope
      const a = yield* Layer.buildWithScope(replica(`t_${randomBytes(8).toString("hex")}`), scope)
      const b = yield* Layer.buildWithScope(replica(`t_${randomBytes(8).toString("hex")}`), scope)
      const onA = yield* Context.get(a, PubSub).subscribe("chan")
      yield* Context.get(b, PubSub).publish("chan", "other deployment")
      yield* Context.get(a, PubSub).publish("chan", "own")
      expect(yield* take(onA, 1)).toEqual(["own"])
      yield* Effect.sleep("100 millis")
      expect(Chunk.toArray(yield* Queue.takeAll(onA))).toEqual([])
    }))

  it.scopedLive("coalesces the LISTENs of many first subscribers, and the UNLISTENs when they leave, into few statements", () =>
    Effect.gen(function*() {
      const { b, pa, pb } = yield* twoReplicas
      const sql = Context.get(b, SqlClient.SqlClient)
      const tag = randomBytes(6).toString("hex")
      const channels = Array.from({ length: 300 }, (_, i) => `agent_${tag}_${i}`)
      // The listening connection's latest statement (it names this test's channels).
      const latest = Effect.map(
        sql<{ query: string }>`SELECT query FROM pg_stat_activity
          WHERE application_name = 'workbay-pubsub' AND query LIKE ${`%${tag}%`}`,
        (rows) => rows[0]?.query ?? ""
      )
      const count = (text: string, word: string) => text.split("; ").filter((st) => st.startsWith(word)).length

      const subscriptions = yield* Scope.make()
      const queues = yield* Effect.forEach(channels, (ch) => Scope.extend(pa.subscribe(ch), subscriptions), {
        concurrency: "unbounded"
      })
      // Each first subscriber waited for its LISTEN: every channel hears at once.
      yield* Effect.forEach(channels, (ch, i) => pb.publish(ch, String(i)), { discard: true })
      for (const [i, q] of queues.entries()) expect(yield* take(q, 1)).toEqual([String(i)])
      // One statement listened to many channels (one per subscriber would name one).
      expect(count(yield* latest, "LISTEN")).toBeGreaterThan(1)

      // A subscriber leaving and another coming to the same channel at once: the channel still hears.
      yield* Effect.scoped(pa.subscribe("again"))
      const again = yield* pa.subscribe("again")

      // All of them leave: their UNLISTENs go out together, without anyone waiting for them.
      yield* Scope.close(subscriptions, Exit.void)
      let unlistened = 0
      for (let i = 0; i < 100 && unlistened === 0; i++) {
        unlistened = count(yield* latest, "UNLISTEN")
        if (unlistened === 0) yield* Effect.sleep("50 millis")
      }
      expect(unlistened).toBeGreaterThan(1)
      yield* pb.publish("again", "heard")
      expect(yield* take(again, 1)).toEqual(["heard"])
      // A channel whose subscribers left can be subscribed again.
      const back = yield* pa.subscribe(channels[0]!)
      yield* pb.publish(channels[0]!, "back")
      expect(yield* take(back, 1)).toEqual(["back"])
    }))

  it.scopedLive("reopens a dropped listening connection, tells subscribers to re-read, and hears again", () =>
    Effect.gen(function*() {
      const schema = `t_${randomBytes(8).toString("hex")}`
      const scope = yield* Effect.scope
      const a = yield* Layer.buildWithScope(replica(schema), scope)
      const pa = Context.get(a, PubSub)
      const channel = `c_${randomBytes(6).toString("hex")}`
      const q = yield* pa.subscribe(channel)
      // The listening connection's last statement names this test's channel.
      const sql = Context.get(a, SqlClient.SqlClient)
      const killed = yield* sql<{ pid: number }>`SELECT pg_terminate_backend(pid) AS pid FROM pg_stat_activity
        WHERE application_name = 'workbay-pubsub' AND query LIKE ${`%${channel}%`}`
      expect(killed).toHaveLength(1)
      expect(yield* take(q, 1)).toEqual([PUBSUB_RESYNC])
      yield* pa.publish(channel, "after the drop")
      expect(yield* take(q, 1)).toEqual(["after the drop"])
    }))
})
