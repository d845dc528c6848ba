/**
 * The agent's options, from its command line and environment (the flag wins):
 *
 *   --url, WORKBAY_AGENT_URL         the service's access URL (required)
 *   --token, WORKBAY_AGENT_TOKEN     the agent token (required with --auth token)
 *   --auth, WORKBAY_AGENT_AUTH       token (default), aws, azure or google: how the agent gets its token
 *   --agent-name, WORKBAY_AGENT_NAME with an instance identity: the agent's name, when several share the instance
 *   --metadata-url, WORKBAY_AGENT_METADATA_URL  the cloud metadata service (default: the cloud's own)
 *   --directory, WORKBAY_AGENT_DIRECTORY        where scripts run when the manifest names no directory (default: home)
 *   --log-dir, WORKBAY_AGENT_LOG_DIR            where each script's output is also written (default: a temp folder)
 *   --task-command, WORKBAY_AGENT_TASK_COMMAND  run for each task input (`sh -c`, the input on stdin); its stdout is reported as output
 *   --devcontainer-cli, WORKBAY_AGENT_DEVCONTAINER_CLI  the Dev Containers command that recreates dev containers (default: devcontainer)
 */
import { homedir, tmpdir } from "node:os"
import { join } from "node:path"
import type { Script, ScriptEnvironment, ScriptRun } from "./Scripts.js"

export type AuthKind = "token" | "aws" | "azure" | "google"

/** A metadata item of the manifest: its key, the script that collects it, every `interval` seconds. */
export interface MetadataDescription {
  readonly key: string
  readonly script: string
  readonly interval: number
  readonly timeout: number
}

/**
 * How the agent does its work on the machine: runs a script, collects a metadata value, probes an
 * app's health check. The default ({@link machineRunner} in Agent.ts) runs `sh -c` and fetches the
 * URL; `workbay scaletest`'s light agents answer each at once (docs/scaletest.md), and everything
 * else (the connections, the manifest, the reports and their timing) stays the real agent's.
 */
export interface AgentRunner {
  readonly script: (script: Script, environment: ScriptEnvironment) => Promise<ScriptRun>
  readonly metadata: (
    item: MetadataDescription,
    environment: ScriptEnvironment
  ) => Promise<{ readonly value: string; readonly error: string }>
  /** Whether the app answers at `url` within `timeoutMs` (healthy: any status under 500). */
  readonly probe: (url: string, timeoutMs: number) => Promise<boolean>
}

export interface AgentOptions {
  readonly url: string
  readonly token?: string | undefined
  readonly auth: AuthKind
  readonly agentName?: string | undefined
  readonly metadataUrl?: string | undefined
  readonly directory: string
  readonly logDir: string
  /** Run in `sh -c` for each task input, the input on its stdin; its stdout is reported as the task's output. */
  readonly taskCommand?: string | undefined
  /** The Dev Containers command line (`@devcontainers/cli`) that recreates dev containers (default `devcontainer`). */
  readonly devcontainerCli?: string | undefined
  /** How long a terminal with no client attached lives, in ms (default 5 minutes; for tests). */
  readonly ptyIdleTimeoutMs?: number | undefined
  /** Receives the agent's own diagnostics (default: stderr). */
  readonly log?: ((line: string) => void) | undefined
  /** How scripts, metadata and health checks run (default: on this machine). */
  readonly runner?: AgentRunner | undefined
  /** Told how each request on the agent connection ended (type, milliseconds, error): the scaletest's latencies. */
  readonly onCall?: ((type: string, ms: number, error?: string) => void) | undefined
}

const FLAGS: Record<string, keyof AgentOptions> = {
  "--url": "url",
  "--token": "token",
  "--auth": "auth",
  "--agent-name": "agentName",
  "--metadata-url": "metadataUrl",
  "--directory": "directory",
  "--log-dir": "logDir",
  "--task-command": "taskCommand",
  "--devcontainer-cli": "devcontainerCli"
}

const ENV: Record<string, keyof AgentOptions> = {
  WORKBAY_AGENT_URL: "url",
  WORKBAY_AGENT_TOKEN: "token",
  WORKBAY_AGENT_AUTH: "auth",
  WORKBAY_AGENT_NAME: "agentName",
  WORKBAY_AGENT_METADATA_URL: "metadataUrl",
  WORKBAY_AGENT_DIRECTORY: "directory",
  WORKBAY_AGENT_LOG_DIR: "logDir",
  WORKBAY_AGENT_TASK_COMMAND: "taskCommand",
  WORKBAY_AGENT_DEVCONTAINER_CLI: "devcontainerCli"
}

export const USAGE =
  `Usage: workbay-agent --url <access URL> [--token <agent token> | --auth aws|azure|google [--agent-name <name>]]
       [--metadata-url <url>] [--directory <dir>] [--log-dir <dir>] [--task-command <command>]
       [--devcontainer-cli <command>]
       workbay-agent --version | --build-info | --help
Each flag may be given as an environment variable instead: ${Object.keys(ENV).join(", ")}.`

/** Options from `argv` (without node and the script) and `env`; throws with the usage on a mistake. */
export const parseOptions = (argv: ReadonlyArray<string>, env: NodeJS.ProcessEnv = process.env): AgentOptions => {
  const raw: Partial<Record<keyof AgentOptions, string>> = {}
  for (const [name, key] of Object.entries(ENV)) if (env[name] !== undefined && env[name] !== "") raw[key] = env[name]
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const [flag, inline] = arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg, undefined]
    const key = FLAGS[flag]
    if (key === undefined) throw new Error(`Unknown argument ${JSON.stringify(arg)}.\n${USAGE}`)
    const value = inline ?? argv[++i]
    if (value === undefined) throw new Error(`${flag} needs a value.\n${USAGE}`)
    raw[key] = value
  }
  if (raw.url === undefined) throw new Error(`The access URL is required.\n${USAGE}`)
  let url: URL
  try {
    url = new URL(raw.url)
  } catch {
    throw new Error(`The access URL ${JSON.stringify(raw.url)} is not a URL.\n${USAGE}`)
  }
  const auth = (raw.auth ?? "token") as AuthKind
  if (!["token", "aws", "azure", "google"].includes(auth)) {
    throw new Error(`--auth takes token, aws, azure or google.\n${USAGE}`)
  }
  if (auth === "token" && raw.token === undefined) {
    throw new Error(`An agent token is required (--token), or an instance identity (--auth).\n${USAGE}`)
  }
  return {
    url: url.toString().replace(/\/+$/, ""),
    token: raw.token,
    auth,
    agentName: raw.agentName,
    metadataUrl: raw.metadataUrl,
    directory: raw.directory ?? homedir(),
    logDir: raw.logDir ?? join(tmpdir(), "workbay-agent"),
    taskCommand: raw.taskCommand,
    devcontainerCli: raw.devcontainerCli
  }
}
