/** Agent test support: the agent command (its source, bundled), and polling until a read satisfies a check. */
import { spawn } from "node:child_process"
import { type AddressInfo, createServer } from "node:net"
import { inject } from "vitest"
import WebSocket from "ws"
import type { Client, ServiceTestServer } from "../../http/test/support.js"
import { makeTemplate, makeWorkspace } from "../../http/test/workspaces/fixtures.js"

/** Runs the agent's src/bin.ts, bundled once per change (packages/server/test/bundles.ts), as the bundle's bin would. */
export const AGENT_COMMAND = `${process.execPath} ${inject("workbayAgentBundle")}`

/** Reads until `done` holds (every `every` ms, default 100), or fails after `ms` naming `what` and the last value read. */
export const eventually = async <A>(
  read: () => Promise<A>,
  done: (a: A) => boolean,
  what: string,
  ms = 30_000,
  every = 100
): Promise<A> => {
  const until = Date.now() + ms
  let last: A = await read()
  while (!done(last)) {
    if (Date.now() > until) throw new Error(`${what}: still ${JSON.stringify(last)?.slice(0, 2000)}`)
    await new Promise((r) => setTimeout(r, every))
    last = await read()
  }
  return last
}

/**
 * A workspace whose one agent, `main` (of `architecture`), is external and runs `script` at start:
 * its agent's id and the token its credentials route hands out, for an agent started by hand.
 */
export const externalAgentWorkspace = async (
  srv: ServiceTestServer,
  owner: Client,
  orgId: string,
  { architecture = "amd64", script, metadata = [], troubleshootingUrl }: {
    readonly architecture?: string
    readonly script: string
    /** The agent's `troubleshooting_url`. */
    readonly troubleshootingUrl?: string
    /** The agent's metadata items (`key`, `display_name`, `script`, `interval` in seconds). */
    readonly metadata?: ReadonlyArray<{ key: string; display_name: string; script: string; interval: number }>
  }
) => {
  const t = await makeTemplate(
    srv,
    owner,
    orgId,
    `resources:
  - name: box
    type: machine
    agents:
      - name: main
        architecture: ${architecture}
        external: true${
      troubleshootingUrl === undefined ? "" : `
        troubleshooting_url: ${JSON.stringify(troubleshootingUrl)}`
    }
        scripts:
          - display_name: Hello
            script: ${JSON.stringify(script)}
            run_on_start: true
${
      metadata.length === 0 ? "" : `        metadata:
${metadata.map((m) => `          - ${JSON.stringify(m)}\n`).join("")}`
    }`
  )
  const w = await makeWorkspace(srv, owner, orgId, t.id)
  const agentId: string = (w.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])
    .find((a: any) => a.name === "main").id
  const credentials = await owner.get(`/workspaces/${w.id}/external-agent/main/credentials`)
  if (credentials.status !== 200) throw new Error(`credentials: ${JSON.stringify(credentials.body)}`)
  return { agentId, token: credentials.body.agent_token as string }
}

/**
 * Runs `command` with the real OpenSSH client in the workspace of agent `agentId` through the
 * service's `ssh` route (`wsUrl` the service's ws:// root, `token` a user's session): each TCP
 * connection of a local listener is carried into one `ssh` stream, as `workbay ssh --stdio`
 * carries its standard input and output. Answers ssh's exit status and output.
 */
export const sshThroughRoute = async (
  wsUrl: string,
  agentId: string,
  token: string,
  command: string
): Promise<{ status: number | null; stdout: string; stderr: string }> => {
  const listener = createServer((tcp) => {
    tcp.pause()
    const ws = new WebSocket(`${wsUrl}/api/v2/workspaceagents/${agentId}/ssh`, {
      headers: { "Service-Session-Token": token }
    })
    ws.on("open", () => {
      tcp.on("data", (d: Buffer) => {
        for (let i = 0; i < d.length; i += 16 * 1024) ws.send(d.subarray(i, i + 16 * 1024))
      })
      tcp.resume()
    })
    ws.on("message", (d: Buffer) => tcp.write(d))
    tcp.on("close", () => ws.close())
    ws.on("close", () => tcp.end())
    ws.on("error", () => tcp.destroy())
  })
  await new Promise<void>((r) => listener.listen(0, "127.0.0.1", () => r()))
  try {
    const port = (listener.address() as AddressInfo).port
    const options = ["StrictHostKeyChecking=no", "UserKnownHostsFile=/dev/null", "BatchMode=yes", "LogLevel=ERROR"]
    // Not spawnSync: the listener above runs in this process's event loop.
    return await new Promise((resolve) => {
      const child = spawn("ssh", [
        "-F",
        "/dev/null",
        "-p",
        String(port),
        ...options.flatMap((o) => ["-o", o]),
        "workbay@127.0.0.1",
        command
      ], { stdio: ["ignore", "pipe", "pipe"] })
      let stdout = ""
      let stderr = ""
      child.stdout.on("data", (d) => (stdout += d))
      child.stderr.on("data", (d) => (stderr += d))
      child.on("close", (status) => resolve({ status, stdout, stderr }))
    })
  } finally {
    listener.close()
  }
}
