/**
 * `list`, `create`, `start`, `stop`, `restart`, `delete`, `logs`: as the described system's
 * cli/list.go, create.go, start.go, stop.go, restart.go, delete.go and logs.go. A build is
 * `POST /workspaces/{id}/builds {transition}`, then followed (its logs live) until it ended.
 * `move`: Workbay's own, a stopped workspace to another provisioner host.
 */
import { type Schemas, unwrap } from "@workbay/client"
import { readFileSync } from "node:fs"
import { parse as parseYaml } from "yaml"
import { followLogs, logPrinter, waitForBuild } from "../Builds.js"
import type { Client } from "../Client.js"
import type { Context } from "../Context.js"
import { CliError, usageError } from "../Errors.js"
import { organizationOf, workspaceOf } from "../Lookup.js"
import { ago, printJson, printTable } from "../Output.js"
import { ask, askRequired, confirm } from "../Prompt.js"

type Workspace = Schemas["Workspace"]

/** Where progress goes: standard output for people, standard error under `--output json`. */
const progressOf = (ctx: Context) => (ctx.output === "json" ? process.stderr : process.stdout)

export const list = async (ctx: Context, flags: { readonly all?: boolean; readonly search?: string }) => {
  const client = ctx.client()
  const q = [flags.all === true ? "" : "owner:me", flags.search ?? ""].filter((s) => s !== "").join(" ")
  const { workspaces } = await unwrap(
    client.rest.GET("/api/v2/workspaces", { params: { query: q === "" ? {} : { q } } })
  )
  if (ctx.output === "json") return printJson(workspaces)
  // Workspaces on provisioner hosts (docs/provisioner-daemons.md) show their host; others have no such column.
  const hosts = workspaces.map(hostOf)
  const anyHost = hosts.some((h) => h !== "")
  printTable(
    ["workspace", "template", "status", "healthy", "last built", "outdated", ...(anyHost ? ["host"] : [])],
    workspaces.map((w, i) => [
      `${w.owner_name}/${w.name}`,
      w.template_name ?? "",
      statusOf(w),
      w.latest_build?.status === "running" ? String(w.health?.healthy ?? "") : "",
      ago(w.latest_build?.created_at),
      String(w.outdated ?? false),
      ...(anyHost ? [hosts[i]!] : [])
    ]),
    "workspaces"
  )
}

/** The provisioner host a workspace's latest build ran on (its resources' `host` metadata), or "". */
export const hostOf = (w: Workspace): string =>
  (w.latest_build?.resources ?? []).flatMap((r) => r.metadata ?? []).find((m) => m.key === "host")?.value ?? ""

const statusOf = (w: Workspace): string => {
  const s: string = w.latest_build.status
  return s.charAt(0).toUpperCase() + s.slice(1)
}

/** `name=value` pairs (the value may hold `=`). */
const parsePairs = (pairs: ReadonlyArray<string>, flag: string): Map<string, string> => {
  const out = new Map<string, string>()
  for (const pair of pairs) {
    const i = pair.indexOf("=")
    if (i <= 0) throw usageError(`${flag} takes name=value, not "${pair}".`)
    out.set(pair.slice(0, i).trim(), pair.slice(i + 1))
  }
  return out
}

/** A YAML (or JSON) map of parameter names to values; lists are sent as JSON, as the described system's. */
const readParameterFile = (file: string): Map<string, string> => {
  let doc: unknown
  try {
    doc = parseYaml(readFileSync(file, "utf8"))
  } catch (e) {
    throw new CliError(`Could not read ${file}: ${e instanceof Error ? e.message : e}`, 2)
  }
  if (doc === null || doc === undefined) return new Map()
  if (typeof doc !== "object" || Array.isArray(doc)) {
    throw new CliError(`${file} must be a map of parameter names to values.`, 2)
  }
  const out = new Map<string, string>()
  for (const [k, v] of Object.entries(doc as Record<string, unknown>)) {
    out.set(k, Array.isArray(v) ? JSON.stringify(v.map(String)) : v === null ? "" : String(v))
  }
  return out
}

export interface CreateFlags {
  readonly template?: string
  readonly parameter: ReadonlyArray<string>
  readonly richParameterFile?: string
  readonly org?: string
  readonly yes?: boolean
}

export const create = async (ctx: Context, name: string | undefined, flags: CreateFlags) => {
  const client = ctx.client()
  if (flags.template === undefined) throw usageError("Which template? Pass --template <name>.")
  const workspaceName = name ?? (await ask("Workspace name: "))?.trim()
  if (workspaceName === undefined || workspaceName === "") {
    throw usageError("Pass the workspace's name: workbay create <name>.")
  }
  const org = await organizationOf(client, flags.org)
  const template = await unwrap(
    client.rest.GET("/api/v2/organizations/{organization}/templates/{templatename}", {
      params: { path: { organization: org.id, templatename: flags.template } }
    })
  )
  const values = flags.richParameterFile === undefined
    ? new Map<string, string>()
    : readParameterFile(flags.richParameterFile)
  for (const [k, v] of parsePairs(flags.parameter, "--parameter")) values.set(k, v)
  // On a terminal, the required parameters nobody gave are asked for (the service checks the rest).
  if (process.stdin.isTTY === true) {
    const params = await unwrap(
      client.rest.GET("/api/v2/templateversions/{templateversion}/rich-parameters", {
        params: { path: { templateversion: template.active_version_id } }
      })
    )
    for (const p of params) {
      if (p.required === true && !values.has(p.name)) {
        const answer = await ask(`${p.display_name || p.name}${p.description ? ` (${p.description})` : ""}: `)
        if (answer !== undefined) values.set(p.name, answer)
      }
    }
  }
  const workspace = await unwrap(
    client.rest.POST("/api/v2/users/{user}/workspaces", {
      params: { path: { user: "me" } },
      body: {
        template_id: template.id,
        name: workspaceName,
        rich_parameter_values: [...values].map(([n, value]) => ({ name: n, value }))
      }
    })
  )
  const out = progressOf(ctx)
  await waitForBuild(client, workspace.latest_build.id, out)
  const done = await workspaceById(client, workspace.id)
  if (ctx.output === "json") return printJson(done)
  out.write(`\nThe ${workspace.owner_name}/${workspace.name} workspace has been created!\n`)
}

/** The workspace `id` as it is now. */
const workspaceById = (client: Client, id: string) =>
  unwrap(client.rest.GET("/api/v2/workspaces/{workspace}", { params: { path: { workspace: id } } }))

/** Starts a build of the workspace (`POST /workspaces/{id}/builds`): the build, not yet finished. */
const startBuild = (client: Client, workspace: Workspace, body: Schemas["CreateWorkspaceBuildRequest"]) =>
  unwrap(
    client.rest.POST("/api/v2/workspaces/{workspace}/builds", { params: { path: { workspace: workspace.id } }, body })
  )

/** Starts a build of `transition` and follows it: the build. */
const build = async (
  ctx: Context,
  client: Client,
  workspace: Workspace,
  transition: Schemas["CreateWorkspaceBuildRequest"]["transition"]
) => {
  const started = await startBuild(client, workspace, { transition })
  return waitForBuild(client, started.id, progressOf(ctx))
}

const finish = async (ctx: Context, client: Client, workspace: Workspace, message: string) => {
  if (ctx.output === "json") return printJson(await workspaceById(client, workspace.id))
  progressOf(ctx).write(`\n${message}\n`)
}

const label = (w: Workspace) => `${w.owner_name}/${w.name}`

export const start = async (ctx: Context, ident: string) => {
  const client = ctx.client()
  const w = await workspaceOf(client, ident)
  await build(ctx, client, w, "start")
  await finish(ctx, client, w, `The ${label(w)} workspace has been started.`)
}

export const stop = async (ctx: Context, ident: string) => {
  const client = ctx.client()
  const w = await workspaceOf(client, ident)
  await build(ctx, client, w, "stop")
  await finish(ctx, client, w, `The ${label(w)} workspace has been stopped.`)
}

export const restart = async (ctx: Context, ident: string) => {
  const client = ctx.client()
  const w = await workspaceOf(client, ident)
  await build(ctx, client, w, "stop")
  await build(ctx, client, w, "start")
  await finish(ctx, client, w, `The ${label(w)} workspace has been restarted.`)
}

export const remove = async (
  ctx: Context,
  ident: string,
  flags: { readonly yes?: boolean; readonly orphan?: boolean }
) => {
  const client = ctx.client()
  const w = await workspaceOf(client, ident)
  if (!(await confirm(`Delete workspace ${label(w)}? It cannot be undone.`, flags.yes === true))) {
    throw new CliError("Canceled.")
  }
  const started = await startBuild(client, w, {
    transition: "delete",
    ...(flags.orphan === true ? { orphan: true } : {})
  })
  await waitForBuild(client, started.id, progressOf(ctx))
  if (ctx.output === "json") {
    return printJson(
      await unwrap(
        client.rest.GET("/api/v2/workspacebuilds/{workspacebuild}", {
          params: { path: { workspacebuild: started.id } }
        })
      )
    )
  }
  progressOf(ctx).write(`\nThe ${label(w)} workspace has been deleted.\n`)
}

export const logs = async (
  ctx: Context,
  ident: string,
  flags: { readonly follow?: boolean; readonly build?: string }
) => {
  const client = ctx.client()
  const w = await workspaceOf(client, ident)
  let buildId = w.latest_build.id
  if (flags.build !== undefined) {
    if (!/^\d+$/.test(flags.build)) throw usageError(`--build takes a build number, not "${flags.build}".`)
    const numbered = await unwrap(
      client.rest.GET("/api/v2/users/{user}/workspace/{workspacename}/builds/{buildnumber}", {
        params: { path: { user: w.owner_name, workspacename: w.name, buildnumber: flags.build } }
      })
    )
    buildId = numbered.id
  }
  if (flags.follow === true) {
    const lines: Array<unknown> = []
    const print = logPrinter(process.stdout)
    await followLogs(
      client,
      `/workspacebuilds/${buildId}/logs`,
      (log) => (ctx.output === "json" ? lines.push(log) : print(log))
    )
    if (ctx.output === "json") printJson(lines)
    return
  }
  const lines = await unwrap(
    client.rest.GET("/api/v2/workspacebuilds/{workspacebuild}/logs", { params: { path: { workspacebuild: buildId } } })
  )
  if (ctx.output === "json") return printJson(lines)
  const print = logPrinter(process.stdout)
  for (const line of lines) print(line)
}

const formatSize = (bytes: number) =>
  bytes >= 1024 ** 3
    ? `${(bytes / 1024 ** 3).toFixed(2)} GiB`
    : bytes >= 1024 ** 2
    ? `${(bytes / 1024 ** 2).toFixed(1)} MiB`
    : `${bytes} B`

/**
 * `move <workspace> --host <host>`: moves a stopped workspace to another provisioner host
 * (`POST /workspaces/{id}/moves`, docs/provisioner-daemons.md "Moving a workspace") and follows the
 * move until it ended: its volumes copied and verified, the next start on the new host.
 */
export const move = async (ctx: Context, ident: string, flags: { readonly host?: string }) => {
  const host = flags.host ?? ""
  if (host === "") throw usageError("Name the host to move to with --host.")
  const client = ctx.client()
  const w = await workspaceOf(client, ident)
  const asked = await unwrap(
    client.rest.POST("/api/v2/workspaces/{workspace}/moves", { params: { path: { workspace: w.id } }, body: { host } })
  )
  const progress = progressOf(ctx)
  progress.write(`Moving ${label(w)} from ${asked.from_host} to ${asked.to_host}...\n`)
  let move = asked
  while (move.status === "pending" || move.status === "running") {
    await new Promise((resolve) => setTimeout(resolve, 500))
    const listed = await unwrap(
      client.rest.GET("/api/v2/workspaces/{workspace}/moves", { params: { path: { workspace: w.id } } })
    )
    move = listed.find((m) => m.id === asked.id) ?? move
  }
  if (ctx.output === "json") printJson(move)
  if (move.status === "failed") throw new CliError(`The move failed: ${move.error}`)
  const bytes = move.volumes.reduce((sum, v) => sum + v.bytes, 0)
  progress.write(
    `The ${label(w)} workspace is on ${move.to_host}: ${move.volumes.length} volume${
      move.volumes.length === 1 ? "" : "s"
    } (${formatSize(bytes)}) copied and verified; its next start runs there.\n`
  )
}

/** `favorite` and `unfavorite`: as the described system's cli/favorite.go. */
export const setFavorite = async (ctx: Context, ident: string, favorite: boolean) => {
  const client = ctx.client()
  const w = await workspaceOf(client, ident)
  const path = { params: { path: { workspace: w.id } } }
  await unwrap(
    favorite
      ? client.rest.PUT("/api/v2/workspaces/{workspace}/favorite", path)
      : client.rest.DELETE("/api/v2/workspaces/{workspace}/favorite", path)
  )
  process.stdout.write(`Workspace "${w.name}" ${favorite ? "added to" : "removed from"} favorites.\n`)
}

export interface UpdateFlags {
  readonly parameter: ReadonlyArray<string>
  readonly richParameterFile?: string
  readonly alwaysPrompt?: boolean
}

/**
 * `update <workspace>`: a start build on the template's active version, as the described system's
 * cli/update.go. Parameters the new version adds that are required and were given no value are
 * asked for; `--always-prompt` asks for every mutable one too (the current value when the answer
 * is empty); `--parameter` and `--rich-parameter-file` give values. A workspace on the active
 * version with no value given is left as it is.
 */
export const update = async (ctx: Context, ident: string, flags: UpdateFlags) => {
  const client = ctx.client()
  const w = await workspaceOf(client, ident)
  const values = flags.richParameterFile === undefined
    ? new Map<string, string>()
    : readParameterFile(flags.richParameterFile)
  for (const [k, v] of parsePairs(flags.parameter, "--parameter")) values.set(k, v)
  if (!w.outdated && values.size === 0 && flags.alwaysPrompt !== true) {
    process.stdout.write("Workspace is up-to-date.\n")
    return
  }
  const template = await unwrap(
    client.rest.GET("/api/v2/templates/{template}", { params: { path: { template: w.template_id } } })
  )
  const [params, current] = await Promise.all([
    unwrap(client.rest.GET("/api/v2/templateversions/{templateversion}/rich-parameters", {
      params: { path: { templateversion: template.active_version_id } }
    })),
    unwrap(client.rest.GET("/api/v2/workspacebuilds/{workspacebuild}/parameters", {
      params: { path: { workspacebuild: w.latest_build.id } }
    }))
  ])
  const had = new Map(current.map((p) => [p.name, p.value]))
  for (const p of params) {
    if (values.has(p.name)) continue
    const question = `${p.display_name || p.name}${p.description ? ` (${p.description})` : ""}`
    if (p.required === true && !had.has(p.name)) {
      values.set(p.name, await askRequired(`${question}: `, `--parameter ${p.name}=<value>`))
    } else if (flags.alwaysPrompt === true && p.mutable === true) {
      const was = had.get(p.name) ?? p.default_value ?? ""
      const answer = (await ask(`${question} [${was}]: `))?.trim()
      if (answer !== undefined && answer !== "") values.set(p.name, answer)
    }
  }
  const started = await startBuild(client, w, {
    transition: "start",
    template_version_id: template.active_version_id,
    rich_parameter_values: [...values].map(([name, value]) => ({ name, value }))
  })
  await waitForBuild(client, started.id, progressOf(ctx))
  await finish(ctx, client, w, `The ${label(w)} workspace has been updated.`)
}
