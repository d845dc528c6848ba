/** The standalone server's Prometheus settings and listener (docs/operations.md, "Metrics"). */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { helpText, loadConfig, startServer } from "../src/index.js"
import { firstOwnerSession } from "./owner.js"
import { SERVER } from "./process.js"

const dirs: Array<string> = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "workbay-metrics-"))
  dirs.push(dir)
  return dir
}
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer()
    s.once("error", reject)
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })

describe("prometheus configuration", () => {
  it("reads --prometheus-enable and --prometheus-address and their variables (flags win), with their sources", () => {
    expect(loadConfig([], {}).prometheus).toEqual({ enable: undefined, address: undefined })
    const fromEnv =
      loadConfig([], { WORKBAY_PROMETHEUS_ENABLE: "true", WORKBAY_PROMETHEUS_ADDRESS: "0.0.0.0:9100" }).prometheus
    expect(fromEnv).toEqual({
      enable: { value: true, source: "env" },
      address: { value: { host: "0.0.0.0", port: 9100, text: "0.0.0.0:9100" }, source: "env" }
    })
    const fromFlags = loadConfig(["--prometheus-enable", "false", "--prometheus-address", "[::1]:2113"], {
      WORKBAY_PROMETHEUS_ENABLE: "true",
      WORKBAY_PROMETHEUS_ADDRESS: "0.0.0.0:9100"
    }).prometheus
    expect(fromFlags).toEqual({
      enable: { value: false, source: "flag" },
      address: { value: { host: "::1", port: 2113, text: "[::1]:2113" }, source: "flag" }
    })
    expect(loadConfig(["--prometheus-address", ":2112"], {}).prometheus.address?.value).toEqual({
      host: "",
      port: 2112,
      text: ":2112"
    })
    for (const bad of ["2112", "localhost", "host:99999", "host:port", "::1:2112"]) {
      expect(() => loadConfig(["--prometheus-address", bad], {})).toThrow(/Invalid --prometheus-address/)
    }
    expect(() => loadConfig(["--prometheus-enable", "maybe"], {})).toThrow(
      /Invalid value "maybe" for --prometheus-enable/
    )
    for (
      const word of [
        "--prometheus-enable",
        "WORKBAY_PROMETHEUS_ENABLE",
        "--prometheus-address",
        "WORKBAY_PROMETHEUS_ADDRESS"
      ]
    ) {
      expect(helpText()).toContain(word)
    }
  })

  it("serves /metrics on the address when enabled, shown in the deployment config with its source", async () => {
    const port = await freePort()
    const running = await startServer(loadConfig(
      ["--port", "0", "--host", "127.0.0.1", "--data-dir", tempDir(), "--prometheus-enable", "true"],
      { WORKBAY_PROMETHEUS_ADDRESS: `127.0.0.1:${port}` }
    ))
    try {
      expect(running.metricsUrl).toBe(`http://127.0.0.1:${port}/metrics`)
      const token = await firstOwnerSession(running.url)
      const res = await fetch(`${running.url}/api/v2/deployment/config`, {
        headers: { "Service-Session-Token": token }
      })
      const body = (await res.json()) as {
        config: { prometheus: Record<string, unknown> }
        options: Array<{ flag?: string; value?: unknown; value_source?: string }>
      }
      expect(body.config.prometheus).toMatchObject({ enable: true, address: `127.0.0.1:${port}` })
      expect(body.options.find((o) => o.flag === "prometheus-enable")).toMatchObject({
        value: true,
        value_source: "flag"
      })
      expect(body.options.find((o) => o.flag === "prometheus-address")).toMatchObject({
        value: `127.0.0.1:${port}`,
        value_source: "env"
      })

      const scrape = await fetch(running.metricsUrl!)
      expect(scrape.status).toBe(200)
      expect(scrape.headers.get("content-type")).toContain("text/plain")
      const text = await scrape.text()
      // The owner's requests above, by route template and status.
      expect(text).toContain(
        `coderd_api_requests_processed_total{code="201",method="POST",path="/api/v2/users/first"} 1`
      )
      expect(text).toContain(
        `coderd_api_requests_processed_total{code="200",method="GET",path="/api/v2/deployment/config"} 1`
      )
      expect(text).toMatch(/^process_resident_memory_bytes \d+/m)
      // The prebuilds series, read from the database (none built here: the pause gauge only).
      expect(text).toMatch(/^coderd_prebuilt_workspaces_reconciliation_paused 0$/m)
      expect(text).toContain("# TYPE coderd_prebuilt_workspaces_created_total counter")
      expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404)
    } finally {
      await running.close()
    }
    // Closed with the server: the port is free again.
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow()
  })

  it("serves no metrics unless enabled", async () => {
    const running = await startServer(loadConfig(["--port", "0", "--host", "127.0.0.1", "--data-dir", tempDir()], {}))
    try {
      expect(running.metricsUrl).toBeUndefined()
    } finally {
      await running.close()
    }
  })
})

describe("the server process", () => {
  it("exposes the metrics address (main.ts), and says where", async () => {
    const root = join(dirname(fileURLToPath(import.meta.url)), "../../..")
    const [port, metricsPort] = [await freePort(), await freePort()]
    const child = spawn(process.execPath, [
      ...SERVER,
      "--port",
      String(port),
      "--host",
      "127.0.0.1",
      "--data-dir",
      tempDir(),
      "--prometheus-enable",
      "true",
      "--prometheus-address",
      `127.0.0.1:${metricsPort}`
    ], { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, DATABASE_URL: "" } })
    let output = ""
    child.stdout.on("data", (d) => (output += d))
    child.stderr.on("data", (d) => (output += d))
    try {
      await new Promise<void>((resolve, reject) => {
        child.once("exit", () => reject(new Error(`the server exited: ${output}`)))
        const check = () => (output.includes("Prometheus metrics at") ? resolve() : setTimeout(check, 20))
        check()
      })
      expect(output).toContain(`Prometheus metrics at http://127.0.0.1:${metricsPort}/metrics.`)
      expect((await fetch(`http://127.0.0.1:${port}/api/v2/buildinfo`)).status).toBe(200)
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()
      expect(text).toContain(`coderd_api_requests_processed_total{code="200",method="GET",path="/api/v2/buildinfo"} 1`)
    } finally {
      const exited = new Promise((resolve) => child.once("exit", resolve))
      child.kill("SIGTERM")
      await exited
    }
  })
})
