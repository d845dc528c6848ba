/** Handlers of the workspace watch group: the route checks (auth, 404) happen before the upgrade or the stream. */
import { type WorkspaceChange, WorkspaceWatch } from "@workbay/core"
import { Effect, Stream } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { eventStream } from "../ServerSentEvents.js"
import { followSession, upgradeWebSocket } from "../WebSocket.js"

/** The described system's first event: the server is ready. */
const PING_MESSAGE = JSON.stringify({ type: "ping", data: null })

const changes = (workspace: string) => Effect.flatMap(WorkspaceWatch, (w) => w.watch(workspace))
const follow = (workspace: string) => Effect.flatMap(WorkspaceWatch, (w) => w.follow(workspace))

/**
 * The WebSocket message of a change, built once per change: every watcher of the workspace gets
 * the same change object, so a thousand watchers share one buffer instead of a thousand copies.
 * WebSocket watchers are listeners of the workspace's one reader (`follow`): each change is handed
 * to every socket in one loop, and a socket that is backed up skips to the latest record.
 */
const frames = new WeakMap<WorkspaceChange, Buffer>()
const frameOf = (change: WorkspaceChange): Buffer => {
  let frame = frames.get(change)
  if (frame === undefined) {
    frame = Buffer.from(`{"type":"data","data":${change.json}}`, "utf8")
    frames.set(change, frame)
  }
  return frame
}

export const WorkspaceWatchHttp = implement(WorkbayApi, "workspaceWatch", {
  watchWs: ({ path }) =>
    Effect.flatMap(follow(path.workspace), (workspace) =>
      upgradeWebSocket(followSession(
        (sendLatest) => workspace.listen((change) => sendLatest(frameOf(change))),
        [PING_MESSAGE]
      ))),
  watch: ({ path }) =>
    Effect.flatMap(changes(path.workspace), (stream) =>
      eventStream(Stream.concat(
        Stream.make({ event: "ping" }),
        Stream.map(stream, (c) => ({ event: "data", data: c.json }))
      )))
})
