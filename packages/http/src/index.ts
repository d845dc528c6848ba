/**
 * @workbay/http: the HTTP API of Workbay, its handlers and adapters.
 *
 * This file is the package's public surface (its `exports` map has "." only): what an application
 * embedding the service, the standalone server and the benches use. The areas' routes and handlers,
 * the dispatcher's steps, request contexts, audit declarations, input limits, logging, event
 * streams and WebSockets are internal: the package's own tests import them by relative path
 * (`../src/...`). See docs/architecture.md, "Public surface".
 */
// Embedding: the service on a storage layer, its handlers and options (README, docs/embedding.md).
export type { NodeHandler, NodeUpgradeHandler, WebHandler, WebRequestInfo } from "./Adapters.js"
export { DASHBOARD_CSP, type DashboardOptions } from "./Dashboard.js"
export type { HttpOptions } from "./dispatch/Options.js"
export type { InputLimits } from "./Limits.js"
export type { LogFormat, LogLevelName } from "./Logging.js"
export * from "./Metrics.js"
export {
  layer,
  type LayerOptions,
  makeWorkbay,
  servicesLayer,
  type Workbay,
  WorkbayHandler,
  type WorkbayHandlerShape,
  type WorkbayOptions,
  type WorkbayServices
} from "./Workbay.js"
// The agent's and the command line's executables served at /bin/ from folders (the `agentBinaries`
// and `cliBinaries` options do the same).
export { binariesFromDirectories } from "./agents/BinariesDirectory.js"
// The API definition: for typed clients (HttpApiClient) and the OpenAPI document.
export * from "./Api.js"
export { AgentAuthentication, Authentication } from "./Security.js"
// The dispatcher on its own, with every group's handlers (the benches compare it with HttpApi's router).
export { type Dispatcher, makeDispatcher } from "./dispatch/Dispatcher.js"
export type { BodyLimit, RawRequest, RawResponse, StreamingBody, StreamWriter } from "./dispatch/Raw.js"
export type { GroupImplementation } from "./Handlers.js"
export { implementations } from "./Workbay.js"
// What the handler shape names of the WebSockets.
export { WebSocketClosed, type WebSocketConnection, type WebSocketHub, type WebSocketUpgrade } from "./WebSocket.js"
