/** Handlers of the workspace watch group: the route checks (auth, 404) happen before the upgrade or the stream. */
import { WorkspaceWatch } from "@workbay/core"
import { Effect, Stream } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { eventStream } from "../ServerSentEvents.js"
import { streamSession, upgradeWebSocket } from "../WebSocket.js"

/** The described system's first event: the server is ready. */
const PING_MESSAGE = JSON.stringify({ type: "ping", data: null })

const changes = (workspace: string) => Effect.flatMap(WorkspaceWatch, (w) => w.watch(workspace))

export const WorkspaceWatchHttp = implement(WorkbayApi, "workspaceWatch", {
  watchWs: ({ path }) =>
    Effect.flatMap(changes(path.workspace), (stream) =>
      upgradeWebSocket(streamSession(
        Stream.concat(Stream.make(PING_MESSAGE), Stream.map(stream, (c) => `{"type":"data","data":${c.json}}`))
      ))),
  watch: ({ path }) =>
    Effect.flatMap(changes(path.workspace), (stream) =>
      eventStream(Stream.concat(
        Stream.make({ event: "ping" }),
        Stream.map(stream, (c) => ({ event: "data", data: c.json }))
      )))
})
