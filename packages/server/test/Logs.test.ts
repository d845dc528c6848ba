/**
 * The log of the real server process at debug level in JSON: one line per request with its
 * request id, and not one of the secrets the service issued anywhere in it, though requests
 * carried each of them in headers, query, cookies and bodies (accepted and refused).
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ServerProcess, startServerProcess } from "./process.js"
import { carrySecrets, mailFlags, type PlantedSecret, plantSecrets, type Smtp, startSmtp } from "./secrets.js"

describe("the server's log", () => {
  let server: ServerProcess
  let secrets: ReadonlyArray<PlantedSecret>
  let statuses: ReadonlyArray<number>
  let smtp: Smtp

  beforeAll(async () => {
    smtp = await startSmtp()
    server = await startServerProcess(
      ["--data-dir", mkdtempSync(join(tmpdir(), "workbay-logs-")), ...mailFlags(smtp)],
      {
        WORKBAY_LOG_LEVEL: "debug",
        WORKBAY_LOG_FORMAT: "json"
      }
    )
    ;({ secrets } = await plantSecrets(server.url, smtp))
    statuses = await carrySecrets(server.url, secrets)
  })
  afterAll(async () => {
    await server?.stop()
    await smtp?.close()
  })

  it("is JSON lines with one debug line per request, its route, status and request id", async () => {
    const lines = server.stderr().split("\n").filter((l) => l.trim() !== "")
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>)
    for (const e of entries) expect(Object.keys(e)).toEqual(expect.arrayContaining(["time", "level", "msg"]))
    const me = entries.filter((e) => e.route === "/api/v2/users/{user}" && e.method === "GET")
    expect(me.length).toBeGreaterThan(10)
    expect(me.some((e) => e.status === 200 && typeof e.user_id === "string")).toBe(true)
    expect(me.some((e) => e.status === 401)).toBe(true)
    for (const e of me) {
      expect(e).toMatchObject({ level: "debug", path: "/api/v2/users/me", remote_addr: expect.any(String) })
      expect(e.request_id).toMatch(/^[0-9a-f-]{36}$/)
      expect(typeof e.duration_ms).toBe("number")
    }
  })

  it("holds none of the secrets issued and carried", () => {
    expect(statuses.length).toBeGreaterThan(0)
    expect(statuses.filter((s) => s >= 500)).toEqual([])
    const kinds = new Set(secrets.map((s) => s.kind))
    expect(kinds.size).toBeGreaterThanOrEqual(8)
    const log = server.stdout() + server.stderr()
    const leaked = secrets.filter((s) => log.includes(s.value) || log.includes(encodeURIComponent(s.value)))
    expect(leaked.map((s) => s.kind)).toEqual([])
  })
})
