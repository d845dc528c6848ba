/**
 * The streams this process waits for an agent to open (docs/agents.md, "Into the workspace"): the
 * client's side of a stream waits for the agent's socket (`expect`), and the agent's stream route
 * hands its socket over (`take`). Keyed by replica and stream id, and held by the handler's scope:
 * two services in one process (several embedded, or tests) never see each other's waits, and a
 * stopping service fails the waits it leaves (the client's socket is then closed, 1011).
 */
import { BadGateway } from "@workbay/core"
import { Context, Deferred, Effect, Layer, Option, type Scope } from "effect"
import type { StreamEnd } from "../WebSocketSplice.js"

interface Wait {
  readonly agentId: string
  readonly end: Deferred.Deferred<StreamEnd, BadGateway>
}

export class StreamEnds extends Context.Tag("@workbay/http/StreamEnds")<StreamEnds, {
  /**
   * Registers a wait for `agentId`'s end of stream `streamId` for the scope's life: the effect it
   * answers completes with the agent's socket once the agent opens it.
   */
  readonly expect: (
    replicaId: string,
    streamId: string,
    agentId: string
  ) => Effect.Effect<Effect.Effect<StreamEnd, BadGateway>, never, Scope.Scope>
  /**
   * The wait of stream `streamId` when `agentId` is the agent it waits for, taken (a second agent
   * socket for the same stream finds none): give it the agent's socket.
   */
  readonly take: (
    replicaId: string,
    streamId: string,
    agentId: string
  ) => Effect.Effect<Option.Option<(socket: StreamEnd) => Effect.Effect<void>>>
}>() {
  static readonly layer = Layer.scoped(
    StreamEnds,
    Effect.gen(function*() {
      const waiting = new Map<string, Wait>()
      const keyOf = (replicaId: string, streamId: string) => `${replicaId}/${streamId.toLowerCase()}`
      yield* Effect.addFinalizer(() =>
        Effect.forEach(
          waiting.values(),
          (wait) => Deferred.fail(wait.end, new BadGateway({ message: "The service is stopping.", detail: "" })),
          { discard: true }
        ).pipe(Effect.ensuring(Effect.sync(() => waiting.clear())))
      )
      return {
        expect: (replicaId, streamId, agentId) =>
          Effect.acquireRelease(
            Effect.map(Deferred.make<StreamEnd, BadGateway>(), (end) => {
              const key = keyOf(replicaId, streamId)
              const wait = { agentId, end }
              waiting.set(key, wait)
              return { key, wait }
            }),
            ({ key, wait }) =>
              Effect.sync(() => {
                if (waiting.get(key) === wait) waiting.delete(key)
              })
          ).pipe(Effect.map(({ wait }) => Deferred.await(wait.end))),
        take: (replicaId, streamId, agentId) =>
          Effect.sync(() => {
            const key = keyOf(replicaId, streamId)
            const wait = waiting.get(key)
            if (wait === undefined || wait.agentId !== agentId) return Option.none()
            waiting.delete(key)
            return Option.some((socket: StreamEnd) => Effect.asVoid(Deferred.succeed(wait.end, socket)))
          })
      }
    })
  )
}
