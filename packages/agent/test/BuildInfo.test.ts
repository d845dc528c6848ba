/**
 * `workbay-agent --build-info`: what the agent runs with. As a library (the optional native
 * helpers installed beside it, `bufferutil` and `utf-8-validate`, load), and as this machine's
 * executable with no Node (scripts/executables.mjs), which carries their prebuilt linux-x64 files
 * as assets and loads them from there: ws masks and checks its frames in native code in both.
 */
import { execFileSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, inject, it } from "vitest"
import type { AgentBinariesManifest } from "../../../scripts/executables.mjs"
import { AGENT_VERSION } from "../src/Agent.js"
import { buildInfo } from "../src/BuildInfo.js"

const dir = inject("workbayAgentBinaries")

describe("workbay-agent --build-info", () => {
  it("says the library runs with ws's native helpers", async () => {
    expect(await buildInfo()).toEqual({
      version: AGENT_VERSION,
      node: process.version,
      platform: process.platform,
      arch: process.arch,
      executable: false,
      native: { bufferutil: true, "utf-8-validate": true }
    })
  })

  it.runIf(process.platform === "linux" && process.arch === "x64")(
    "says the linux-amd64 executable loads them from its own assets",
    () => {
      const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as AgentBinariesManifest
      const file = join(dir, manifest.binaries.find((b) => b.arch === "amd64")!.file)
      expect(existsSync(file)).toBe(true)
      const info = JSON.parse(execFileSync(file, ["--build-info"], { encoding: "utf8", timeout: 30_000 }))
      expect(info).toEqual({
        version: AGENT_VERSION,
        node: process.version,
        platform: "linux",
        arch: "x64",
        executable: true,
        native: { bufferutil: true, "utf-8-validate": true }
      })
    }
  )
})
