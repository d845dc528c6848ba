/** `login`, `logout`, `whoami`: as the described system's cli/login.go, logout.go, whoami.go. */
import { isStatus, type Schemas, settle, unwrap } from "@workbay/client"
import { userInfo } from "node:os"
import { Client, normalizeUrl } from "../Client.js"
import { removeConfig, writeConfig } from "../Config.js"
import type { Context } from "../Context.js"
import { CliError } from "../Errors.js"
import { printJson } from "../Output.js"
import { ask, askRequired, confirm } from "../Prompt.js"

export interface LoginFlags {
  readonly email?: string
  readonly password?: string
  readonly firstUserUsername?: string
  readonly firstUserEmail?: string
  readonly firstUserPassword?: string
  readonly firstUserFullName?: string
  readonly yes?: boolean
}

const passwordLogin = async (client: Client, email: string, password: string): Promise<string> => {
  const answer = await unwrap(client.rest.POST("/api/v2/users/login", { body: { email, password } }))
  return answer.session_token
}

/** With no user on the deployment yet: offers to create the first one (the owner); their session token. */
const createFirstUser = async (client: Client, flags: LoginFlags): Promise<string | undefined> => {
  const given = flags.firstUserUsername !== undefined || flags.firstUserEmail !== undefined
  if (
    !given &&
    !(await confirm("This deployment has no users yet. Would you like to create the first user?", flags.yes === true))
  ) {
    return undefined
  }
  let fallbackName = "admin"
  try {
    fallbackName = userInfo().username.replace(/[^a-zA-Z0-9-]/g, "") || "admin"
  } catch {
    // no user name: "admin"
  }
  const username = flags.firstUserUsername ??
    (await ask(`Username [${fallbackName}]: `))?.trim() ??
    fallbackName
  const email = flags.firstUserEmail ?? (await askRequired("Email: ", "--first-user-email"))
  let password = flags.firstUserPassword
  if (password === undefined) {
    password = await askRequired("Password: ", "--first-user-password", { masked: true })
    const again = await askRequired("Confirm password: ", "--first-user-password", { masked: true })
    if (again !== password) throw new CliError("The passwords do not match.")
  }
  await unwrap(client.rest.POST("/api/v2/users/first", {
    body: {
      username: username === "" ? fallbackName : username,
      email,
      password,
      name: flags.firstUserFullName ?? ""
    }
  }))
  return passwordLogin(client, email, password)
}

export const login = async (
  ctx: Context,
  urlArg: string | undefined,
  flags: LoginFlags,
  tokenFlag: string | undefined
) => {
  const raw = urlArg ?? ctx.url
  if (raw === undefined) throw new CliError("Which deployment? Pass its URL: workbay login <url>", 2)
  const url = normalizeUrl(raw)
  const anonymous = new Client(url, undefined)
  let token = tokenFlag
  if (token === undefined) {
    const first = await settle(anonymous.rest.GET("/api/v2/users/first"), [404])
    if (first.status === 404) token = await createFirstUser(anonymous, flags)
  }
  if (token === undefined) {
    if (flags.email !== undefined || flags.password !== undefined) {
      const email = flags.email ?? (await askRequired("Email: ", "--email"))
      const password = flags.password ?? (await askRequired("Password: ", "--password", { masked: true }))
      token = await passwordLogin(anonymous, email, password)
    } else {
      const email = await ask("Email (leave empty to paste a token instead): ")
      if (email === undefined) {
        throw new CliError("No email or token given: pass --email and --password, or --token.", 2)
      }
      if (email.trim() === "") {
        token = await askRequired("Paste your token: ", "--token", { masked: true })
      } else {
        const password = await askRequired("Password: ", "--password", { masked: true })
        token = await passwordLogin(anonymous, email.trim(), password)
      }
    }
  }
  const client = new Client(url, token.trim())
  let me: Schemas["User"]
  try {
    me = await unwrap(client.rest.GET("/api/v2/users/{user}", { params: { path: { user: "me" } } }))
  } catch (e) {
    if (isStatus(e, 401)) {
      throw new CliError("That token was refused by the deployment.", 1, e.message)
    }
    throw e
  }
  writeConfig(ctx.configDir, url, token.trim())
  process.stdout.write(`Welcome to Workbay, ${me.username}! You're authenticated.\n`)
}

export const logout = async (ctx: Context, flags: { readonly yes?: boolean }) => {
  const client = ctx.client()
  if (!(await confirm("Are you sure you want to log out?", flags.yes === true))) throw new CliError("Canceled.")
  // The session ends on the server too; a token it no longer knows is removed all the same.
  try {
    await unwrap(client.rest.POST("/api/v2/users/logout"))
  } catch (e) {
    if (!isStatus(e, 401)) throw e
  }
  removeConfig(ctx.configDir)
  process.stdout.write("You are no longer logged in. You can log in using 'workbay login <url>'.\n")
}

export const whoami = async (ctx: Context) => {
  const client = ctx.client()
  const me = await unwrap(client.rest.GET("/api/v2/users/{user}", { params: { path: { user: "me" } } }))
  if (ctx.output === "json") return printJson(me)
  process.stdout.write(`Workbay is running at ${client.url}, you're authenticated as ${me.username}.\n`)
}
