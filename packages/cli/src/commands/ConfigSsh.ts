/**
 * `config-ssh`, as the described system's cli/configssh.go: a marked block of `Host
 * workbay.<workspace>` entries in the OpenSSH client configuration, each with this command as
 * its ProxyCommand (`ssh --stdio %h`), so `ssh workbay.<workspace>` (and scp, sftp, rsync, an
 * editor's remote SSH) reaches the workspace. The rest of the file is kept as it is; a second run
 * with the same workspaces changes nothing; `--remove` takes the block out.
 */
import { type Schemas, unwrap } from "@workbay/client"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { homedir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { defaultConfigDir } from "../Config.js"
import type { Context } from "../Context.js"
import { CliError } from "../Errors.js"
import { HOST_PREFIX } from "../Host.js"
import { agentsOf } from "../Lookup.js"
import { confirm } from "../Prompt.js"
import { selfCommand, shellQuote } from "./Ssh.js"

export const START_MARKER = "# ------------START-WORKBAY-----------"
export const END_MARKER = "# ------------END-WORKBAY------------"

const HEADER = [
  "# This section is managed by workbay. DO NOT EDIT.",
  "#",
  "# You should not hand-edit this section unless you are removing it, all",
  "# changes will be lost when running \"workbay config-ssh\".",
  "#"
]

/** The host names of a workspace: `workbay.<name>`, and `workbay.<name>.<agent>` for each agent when it has several. */
export const hostsOf = (workspace: Schemas["Workspace"]): Array<string> => {
  const base = `${HOST_PREFIX}${workspace.name}`
  const agents = agentsOf(workspace).map((a) => a.name).sort()
  return agents.length > 1 ? [base, ...agents.map((a) => `${base}.${a}`)] : [base]
}

/** The block's lines (markers included) for `hosts`, each reached with `proxyCommand`. */
export const blockOf = (hosts: ReadonlyArray<string>, proxyCommand: string): Array<string> => [
  START_MARKER,
  ...HEADER,
  ...hosts.flatMap((host) => [
    `Host ${host}`,
    `\tHostName ${host}`,
    "\tConnectTimeout 0",
    "\tStrictHostKeyChecking no",
    "\tUserKnownHostsFile /dev/null",
    "\tLogLevel ERROR",
    `\tProxyCommand ${proxyCommand}`
  ]),
  END_MARKER
]

/** `content` with its block replaced by `block` (appended when it has none), or taken out (`block` undefined). */
export const withBlock = (content: string, block: ReadonlyArray<string> | undefined): string => {
  const lines = content === "" ? [] : content.replace(/\n$/, "").split("\n")
  const start = lines.indexOf(START_MARKER)
  const end = start < 0 ? -1 : lines.indexOf(END_MARKER, start)
  if (start >= 0 && end < 0) {
    throw new CliError(`The SSH configuration has "${START_MARKER}" without "${END_MARKER}": fix it by hand first.`)
  }
  let out: Array<string>
  if (start >= 0) {
    const before = lines.slice(0, start)
    const after = lines.slice(end + 1)
    if (block === undefined) {
      // The blank line this command put before an appended block goes with it.
      if (after.length === 0 && before.length > 0 && before[before.length - 1] === "") before.pop()
      out = [...before, ...after]
    } else {
      out = [...before, ...block, ...after]
    }
  } else if (block === undefined) {
    return content
  } else {
    out = lines.length === 0 ? [...block] : [...lines, "", ...block]
  }
  return out.length === 0 ? "" : `${out.join("\n")}\n`
}

/** The `Host` names of the block in `content` (none when it has no whole block). */
export const hostsInBlock = (content: string): Set<string> => {
  const lines = content.split("\n")
  const start = lines.indexOf(START_MARKER)
  const end = start < 0 ? -1 : lines.indexOf(END_MARKER, start)
  if (end < 0) return new Set()
  return new Set(lines.slice(start, end).flatMap((l) => /^Host (\S+)$/.exec(l.trim())?.[1] ?? []))
}

export interface ConfigSshFlags {
  readonly sshConfigFile?: string
  readonly remove?: boolean
  readonly yes?: boolean
  readonly dryRun?: boolean
}

/** `out`: where its messages go (`open vscode` sends them to standard error: its output is a link). */
export const configSsh = async (ctx: Context, flags: ConfigSshFlags, out: NodeJS.WritableStream = process.stdout) => {
  const file = resolve(flags.sshConfigFile ?? join(homedir(), ".ssh", "config"))
  const content = existsSync(file) ? readFileSync(file, "utf8") : ""
  let block: Array<string> | undefined
  let hosts: Array<string> = []
  if (flags.remove !== true) {
    const client = ctx.client()
    const answer = await unwrap(client.rest.GET("/api/v2/workspaces", { params: { query: { q: "owner:me" } } }))
    const workspaces = [...answer.workspaces].sort((a, b) => a.name.localeCompare(b.name))
    hosts = workspaces.flatMap(hostsOf)
    const proxy = [
      ...selfCommand(),
      ...(ctx.configDir === defaultConfigDir() ? [] : ["--global-config", ctx.configDir]),
      "ssh",
      "--stdio"
    ].map(shellQuote).join(" ")
    block = blockOf(hosts, `${proxy} %h`)
  }
  const next = withBlock(content, block)
  if (next === content) {
    out.write(`No changes to ${file}.\n`)
    return
  }
  if (flags.dryRun === true) {
    out.write(`Dry run: ${file} would become:\n\n${next}`)
    return
  }
  const what = block === undefined
    ? `Remove the workbay section from ${file}?`
    : `Update ${file} with ${hosts.length} host${hosts.length === 1 ? "" : "s"} (${hosts.join(", ") || "none"})?`
  if (!(await confirm(what, flags.yes === true))) throw new CliError("Canceled.")
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  writeFileSync(file, next, { mode: 0o600 })
  if (block === undefined) {
    out.write(`Removed the workbay section from ${file}.\n`)
    return
  }
  out.write(`Updated ${file}.\n`)
  if (hosts.length > 0) {
    out.write(
      `You should now be able to ssh into your workspace.\nFor example, try running:\n\n\t$ ssh ${hosts[0]}\n`
    )
  }
}
