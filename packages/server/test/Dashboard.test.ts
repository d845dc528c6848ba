/**
 * The standalone server serves the dashboard at `/` (docs/dashboard.md) when it is built (the
 * dashboard's globalSetup builds it), saying so at start-up, and leaves its API as it was.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ServerProcess, startServerProcess } from "./process.js"

let server: ServerProcess
let dataDir: string

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "workbay-dashboard-"))
  server = await startServerProcess(["--data-dir", dataDir])
})
afterAll(async () => {
  await server.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

describe("the standalone server's dashboard", () => {
  it("says where the dashboard is served, serves its shell at / and on client routes, and the API as before", async () => {
    await expect.poll(() => server.stdout(), { timeout: 5_000 }).toContain(`Dashboard at ${server.url}/`)
    // No user yet: the dashboard is where to create the first.
    await expect.poll(() => server.stdout(), { timeout: 5_000 }).toContain(
      `No users yet. Open ${server.url}/ to create the first (owner) user, or:`
    )
    for (const path of ["/", "/workspaces"]) {
      const page = await fetch(server.url + path)
      expect(page.status).toBe(200)
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
      expect(page.headers.get("cache-control")).toBe("no-cache")
      expect(page.headers.get("content-security-policy")).toContain("script-src 'self'")
      expect(page.headers.get("x-frame-options")).toBe("DENY")
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(await page.text())?.[1]
      expect(script).toBeDefined()
      const asset = await fetch(server.url + script)
      expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
    }
    const first = await fetch(`${server.url}/api/v2/users/first`)
    expect(first.status).toBe(404)
    expect(first.headers.get("content-type")).toContain("application/json")
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
  })
})
