import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { helpText, loadConfig, redactUrl, startServer } from "../src/index.js"

const dirs: Array<string> = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "workbay-server-"))
  dirs.push(dir)
  return dir
}
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

describe("configuration", () => {
  it("defaults to port 3000 and the .workbay folder", () => {
    const config = loadConfig([], {})
    expect(config.port).toBe(3000)
    expect(config.dataDir.endsWith(".workbay")).toBe(true)
    expect(config.databaseUrl).toBeUndefined()
  })

  it("takes flags over environment variables", () => {
    const config = loadConfig(["--port", "4001"], { PORT: "4000", DATABASE_URL: "postgres://u:p@h/db" })
    expect(config.port).toBe(4001)
    expect(config.databaseUrl).toBe("postgres://u:p@h/db")
  })

  it("rejects unknown flags and bad ports", () => {
    expect(() => loadConfig(["--nope"], {})).toThrow()
    expect(() => loadConfig([], { PORT: "http" })).toThrow(/Invalid port/)
  })

  it("lists every setting in --help", () => {
    const text = helpText()
    for (const word of ["--port", "PORT", "WORKBAY_DATA_DIR", "DATABASE_URL", "--swagger-enable"]) expect(text).toContain(word)
  })

  it("redacts passwords in connection URLs", () => {
    expect(redactUrl("postgres://root:secret@127.0.0.1:5432/test")).toBe("postgres://root:****@127.0.0.1:5432/test")
  })
})

describe("standalone server", () => {
  it("serves the API on SQLite in the data folder and keeps data across restarts", async () => {
    const dataDir = tempDir()
    const config = loadConfig(["--port", "0", "--data-dir", dataDir], {})
    const first = await startServer(config)
    const port = (first.server.address() as { port: number }).port
    const base = `http://127.0.0.1:${port}/api/v2`
    expect(first.storage).toContain(join(dataDir, "workbay.db"))
    const created = await fetch(`${base}/users/first`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "admin@example.com", username: "admin", password: "Correct-Horse-Battery-9" })
    })
    expect(created.status).toBe(201)
    await first.close()

    const second = await startServer(config)
    const port2 = (second.server.address() as { port: number }).port
    const again = await fetch(`http://127.0.0.1:${port2}/api/v2/users/first`)
    expect(again.status).toBe(200)
    await second.close()
  })
})
