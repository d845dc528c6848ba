/** The agent's options: flags over environment variables, and clear refusals (no server needed). */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { AGENT_VERSION } from "../src/Agent.js"
import { main } from "../src/main.js"
import { parseOptions } from "../src/Options.js"

describe("agent options", () => {
  it("reads flags (both forms) over environment variables", () => {
    const o = parseOptions(["--url", "https://w.example.com/", "--token=abc"], {
      WORKBAY_AGENT_TOKEN: "env",
      WORKBAY_AGENT_DIRECTORY: "/srv"
    })
    expect(o).toMatchObject({ url: "https://w.example.com", token: "abc", auth: "token", directory: "/srv" })
    expect(
      parseOptions([], { WORKBAY_AGENT_URL: "http://h:1", WORKBAY_AGENT_AUTH: "google", WORKBAY_AGENT_NAME: "main" })
    )
      .toMatchObject({ url: "http://h:1", auth: "google", agentName: "main" })
    expect(
      parseOptions(["--url", "http://h", "--token", "t", "--task-command", "claude -p"], {
        WORKBAY_AGENT_TASK_COMMAND: "cat"
      }).taskCommand
    )
      .toBe("claude -p")
    expect(parseOptions(["--url", "http://h", "--token", "t"], { WORKBAY_AGENT_TASK_COMMAND: "cat" }).taskCommand).toBe(
      "cat"
    )
  })

  it("refuses a missing URL or token, an unknown flag or auth kind, and a URL that is not one", () => {
    expect(() => parseOptions([], {})).toThrow(/access URL is required/)
    expect(() => parseOptions(["--url", "http://h"], {})).toThrow(/agent token is required/)
    expect(() => parseOptions(["--url", "http://h", "--token", "t", "--verbose"], {})).toThrow(
      /Unknown argument "--verbose"/
    )
    expect(() => parseOptions(["--url", "http://h", "--auth", "ldap"], {})).toThrow(/--auth takes/)
    expect(() => parseOptions(["--url", "not a url", "--token", "t"], {})).toThrow(/is not a URL/)
    expect(() => parseOptions(["--url"], {})).toThrow(/needs a value/)
  })
})

describe("agent version", () => {
  it("is the package's version, which --version prints", async () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))
    expect(AGENT_VERSION).toBe(pkg.version)
    let written = ""
    const write = process.stdout.write
    process.stdout.write = ((chunk: string) => (written += chunk, true)) as typeof process.stdout.write
    try {
      await main(["--version"])
    } finally {
      process.stdout.write = write
    }
    expect(written).toBe(`workbay-agent ${pkg.version}\n`)
  })
})
