/**
 * `workbay ssh --stdio`, `workbay ssh` and `workbay port-forward` through the service's stream
 * routes (docs/agents.md, "Into the workspace: terminals, tunnels and SSH"), with a real server,
 * a real agent process and OpenSSH's client.
 *
 * TODO(lead): the routes `GET /workspaceagents/{id}/ssh` and `/tunnel` are built on another
 * branch. Until a probe of the tunnel route answers 101, these tests are skipped (saying so);
 * they run as they are once it does.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { createConnection, createServer, type Server } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import WebSocket from "ws"
import { firstOwnerSession } from "../../server/test/owner.js"
import { type ServerProcess, startServerProcess } from "../../server/test/process.js"
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
/** Why the stream tests are skipped (the routes do not answer yet), or undefined when they run. */
let notReady: string | undefined

const hasSsh = spawnSync("sh", ["-c", "command -v ssh"]).status === 0

/** Opens the tunnel route once: whether it upgrades (101), else its status and message. */
const probe = (url: string, token: string, port: number) =>
  new Promise<string | undefined>((resolve) => {
    const ws = new WebSocket(`${url.replace(/^http/, "ws")}/api/v2/workspaceagents/${agentId}/tunnel?port=${port}`, {
      headers: { authorization: `Bearer ${token}` }
    })
    ws.once("open", () => {
      ws.close(1000)
      resolve(undefined)
    })
    ws.once("unexpected-response", (_req, res) => {
      let text = ""
      res.on("data", (d: Buffer) => (text += d.toString()))
      res.on("end", () => resolve(`${res.statusCode}: ${text.slice(0, 200)}`))
    })
    ws.once("error", (e) => resolve(e.message))
  })

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
  const refused = await probe(server.url, token, echoPort)
  notReady = refused === undefined ? undefined : `the tunnel route does not upgrade yet (${refused})`
  if (notReady !== undefined) console.warn(`SKIPPED: workbay ssh/port-forward tests: ${notReady}`)
}, 60_000)

afterAll(async () => {
  agent?.kill("SIGTERM")
  echo?.close()
  await server?.stop()
})

describe("workbay port-forward and ssh", () => {
  it("port-forward pipes a connection both ways (1 MiB, in frames of at most 16 KiB), until Ctrl-C", async (ctx) => {
    if (notReady !== undefined) return ctx.skip()
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

  it.skipIf(!hasSsh)("OpenSSH reaches the workspace with `workbay ssh --stdio %h` as its ProxyCommand", async (ctx) => {
    if (notReady !== undefined) return ctx.skip()
    const sshConfig = join(user.home, ".ssh", "config")
    const configured = await user.run(["config-ssh", "--ssh-config-file", sshConfig, "--yes"])
    expect(configured.code).toBe(0)
    const r = spawnSync("ssh", ["-F", sshConfig, "workbay.box", "echo", "hello from the workspace"], {
      env: user.env,
      encoding: "utf8",
      timeout: 20_000
    })
    expect(r.stderr).toBe("")
    expect(r.stdout).toBe("hello from the workspace\n")
    expect(r.status).toBe(0)
  })

  it.skipIf(!hasSsh)(
    "workbay ssh <workspace> <command> runs it through the system's ssh, with its exit code",
    async (ctx) => {
      if (notReady !== undefined) return ctx.skip()
      // As with OpenSSH, the words are joined into one command the agent runs in `sh -c`.
      const r = await user.run(["ssh", "box", "echo out; exit 3"])
      expect(r.stdout).toBe("out\n")
      expect(r.code).toBe(3)
    }
  )
})
