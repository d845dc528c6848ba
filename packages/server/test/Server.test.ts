import Database from "better-sqlite3"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { helpText, loadConfig, redactUrl, sqlitePath, startServer } from "../src/index.js"

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
    for (const word of ["--port", "PORT", "WORKBAY_DATA_DIR", "DATABASE_URL", "--swagger-enable"]) {
      expect(text).toContain(word)
    }
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
    const deploymentId = async (url: string) =>
      ((await (await fetch(`${url}/buildinfo`)).json()) as { deployment_id: string }).deployment_id
    const id = await deploymentId(base)
    await first.close()

    const second = await startServer(config)
    const port2 = (second.server.address() as { port: number }).port
    const again = await fetch(`http://127.0.0.1:${port2}/api/v2/users/first`)
    expect(again.status).toBe(200)
    // The deployment keeps its id (stored at its first start); another data folder is another deployment.
    expect(await deploymentId(`http://127.0.0.1:${port2}/api/v2`)).toBe(id)
    await second.close()
    const other = await startServer(loadConfig(["--port", "0", "--data-dir", tempDir()], {}))
    const port3 = (other.server.address() as { port: number }).port
    expect(await deploymentId(`http://127.0.0.1:${port3}/api/v2`)).not.toBe(id)
    await other.close()
  })
})

describe("workspace sharing setting", () => {
  it("reads --disable-workspace-sharing and WORKBAY_DISABLE_WORKSPACE_SHARING (flags win) with their sources", () => {
    expect(loadConfig([], {}).disableWorkspaceSharing).toBeUndefined()
    expect(loadConfig([], { WORKBAY_DISABLE_WORKSPACE_SHARING: "true" }).disableWorkspaceSharing).toEqual({
      value: true,
      source: "env"
    })
    expect(
      loadConfig(["--disable-workspace-sharing", "false"], { WORKBAY_DISABLE_WORKSPACE_SHARING: "true" })
        .disableWorkspaceSharing
    )
      .toEqual({ value: false, source: "flag" })
    expect(loadConfig(["--disable-workspace-sharing", "1"], {}).disableWorkspaceSharing).toEqual({
      value: true,
      source: "flag"
    })
    expect(() => loadConfig(["--disable-workspace-sharing", "maybe"], {})).toThrow(/Invalid value "maybe"/)
    expect(helpText()).toContain("--disable-workspace-sharing")
    expect(helpText()).toContain("WORKBAY_DISABLE_WORKSPACE_SHARING")
  })

  /** Starts a server with `argv` and `env`, makes the first user, and answers the deployment config's sharing fields. */
  const sharingReported = async (argv: ReadonlyArray<string>, env: NodeJS.ProcessEnv) => {
    const running = await startServer(
      loadConfig(["--port", "0", "--host", "127.0.0.1", "--data-dir", tempDir(), ...argv], env)
    )
    try {
      const base = `${running.url}/api/v2`
      const user = { email: "admin@example.com", username: "admin", password: "Correct-Horse-Battery-9" }
      const json = { "content-type": "application/json" }
      expect((await fetch(`${base}/users/first`, { method: "POST", headers: json, body: JSON.stringify(user) })).status)
        .toBe(201)
      const login = await fetch(`${base}/users/login`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ email: user.email, password: user.password })
      })
      const { session_token } = (await login.json()) as { session_token: string }
      const res = await fetch(`${base}/deployment/config`, { headers: { "Service-Session-Token": session_token } })
      expect(res.status).toBe(200)
      const body = (await res.json()) as {
        config: Record<string, unknown>
        options: Array<{ flag?: string; env?: string; value?: unknown; value_source?: string }>
      }
      const option = body.options.find((o) => o.flag === "disable-workspace-sharing")
      return { config: body.config.disable_workspace_sharing, option }
    } finally {
      await running.close()
    }
  }

  it("turns sharing off in the deployment config, reported with the flag as its source", async () => {
    const { config, option } = await sharingReported(["--disable-workspace-sharing", "true"], {})
    expect(config).toBe(true)
    expect(option).toMatchObject({ env: "WORKBAY_DISABLE_WORKSPACE_SHARING", value: true, value_source: "flag" })
  })

  it("takes the environment variable, and leaves sharing on by default", async () => {
    const fromEnv = await sharingReported([], { WORKBAY_DISABLE_WORKSPACE_SHARING: "yes" })
    expect(fromEnv.config).toBe(true)
    expect(fromEnv.option).toMatchObject({ value: true, value_source: "env" })
    const unset = await sharingReported([], {})
    // An empty top-level value is left out, as the described system does.
    expect(unset.config).toBeUndefined()
    expect(unset.option).toMatchObject({ value: false, value_source: "default" })
  })
})

describe("SQLite locking", () => {
  const canRead = (file: string) => {
    const db = new Database(file, { readonly: true, fileMustExist: true })
    try {
      db.pragma("busy_timeout = 0")
      db.prepare("SELECT count(*) AS n FROM users").get()
      return true
    } catch (e) {
      if ((e as { code?: string }).code === "SQLITE_BUSY") return false
      throw e
    } finally {
      db.close()
    }
  }

  it("holds the file alone by default; --sqlite-locking normal lets another process read it", async () => {
    expect(() => loadConfig(["--sqlite-locking", "shared"], {})).toThrow(/Invalid --sqlite-locking/)
    expect(loadConfig([], { WORKBAY_SQLITE_LOCKING: "normal" }).sqliteLocking).toBe("normal")
    expect(helpText()).toContain("--sqlite-locking")
    for (const [argv, readable] of [[[], false], [["--sqlite-locking", "normal"], true]] as const) {
      const config = loadConfig(["--port", "0", "--host", "127.0.0.1", "--data-dir", tempDir(), ...argv], {})
      const running = await startServer(config)
      try {
        expect(canRead(sqlitePath(config)), argv.join(" ") || "default").toBe(readable)
      } finally {
        await running.close()
      }
      // Once the server stops, the file is free.
      expect(canRead(sqlitePath(config))).toBe(true)
    }
  })
})
