/**
 * The response schema table's rows of the health report endpoints (packages/http/src/debug/), run by
 * ../responseSchemas.ts.
 */
import { expect } from "vitest"
import { type Row, row } from "../responseSchemas.js"
import { SESSION_HEADER } from "../support.js"
import { connect, eventually } from "../websocket.js"

export const responseRows: ReadonlyArray<Row> = [
  // debug: the health report (docs/health.md); its echo WebSocket has no body to check.
  row("debug.health", "GET /api/v2/debug/health", 200, "HealthcheckReport", async (w) => [
    await w.owner.get("/debug/health?force=true"),
    await w.owner.get("/debug/health")
  ]),
  row(
    "debug.settings",
    "GET /api/v2/debug/health/settings",
    200,
    "HealthSettings",
    (w) => w.owner.get("/debug/health/settings")
  ),
  row("debug.updateSettings", "PUT /api/v2/debug/health/settings", 200, "HealthSettings", async (w) => {
    const dismissed = await w.owner.put("/debug/health/settings", {
      dismissed_healthchecks: ["DERP", "WorkspaceProxy"]
    })
    const read = await w.owner.get("/debug/health/settings")
    const restored = await w.owner.put("/debug/health/settings", { dismissed_healthchecks: [] })
    return [dismissed, read, restored]
  }),
  row("debug.ws", "GET /api/v2/debug/ws", 101, "none", async (w) => {
    const ws = await connect(`${w.srv.wsUrl}/api/v2/debug/ws`, { [SESSION_HEADER]: w.owner.token! })
    ws.socket.send("echo")
    await eventually(() => ws.messages.length > 0)
    ws.socket.close()
    expect(ws.messages).toEqual(["echo"])
    return { status: 101, body: undefined, headers: new Headers() }
  })
]
