/** The relay map from `--derp-config-path` / WORKBAY_DERP_CONFIG_PATH: read, checked, and streamed by `/derp-map`. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import WebSocket from "ws"
import { helpText, loadConfig, startServer } from "../src/index.js"

const dir = mkdtempSync(join(tmpdir(), "workbay-relay-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const MAP = {
  Regions: {
    "4": {
      RegionID: 4,
      RegionCode: "ams",
      RegionName: "Amsterdam",
      Nodes: [{ Name: "4a", RegionID: 4, HostName: "relay.example.nl", DERPPort: 443 }]
    }
  }
}

const file = (name: string, content: string) => {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}

describe("relay map configuration", () => {
  it("reads the map from the flag or the variable, and refuses a missing file, bad JSON or a bad map", () => {
    const path = file("map.json", JSON.stringify(MAP))
    expect(loadConfig([], {}).relayMap).toBeUndefined()
    expect(loadConfig(["--derp-config-path", path], {}).relayMap).toEqual(MAP)
    expect(loadConfig([], { WORKBAY_DERP_CONFIG_PATH: path }).relayMap).toEqual(MAP)
    expect(() => loadConfig(["--derp-config-path", join(dir, "none.json")], {})).toThrow(/Cannot read the relay map/)
    expect(() => loadConfig(["--derp-config-path", file("bad.json", "{")], {})).toThrow(/Cannot read the relay map/)
    const wrong = file("wrong.json", JSON.stringify({ Regions: { "4": { ...MAP.Regions["4"], RegionID: 5 } } }))
    expect(() => loadConfig(["--derp-config-path", wrong], {})).toThrow(/Invalid relay map.*RegionID is 5/)
    expect(helpText()).toContain("WORKBAY_DERP_CONFIG_PATH")
  })

  it("the server streams the configured map on /derp-map", async () => {
    const running = await startServer(
      loadConfig(["--port", "0", "--data-dir", dir, "--derp-config-path", file("map2.json", JSON.stringify(MAP))], {})
    )
    try {
      const port = (running.server.address() as { port: number }).port
      const base = `http://127.0.0.1:${port}/api/v2`
      const first = await fetch(`${base}/users/first`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "admin@example.com", username: "admin", password: "Correct-Horse-Battery-9" })
      })
      expect(first.status).toBe(201)
      const login = await (await fetch(`${base}/users/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "admin@example.com", password: "Correct-Horse-Battery-9" })
      })).json() as { session_token: string }
      const message = await new Promise<string>((resolve, reject) => {
        const socket = new WebSocket(`ws://127.0.0.1:${port}/api/v2/derp-map`, {
          headers: { "Service-Session-Token": login.session_token }
        })
        socket.on("message", (data) => {
          resolve(data.toString())
          socket.close()
        })
        socket.on("error", reject)
      })
      expect(JSON.parse(message)).toEqual(MAP)
    } finally {
      await running.close()
    }
  })
})
