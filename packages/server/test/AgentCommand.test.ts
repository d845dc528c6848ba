/** The command the standalone server's credentials route names: the configured one, else its own agent bundle. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { agentCommandOf, loadConfig } from "../src/Config.js"

const dir = mkdtempSync(join(tmpdir(), "workbay-agent-command-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("the agent command", () => {
  it("is --agent-command or WORKBAY_AGENT_COMMAND when given", () => {
    expect(agentCommandOf(loadConfig(["--agent-command", "my-agent"], {}))).toBe("my-agent")
    expect(agentCommandOf(loadConfig([], { WORKBAY_AGENT_COMMAND: "env-agent" }))).toBe("env-agent")
  })

  it("else runs the agent bundle beside the server's, with this Node", () => {
    // An installation: packages/server/dist/main.mjs and packages/agent/{bin,dist}.
    mkdirSync(join(dir, "packages/server/dist"), { recursive: true })
    mkdirSync(join(dir, "packages/agent/dist"), { recursive: true })
    writeFileSync(join(dir, "packages/agent/dist/workbay-agent.mjs"), "")
    const command = agentCommandOf(loadConfig([], {}), join(dir, "packages/server/dist/main.mjs"))
    expect(command).toBe(`${process.execPath} ${join(dir, "packages/agent/bin/workbay-agent.mjs")}`)
  })

  it("else is left to the service's default (the reference agent from the npm registry)", () => {
    const elsewhere = join(dir, "elsewhere/dist/main.mjs")
    const cwd = process.cwd()
    process.chdir(dir)
    try {
      rmSync(join(dir, "packages/agent"), { recursive: true, force: true })
      expect(agentCommandOf(loadConfig([], {}), elsewhere)).toBeUndefined()
    } finally {
      process.chdir(cwd)
    }
  })
})
