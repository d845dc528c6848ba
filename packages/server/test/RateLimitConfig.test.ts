/** The standalone server's rate-limit flags: parsed with their sources, reported by the deployment config, applied. */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { helpText, loadConfig, startServer } from "../src/index.js"
import { firstOwnerSession } from "./owner.js"

const dirs: Array<string> = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

describe("rate-limit settings", () => {
  it("reads --api-rate-limit and --dangerous-disable-rate-limits (flags win) with their sources", () => {
    expect(loadConfig([], {}).settings).toEqual({})
    expect(
      loadConfig(["--api-rate-limit=-1"], {
        WORKBAY_API_RATE_LIMIT: "7",
        WORKBAY_DANGEROUS_DISABLE_RATE_LIMITS: "true"
      }).settings
    ).toEqual({
      rateLimitApi: { value: -1, source: "flag" },
      rateLimitDisableAll: { value: true, source: "env" }
    })
    expect(() => loadConfig(["--api-rate-limit", "lots"], {})).toThrow(/Invalid --api-rate-limit "lots"/)
    for (const word of ["--api-rate-limit", "WORKBAY_DANGEROUS_DISABLE_RATE_LIMITS"]) expect(helpText()).toContain(word)
  })

  it("reads --proxy-trusted-headers and --proxy-trusted-origins (the client's address behind a load balancer)", () => {
    expect(
      loadConfig(["--proxy-trusted-headers", "X-Forwarded-For,CF-Connecting-IP"], {
        WORKBAY_PROXY_TRUSTED_ORIGINS: "10.0.0.0/8,fd00::/8"
      }).settings
    ).toEqual({
      proxyTrustedHeaders: { value: ["X-Forwarded-For", "CF-Connecting-IP"], source: "flag" },
      proxyTrustedOrigins: { value: ["10.0.0.0/8", "fd00::/8"], source: "env" }
    })
    for (const word of ["--proxy-trusted-headers", "WORKBAY_PROXY_TRUSTED_ORIGINS"]) expect(helpText()).toContain(word)
  })

  it("limits each operation per caller as configured and reports the values", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "workbay-rate-limit-"))
    dirs.push(dataDir)
    const running = await startServer(
      loadConfig([
        "--port",
        "0",
        "--host",
        "127.0.0.1",
        "--data-dir",
        dataDir,
        "--api-rate-limit",
        "3",
        "--proxy-trusted-headers",
        "X-Forwarded-For",
        "--proxy-trusted-origins",
        "127.0.0.0/8,::1/128"
      ], {})
    )
    try {
      const base = `${running.url}/api/v2`
      const statuses: Array<number> = []
      for (let i = 0; i < 4; i++) statuses.push((await fetch(`${base}/buildinfo`)).status)
      expect(statuses).toEqual([200, 200, 200, 429])
      // The test is a trusted proxy: a client it names has its own budget.
      expect((await fetch(`${base}/buildinfo`, { headers: { "X-Forwarded-For": "192.0.2.1" } })).status).toBe(200)
      const headers = { "Service-Session-Token": await firstOwnerSession(running.url) }
      const res = await fetch(`${base}/deployment/config`, { headers })
      expect(res.headers.get("x-ratelimit-limit")).toBe("3")
      const body = (await res.json()) as {
        config: { rate_limit: unknown }
        options: Array<{ flag?: string; value?: unknown; value_source?: string }>
      }
      expect(body.config.rate_limit).toEqual({ api: 3, disable_all: false })
      expect(body.options.find((o) => o.flag === "api-rate-limit")).toMatchObject({ value: 3, value_source: "flag" })
      expect(body.options.find((o) => o.flag === "proxy-trusted-origins")).toMatchObject({
        value: ["127.0.0.0/8", "::1/128"],
        value_source: "flag"
      })
      expect(body.options.find((o) => o.flag === "dangerous-disable-rate-limits")).toMatchObject({
        value: false,
        value_source: "default"
      })
    } finally {
      await running.close()
    }
  })
})
