/**
 * Streams through the whole agent: `stream_open` on its connection, the stream's socket opened
 * back with its token, a terminal (a real pty) and SSH (the real OpenSSH client) served, the
 * connection reports posted and the sessions counted in `update_stats`. Run for the library
 * (`startAgent`), the agent's executable for this machine (node-pty's pty.node from the
 * executable's assets, ssh2 without its native parts) and, under qemu, the arm64 executable.
 * The service's side is a stand-in (test/standIn.ts) speaking docs/agents.md's protocol.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync } from "node:fs"
import { type AddressInfo, createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, inject, it } from "vitest"
import type { AgentBinariesManifest } from "../../../scripts/agent-binaries.mjs"
import { emulatorFor } from "../../../scripts/agent-binaries.mjs"
import { startAgent } from "../src/Agent.js"
import { type StandIn, startStandIn } from "./standIn.js"
import { record } from "./streams.js"
import { eventually } from "./support.js"

const TOKEN = "stand-in-agent-token"
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

type Start = (url: string, directory: string) => Promise<{ stop: () => Promise<void> }>

const library: Start = async (url, directory) => {
  const agent = await startAgent({ url, token: TOKEN, auth: "token", directory, logDir: directory, log: () => {} })
  return { stop: () => agent.stop() }
}
const processOf = (command: Array<string>): Start => async (url, directory) => {
  const [file, ...args] = command
  const child: ChildProcess = spawn(file!, [...args, "--url", url, "--log-dir", directory], {
    env: { ...process.env, WORKBAY_AGENT_TOKEN: TOKEN },
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
  let service: StandIn
  let agent: { stop: () => Promise<void> } | undefined
  const directory = mkdtempSync(join(tmpdir(), "workbay-agent-whole-"))
  afterAll(async () => {
    await agent?.stop()
    await service?.close()
  })

  it("serves a terminal on a real pty, reports it and counts it", async () => {
    service = await startStandIn({ token: TOKEN, directory, env: { FROM_MANIFEST: "manifest-value" } })
    agent = await start!(service.url, directory)
    const ws = await service.open({ kind: "pty", reconnect: crypto.randomUUID(), width: 100, height: 30 })
    const out = record(ws)
    ws.send(JSON.stringify({ data: "tty; stty size; echo \"$FROM_MANIFEST-$((6 * 7))\"; pwd\r" }))
    await out.output(/\/dev\/pts\/\d+/)
    await out.output(/30 100/)
    await out.output(/manifest-value-42/)
    await out.output(new RegExp(directory.replace(/[/.]/g, "\\$&")))
    await eventually(
      async () => service.stats.at(-1),
      (s) => s?.session_count_reconnecting_pty === 1,
      "the stats",
      30_000
    )
    ws.send(JSON.stringify({ data: "exit 9\r" }))
    expect(await out.close()).toMatchObject({ code: 1000 })
    const mine = await eventually(
      async () => service.reports.filter((r) => r.id === ws.streamId),
      (rs) => rs.length === 2,
      "the connection reports"
    )
    expect(mine).toMatchObject([
      { action: "connect", type: "reconnecting_pty", ip: "192.0.2.10" },
      { action: "disconnect", type: "reconnecting_pty", status_code: 9 }
    ])
  }, 90_000)

  it.runIf(ssh && hasSsh)("serves SSH to the OpenSSH client", async () => {
    // One TCP connection carried into one `ssh` stream, as the service carries a client's socket.
    const listener = createServer(async (tcp) => {
      tcp.pause()
      const ws = await service.open({ kind: "ssh" })
      tcp.on("data", (d: Buffer) => {
        for (let i = 0; i < d.length; i += 16 * 1024) ws.send(d.subarray(i, i + 16 * 1024))
      })
      ws.on("message", (d: Buffer) => tcp.write(d))
      tcp.on("close", () => ws.close())
      ws.on("close", () => tcp.end())
      tcp.resume()
    })
    await new Promise<void>((r) => listener.listen(0, "127.0.0.1", () => r()))
    const port = (listener.address() as AddressInfo).port
    const result = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn("ssh", [
        "-F",
        "/dev/null",
        "-p",
        String(port),
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        "UserKnownHostsFile=/dev/null",
        "-o",
        "BatchMode=yes",
        "-o",
        "LogLevel=ERROR",
        "alice@127.0.0.1",
        "echo \"ssh-$FROM_MANIFEST\"; exit 6"
      ], { stdio: ["ignore", "pipe", "pipe"] })
      let stdout = ""
      let stderr = ""
      child.stdout.on("data", (d) => (stdout += d))
      child.stderr.on("data", (d) => (stderr += d))
      child.on("close", (status) => resolve({ status, stdout, stderr }))
    })
    listener.close()
    expect(result.stdout, result.stderr).toBe("ssh-manifest-value\n")
    expect(result.status).toBe(6)
    await eventually(
      async () => service.reports.filter((r) => r.type === "ssh"),
      (rs) => rs.some((r) => r.action === "disconnect" && r.status_code === 6),
      "the ssh reports"
    )
  }, 90_000)
})
