/** @workbay/server: the standalone server, usable programmatically too. */
export * from "./Config.js"
export * from "./Server.js"
