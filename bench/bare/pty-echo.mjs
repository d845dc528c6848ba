// The bare baseline of bench/streams.ts's terminals: a plain `ws` server that, for each WebSocket,
// spawns `<login shell> -c <command>` under @lydell/node-pty (as the reference agent does: the same
// shell, bytes not text, TERM=xterm-256color) and joins it to the socket directly. Client frames are
// JSON `{data, height, width}` as on the service's pty route; output goes out as binary frames.
// What an echo costs without the service and the agent's relay hop.
//
//   node bench/bare/pty-echo.mjs --port 4000
//   ws://127.0.0.1:4000/pty?command=cat   (GET / answers 200, for readiness)
import { spawn } from "@lydell/node-pty"
import { createServer } from "node:http"
import { userInfo } from "node:os"
import { parseArgs } from "node:util"
import { WebSocketServer } from "ws"

const { values } = parseArgs({ options: { port: { type: "string" } } })
const shell = (() => {
  try {
    const s = userInfo().shell
    if (s) return s
  } catch {
    // no password entry
  }
  return process.env.SHELL || "/bin/sh"
})()

const server = createServer((_req, res) => res.end("ok"))
const wss = new WebSocketServer({ server, perMessageDeflate: false })
wss.on("connection", (ws, req) => {
  const q = new URL(req.url ?? "/", "http://x").searchParams
  const command = q.get("command") ?? ""
  const pty = spawn(shell, command === "" ? ["-l"] : ["-c", command], {
    name: "xterm-256color",
    cols: Number(q.get("width") ?? 80),
    rows: Number(q.get("height") ?? 24),
    cwd: process.env.HOME ?? "/",
    env: { ...process.env, TERM: "xterm-256color" },
    encoding: null
  })
  pty.onData((data) => ws.send(typeof data === "string" ? Buffer.from(data) : data, { binary: true }))
  pty.onExit(() => ws.close(1000))
  ws.on("message", (raw) => {
    const m = JSON.parse(raw.toString())
    if (typeof m.data === "string") pty.write(m.data)
    if (typeof m.width === "number" && typeof m.height === "number") pty.resize(m.width, m.height)
  })
  ws.on("close", () => pty.kill())
})
server.listen(Number(values.port ?? 0), "127.0.0.1", () => {
  console.log(`listening on ${server.address().port}`)
})
