/**
 * `workbay ssh --stdio`, `workbay ssh` and `workbay port-forward` through the service's stream
 * routes (docs/agents.md, "Into the workspace: terminals, tunnels and SSH"), with a real server,
 * a real agent process and OpenSSH's client.
 * Through OpenSSH: a command with its exit code, an interactive session under a pty, `scp` of
 * 10 MiB both ways with checksums compared, and `ssh -L`. Without openssh-client the SSH tests
 * print `SKIPPED: ...` and skip (and fail under CI).
 */
import { type ChildProcess, execFile, spawn, spawnSync } from "node:child_process"
import { createHash, randomBytes } from "node:crypto"
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { createServer as createHttpServer } from "node:http"
import { createConnection, createServer, type Server } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { firstOwnerSession } from "../../server/test/owner.js"
import { freePort, type ServerProcess, startServerProcess } from "../../server/test/process.js"
import { api, bundleCli, type CliUser, cliUser, eventually } from "./support.js"

const TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
      - name: main
        external: true
`

let server: ServerProcess
let user: CliUser
let agent: ChildProcess | undefined
let echo: Server
let echoPort: number
let agentId: string
const hasSsh = spawnSync("sh", ["-c", "command -v ssh"]).status === 0

beforeAll(async () => {
  const bundle = await bundleCli()
  server = await startServerProcess(["--data-dir", mkdtempSync(join(tmpdir(), "workbay-cli-ssh-data-"))], {
    DATABASE_URL: ""
  })
  const token = await firstOwnerSession(server.url)
  user = cliUser(bundle)
  await user.run(["login", server.url, "--token", token])
  const dir = join(mkdtempSync(join(tmpdir(), "workbay-cli-ssh-tpl-")), "external")
  mkdirSync(dir)
  writeFileSync(join(dir, "template.yaml"), TEMPLATE)
  const pushed = await user.run(["templates", "push", dir])
  if (pushed.code !== 0) throw new Error(pushed.stderr)
  const created = await user.run(["create", "box", "-t", "external"])
  if (created.code !== 0) throw new Error(created.stderr)

  const client = api(server.url, token)
  const ws = (await client.get("/users/me/workspace/box")).body
  agentId = ws.latest_build.resources.flatMap((r: any) => r.agents ?? [])[0].id
  const credentials = await fetch(`${server.url}/api/v2/workspaces/${ws.id}/external-agent/main/credentials`, {
    headers: { authorization: `Bearer ${token}` }
  }).then((r) => r.json() as Promise<{ agent_token: string }>)
  agent = spawn(
    process.execPath,
    [inject("workbayAgentBundle"), "--url", server.url, "--token", credentials.agent_token],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, HOME: user.home } }
  )
  await eventually(
    () => client.get(`/workspaceagents/${agentId}`),
    (r) => r.body?.status === "connected",
    "the agent connects"
  )

  echo = createServer((socket) => socket.pipe(socket))
  await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve))
  echoPort = (echo.address() as { port: number }).port
  if (!hasSsh) {
    console.warn("SKIPPED: the OpenSSH client tests (no ssh: install Debian's openssh-client)")
    if (process.env.CI) throw new Error("openssh-client is required under CI")
  }
})

afterAll(async () => {
  // The agent stops first (its stop reports reach the server), and is gone before the test ends.
  if (agent !== undefined && agent.exitCode === null && agent.signalCode === null) {
    const gone = new Promise((r) => agent!.once("exit", r))
    agent.kill("SIGTERM")
    const late = setTimeout(() => agent?.kill("SIGKILL"), 10_000)
    await gone
    clearTimeout(late)
  }
  echo?.close()
  await server?.stop()
})

describe("workbay port-forward and ssh", () => {
  it("show: the resource, its agent connected and healthy with its version and access, and the ports it listens on", async () => {
    const r = await user.run(["show", "box"])
    if (r.code !== 0) throw new Error(r.stderr)
    const lines = r.stdout.split("\n")
    expect(lines[0]).toMatch(/^\S+\/box: running, template external/)
    expect(r.stdout).toMatch(/^RESOURCE\s+STATUS\s+HEALTH\s+LATENCY\s+VERSION\s+ACCESS$/m)
    expect(r.stdout).toMatch(/^machine\.box$/m)
    expect(r.stdout).toMatch(
      /^└─ main \(linux, \w+\)\s+⦿ connected\s+✔ healthy\s+(\d+\.\d ms\s+)?v?\d\S*\s+workbay ssh box$/m
    )
    // The echo server of this test listens on the agent's machine (this one).
    expect(r.stdout).toMatch(/^ {3}└─ Open Ports$/m)
    expect(r.stdout).toMatch(new RegExp(`^ {6}[├└]─ ${echoPort}/tcp`, "m"))
    const json = JSON.parse((await user.run(["show", "box", "-o", "json"])).stdout)
    expect(json.latest_build.resources[0].agents[0]).toMatchObject({ id: agentId, status: "connected" })
  })

  it("ping times round trips to the workspace's terminal through the service; as JSON too", async () => {
    const r = await user.run(["ping", "box", "-n", "3", "--wait", "50ms"])
    if (r.code !== 0) throw new Error(r.stderr)
    const pongs = r.stdout.split("\n").filter((l) => l.startsWith("pong from"))
    expect(pongs).toHaveLength(3)
    for (const p of pongs) expect(p).toMatch(new RegExp(`^pong from \\S+/box through ${server.url} in \\d+\\.\\dms$`))
    expect(r.stdout).toMatch(/^3 pings, 3 pongs, 0% lost; round trip min\/avg\/max [\d.]+\/[\d.]+\/[\d.]+ ms$/m)
    const json = JSON.parse((await user.run(["ping", "box", "-n", "2", "--wait", "10ms", "-o", "json"])).stdout)
    expect(json).toMatchObject({ agent: "main", sent: 2, received: 2 })
    expect(json.min_ms).toBeGreaterThan(0)
    expect(json.max_ms).toBeGreaterThanOrEqual(json.min_ms)
    expect((await user.run(["ping", "box", "-n", "zero"])).code).toBe(2)
    expect((await user.run(["ping", "nope"])).code).toBe(1)
  })

  it("speedtest reads and writes through an SSH session for its time, per second and in all", async () => {
    for (const direction of ["down", "up"]) {
      const r = await user.run(["speedtest", "box", "-t", "2s", "--direction", direction])
      if (r.code !== 0) throw new Error(r.stderr)
      expect(r.stdout).toContain(`Starting a 2s ${direction === "up" ? "upload" : "download"} test with box...`)
      const rows = r.stdout.split("\n").filter((l) => /^\d+\.\d{2}-\d+\.\d{2} sec/.test(l))
      expect(rows.length).toBeGreaterThanOrEqual(3)
      const all = rows.at(-1)!
      expect(all).toMatch(/^0\.00-2\.\d{2} sec\s+[\d.]+ Mbits\s+[\d.]+ Mbits\/sec$/)
      expect(Number(/([\d.]+) Mbits\/sec$/.exec(all)![1])).toBeGreaterThan(1)
    }
    const json = JSON.parse((await user.run(["speedtest", "box", "-t", "1s", "-o", "json"])).stdout)
    expect(json).toMatchObject({ direction: "down" })
    expect(json.bytes).toBeGreaterThan(0)
    expect((await user.run(["speedtest", "box", "--direction", "sideways"])).code).toBe(2)
  })

  it("port-forward pipes a connection both ways (1 MiB, in frames of at most 16 KiB), until Ctrl-C", async () => {
    const child = user.spawn(["port-forward", "box", "--tcp", `0:${echoPort}`])
    let stderr = ""
    const local = await new Promise<number>((resolve, reject) => {
      child.stderr!.on("data", (d: Buffer) => {
        stderr += d.toString()
        const m = /Forwarding 127\.0\.0\.1:(\d+)/.exec(stderr)
        if (m !== null && stderr.includes("Ready.")) resolve(Number(m[1]))
      })
      child.once("exit", (code) => reject(new Error(`port-forward exited ${code}: ${stderr}`)))
    })
    const payload = randomBytes(1024 * 1024)
    const back = await new Promise<Buffer>((resolve, reject) => {
      const socket = createConnection(local, "127.0.0.1")
      const chunks: Array<Buffer> = []
      let got = 0
      socket.on("data", (d: Buffer) => {
        chunks.push(d)
        got += d.length
        if (got >= payload.length) {
          socket.end()
          resolve(Buffer.concat(chunks))
        }
      })
      socket.on("error", reject)
      socket.write(payload)
    })
    expect(back.equals(payload)).toBe(true)
    const exited = new Promise((resolve) => child.once("exit", resolve))
    child.kill("SIGINT")
    expect(await exited).toBe(0)
  })

  it.skipIf(!hasSsh)("OpenSSH reaches the workspace with `workbay ssh --stdio %h` as its ProxyCommand", async () => {
    const sshConfig = join(user.home, ".ssh", "config")
    const configured = await user.run(["config-ssh", "--ssh-config-file", sshConfig, "--yes"])
    expect(configured.code).toBe(0)
    // Not spawnSync: this worker's event loop stays free while ssh runs (its ProxyCommand is a process too).
    const r = await new Promise<{ status: number | string | undefined; stdout: string; stderr: string }>((resolve) =>
      execFile(
        "ssh",
        ["-F", sshConfig, "workbay.box", "echo", "hello from the workspace"],
        { env: user.env, encoding: "utf8", timeout: 60_000 },
        (error, stdout, stderr) => resolve({ status: error === null ? 0 : error.code ?? -1, stdout, stderr })
      )
    )
    expect(r.stderr).toBe("")
    expect(r.stdout).toBe("hello from the workspace\n")
    expect(r.status).toBe(0)
  })

  it.skipIf(!hasSsh)(
    "workbay ssh <workspace> <command> runs it through the system's ssh, with its exit code",
    async () => {
      // As with OpenSSH, the words are joined into one command the agent runs in `sh -c`.
      const r = await user.run(["ssh", "box", "echo out; exit 3"])
      expect(r.stdout).toBe("out\n")
      expect(r.code).toBe(3)
    }
  )

  /** The ssh_config that `workbay config-ssh` writes (once), for OpenSSH's `-F`. */
  let configured: string | undefined
  const sshConfig = async () => {
    if (configured !== undefined) return configured
    const file = join(user.home, ".ssh", "config")
    const r = await user.run(["config-ssh", "--ssh-config-file", file, "--yes"])
    expect(r.code).toBe(0)
    configured = file
    return file
  }
  const run = (command: string, args: ReadonlyArray<string>, input?: string) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(command, args, { env: user.env, stdio: ["pipe", "pipe", "pipe"] })
      let stdout = ""
      let stderr = ""
      child.stdout.on("data", (d) => (stdout += d))
      child.stderr.on("data", (d) => (stderr += d))
      child.on("close", (status) => resolve({ status, stdout, stderr }))
      child.stdin.end(input ?? "")
    })
  const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex")

  it.skipIf(!hasSsh)("an interactive session under a pty (ssh -tt), with the shell's exit code", async () => {
    const r = await run("ssh", ["-F", await sshConfig(), "-tt", "workbay.box"], "tty; stty size; exit 4\n")
    expect(r.stdout).toMatch(/\/dev\/pts\/\d+/)
    expect(r.stdout).toMatch(/\d+ \d+/)
    expect(r.status).toBe(4)
  })

  it.skipIf(!hasSsh)("scp copies 10 MiB there and back, byte for byte", async () => {
    const dir = mkdtempSync(join(tmpdir(), "workbay-cli-scp-"))
    const local = join(dir, "local.bin")
    writeFileSync(local, randomBytes(10 * 1024 * 1024))
    const config = await sshConfig()
    const up = await run("scp", ["-F", config, "-q", local, `workbay.box:${join(dir, "remote.bin")}`])
    expect(up.status, up.stderr).toBe(0)
    const down = await run("scp", ["-F", config, "-q", `workbay.box:${join(dir, "remote.bin")}`, join(dir, "back.bin")])
    expect(down.status, down.stderr).toBe(0)
    expect(sha256(join(dir, "remote.bin"))).toBe(sha256(local))
    expect(sha256(join(dir, "back.bin"))).toBe(sha256(local))
  })

  it.skipIf(!hasSsh)("ssh -L forwards a local port to a server the workspace reaches", async () => {
    const web = createHttpServer((_req, res) => res.end("served inside the workspace"))
    await new Promise<void>((r) => web.listen(0, "127.0.0.1", () => r()))
    const webPort = (web.address() as { port: number }).port
    const localPort = await freePort()
    const tunnel = spawn("ssh", [
      "-F",
      await sshConfig(),
      "-N",
      "-L",
      `${localPort}:127.0.0.1:${webPort}`,
      "workbay.box"
    ], {
      env: user.env,
      stdio: "ignore"
    })
    try {
      const body = await eventually(
        () => fetch(`http://127.0.0.1:${localPort}/`).then((r) => r.text(), () => ""),
        (text) => text !== "",
        "the forwarded port answers"
      )
      expect(body).toBe("served inside the workspace")
    } finally {
      tunnel.kill("SIGTERM")
      web.close()
    }
  })
})
