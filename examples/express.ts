/**
 * Workbay inside an Express app: the handler takes `next`, so requests outside
 * /api/v2 fall through to the app's own routes.
 * Run: npx tsx --conditions=@workbay/source examples/express.ts
 */
import { makeWorkbay } from "@workbay/http"
import * as Sqlite from "@workbay/storage-sqlite"
import express from "express"
import type { Server } from "node:http"
import { pathToFileURL } from "node:url"

export const start = async (port: number, filename = ":memory:") => {
  const workbay = await makeWorkbay(Sqlite.layer({ filename }))
  const app = express()
  app.get("/hello", (_req, res) => void res.json({ hello: "from express" }))
  app.use(workbay.node) // /api/v2/... is served by Workbay; anything else continues
  app.use((_req, res) => void res.status(404).json({ message: "Not an app route." }))
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(port, "127.0.0.1", () => resolve(s))
  })
  server.on("upgrade", workbay.upgrade) // WebSocket routes: Express does not see upgrades
  return { server, close: async () => (server.close(), server.closeAllConnections(), await workbay.dispose()) }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { server } = await start(Number(process.env.PORT ?? 3000))
  console.log("listening on", server.address())
}
