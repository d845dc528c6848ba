/**
 * Where the CLI keeps what `login` stores: a folder (`$XDG_CONFIG_HOME/workbay`, else
 * `~/.config/workbay`; `--global-config` or `WORKBAY_CONFIG_DIR` choose another) holding the
 * files `url` and `session` (the session token), as the described system's CLI keeps them. The
 * folder is made with mode 0700 and the files are written with mode 0600, through a temporary file
 * renamed into place, so a reader never sees half a token.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { homedir } from "node:os"
import { join } from "node:path"

/** The folder used when neither `--global-config` nor `WORKBAY_CONFIG_DIR` names one. */
export const defaultConfigDir = (env: NodeJS.ProcessEnv = process.env): string => {
  const xdg = env.XDG_CONFIG_HOME
  return join(xdg !== undefined && xdg !== "" ? xdg : join(homedir(), ".config"), "workbay")
}

/** The folder in force: the flag, else `WORKBAY_CONFIG_DIR`, else the default. */
export const configDirOf = (flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string => {
  if (flag !== undefined && flag !== "") return flag
  const fromEnv = env.WORKBAY_CONFIG_DIR
  return fromEnv !== undefined && fromEnv !== "" ? fromEnv : defaultConfigDir(env)
}

export interface StoredConfig {
  readonly url: string | undefined
  readonly token: string | undefined
}

const readTrimmed = (file: string): string | undefined => {
  try {
    const text = readFileSync(file, "utf8").trim()
    return text === "" ? undefined : text
  } catch {
    return undefined
  }
}

export const readConfig = (dir: string): StoredConfig => ({
  url: readTrimmed(join(dir, "url")),
  token: readTrimmed(join(dir, "session"))
})

const writePrivate = (dir: string, name: string, content: string) => {
  const file = join(dir, name)
  const partial = `${file}.${process.pid}.tmp`
  writeFileSync(partial, content, { mode: 0o600 })
  chmodSync(partial, 0o600)
  renameSync(partial, file)
}

/** Stores `url` and `token` in `dir` (made 0700), each file 0600. */
export const writeConfig = (dir: string, url: string, token: string) => {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  chmodSync(dir, 0o700)
  writePrivate(dir, "url", url)
  writePrivate(dir, "session", token)
}

/** Removes the stored session (and url); whether there was a session. */
export const removeConfig = (dir: string): boolean => {
  const had = existsSync(join(dir, "session"))
  rmSync(join(dir, "session"), { force: true })
  rmSync(join(dir, "url"), { force: true })
  return had
}
