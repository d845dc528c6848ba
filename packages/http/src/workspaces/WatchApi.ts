/**
 * Watching a workspace: `GET /workspaces/{workspace}/watch-ws` (a WebSocket; each message the
 * JSON `{type, data}` envelope of the described system's `ServerSentEvent`) and
 * `GET /workspaces/{workspace}/watch` (server-sent events: `event: data` with the workspace's
 * JSON). Both send a `ping`, the workspace at once, then the workspace whenever it changes,
 * until the client leaves. See docs/workspaces.md "Watching".
 */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { BadRequest, Forbidden, NotFound } from "../Common.js"
import { Authentication } from "../Security.js"
import { EventStreamSchema } from "../ServerSentEvents.js"
import { WebSocketUpgradeSchema } from "../WebSocket.js"

const WatchPath = Schema.Struct({
  workspace: Schema.UUID.annotations({
    message: () => ({ message: "Workspace id must be a valid UUID.", override: true })
  })
})

export class WorkspaceWatchApi extends HttpApiGroup.make("workspaceWatch")
  .add(
    HttpApiEndpoint.get("watchWs", "/workspaces/:workspace/watch-ws").setPath(WatchPath).addSuccess(
      WebSocketUpgradeSchema
    )
  )
  .add(HttpApiEndpoint.get("watch", "/workspaces/:workspace/watch").setPath(WatchPath).addSuccess(EventStreamSchema))
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v2")
{}
