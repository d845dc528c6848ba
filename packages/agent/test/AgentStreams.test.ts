/**
 * Streams through the whole agent: `stream_open` on its connection, the stream's socket opened
 * back with its token, a terminal (a real pty) and SSH (the real OpenSSH client) served, the
 * connection reports posted (the service's connection log shows them). Run for the library
 * (`startAgent`), the agent's executable for this machine (node-pty's pty.node from the
 * executable's assets, ssh2 without its native parts) and, under qemu, the arm64 executable,
 * each as the external agent of a workspace on a real service (real HTTP, the real stream routes).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import WebSocket from "ws"
import type { AgentBinariesManifest } from "../../../scripts/executables.mjs"
import { emulatorFor } from "../../../scripts/executables.mjs"
import { type Client, type ServiceTestServer, startWithOwner } from "../../http/test/support.js"
import { startAgent } from "../src/Agent.js"
import { record } from "./streams.js"
import { eventually, externalAgentWorkspace, sshThroughRoute } from "./support.js"
const dir = inject("workbayAgentBinaries") as string | undefined
const manifest = ((): AgentBinariesManifest | undefined => {
  try {
    return JSON.parse(readFileSync(join(dir ?? "", "manifest.json"), "utf8"))
  } catch {
    return undefined
  }
})()
const executable = (arch: string) => {
  const b = manifest?.binaries.find((b) => b.os === "linux" && b.arch === arch)
  return b === undefined || !existsSync(join(dir!, b.file)) ? undefined : join(dir!, b.file)
}
const hasSsh = spawnSync("sh", ["-c", "command -v ssh"]).status === 0

type Start = (url: string, token: string, directory: string) => Promise<{ stop: () => Promise<void> }>

const library: Start = async (url, token, directory) => {
  const agent = await startAgent({ url, token, auth: "token", directory, logDir: directory, log: () => {} })
  return { stop: () => agent.stop() }
}
const processOf = (command: Array<string>): Start => async (url, token, directory) => {
  const [file, ...args] = command
  const child: ChildProcess = spawn(file!, [...args, "--url", url, "--log-dir", directory], {
    env: { ...process.env, WORKBAY_AGENT_TOKEN: token },
    stdio: ["ignore", "ignore", "inherit"]
  })
  return {
    stop: async () => {
      child.kill("SIGTERM")
      if (child.exitCode === null) await new Promise((r) => child.on("exit", r))
    }
  }
}

const amd64 = process.arch === "x64" ? executable("amd64") : undefined
const arm64 = executable("arm64")
const emulator = emulatorFor("arm64")
const cases: Array<[string, Start | undefined, { ssh: boolean }]> = [
  ["the library", library, { ssh: true }],
  ["the executable (linux-amd64)", amd64 === undefined ? undefined : processOf([amd64]), { ssh: true }],
  [
    "the linux-arm64 executable under qemu",
    arm64 === undefined || emulator === undefined || process.arch !== "x64"
      ? undefined
      : processOf([...emulator, arm64]),
    { ssh: false }
  ]
]
for (const [name, start] of cases) {
  if (start === undefined) console.warn(`\nSKIPPED: streams through ${name} — not built here (or no qemu)\n`)
}

describe.each(cases.filter(([, start]) => start !== undefined))("streams through %s", (_name, start, { ssh }) => {
  let srv: ServiceTestServer
  let owner: Client
  let agentId: string
  let agent: { stop: () => Promise<void> } | undefined
  const directory = mkdtempSync(join(tmpdir(), "workbay-agent-whole-"))
  const wsUrl = (path: string) => `${srv.wsUrl}/api/v2${path}`
  const headers = () => ({ "Service-Session-Token": owner.token! })

  beforeAll(async () => {
    let orgId: string
    ;({ srv, owner, orgId } = await startWithOwner({ lifecycle: false }))
    const made = await externalAgentWorkspace(srv, owner, orgId, { script: "true" })
    agentId = made.agentId
    agent = await start!(srv.url, made.token, directory)
    await eventually(
      () => owner.get(`/workspaceagents/${agentId}`),
      (r) => r.body.status === "connected" && r.body.lifecycle_state === "ready",
      "the agent is ready",
      60_000
    )
  })
  afterAll(async () => {
    await agent?.stop()
    await srv?.close()
    rmSync(directory, { recursive: true, force: true })
  })

  /** The connection log's entries of `type` for the agent. */
  const logged = (type: string) =>
    owner.get(`/connectionlog?limit=50&q=${encodeURIComponent(`type:${type}`)}`).then((r) =>
      (r.body.connection_logs ?? []) as Array<any>
    )

  it("serves a terminal on a real pty, and reports it", async () => {
    const ws = new WebSocket(
      wsUrl(`/workspaceagents/${agentId}/pty?reconnect=${crypto.randomUUID()}&width=100&height=30`),
      {
        headers: headers()
      }
    )
    const out = record(ws)
    await new Promise((r) => ws.once("open", r))
    ws.send(JSON.stringify({ data: "tty; stty size; echo \"$((6 * 7))\"; pwd\r" }))
    await out.output(/\/dev\/pts\/\d+/)
    await out.output(/30 100/)
    await out.output(/\b42\b/)
    ws.send(JSON.stringify({ data: "exit 9\r" }))
    expect(await out.close()).toMatchObject({ code: 1000 })
    const entries = await eventually(
      () => logged("reconnecting_pty"),
      (rs) => rs.some((r) => r.ssh_info?.exit_code === 9),
      "the connection log"
    )
    expect(entries[0]).toMatchObject({ type: "reconnecting_pty", ip: "127.0.0.1", agent_name: "main" })
  })

  it("resizes, and a re-attach with the same id gets the same shell with its recent output first", async () => {
    const reconnect = crypto.randomUUID()
    const attach = () => {
      const ws = new WebSocket(wsUrl(`/workspaceagents/${agentId}/pty?reconnect=${reconnect}&width=80&height=24`), {
        headers: headers()
      })
      return { ws, out: record(ws), opened: new Promise((r) => ws.once("open", r)) }
    }
    const first = attach()
    await first.opened
    first.ws.send(JSON.stringify({ height: 40, width: 123 }))
    first.ws.send(JSON.stringify({ data: "stty size; echo \"pid-$$-$((2 + 3))\"\r" }))
    await first.out.output(/40 123/)
    const pid = (await first.out.output(/pid-(\d+)-5/))[1]
    first.ws.close(1000)
    await first.out.close()
    const again = attach()
    await again.opened
    // The replay comes first: what the shell printed before, without typing anything.
    await again.out.output(new RegExp(`pid-${pid}-5`))
    again.ws.send(JSON.stringify({ data: "echo \"again-$$\"\r" }))
    await again.out.output(new RegExp(`again-${pid}`))
    again.ws.send(JSON.stringify({ data: "exit\r" }))
    expect(await again.out.close()).toMatchObject({ code: 1000 })
  })

  it.runIf(ssh && hasSsh)("serves SSH to the OpenSSH client through the ssh route", async () => {
    const result = await sshThroughRoute(srv.wsUrl, agentId, owner.token!, "echo \"ssh-$((6 * 7))\"; exit 6")
    expect(result.stdout, result.stderr).toBe("ssh-42\n")
    expect(result.status).toBe(6)
    await eventually(
      () => logged("ssh"),
      (rs) => rs.some((r) => r.ssh_info?.exit_code === 6),
      "the ssh entry of the connection log"
    )
  })
})
