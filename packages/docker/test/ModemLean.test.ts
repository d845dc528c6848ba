/**
 * The server's bundle has docker-modem describe a request for its debug log only when that log is
 * on (scripts/dockerode-lean.mjs): dockerode bundled with that plugin, as the server's script is,
 * calls a daemon (a real HTTP server on a unix socket) without running `util.inspect`, where the
 * stock library runs it for every call.
 */
import { build } from "esbuild"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import util from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dockerodeLean, leanModemSource } from "../../../scripts/dockerode-lean.mjs"

interface Pinging {
  ping(): Promise<unknown>
}
type DockerConstructor = new(options: { socketPath: string }) => Pinging

describe("docker-modem as the server's bundle has it (scripts/dockerode-lean.mjs)", () => {
  let dir: string
  let socket: string
  let lean: DockerConstructor
  let stock: DockerConstructor
  const daemon = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/plain" })
    res.end("OK")
  })
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "modem-lean-"))
    socket = join(dir, "docker.sock")
    await new Promise<void>((resolve) => daemon.listen(socket, resolve))
    const outfile = join(dir, "dockerode.cjs")
    await build({
      stdin: { contents: "module.exports = require(\"dockerode\")", resolveDir: process.cwd() },
      bundle: true,
      platform: "node",
      format: "cjs",
      outfile,
      logLevel: "error",
      external: ["ssh2", "docker-modem/lib/ssh.js"],
      plugins: [dockerodeLean]
    })
    const require = createRequire(import.meta.url)
    lean = require(outfile) as DockerConstructor
    stock = require("dockerode") as DockerConstructor
  })
  afterAll(async () => {
    await new Promise<void>((resolve) => daemon.close(() => resolve()))
    rmSync(dir, { recursive: true, force: true })
  })

  /** `util.inspect` calls while `docker` pings the daemon (the modem calls it through `util`). */
  const inspections = async (Docker: DockerConstructor) => {
    const original = util.inspect
    let calls = 0
    util.inspect = Object.assign((...args: Parameters<typeof util.inspect>) => {
      calls++
      return original(...args)
    }, original)
    try {
      expect(String(await new Docker({ socketPath: socket }).ping())).toBe("OK")
    } finally {
      util.inspect = original
    }
    return calls
  }

  it("calls the daemon without describing the request, where the stock modem inspects it", async () => {
    expect(await inspections(lean)).toBe(0)
    expect(await inspections(stock)).toBeGreaterThan(0)
  })

  it("refuses to rewrite a docker-modem whose source is not the one it knows", () => {
    expect(() => leanModemSource("module.exports = {}")).toThrow(/not the text this plugin rewrites/)
  })
})
