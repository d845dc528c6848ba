/**
 * `ssh` and `port-forward`, through the service's stream routes (docs/agents.md, "Into the
 * workspace: terminals, tunnels and SSH"):
 *
 * - `workbay ssh --stdio <host>` joins standard input and output to `GET
 *   /workspaceagents/{agent}/ssh`, an SSH connection to the agent's own SSH server, so that
 *   OpenSSH uses it as its `ProxyCommand` (what `config-ssh` writes).
 * - `workbay ssh <workspace> [command...]` runs the system's `ssh` with this command as its
 *   ProxyCommand: a real SSH client does the terminal, the keys, `-L` and the rest.
 * - `workbay port-forward <workspace> --tcp <local>:<remote>` listens on 127.0.0.1:<local>
 *   and opens `GET /workspaceagents/{agent}/tunnel?port=<remote>` for each connection.
 */
import { unwrap } from "@workbay/client"
import { spawn } from "node:child_process"
import { realpathSync } from "node:fs"
import { createServer, type Server, type Socket } from "node:net"
import type { Client } from "../Client.js"
import type { Context } from "../Context.js"
import { CliError, usageError } from "../Errors.js"
import { parseHost } from "../Host.js"
import { agentOf, workspaceOf } from "../Lookup.js"
import { joinSocket } from "../Pipe.js"

/** How long a command waits for a workspace's agent to connect, at most. */
export const AGENT_WAIT_MS = 5 * 60 * 1000

/**
 * The workspace and agent a host name names: the workspace (refused when not started) and its
 * agent, once connected. A started workspace's agent that is still connecting (or reconnecting)
 * is waited for, as the described system's `ssh` does, saying so once on standard error; an agent
 * that timed out is refused with its troubleshooting hint.
 */
export const resolveAgent = async (client: Client, host: string) => {
  const { agent, workspace } = parseHost(host)
  const w = await workspaceOf(client, workspace)
  let found = agentOf(w, agent)
  const until = Date.now() + AGENT_WAIT_MS
  let said = false
  while (found.status !== "connected") {
    if (found.status === "timeout" || Date.now() > until) {
      throw new CliError(
        `The workspace agent "${found.name}" of ${w.owner_name}/${w.name} did not connect.`,
        1,
        found.troubleshooting_url
          ? `See ${found.troubleshooting_url}`
          : "Look at the workspace's build logs and its machine's log."
      )
    }
    if (!said) {
      process.stderr.write(`==> Waiting for the workspace agent "${found.name}" to connect...\n`)
      said = true
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
    found = await unwrap(
      client.rest.GET("/api/v2/workspaceagents/{workspaceagent}", { params: { path: { workspaceagent: found.id } } })
    )
  }
  return { workspace: w, agent: found }
}

/** This command as a shell word list: Node, then the script it runs (absolute, links resolved). */
export const selfCommand = (): Array<string> => {
  const script = process.argv[1]
  if (script === undefined) throw new CliError("Cannot tell the path of this command.")
  let path = script
  try {
    path = realpathSync(script)
  } catch {
    // as given
  }
  return [process.execPath, path]
}

/** `word` quoted for the shell OpenSSH runs a ProxyCommand in, when it needs it. */
export const shellQuote = (word: string): string =>
  /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'"'"'`)}'`

const closedError = (code: number, reason: string) =>
  new CliError(`The connection to the workspace closed (${code}${reason === "" ? "" : `: ${reason}`}).`)

/** `ssh --stdio <host>`: the agent's SSH server on standard input and output, until the service closes it. */
export const sshStdio = async (ctx: Context, host: string) => {
  const client = ctx.client()
  const { agent } = await resolveAgent(client, host)
  const ws = await client.socket(`/workspaceagents/${agent.id}/ssh`)
  const closed = await joinSocket(ws, process.stdin, process.stdout)
  if (closed.code !== 1000 && closed.code !== 1005) throw closedError(closed.code, closed.reason)
}

export interface SshFlags {
  readonly stdio?: boolean
  readonly identityAgent?: string
}

/** `ssh <workspace> [command...]`: the system's ssh through `ssh --stdio`; its exit code. */
export const ssh = async (ctx: Context, host: string, command: ReadonlyArray<string>): Promise<number> => {
  const client = ctx.client()
  // Resolved first, so a stopped or unknown workspace is told here, not as a failed ProxyCommand.
  const { agent, workspace } = await resolveAgent(client, host)
  const target = `${workspace.owner_name}/${workspace.name}.${agent.name}`
  const proxy = [
    ...selfCommand(),
    ...(ctx.configDirFlag === undefined ? [] : ["--global-config", ctx.configDirFlag]),
    "ssh",
    "--stdio",
    target
  ].map(shellQuote).join(" ")
  const args = [
    "-o",
    `ProxyCommand=${proxy}`,
    "-o",
    "StrictHostKeyChecking=no",
    "-o",
    "UserKnownHostsFile=/dev/null",
    "-o",
    "LogLevel=error",
    ...(command.length === 0 && process.stdin.isTTY === true ? ["-t"] : []),
    `workbay.${workspace.name}`,
    ...command
  ]
  // The child reads the URL and token as this process found them (flags included).
  const env = { ...process.env }
  if (ctx.url !== undefined) env.WORKBAY_URL = ctx.url
  if (ctx.token !== undefined) env.WORKBAY_SESSION_TOKEN = ctx.token
  return new Promise((resolve, reject) => {
    const child = spawn("ssh", args, { stdio: "inherit", env })
    child.on(
      "error",
      (e) =>
        reject(
          new CliError(`Could not run ssh: ${e.message}`, 1, "Install an OpenSSH client, or use: workbay ssh --stdio")
        )
    )
    child.on("exit", (code, signal) => resolve(code ?? (signal === null ? 1 : 128)))
  })
}

/** `<local>:<remote>` or `<port>` (the same on both sides). */
export const parsePortSpec = (spec: string): { readonly local: number; readonly remote: number } => {
  const m = /^(?:(\d+):)?(\d+)$/.exec(spec.trim())
  const port = (s: string, min = 1) => {
    const n = Number(s)
    if (!Number.isInteger(n) || n < min || n > 65535) {
      throw usageError(`"${s}" is not a port (1-65535) in --tcp ${spec}.`)
    }
    return n
  }
  if (m === null) throw usageError(`--tcp takes <local port>:<remote port>, not "${spec}".`)
  const remote = port(m[2]!)
  // A local port 0 listens on any free port (printed when listening).
  return { local: m[1] === undefined ? remote : port(m[1], 0), remote }
}

/** Serves one accepted connection: a tunnel to `remote` in the workspace. */
const forward = async (client: Client, agentId: string, remote: number, socket: Socket) => {
  socket.pause()
  try {
    const ws = await client.socket(`/workspaceagents/${agentId}/tunnel`, { port: remote })
    socket.on("close", () => ws.close(1000))
    socket.on("error", () => ws.close(1000))
    const closed = await joinSocket(ws, socket, socket)
    socket.end()
    if (closed.code !== 1000 && closed.code !== 1005) {
      process.stderr.write(`port-forward: tunnel to port ${remote} closed (${closed.code}: ${closed.reason})\n`)
    }
  } catch (e) {
    process.stderr.write(`port-forward: tunnel to port ${remote}: ${e instanceof Error ? e.message : e}\n`)
    socket.destroy()
  }
}

export const portForward = async (ctx: Context, ident: string, specs: ReadonlyArray<string>) => {
  if (specs.length === 0) throw usageError("Pass at least one --tcp <local>:<remote>.")
  const ports = specs.map(parsePortSpec)
  const client = ctx.client()
  const { agent, workspace } = await resolveAgent(client, ident)
  const servers: Array<Server> = []
  for (const { local, remote } of ports) {
    const server = createServer({ allowHalfOpen: true }, (socket) => void forward(client, agent.id, remote, socket))
    await new Promise<void>((resolve, reject) => {
      server.once("error", (e) => reject(new CliError(`Cannot listen on 127.0.0.1:${local}: ${e.message}`)))
      server.listen(local, "127.0.0.1", () => resolve())
    })
    servers.push(server)
    const address = server.address() as { port: number }
    process.stderr.write(
      `Forwarding 127.0.0.1:${address.port} to port ${remote} in ${workspace.owner_name}/${workspace.name} (agent ${agent.name})\n`
    )
  }
  process.stderr.write("Ready. Press Ctrl-C to stop.\n")
  await new Promise<void>((resolve) => {
    const stop = () => {
      for (const s of servers) s.close()
      resolve()
    }
    process.once("SIGINT", stop)
    process.once("SIGTERM", stop)
  })
}
