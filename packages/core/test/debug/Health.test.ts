/** Dismissed health sections without HTTP: marked, and left out of the overall severity and health. */
import { describe, expect, it } from "@effect/vitest"
import { HealthcheckReport } from "@workbay/core"
import { applyDismissed } from "../../src/debug/Health.js"

const section = (severity: "ok" | "warning" | "error") => ({
  severity,
  warnings: [],
  dismissed: false,
  healthy: severity !== "error"
})

const report = new HealthcheckReport({
  time: new Date(0),
  healthy: false,
  severity: "error",
  coder_version: "v1",
  derp: { ...section("ok"), dismissed: true, regions: {}, netcheck_logs: [] },
  access_url: {
    ...section("error"),
    access_url: "",
    reachable: false,
    status_code: 0,
    healthz_response: "",
    error: "EACS01: Access URL not set"
  },
  websocket: { ...section("warning"), body: "", code: 101 },
  database: { ...section("ok"), reachable: true, latency: "1ms", latency_ms: 1, threshold_ms: 15 },
  workspace_proxy: { ...section("ok"), workspace_proxies: { regions: [] } },
  provisioner_daemons: { severity: "ok", warnings: [], dismissed: false, items: [] }
})

describe("dismissed health sections", () => {
  it("leave the overall severity to the sections not dismissed", () => {
    expect(applyDismissed(report, [])).toMatchObject({ severity: "error", healthy: false, derp: { dismissed: true } })
    const noAccess = applyDismissed(report, ["AccessURL"])
    expect(noAccess).toMatchObject({
      severity: "warning",
      healthy: true,
      access_url: { dismissed: true, severity: "error" }
    })
    expect(applyDismissed(report, ["AccessURL", "Websocket"])).toMatchObject({
      severity: "ok",
      healthy: true,
      websocket: { dismissed: true }
    })
  })

  it("keep each section's own findings", () => {
    const r = applyDismissed(report, ["Database", "ProvisionerDaemons", "WorkspaceProxy"])
    expect(r.access_url.error).toBe("EACS01: Access URL not set")
    expect([r.database.dismissed, r.provisioner_daemons.dismissed, r.workspace_proxy.dismissed, r.access_url.dismissed])
      .toEqual([true, true, true, false])
  })
})
