/**
 * The task conversation on the real services over an in-memory SQLite storage: input sent to a
 * connected agent arrives on its connection as `task_input` and is recorded; output the agent
 * reports with `append_task_log` joins the log; a disconnected agent refuses input and records
 * nothing; the snapshot form; bad reports answer validation errors; the stored log is capped.
 */
import { describe, expect, it } from "@effect/vitest"
import { AgentReports, type CurrentAgent, TaskAgentUnavailable, TaskConversation, TaskLogRepo } from "@workbay/core"
import { Duration, Effect, Either, Fiber, Queue } from "effect"
import * as TestClock from "effect/TestClock"
import { MAX_TASK_LOG_APPEND } from "../../src/agents/TaskLog.js"
import { TASK_INPUT_ACK_SECONDS, TASK_LOG_KEEP_BYTES, TASK_LOG_KEEP_ENTRIES } from "../../src/tasks/Conversation.js"
import { recording, serve, setupAgent } from "../agents/connection.js"
import { services } from "../services.js"

const T0 = Date.parse("2024-01-01T08:30:00Z")

const setup = setupAgent(T0)

/** Serves a connection, open (and subscribed) once its first answer came. */
const serveOpen = (session: CurrentAgent["Type"]) =>
  Effect.tap(serve(session), (connection) => connection.request({ type: "ping", id: 0 }))

describe("the task conversation", () => {
  it.scoped("input reaches the connected agent as task_input; its output joins the log", () =>
    Effect.gen(function*() {
      const { session, workspaceId, agentId } = yield* setup
      const conversation = yield* TaskConversation
      yield* conversation.recordInput({ workspaceId, content: "the prompt" })
      const connection = yield* serveOpen(session)
      const entry = yield* conversation.send({ workspaceId, agentId, content: "and then this" })
      expect(entry).toMatchObject({ type: "input", content: "and then this", time: new Date(T0) })
      expect(JSON.parse(yield* Queue.take(connection.sent))).toEqual({
        type: "task_input",
        entry_id: entry.id,
        content: "and then this",
        time: new Date(T0).toISOString()
      })
      const answer = JSON.parse(
        yield* connection.request({
          type: "append_task_log",
          id: 7,
          entries: [{ type: "output", content: "done" }, { content: "really", time: "2024-01-01T08:31:00Z" }]
        })
      )
      expect(answer.id).toBe(7)
      expect(answer.result.ids).toHaveLength(2)
      const live = yield* conversation.logs({ workspaceId, live: true })
      expect(live.snapshot).toBe(false)
      expect(live.snapshot_at).toBeUndefined()
      expect(live.logs.map((e) => [e.type, e.content])).toEqual([
        ["input", "the prompt"],
        ["input", "and then this"],
        ["output", "done"],
        ["output", "really"]
      ])
      expect(live.logs.map((e) => e.id)).toEqual([...live.logs.map((e) => e.id)].sort((a, b) => a - b))
      const snapshot = yield* conversation.logs({ workspaceId, live: false })
      expect(snapshot.snapshot).toBe(true)
      expect(snapshot.snapshot_at?.toISOString()).toBe("2024-01-01T08:31:00.000Z")
      yield* connection.end
    }).pipe(Effect.provide(services({}, [recording]))))

  it.scoped("an agent that is not connected refuses input, and nothing is recorded", () =>
    Effect.gen(function*() {
      const { session, workspaceId, agentId } = yield* setup
      const conversation = yield* TaskConversation
      const never = yield* Effect.either(conversation.send({ workspaceId, agentId, content: "hello?" }))
      expect(Either.isLeft(never) && never.left).toBeInstanceOf(TaskAgentUnavailable)
      const connection = yield* serveOpen(session)
      yield* TestClock.adjust(Duration.seconds(1))
      yield* connection.end
      const closed = yield* Effect.either(conversation.send({ workspaceId, agentId, content: "hello?" }))
      expect(Either.isLeft(closed) && closed.left.message).toBe("The task's agent is not connected.")
      // Another workspace's id with this agent: refused too.
      const other = yield* Effect.either(
        conversation.send({ workspaceId: "00000000-0000-0000-0000-000000000001", agentId, content: "x" })
      )
      expect(Either.isLeft(other)).toBe(true)
      const empty = yield* conversation.logs({ workspaceId, live: false })
      expect(empty).toEqual({ logs: [], snapshot: true })
    }).pipe(Effect.provide(services({}, [recording]))))

  it.scoped("a connection lost without a close (still counted as open) takes no input: the send fails once no ack came, and nothing is kept", () =>
    Effect.gen(function*() {
      const { session, workspaceId, agentId } = yield* setup
      const conversation = yield* TaskConversation
      // Marked connected, as by a replica that died since: nobody holds the connection.
      yield* Effect.flatMap(AgentReports, (r) => r.connected(session))
      const sending = yield* Effect.fork(Effect.either(conversation.send({ workspaceId, agentId, content: "anyone?" })))
      yield* TestClock.adjust(Duration.seconds(TASK_INPUT_ACK_SECONDS - 1))
      expect(sending.unsafePoll()).toBeNull()
      yield* TestClock.adjust(Duration.seconds(1))
      const result = yield* Fiber.join(sending)
      expect(Either.isLeft(result) && result.left).toBeInstanceOf(TaskAgentUnavailable)
      expect(Either.isLeft(result) && result.left.detail).toContain("within 5 s")
      expect((yield* conversation.logs({ workspaceId, live: true })).logs).toEqual([])
    }).pipe(Effect.provide(services({}, [recording]))))

  it.scoped("bad append_task_log messages answer one validation per bad field and store nothing", () =>
    Effect.gen(function*() {
      const { session, workspaceId } = yield* setup
      const connection = yield* serveOpen(session)
      const bad = JSON.parse(
        yield* connection.request({
          type: "append_task_log",
          id: 1,
          entries: [{ type: "input", content: "x" }, { content: 5 }, { content: "ok", time: "yesterday" }]
        })
      )
      expect(bad.error.message).toBe("Validation failed.")
      expect(bad.error.detail).toContain("entries.0.type: An agent reports output entries")
      expect(bad.error.detail).toContain("entries.1.content")
      expect(bad.error.detail).toContain("entries.2.time: A time is an RFC 3339 date-time")
      const many = JSON.parse(
        yield* connection.request({
          type: "append_task_log",
          id: 2,
          entries: Array.from({ length: MAX_TASK_LOG_APPEND + 1 }, () => ({ content: "x" }))
        })
      )
      expect(many.error.detail).toContain(`At most ${MAX_TASK_LOG_APPEND} entries.`)
      const missing = JSON.parse(yield* connection.request({ type: "append_task_log", id: 3 }))
      expect(missing.error.detail).toContain("entries")
      expect((yield* Effect.flatMap(TaskConversation, (c) => c.logs({ workspaceId, live: true }))).logs).toEqual([])
      yield* connection.end
    }).pipe(Effect.provide(services({}, [recording]))))

  it.scoped("the stored log keeps the newest entries within the entry and byte caps", () =>
    Effect.gen(function*() {
      const { workspaceId } = yield* setup
      const repo = yield* TaskLogRepo
      const entry = (content: string) => ({
        type: "output" as const,
        content,
        time: new Date(T0),
        bytes: Buffer.byteLength(content)
      })
      yield* repo.append(workspaceId, Array.from({ length: 8 }, (_, i) => entry(`e${i}`)), { entries: 5, bytes: 1000 })
      expect((yield* repo.list(workspaceId)).map((e) => e.content)).toEqual(["e3", "e4", "e5", "e6", "e7"])
      // Bytes: the newest whose sizes add up to at most 6 (2 bytes each).
      yield* repo.append(workspaceId, [entry("e8")], { entries: 5, bytes: 6 })
      expect((yield* repo.list(workspaceId)).map((e) => e.content)).toEqual(["e6", "e7", "e8"])
      expect(TASK_LOG_KEEP_ENTRIES).toBeGreaterThan(0)
      expect(TASK_LOG_KEEP_BYTES).toBeGreaterThan(0)
    }).pipe(Effect.provide(services({}, [recording]))))
})
