/**
 * Workbay mounted in a plain node:http server, next to a route of the host app.
 * Run: npx tsx --conditions=@workbay/source examples/node-http.ts  (PORT, DATA_FILE optional)
 */
import { makeWorkbay } from "@workbay/http"
import * as Sqlite from "@workbay/storage-sqlite"
import { createServer } from "node:http"
import { pathToFileURL } from "node:url"

export const start = async (port: number, filename = ":memory:") => {
  const workbay = await makeWorkbay(Sqlite.layer({ filename }))
  const server = createServer((req, res) => {
    if (req.url === "/healthz") return void res.end("ok") // the host application's own route
    workbay.node(req, res) // everything else: /api/v2/...
  })
  server.on("upgrade", workbay.upgrade) // WebSocket routes
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve))
  return { server, close: async () => (server.close(), server.closeAllConnections(), await workbay.dispose()) }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { server } = await start(Number(process.env.PORT ?? 3000), process.env.DATA_FILE ?? ".workbay/example.db")
  console.log("listening on", server.address())
}
