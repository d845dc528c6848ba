/** @workbay/http: the HTTP API of Workbay, its handlers and adapters. */
export * from "./Adapters.js"
export * from "./Api.js"
export * from "./Audit.js"
export * from "./Dispatcher.js"
export * from "./Handlers.js"
export * from "./RequestContext.js"
export * from "./Security.js"
export * from "./Workbay.js"
