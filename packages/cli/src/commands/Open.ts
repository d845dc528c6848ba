/**
 * `open vscode <workspace> [dir]`: VS Code Desktop on the workspace through its Remote-SSH
 * extension, with the host `config-ssh` writes (`workbay.<workspace>[.<agent>]`): the link
 * `vscode://vscode-remote/ssh-remote+<host><dir>`, printed, and opened with the desktop's opener
 * (`xdg-open`, macOS's `open`) unless `--no-open`. The described system's `coder open vscode`
 * opens its own extension's link with a session token in it; this link never holds one: the
 * editor's SSH goes through `workbay ssh --stdio`, which uses the stored login.
 */
import { spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { homedir } from "node:os"
import { join, posix, resolve } from "node:path"
import type { Context } from "../Context.js"
import { CliError } from "../Errors.js"
import { HOST_PREFIX, parseHost } from "../Host.js"
import { agentOf, agentsOf, workspaceOf } from "../Lookup.js"
import { configSsh, hostsInBlock } from "./ConfigSsh.js"

export interface OpenVscodeFlags {
  readonly sshConfigFile?: string
  readonly open?: boolean
  readonly yes?: boolean
}

/** The Remote-SSH link of `host` at `dir` (absolute), no more. */
export const vscodeLink = (host: string, dir: string | undefined) =>
  `vscode://vscode-remote/ssh-remote+${encodeURIComponent(host)}${dir === undefined ? "" : encodeURI(dir)}`

/** The desktop's opener of links on this system, when it has one. */
const opener = () => (process.platform === "darwin" ? "open" : process.platform === "win32" ? undefined : "xdg-open")

export const openVscode = async (ctx: Context, ident: string, dir: string | undefined, flags: OpenVscodeFlags) => {
  const client = ctx.client()
  const { workspace: name, agent: agentName } = parseHost(ident)
  const w = await workspaceOf(client, name)
  const me = await client.rest.GET("/api/v2/users/{user}", { params: { path: { user: "me" } } })
  if (me.data !== undefined && me.data.id !== w.owner_id) {
    throw new CliError(
      `${w.owner_name}/${w.name} is not yours: open vscode reaches your own workspaces (the hosts config-ssh writes).`
    )
  }
  const agent = agentOf(w, agentName)
  const host = `${HOST_PREFIX}${w.name}${agentsOf(w).length > 1 ? `.${agent.name}` : ""}`
  const base = agent.expanded_directory || agent.directory || undefined
  const folder = dir === undefined
    ? base
    : posix.isAbsolute(dir)
    ? posix.normalize(dir)
    : base === undefined
    ? undefined
    : posix.join(base, dir)
  if (dir !== undefined && folder === undefined) {
    throw new CliError(`"${dir}" is relative and the agent has no directory: give an absolute path.`, 2)
  }

  const file = resolve(flags.sshConfigFile ?? join(homedir(), ".ssh", "config"))
  if (!hostsInBlock(existsSync(file) ? readFileSync(file, "utf8") : "").has(host)) {
    process.stderr.write(`${file} has no host ${host} yet: adding your workspaces' hosts (workbay config-ssh).\n`)
    const sshConfigFile = flags.sshConfigFile === undefined ? {} : { sshConfigFile: file }
    await configSsh(ctx, { ...sshConfigFile, yes: flags.yes === true }, process.stderr)
  }
  const link = vscodeLink(host, folder)
  process.stdout.write(`${link}\n`)
  const command = flags.open === false ? undefined : opener()
  if (command === undefined) return
  await new Promise<void>((done) => {
    const child = spawn(command, [link], { stdio: "ignore", detached: true })
    child.on("error", () => {
      process.stderr.write(`Could not run ${command}: open the link above yourself.\n`)
      done()
    })
    child.on("spawn", () => {
      child.unref()
      done()
    })
  })
}
