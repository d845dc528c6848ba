/**
 * What every command starts from: the global flags (`--url`, `--token`, `--global-config`,
 * `--output`) and their variables (`WORKBAY_URL`, `WORKBAY_SESSION_TOKEN`, `WORKBAY_CONFIG_DIR`)
 * over what `login` stored.
 */
import { Client, normalizeUrl } from "./Client.js"
import { configDirOf, readConfig } from "./Config.js"
import { CliError } from "./Errors.js"
import { type OutputFormat, outputFormatOf } from "./Output.js"

export interface GlobalFlags {
  readonly url?: string
  readonly token?: string
  readonly globalConfig?: string
  readonly output?: string
}

export interface Context {
  readonly configDir: string
  /** Whether `--global-config` named the folder (config-ssh passes it on to the ProxyCommand). */
  readonly configDirFlag: string | undefined
  readonly output: OutputFormat
  /** The deployment URL in force, when there is one. */
  readonly url: string | undefined
  readonly token: string | undefined
  /** A client with a URL and a token: fails with "not logged in" without them. */
  readonly client: () => Client
}

const nonEmpty = (s: string | undefined) => (s === undefined || s === "" ? undefined : s)

export const contextOf = (flags: GlobalFlags, env: NodeJS.ProcessEnv = process.env): Context => {
  const configDir = configDirOf(flags.globalConfig, env)
  const stored = readConfig(configDir)
  const rawUrl = nonEmpty(flags.url) ?? nonEmpty(env.WORKBAY_URL) ?? stored.url
  const url = rawUrl === undefined ? undefined : normalizeUrl(rawUrl)
  const token = nonEmpty(flags.token) ?? nonEmpty(env.WORKBAY_SESSION_TOKEN) ?? stored.token
  return {
    configDir,
    configDirFlag: nonEmpty(flags.globalConfig),
    output: outputFormatOf(flags.output),
    url,
    token,
    client: () => {
      if (url === undefined || token === undefined) {
        throw new CliError("You are not logged in. Try logging in using 'workbay login <url>'.")
      }
      return new Client(url, token)
    }
  }
}
