/**
 * The operations flags: log level and format, the shutdown bound, the hang detector's interval and
 * timeout, and how long a job bound to a host waits for that host's daemon.
 */
import { Duration } from "effect"
import { describe, expect, it } from "vitest"
import { loadConfig } from "../src/Config.js"

describe("operations flags", () => {
  it("default to info, human, 30 s and the hang detector's own defaults", () => {
    const c = loadConfig([], {})
    expect(c).toMatchObject({
      logLevel: "info",
      logFormat: "human",
      hangDetector: { interval: undefined, timeout: undefined, hostWait: undefined }
    })
    expect(Duration.toMillis(c.shutdownTimeout)).toBe(30_000)
  })

  it("read flags over variables", () => {
    const c = loadConfig(
      ["--log-level", "DEBUG", "--shutdown-timeout", "5s", "--provisioner-hang-timeout", "2m"],
      { WORKBAY_LOG_LEVEL: "error", WORKBAY_LOG_FORMAT: "json", WORKBAY_PROVISIONER_HANG_DETECTOR_INTERVAL: "10s" }
    )
    expect(c).toMatchObject({ logLevel: "debug", logFormat: "json" })
    expect(Duration.toMillis(c.shutdownTimeout)).toBe(5_000)
    expect(Duration.toMillis(c.hangDetector.interval!)).toBe(10_000)
    expect(Duration.toMillis(c.hangDetector.timeout!)).toBe(120_000)
  })

  it("read how long a host-bound job waits for its host's daemon, flag over variable", () => {
    const byEnv = loadConfig([], { WORKBAY_PROVISIONER_HOST_WAIT: "10m" })
    expect(Duration.toMillis(byEnv.hangDetector.hostWait!)).toBe(600_000)
    const byFlag = loadConfig(["--provisioner-host-wait", "30s"], { WORKBAY_PROVISIONER_HOST_WAIT: "10m" })
    expect(Duration.toMillis(byFlag.hangDetector.hostWait!)).toBe(30_000)
    expect(() => loadConfig(["--provisioner-host-wait", "soon"], {})).toThrow(/--provisioner-host-wait/)
    expect(() => loadConfig([], { WORKBAY_PROVISIONER_HOST_WAIT: "-1m" })).toThrow(/--provisioner-host-wait/)
  })

  it("refuse values they do not know, naming the flag", () => {
    expect(() => loadConfig(["--log-level", "loud"], {})).toThrow(/--log-level "loud"/)
    expect(() => loadConfig([], { WORKBAY_LOG_FORMAT: "xml" })).toThrow(/--log-format "xml"/)
    expect(() => loadConfig(["--shutdown-timeout", "soon"], {})).toThrow(/--shutdown-timeout/)
    expect(() => loadConfig(["--provisioner-hang-timeout", "-1m"], {})).toThrow(/--provisioner-hang-timeout/)
  })
})
