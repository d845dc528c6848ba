/**
 * A workspace's change signal (see Watch.ts): its own module so that the services that change
 * workspaces can signal without importing the watch service.
 */
import { Effect } from "effect"
import { hexId, idMessages, PubSub } from "./PubSub.js"

/** The PubSub channel of a workspace's changes: `workspace_` and the id's 32 hex digits. */
export const workspaceChannel = (workspaceId: string): string => `workspace_${hexId(workspaceId)}`

/** The signal sent on a workspace's channel. */
export const WORKSPACE_SIGNAL_CHANGED = "changed"

/**
 * Tells every watcher of the workspace (on every replica) to re-read it. Call it after the
 * change is committed (on Postgres a publish inside a transaction waits for the commit; in
 * memory it is delivered at once, and a watcher could read before the commit).
 */
export const publishWorkspaceChange = (workspaceId: string): Effect.Effect<void, never, PubSub> =>
  Effect.flatMap(PubSub, (pubsub) => pubsub.publish(workspaceChannel(workspaceId), WORKSPACE_SIGNAL_CHANGED))

/**
 * The PubSub channel of changes made to many workspaces at once (the activity bumps of a flush of
 * agents' stats, docs/workspaces.md "Extend, ttl, activity"): each message names the changed
 * workspaces (`idMessages`), and a workspace's watchers pick out their own (`messageNames`).
 */
export const WORKSPACE_BATCH_CHANNEL = "workspace_batch"

/**
 * Tells the watchers of `workspaceIds` (on every replica) to re-read them: one publish on
 * {@link WORKSPACE_BATCH_CHANNEL} for up to 242 workspaces, none for none. Call it after the
 * changes are committed.
 */
export const publishWorkspaceChanges = (workspaceIds: Iterable<string>): Effect.Effect<void, never, PubSub> =>
  Effect.flatMap(
    PubSub,
    (pubsub) =>
      Effect.forEach(idMessages(workspaceIds), (m) => pubsub.publish(WORKSPACE_BATCH_CHANNEL, m), { discard: true })
  )

/**
 * The PubSub channel that tells a workspace's running agents to reinitialize (`agent_reinit_` and
 * the id's 32 hex digits): published once a claimed prebuilt workspace's build has handed them
 * over to its new owner (docs/prebuilds.md, "Claiming"); `GET /workspaceagents/me/reinit` follows it.
 */
export const agentReinitChannel = (workspaceId: string): string =>
  `agent_reinit_${workspaceId.replaceAll("-", "").toLowerCase()}`

/** The reason sent on {@link agentReinitChannel}: the described system's `prebuild_claimed`. */
export const AGENT_REINIT_PREBUILD_CLAIMED = "prebuild_claimed"
