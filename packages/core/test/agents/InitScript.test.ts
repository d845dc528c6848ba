/**
 * The agent's init script: its values are quoted so that no access URL adds a command (checked
 * with `sh -n` and by running its assignments), and run for real with `sh` against a local HTTP
 * server that serves a stand-in executable: it retries a failed download naming the URL, refuses a
 * download whose hash differs, and runs the executable with the access URL and the token from the
 * environment. The route's answer: 400 for a platform with no script, the served hash embedded.
 */
import { describe, expect, it } from "@effect/vitest"
import { agentInitScript, Binaries, initScriptFor, Settings } from "@workbay/core"
import { Effect, Either, Layer, Option } from "effect"
import { execFileSync, spawn } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll } from "vitest"

const work = mkdtempSync(join(tmpdir(), "workbay-init-script-"))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** `sh -n`: the script parses. */
const parses = (script: string) => execFileSync("sh", ["-n"], { input: script, encoding: "utf8" })

/** Runs `script` with `sh` until it exits or `ms` pass; its output (stdout and stderr) and exit code. */
const runScript = (script: string, env: Record<string, string>, ms: number) =>
  new Promise<{ output: string; code: number | null }>((resolve) => {
    const child = spawn("sh", ["-c", script], { env: { PATH: process.env.PATH!, TMPDIR: work, ...env } })
    let output = ""
    child.stdout.on("data", (d) => (output += d))
    child.stderr.on("data", (d) => (output += d))
    const timer = setTimeout(() => child.kill("SIGKILL"), ms)
    child.on("exit", (code) => {
      clearTimeout(timer)
      resolve({ output, code })
    })
  })

const hostile = [
  `http://h.example/'; touch ${join(work, "pwned")}; echo '`,
  `http://h.example/$(touch ${join(work, "pwned")})`,
  `http://h.example/\`touch ${join(work, "pwned")}\``,
  `http://h.example/"; touch ${join(work, "pwned")}; "\ntouch ${join(work, "pwned")}`,
  `http://h.example/\${HOME}%s\\'\\`
]

describe("agent init script", () => {
  it("is written for the described system's platforms only", () => {
    expect(agentInitScript({ os: "linux", arch: "amd64", accessUrl: "http://h" })).toContain(
      "BINARY_URL='http://h/bin/workbay-agent-linux-amd64'"
    )
    expect(agentInitScript({ os: "darwin", arch: "arm64", accessUrl: "http://h/" })).toContain(
      "BINARY_URL='http://h/bin/workbay-agent-darwin-arm64'"
    )
    expect(agentInitScript({ os: "windows", arch: "amd64", accessUrl: "http://h" })).toContain(
      "$BinaryUrl = 'http://h/bin/workbay-agent-windows-amd64.exe'"
    )
    expect(agentInitScript({ os: "linux", arch: "riscv64", accessUrl: "http://h" })).toBeUndefined()
    expect(agentInitScript({ os: "plan9", arch: "amd64", accessUrl: "http://h" })).toBeUndefined()
    expect(agentInitScript({ os: "toString", arch: "amd64", accessUrl: "http://h" })).toBeUndefined()
  })

  it("never embeds the token and takes it from the environment", () => {
    const script = agentInitScript({ os: "linux", arch: "amd64", accessUrl: "http://h", sha256: "ab" })!
    expect(script).not.toMatch(/WORKBAY_AGENT_TOKEN=/)
    expect(script).toContain("export WORKBAY_AGENT_URL=\"$ACCESS_URL\"")
    expect(script).toContain("BINARY_SHA256='ab'")
  })

  it("quotes a hostile access URL: the script parses and its values are the URL, nothing run", () => {
    for (const url of hostile) {
      const script = agentInitScript({ os: "linux", arch: "amd64", accessUrl: url })!
      parses(script)
      // The assignments alone, then the values they made.
      const assignments = script.slice(0, script.indexOf("say()"))
      const out = execFileSync("sh", ["-c", `${assignments}\nprintf '%s\\n%s' "$ACCESS_URL" "$BINARY_URL"`], {
        encoding: "utf8"
      })
      expect(out).toBe(`${url}\n${url}/bin/workbay-agent-linux-amd64`)
      expect(existsSync(join(work, "pwned"))).toBe(false)
      const ps = agentInitScript({ os: "windows", arch: "amd64", accessUrl: url })!
      expect(ps).toContain(`$AccessUrl = '${url.replace(/'/g, "''")}'`)
    }
  })

  describe("run with sh", () => {
    // A stand-in executable: answers --version, else prints what it was given.
    const fake = `#!/bin/sh
if [ "\${1:-}" = --version ]; then echo "workbay-agent 9.9.9"; exit 0; fi
echo "url=$WORKBAY_AGENT_URL token=$WORKBAY_AGENT_TOKEN"
`
    const fakeSha = createHash("sha256").update(fake).digest("hex")
    let accessUrl: string
    let requests = 0
    const server = createServer((req, res) => {
      requests++
      // The first request fails: the script tries again.
      if (req.url !== "/bin/workbay-agent-linux-amd64" || requests === 1) {
        res.writeHead(503).end("not yet")
        return
      }
      res.writeHead(200, { "content-type": "application/octet-stream" }).end(fake)
    })
    beforeAll(async () => {
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
      accessUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    })
    afterAll(() => void server.close())

    it(
      "downloads (retrying), checks the hash and --version, and runs the agent with the URL and the token",
      async () => {
        requests = 0
        const script = agentInitScript({ os: "linux", arch: "amd64", accessUrl: `${accessUrl}/`, sha256: fakeSha })!
        const { code, output } = await runScript(script, { WORKBAY_AGENT_TOKEN: "secret-token" }, 20_000)
        expect(output).toContain(`could not download the agent from ${accessUrl}/bin/workbay-agent-linux-amd64`)
        expect(output).toContain("starting workbay-agent 9.9.9")
        expect(output).toContain(`url=${accessUrl} token=secret-token`)
        expect(code).toBe(0)
      },
      30_000
    )

    it("refuses a download whose hash differs, saying so", async () => {
      requests = 1
      const script = agentInitScript({ os: "linux", arch: "amd64", accessUrl, sha256: "0".repeat(64) })!
      const { output } = await runScript(script, {}, 1_500)
      expect(output).toContain(`has SHA-256 ${fakeSha}, not ${"0".repeat(64)}`)
      expect(output).not.toContain("starting")
    })

    it("names the URL it cannot reach", async () => {
      const script = agentInitScript({ os: "linux", arch: "amd64", accessUrl: "http://127.0.0.1:1" })!
      const { output } = await runScript(script, {}, 1_500)
      expect(output).toContain(
        "could not download the agent from http://127.0.0.1:1/bin/workbay-agent-linux-amd64 (attempt 1"
      )
      expect(output).toContain("is the access URL right and reachable from this machine?")
    })
  })

  const binaries = (sha256: string) =>
    Layer.succeed(Binaries, {
      find: (program, os, arch) =>
        Effect.succeed(
          program === "workbay-agent" && os === "linux" && arch === "amd64"
            ? Option.some({ program, os, arch, size: 1, sha256, path: "/nowhere" })
            : Option.none()
        ),
      list: Effect.succeed([])
    })

  it.effect("the route's script: the deployment's access URL, the served hash, any case; 400 for no script", () =>
    Effect.gen(function*() {
      const script = yield* initScriptFor("Linux", "AMD64")
      expect(script).toContain("ACCESS_URL='https://w.example.com'")
      expect(script).toContain(`BINARY_SHA256='${"a".repeat(64)}'`)
      // A platform with a script but no executable served: no hash to check.
      expect(yield* initScriptFor("linux", "arm64")).toContain("BINARY_SHA256=''")
      const refused = yield* Effect.either(initScriptFor("linux", "riscv64"))
      expect(Either.isLeft(refused) && refused.left).toMatchObject({
        _tag: "BadRequest",
        message: "Unknown os/arch: linux/riscv64."
      })
    }).pipe(
      Effect.provide(Layer.merge(binaries("a".repeat(64)), Settings.layer({ accessUrl: "https://w.example.com/" })))
    ))

  it.effect("none serves nothing", () =>
    Effect.gen(function*() {
      const b = yield* Binaries
      expect(Option.isNone(yield* b.find("workbay-agent", "linux", "amd64"))).toBe(true)
      expect(yield* b.list).toEqual([])
    }).pipe(Effect.provide(Binaries.none)))
})
