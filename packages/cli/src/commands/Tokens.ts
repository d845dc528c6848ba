/**
 * `tokens create|list|remove`: as the described system's cli/tokens.go. A token is an API key of
 * login type `token` (`/users/{user}/keys/tokens`); `create` prints the new token once (its only
 * showing: the service keeps its hash), `remove` expires it (`--delete`: deletes it).
 */
import { isStatus, type Schemas, unwrap } from "@workbay/client"
import type { Context } from "../Context.js"
import { CliError, usageError } from "../Errors.js"
import { sumOfUnits } from "../Flags.js"
import { printJson, printTable } from "../Output.js"

type ApiKey = Schemas["APIKeyWithOwner"]

const UNITS: Readonly<Record<string, number>> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
  d: 86_400e9,
  y: 365 * 86_400e9
}

/**
 * A lifetime as the described system's CLI takes it (Go's duration units and `d`, `y`: `8h`,
 * `30d`, `1y`, `1d12h30m`), in nanoseconds (the API's `lifetime`).
 */
export const parseLifetime = (text: string): number => {
  const ns = sumOfUnits(text, UNITS)
  if (ns === undefined) {
    throw usageError(`--lifetime takes a duration such as 8h, 30d, 1y or 1d12h30m, not "${text}".`)
  }
  if (ns <= 0) throw usageError("--lifetime must be longer than nothing.")
  return Math.round(ns)
}

export interface CreateTokenFlags {
  readonly name?: string
  readonly lifetime?: string
  readonly user?: string
}

export const create = async (ctx: Context, flags: CreateTokenFlags) => {
  const client = ctx.client()
  const user = flags.user ?? "me"
  const lifetime = flags.lifetime === undefined ? undefined : parseLifetime(flags.lifetime)
  const { key } = await unwrap(
    client.rest.POST("/api/v2/users/{user}/keys/tokens", {
      params: { path: { user } },
      body: {
        ...(flags.name === undefined ? {} : { token_name: flags.name }),
        ...(lifetime === undefined ? {} : { lifetime })
      }
    })
  )
  if (ctx.output !== "json") {
    process.stdout.write(`${key}\n`)
    return
  }
  // The key is `<id>-<secret>`: its record, and the key, once.
  const id = key.split("-")[0]!
  const record = await unwrap(
    client.rest.GET("/api/v2/users/{user}/keys/{keyid}", { params: { path: { user, keyid: id } } })
  )
  printJson({ ...record, key })
}

export const list = async (ctx: Context, flags: { readonly all?: boolean; readonly includeExpired?: boolean }) => {
  const client = ctx.client()
  const tokens: ReadonlyArray<ApiKey> = await unwrap(
    client.rest.GET("/api/v2/users/{user}/keys/tokens", {
      params: {
        path: { user: "me" },
        query: {
          ...(flags.all === true ? { include_all: "true" as const } : {}),
          ...(flags.includeExpired === true ? { include_expired: "true" as const } : {})
        }
      }
    })
  )
  if (ctx.output === "json") return printJson(tokens)
  const sorted = [...tokens].sort((a, b) => a.id.localeCompare(b.id))
  printTable(
    ["id", "name", "last used", "expires at", "created at", ...(flags.all === true ? ["owner"] : [])],
    sorted.map((t) => [
      t.id,
      t.token_name,
      t.last_used,
      t.expires_at,
      t.created_at,
      ...(flags.all === true ? [t.username] : [])
    ]),
    "tokens"
  )
}

/** The caller's token named `ident`, else the one whose id it is (or whose `<id>-<secret>` it is). */
const tokenOf = async (ctx: Context, ident: string) => {
  const client = ctx.client()
  try {
    return await unwrap(
      client.rest.GET("/api/v2/users/{user}/keys/tokens/{keyname}", {
        params: { path: { user: "me", keyname: ident } }
      })
    )
  } catch (e) {
    if (!isStatus(e, 404)) throw e
  }
  const id = ident.split("-")[0]!
  if (id === "") throw new CliError(`"${ident}" names no token.`, 2)
  return unwrap(client.rest.GET("/api/v2/users/{user}/keys/{keyid}", { params: { path: { user: "me", keyid: id } } }))
}

export const remove = async (ctx: Context, ident: string, flags: { readonly delete?: boolean }) => {
  const client = ctx.client()
  const token = await tokenOf(ctx, ident)
  if (flags.delete === true) {
    await unwrap(
      client.rest.DELETE("/api/v2/users/{user}/keys/{keyid}", { params: { path: { user: "me", keyid: token.id } } })
    )
    process.stdout.write("Token has been deleted.\n")
    return
  }
  await unwrap(
    client.rest.PUT("/api/v2/users/{user}/keys/{keyid}/expire", { params: { path: { user: "me", keyid: token.id } } })
  )
  process.stdout.write("Token has been expired.\n")
}
