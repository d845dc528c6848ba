/**
 * The agent's linux-arm64 executable (scripts/executables.mjs: the arm64 Node from the npm
 * registry with this build's SEA blob injected) really runs: under qemu-user
 * (`qemu-aarch64-static -L /usr/aarch64-linux-gnu`, Debian's qemu-user-static with
 * libc6-arm64-cross and libstdc++6-arm64-cross) it answers `--version` and, against a real
 * server, connects with an external agent's token and reaches `ready`, running the agent's start
 * script. No Docker: qemu runs as a child process of the test.
 *
 * Optional real parts: qemu and the arm64 executable (a build that could not fetch the arm64
 * Node has none). Without either the test prints `SKIPPED: arm64 agent executable` and skips,
 * and fails when `CI` is set (scripts/ensure.mjs installs qemu before `npm test`).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { existsSync, readFileSync, readlinkSync } from "node:fs"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { type AgentBinariesManifest, emulatorFor } from "../../../scripts/executables.mjs"
import { type Client, type ServiceTestServer, startWithOwner } from "../../http/test/support.js"
import { eventually, externalAgentWorkspace } from "./support.js"

const isCi = () => {
  const ci = process.env.CI
  return ci !== undefined && ci !== "" && ci !== "0" && ci.toLowerCase() !== "false"
}

const dir = inject("workbayAgentBinaries") as string | undefined
const manifest = ((): AgentBinariesManifest | undefined => {
  try {
    return JSON.parse(readFileSync(join(dir ?? "", "manifest.json"), "utf8"))
  } catch {
    return undefined
  }
})()
const arm64 = manifest?.binaries.find((b) => b.os === "linux" && b.arch === "arm64")
const executable = arm64 === undefined ? undefined : join(dir!, arm64.file)
const emulator = emulatorFor("arm64")

/** What is missing, or undefined when the test can run. */
const missing = dir === undefined
  ? "no executables were built (run the tests from the root or packages/agent, whose globalSetup builds them)"
  : emulator === undefined
  ? "qemu-aarch64-static or /usr/aarch64-linux-gnu is not installed (apt-get install qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross)"
  : executable === undefined || !existsSync(executable)
  ? `no linux-arm64 executable was built (${
    manifest?.skipped.find((s) => s.arch === "arm64")?.reason ?? "see scripts/executables.mjs"
  })`
  : undefined

if (missing !== undefined) {
  const line = `SKIPPED: arm64 agent executable — ${missing}`
  console.warn(`\n${"!".repeat(Math.min(line.length, 120))}\n${line}\n${"!".repeat(Math.min(line.length, 120))}\n`)
}

describe.runIf(missing !== undefined && isCi())("the arm64 agent executable under CI", () => {
  it("is built and runs under qemu", () => {
    expect.fail(`SKIPPED is a failure under CI: arm64 agent executable — ${missing}`)
  })
})

describe.skipIf(missing !== undefined)("the linux-arm64 agent executable under qemu", () => {
  const [qemu, ...qemuArgs] = emulator ?? []
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let child: ChildProcess | undefined

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({ agentBinaries: dir!, lifecycle: false }))
  })
  afterAll(async () => {
    child?.kill("SIGKILL")
    await srv?.close()
  })

  it("is an arm64 executable that answers --version under qemu", async () => {
    const header = readFileSync(executable!).subarray(0, 20)
    expect(header.readUInt16LE(18)).toBe(183) // ELF e_machine: AArch64
    const { stdout } = await promisify(execFile)(qemu!, [...qemuArgs, executable!, "--version"], { timeout: 60_000 })
    expect(stdout.trim()).toBe(`workbay-agent ${manifest!.version}`)
  })

  it("is served at /bin/workbay-agent-linux-arm64", async () => {
    const res = await fetch(`${srv.url}/bin/workbay-agent-linux-arm64`, { method: "HEAD" })
    expect(res.status).toBe(200)
    expect(res.headers.get("content-length")).toBe(String(arm64!.size))
    expect(res.headers.get("etag")).toContain(arm64!.sha256)
  })

  it("connects to a real server and reaches ready", async () => {
    const { agentId, token } = await externalAgentWorkspace(srv, owner, orgId, {
      architecture: "arm64",
      script: "echo hello from $(uname -m)"
    })
    // The init script a linux/arm64 machine would run downloads this executable and checks its hash.
    const script = await srv.anonymous.get<string>("/init-script/linux/arm64")
    expect(script.status).toBe(200)
    expect(script.body).toContain(`${srv.url}/bin/workbay-agent-linux-arm64`)
    expect(script.body).toContain(arm64!.sha256)

    let output = ""
    child = spawn(qemu!, [...qemuArgs, executable!], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        // The run's temporary folder (vitest.tmpdir.ts): the agent's logs go there, not to /tmp.
        TMPDIR: process.env.TMPDIR,
        WORKBAY_AGENT_URL: srv.url,
        WORKBAY_AGENT_TOKEN: token
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    child.stdout!.on("data", (d) => (output += d))
    child.stderr!.on("data", (d) => (output += d))
    const agent = await eventually(
      async () => (await owner.get(`/workspaceagents/${agentId}`)).body,
      (a) => a.lifecycle_state === "ready",
      "the arm64 agent under qemu",
      60_000
    ).catch((e) => {
      throw new Error(`${(e as Error).message}\nagent output:\n${output}`)
    })
    expect(agent.status).toBe("connected")
    expect(agent.version).toBe(manifest!.version)
    expect(agent.architecture).toBe("arm64")
    // The agent's own report: Node's process.arch inside the executable is arm64.
    // It is the arm64 executable under qemu that connected: the process is qemu's.
    expect(readlinkSync(`/proc/${child.pid}/exe`)).toMatch(/qemu-aarch64/)
    const lines = await eventually(
      async () => (await owner.get(`/workspaceagents/${agentId}/logs`)).body as Array<any>,
      (ls) => ls.length >= 1,
      "the start script's log"
    )
    // The script's `uname -m` runs as the agent's child, under qemu too (binfmt is not needed: sh is this machine's).
    expect(lines.map((l) => l.output).join("\n")).toMatch(/hello from \w+/)
  })
})
