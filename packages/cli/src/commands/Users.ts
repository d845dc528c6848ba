/**
 * `users list|create|suspend|activate`: as the described system's cli/userlist.go, usercreate.go
 * and userstatus.go. `create` without `--password` (for a password login) makes one, and prints it
 * once with the new user's instructions, as the described system does: the only password any
 * command prints.
 */
import { type Schemas, unwrap } from "@workbay/client"
import { randomInt } from "node:crypto"
import type { Context } from "../Context.js"
import { CliError, usageError } from "../Errors.js"
import { organizationOf } from "../Lookup.js"
import { printJson, printTable } from "../Output.js"
import { askRequired, confirm } from "../Prompt.js"

type User = Schemas["User"]

const userRow = (u: User) => [u.username, u.email, u.created_at, u.status]
const USER_COLUMNS = ["username", "email", "created at", "status"]

export const list = async (ctx: Context, flags: { readonly search?: string }) => {
  const client = ctx.client()
  const { users } = await unwrap(
    client.rest.GET("/api/v2/users", { params: { query: flags.search === undefined ? {} : { q: flags.search } } })
  )
  if (ctx.output === "json") return printJson(users)
  printTable(USER_COLUMNS, users.map(userRow), "users")
}

const LOGIN_TYPES = ["password", "none", "github", "oidc"] as const

export interface CreateUserFlags {
  readonly email?: string
  readonly username?: string
  readonly fullName?: string
  readonly password?: string
  readonly loginType?: string
  readonly org?: string
}

/** 20 characters of letters and digits, from the system's random source. */
const generatedPassword = () => {
  const chars = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
  return Array.from({ length: 20 }, () => chars[randomInt(chars.length)]).join("")
}

export const create = async (ctx: Context, flags: CreateUserFlags) => {
  const client = ctx.client()
  const loginType = flags.loginType ?? "password"
  if (!(LOGIN_TYPES as ReadonlyArray<string>).includes(loginType)) {
    throw usageError(`--login-type must be one of ${LOGIN_TYPES.join(", ")}, not "${loginType}".`)
  }
  const org = await organizationOf(client, flags.org)
  const username = flags.username ?? (await askRequired("Username: ", "--username"))
  const email = flags.email ?? (await askRequired("Email: ", "--email"))
  const password = loginType === "password" ? flags.password ?? generatedPassword() : undefined
  const user = await unwrap(
    client.rest.POST("/api/v2/users", {
      body: {
        email,
        username,
        ...(flags.fullName === undefined ? {} : { name: flags.fullName }),
        ...(password === undefined ? {} : { password }),
        login_type: loginType as (typeof LOGIN_TYPES)[number],
        organization_ids: [org.id]
      }
    })
  )
  if (ctx.output === "json") printJson(user)
  const how = loginType === "password"
    ? flags.password === undefined ? `Your password is: ${password}` : "Your password is the one you were given."
    : loginType === "none"
    ? "Login has been disabled for this user. Contact your administrator to authenticate."
    : loginType === "github"
    ? "Login is authenticated through GitHub."
    : "Login is authenticated through the configured OIDC provider."
  process.stderr.write(
    [
      "A new user has been created!",
      "Share the instructions below to get them started.",
      "",
      `Run workbay login ${client.url} to authenticate.`,
      "",
      `Your email is: ${user.email}`,
      how,
      "",
      "Create a workspace: workbay create"
    ].join("\n") + "\n"
  )
}

/** `suspend` or `activate` the user `ident` (a username or an id), after showing it and asking. */
export const setStatus = async (
  ctx: Context,
  ident: string,
  status: "suspended" | "active",
  flags: { readonly yes?: boolean }
) => {
  const client = ctx.client()
  if (ident.trim() === "") throw usageError("Name the user: a username or an id.")
  const user = await unwrap(client.rest.GET("/api/v2/users/{user}", { params: { path: { user: ident } } }))
  printTable(USER_COLUMNS, [userRow(user)], "users")
  if (user.status === status) {
    process.stdout.write(`User status is already "${status}"\n`)
    return
  }
  const verb = status === "suspended" ? "suspend" : "activate"
  if (!(await confirm(`Are you sure you want to ${verb} this user?`, flags.yes === true))) {
    throw new CliError("Canceled.")
  }
  const path = { params: { path: { user: user.id } } }
  await unwrap(
    status === "suspended"
      ? client.rest.PUT("/api/v2/users/{user}/status/suspend", path)
      : client.rest.PUT("/api/v2/users/{user}/status/activate", path)
  )
  process.stdout.write(`\nUser ${user.username} has been ${status === "suspended" ? "suspended" : "activated"}!\n`)
}
