/**
 * `GET /workspaceagents/me/reinit`: the events that tell a running agent to reinitialize, as the
 * described system's (`agentsdk.ReinitializationEvent`). One reason exists: `prebuild_claimed`,
 * sent once the build that claims its prebuilt workspace has handed the agent's token to that
 * build's agent (workspaces/WorkspaceBuildExecutor.ts), from whichever replica ran the build to
 * whichever the agent follows it on (docs/prebuilds.md, "Claiming").
 */
import { Effect, Schema, Stream } from "effect"
import { PubSub } from "../PubSub.js"
import { span } from "../Tracing.js"
import { AGENT_REINIT_PREBUILD_CLAIMED, agentReinitChannel } from "../WorkspaceChannel.js"
import { CurrentAgent } from "./AgentAuth.js"

/**
 * One event: the workspace (the described system's field has no JSON tag, hence `WorkspaceID`)
 * and why.
 */
export class ReinitializationEvent extends Schema.Class<ReinitializationEvent>("ReinitializationEvent")({
  WorkspaceID: Schema.String,
  reason: Schema.Literal(AGENT_REINIT_PREBUILD_CLAIMED)
}) {}

export class AgentReinit extends Effect.Service<AgentReinit>()("@workbay/core/AgentReinit", {
  effect: Effect.gen(function*() {
    const pubsub = yield* PubSub

    /**
     * The calling agent's reinitialization events as JSON text, from the moment it asks (an
     * event published before is not repeated: the agent's own connection tells it of a claim it
     * missed, docs/agents.md). Never ends by itself.
     */
    const watch = Effect.map(CurrentAgent, (session) => {
      const event = JSON.stringify(
        ReinitializationEvent.make({ WorkspaceID: session.workspace.id, reason: AGENT_REINIT_PREBUILD_CLAIMED })
      )
      return Stream.unwrapScoped(
        Effect.map(
          pubsub.subscribe(agentReinitChannel(session.workspace.id)),
          (messages) =>
            Stream.fromQueue(messages).pipe(
              Stream.filter((m) => m === AGENT_REINIT_PREBUILD_CLAIMED),
              Stream.as(event)
            )
        )
      )
    }).pipe(span("AgentReinit.watch"))

    /**
     * The same events as {@link watch}, pushed: `emit` is called with each for the life of the scope.
     * No Stream and no fiber: a stream's pull machinery, or a fiber waiting for the next event, held
     * for as long as the agent is connected, cost the server memory per agent (the route uses this).
     */
    const listen = (emit: (event: string) => void) =>
      Effect.gen(function*() {
        const session = yield* CurrentAgent
        const event = JSON.stringify(
          ReinitializationEvent.make({ WorkspaceID: session.workspace.id, reason: AGENT_REINIT_PREBUILD_CLAIMED })
        )
        yield* pubsub.listen(agentReinitChannel(session.workspace.id), (m) => {
          if (m === AGENT_REINIT_PREBUILD_CLAIMED) emit(event)
        })
      })

    return { watch, listen } as const
  })
}) {}
