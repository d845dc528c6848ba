/** The standalone server's path-based app switches: parsed from flags and variables, reported by the deployment config, honoured. */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { helpText, loadConfig, startServer } from "../src/index.js"
import { firstOwnerSession } from "./owner.js"

const dirs: Array<string> = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

describe("path-based app settings", () => {
  it("reads the three switches (flags win) with their sources; absent ones stay unset", () => {
    const config = loadConfig(["--dangerous-allow-path-app-sharing", "true"], {
      WORKBAY_DANGEROUS_ALLOW_PATH_APP_SHARING: "false",
      WORKBAY_DISABLE_PATH_APPS: "yes"
    })
    expect(config.pathApps).toEqual({
      disable: { value: true, source: "env" },
      allowSharing: { value: true, source: "flag" },
      allowSiteOwnerAccess: undefined
    })
    expect(() => loadConfig(["--dangerous-allow-path-app-site-owner-access", "perhaps"], {})).toThrow(
      /Invalid value "perhaps"/
    )
    for (
      const word of [
        "--disable-path-apps",
        "--dangerous-allow-path-app-sharing",
        "WORKBAY_DANGEROUS_ALLOW_PATH_APP_SITE_OWNER_ACCESS"
      ]
    ) {
      expect(helpText()).toContain(word)
    }
  })

  it("reports them in the deployment config and refuses app paths when path apps are disabled", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "workbay-path-apps-"))
    dirs.push(dataDir)
    const running = await startServer(loadConfig(
      [
        "--port",
        "0",
        "--host",
        "127.0.0.1",
        "--data-dir",
        dataDir,
        "--disable-path-apps",
        "true",
        "--dangerous-allow-path-app-sharing",
        "on"
      ],
      {}
    ))
    try {
      const base = `${running.url}/api/v2`
      const headers = { "Service-Session-Token": await firstOwnerSession(running.url) }
      const res = await fetch(`${base}/deployment/config`, { headers })
      const body = (await res.json()) as {
        config: { disable_path_apps: boolean; dangerous: Record<string, boolean> }
        options: Array<{ flag?: string; value?: unknown; value_source?: string }>
      }
      expect(body.config.disable_path_apps).toBe(true)
      expect(body.config.dangerous).toMatchObject({
        allow_path_app_sharing: true,
        allow_path_app_site_owner_access: false
      })
      expect(body.options.find((o) => o.flag === "dangerous-allow-path-app-sharing")).toMatchObject({
        value: true,
        value_source: "flag"
      })
      const app = await fetch(`${running.url}/@admin/anything/apps/web/`, { headers })
      expect(app.status).toBe(403)
      expect(await app.json()).toMatchObject({ message: "Path-based applications are disabled on this deployment." })
    } finally {
      await running.close()
    }
  })
})
