/** The standalone server's retention settings, and the purge it runs at start. */
import Database from "better-sqlite3"
import { Duration } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { helpText, loadConfig, parseDuration, sqlitePath, startServer } from "../src/index.js"
import { firstOwnerSession } from "./owner.js"

const dirs: Array<string> = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

describe("retention configuration", () => {
  it("parses durations: 0, units and sums", () => {
    expect(parseDuration("0")).toEqual(Duration.zero)
    expect(Duration.toMillis(parseDuration("30d")!)).toBe(30 * 86_400_000)
    expect(Duration.toMillis(parseDuration("1h30m")!)).toBe(90 * 60_000)
    expect(Duration.toMillis(parseDuration("720h")!)).toBe(30 * 86_400_000)
    expect(Duration.toMillis(parseDuration("500ms")!)).toBe(500)
    for (const bad of ["", "30", "d", "1y", "-1d", "1 d"]) expect(parseDuration(bad)).toBeUndefined()
  })

  it("reads the retention flags and variables (flags win) with their sources; absent ones stay unset", () => {
    const config = loadConfig(["--audit-logs-retention", "90d"], {
      WORKBAY_AUDIT_LOGS_RETENTION: "1d",
      WORKBAY_API_KEYS_RETENTION: "0"
    })
    expect(config.retention.auditLogs).toEqual({ value: Duration.millis(90 * 86_400_000), source: "flag" })
    expect(config.retention.apiKeys).toEqual({ value: Duration.zero, source: "env" })
    expect(config.retention.connectionLogs).toBeUndefined()
    expect(config.retention.workspaceAgentLogs).toBeUndefined()
    expect(() => loadConfig(["--connection-logs-retention", "soon"], {})).toThrow(/Invalid duration/)
    expect(loadConfig([], { WORKBAY_WORKSPACE_AGENT_LOGS_RETENTION: "3d" }).retention.workspaceAgentLogs)
      .toEqual({ value: Duration.millis(3 * 86_400_000), source: "env" })
    expect(() => loadConfig(["--workspace-agent-logs-retention", "1y"], {})).toThrow(/workspace-agent-logs-retention/)
    for (
      const word of [
        "--audit-logs-retention",
        "WORKBAY_CONNECTION_LOGS_RETENTION",
        "--api-keys-retention",
        "--workspace-agent-logs-retention"
      ]
    ) {
      expect(helpText()).toContain(word)
    }
  })

  it("hands the agent logs retention to the purge's setting, shown in the deployment config with its source", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "workbay-retention-"))
    dirs.push(dataDir)
    const running = await startServer(
      loadConfig([
        "--port",
        "0",
        "--host",
        "127.0.0.1",
        "--data-dir",
        dataDir,
        "--workspace-agent-logs-retention",
        "36h"
      ], {})
    )
    try {
      const base = `${running.url}/api/v2`
      const session_token = await firstOwnerSession(running.url)
      const res = await fetch(`${base}/deployment/config`, { headers: { "Service-Session-Token": session_token } })
      expect(res.status).toBe(200)
      const body = (await res.json()) as {
        config: { retention: Record<string, unknown> }
        options: Array<{ flag?: string; value?: unknown; value_source?: string }>
      }
      const nanos = 36 * 3_600_000 * 1_000_000
      expect(body.config.retention.workspace_agent_logs).toBe(nanos)
      expect(body.options.find((o) => o.flag === "workspace-agent-logs-retention")).toMatchObject({
        value: nanos,
        value_source: "flag"
      })
    } finally {
      await running.close()
    }
  })

  it("purges audit entries past the retention when it starts", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "workbay-retention-"))
    dirs.push(dataDir)
    const first = await startServer(loadConfig(["--port", "0", "--host", "127.0.0.1", "--data-dir", dataDir], {}))
    const created = await fetch(`${first.url}/api/v2/users/first`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "admin@example.com", username: "admin", password: "Correct-Horse-Battery-9" })
    })
    expect(created.status).toBe(201)
    await first.close()

    // Age the entry past a 30-day retention, then start with that retention.
    // Normal locking: this test reads the file while the server runs.
    const config = loadConfig([
      "--port",
      "0",
      "--host",
      "127.0.0.1",
      "--data-dir",
      dataDir,
      "--audit-logs-retention",
      "30d",
      "--sqlite-locking",
      "normal"
    ], {})
    const db = new Database(sqlitePath(config))
    try {
      expect(db.prepare("SELECT count(*) AS n FROM audit_logs").get()).toEqual({ n: 1 })
      db.prepare("UPDATE audit_logs SET time = ?").run(new Date(Date.now() - 31 * 86_400_000).toISOString())
      const second = await startServer(config)
      try {
        let n = 1
        for (let i = 0; i < 200 && n > 0; i++) {
          await new Promise((resolve) => setTimeout(resolve, 10))
          n = (db.prepare("SELECT count(*) AS n FROM audit_logs").get() as { n: number }).n
        }
        expect(n).toBe(0)
        const deployment = await fetch(`${second.url}/api/v2/buildinfo`)
        expect(deployment.status).toBe(200)
      } finally {
        await second.close()
      }
    } finally {
      db.close()
    }
  })
})
