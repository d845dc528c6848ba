/**
 * The standalone server's external auth providers: from `WORKBAY_EXTERNAL_AUTH_<n>_<FIELD>`
 * variables or a JSON list, checked at start, served, and reported by the deployment config
 * without their client secrets.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { helpText, loadConfig, startServer } from "../src/index.js"
import { firstOwnerSession } from "./owner.js"

const dirs: Array<string> = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

const ENV = {
  WORKBAY_EXTERNAL_AUTH_0_TYPE: "github",
  WORKBAY_EXTERNAL_AUTH_0_CLIENT_ID: "gh-client",
  WORKBAY_EXTERNAL_AUTH_0_CLIENT_SECRET: "gh-very-secret-value",
  WORKBAY_EXTERNAL_AUTH_1_TYPE: "generic",
  WORKBAY_EXTERNAL_AUTH_1_ID: "corp",
  WORKBAY_EXTERNAL_AUTH_1_CLIENT_ID: "corp-client",
  WORKBAY_EXTERNAL_AUTH_1_CLIENT_SECRET: "corp-very-secret-value",
  WORKBAY_EXTERNAL_AUTH_1_AUTH_URL: "https://idp.corp.example/authorize",
  WORKBAY_EXTERNAL_AUTH_1_TOKEN_URL: "https://idp.corp.example/token",
  WORKBAY_EXTERNAL_AUTH_1_SCOPES: "read,write"
}

describe("external auth providers of the server", () => {
  it("reads the numbered variables or a JSON list; refuses a bad setting at start", () => {
    expect(loadConfig([], {}).externalAuth).toBeUndefined()
    const config = loadConfig([], ENV)
    expect(config.externalAuth?.source).toBe("env")
    expect(config.externalAuth?.value.map((p) => p.id ?? p.type)).toEqual(["github", "corp"])
    expect(config.externalAuth?.value[1]!.scopes).toEqual(["read", "write"])
    const json = loadConfig(["--external-auth-providers", JSON.stringify([{ type: "gitlab", client_id: "gl" }])], {})
    expect(json.externalAuth).toEqual({ value: [{ type: "gitlab", client_id: "gl" }], source: "flag" })
    expect(() => loadConfig([], { WORKBAY_EXTERNAL_AUTH_0_TYPE: "generic", WORKBAY_EXTERNAL_AUTH_0_CLIENT_ID: "x" }))
      .toThrow(/token_url/)
    expect(() => loadConfig(["--external-auth-providers", "{"], {})).toThrow(/not JSON/)
    expect(helpText()).toContain("WORKBAY_EXTERNAL_AUTH_<n>_<FIELD>")
  })

  it("serves them, and the deployment config shows them without client secrets", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "workbay-external-auth-"))
    dirs.push(dataDir)
    const running = await startServer(loadConfig(["--port", "0", "--host", "127.0.0.1", "--data-dir", dataDir], ENV))
    try {
      const base = `${running.url}/api/v2`
      const headers = { "Service-Session-Token": await firstOwnerSession(running.url) }
      const list = (await (await fetch(`${base}/external-auth`, { headers })).json()) as {
        providers: Array<{ id: string }>
      }
      expect(list.providers.map((p) => p.id)).toEqual(["github", "corp"])
      const res = await fetch(`${base}/deployment/config`, { headers })
      const text = await res.text()
      expect(text).not.toContain("very-secret-value")
      const body = JSON.parse(text) as {
        config: { external_auth: Array<Record<string, unknown>> }
        options: Array<{ flag?: string; value_source?: string; value?: unknown }>
      }
      expect(body.config.external_auth).toMatchObject([{ type: "github", client_id: "gh-client" }, {
        id: "corp",
        client_id: "corp-client"
      }])
      expect(body.config.external_auth[0]).not.toHaveProperty("client_secret")
      expect(body.options.find((o) => o.flag === "external-auth-providers")).toMatchObject({ value_source: "env" })
    } finally {
      await running.close()
    }
  })
})
