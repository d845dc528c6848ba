/**
 * `templates list` and `templates push`, as the described system's cli/templatelist.go and
 * templatepush.go: push packs a folder as a tar archive (`POST /files`), imports it as a new
 * version (`POST /organizations/{org}/templateversions`) while following the import's logs,
 * then creates the template (`POST /organizations/{org}/templates`) or makes the version the
 * existing template's active one (`PATCH /templates/{id}/versions`).
 */
import { type Schemas, settle, unwrap } from "@workbay/client"
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs"
import { basename, resolve } from "node:path"
import { create as tarCreate, extract as tarExtract } from "tar"
import { parse as parseYaml } from "yaml"
import { checkJob, followLogs, logPrinter, untilFinished } from "../Builds.js"
import type { Client } from "../Client.js"
import type { Context } from "../Context.js"
import { CliError, usageError } from "../Errors.js"
import { organizationOf } from "../Lookup.js"
import { ago, printJson, printTable } from "../Output.js"
import { confirm } from "../Prompt.js"

export const list = async (ctx: Context) => {
  const client = ctx.client()
  const templates = await unwrap(client.rest.GET("/api/v2/templates"))
  if (ctx.output === "json") return printJson(templates)
  printTable(
    ["name", "organization", "last updated", "used by"],
    templates.map((t) => [
      t.name,
      t.organization_name ?? t.organization_id ?? "",
      ago(t.updated_at),
      `${t.active_user_count ?? 0} developer${t.active_user_count === 1 ? "" : "s"}`
    ]),
    "templates"
  )
}

/** Folders and files never packed: version control and editor leftovers. */
const SKIPPED = new Set([".git", ".hg", ".svn", "node_modules", ".DS_Store"])

/** The folder as a tar archive of its files (paths relative to it, owners and times left out). */
export const packFolder = async (dir: string): Promise<Uint8Array> => {
  const entries = readdirSync(dir).filter((e) => !SKIPPED.has(e)).sort()
  if (entries.length === 0) throw new CliError(`${dir} is empty: nothing to push.`)
  const pack = tarCreate({ cwd: dir, portable: true, filter: (path) => !SKIPPED.has(basename(path)) }, entries)
  const chunks: Array<Buffer> = []
  for await (const chunk of pack) chunks.push(Buffer.from(chunk as Uint8Array))
  return Buffer.concat(chunks)
}

/**
 * The template variables' values of `--variables-file` (a YAML map of names to values; numbers
 * and booleans are written as the service reads them, `4`, `true`) and of each `--variable
 * name=value`, which wins over the file, as the described system's cli/templatevariables.go merges them.
 */
export const variableValues = (file: string | undefined, pairs: ReadonlyArray<string>) => {
  const values = new Map<string, string>()
  if (file !== undefined) {
    let doc: unknown
    try {
      doc = parseYaml(readFileSync(file, "utf8"))
    } catch (e) {
      throw new CliError(`Could not read ${file}: ${e instanceof Error ? e.message : e}`, 2)
    }
    if (doc !== null && doc !== undefined) {
      if (typeof doc !== "object" || Array.isArray(doc)) {
        throw new CliError(`${file} must be a map of template variable names to values.`, 2)
      }
      for (const [name, value] of Object.entries(doc as Record<string, unknown>)) {
        if (value !== null && typeof value === "object") {
          throw new CliError(`${file}: the value of ${name} must be a string, a number or a boolean.`, 2)
        }
        values.set(name, value === null ? "" : String(value))
      }
    }
  }
  for (const pair of pairs) {
    const i = pair.indexOf("=")
    if (i <= 0) throw usageError(`--variable takes name=value, not "${pair}".`)
    values.set(pair.slice(0, i), pair.slice(i + 1))
  }
  return [...values].map(([name, value]) => ({ name, value }))
}

export interface PushFlags {
  readonly name?: string
  readonly versionName?: string
  readonly message?: string
  readonly variable: ReadonlyArray<string>
  readonly variablesFile?: string
  readonly provisioner: string
  readonly activate: boolean
  readonly org?: string
}

export const push = async (ctx: Context, dirArg: string | undefined, flags: PushFlags) => {
  const client = ctx.client()
  const dir = resolve(dirArg ?? ".")
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw usageError(`${dir} is not a folder.`)
  const name = flags.name ?? basename(dir)
  const variables = variableValues(flags.variablesFile, flags.variable)
  const org = await organizationOf(client, flags.org)
  const { data: template } = await settle(
    client.rest.GET("/api/v2/organizations/{organization}/templates/{templatename}", {
      params: { path: { organization: org.id, templatename: name } }
    }),
    [404]
  )
  const out = ctx.output === "json" ? process.stderr : process.stdout

  const archive = await packFolder(dir)
  const file = await unwrap(
    client.rest.POST("/api/v2/files", {
      // The archive's bytes as they are: the generated body type is the schema's string (binary).
      body: archive as unknown as string,
      bodySerializer: (body) => body,
      headers: { "Content-Type": "application/x-tar" }
    })
  )
  const version = await unwrap(
    client.rest.POST("/api/v2/organizations/{organization}/templateversions", {
      params: { path: { organization: org.id } },
      body: {
        storage_method: "file",
        file_id: file.hash,
        provisioner: flags.provisioner,
        ...(flags.versionName === undefined ? {} : { name: flags.versionName }),
        ...(flags.message === undefined ? {} : { message: flags.message }),
        ...(template === undefined ? {} : { template_id: template.id }),
        ...(variables.length === 0 ? {} : { user_variable_values: variables })
      }
    })
  )
  await followLogs(client, `/templateversions/${version.id}/logs`, logPrinter(out))
  const imported = await untilFinished(() =>
    unwrap(
      client.rest.GET("/api/v2/templateversions/{templateversion}", {
        params: { path: { templateversion: version.id } }
      })
    )
  )
  checkJob(imported.job, "The template version's import")

  let result: Schemas["Template"]
  if (template === undefined) {
    result = await unwrap(
      client.rest.POST("/api/v2/organizations/{organization}/templates", {
        params: { path: { organization: org.id } },
        body: { name, template_version_id: version.id }
      })
    )
    out.write(`Template ${name} created with version ${imported.name}.\n`)
  } else if (flags.activate) {
    await unwrap(
      client.rest.PATCH("/api/v2/templates/{template}/versions", {
        params: { path: { template: template.id } },
        body: { id: version.id }
      })
    )
    result = await unwrap(
      client.rest.GET("/api/v2/templates/{template}", { params: { path: { template: template.id } } })
    )
    out.write(`Template ${name} updated: version ${imported.name} is now active.\n`)
  } else {
    result = template
    out.write(`Template ${name}: version ${imported.name} pushed (not made active).\n`)
  }
  if (ctx.output === "json") printJson(result)
}

type TemplateVersion = Schemas["TemplateVersion"]

/** The template `name` of the organization (`--org`, else the caller's default). */
const templateNamed = async (client: Client, name: string, org: string | undefined) => {
  const organization = await organizationOf(client, org)
  return unwrap(
    client.rest.GET("/api/v2/organizations/{organization}/templates/{templatename}", {
      params: { path: { organization: organization.id, templatename: name } }
    })
  )
}

/** The template's versions, newest first. */
const versionsOf = async (client: Client, templateId: string, includeArchived = false) =>
  [
    ...(await unwrap(
      client.rest.GET("/api/v2/templates/{template}/versions", {
        params: { path: { template: templateId }, query: includeArchived ? { include_archived: "true" } : {} }
      })
    ))
  ].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at))

const versionNamed = (client: Client, templateId: string, name: string) =>
  unwrap(
    client.rest.GET("/api/v2/templates/{template}/versions/{templateversionname}", {
      params: { path: { template: templateId, templateversionname: name } }
    })
  )

export interface PullFlags {
  readonly version?: string
  readonly tar?: boolean
  readonly yes?: boolean
  readonly org?: string
}

/**
 * `templates pull <name> [dir]`: the active version's files (`--version latest` the newest,
 * `--version <name>` that one) extracted into `dir` (default: the template's name), or as a tar
 * archive on standard output with `--tar`. As the described system's cli/templatepull.go.
 */
export const pull = async (ctx: Context, name: string, dest: string | undefined, flags: PullFlags) => {
  const client = ctx.client()
  const template = await templateNamed(client, name, flags.org)
  const versions = await versionsOf(client, template.id)
  const latest = versions[0]
  if (latest === undefined) throw new CliError(`The template "${name}" has no versions.`)
  let version: TemplateVersion
  if (flags.version === undefined || flags.version === "active") {
    version = versions.find((v) => v.id === template.active_version_id) ??
      await unwrap(client.rest.GET("/api/v2/templateversions/{templateversion}", {
        params: { path: { templateversion: template.active_version_id } }
      }))
    if (flags.version === undefined && version.id !== latest.id) {
      process.stderr.write(
        "A newer template version than the active version exists. Pulling the active version instead.\n" +
          "Use --version latest to pull the latest version.\n"
      )
    }
  } else if (flags.version === "latest") version = latest
  else version = await versionNamed(client, template.id, flags.version)

  process.stderr.write(`Pulling template version ${version.name}...\n`)
  const answer = await client.rest.GET("/api/v2/files/{fileID}", {
    params: { path: { fileID: version.job.file_id } },
    parseAs: "arrayBuffer"
  })
  if (!answer.response.ok) await unwrap(Promise.resolve(answer))
  const archive = Buffer.from(answer.data as unknown as ArrayBuffer)
  const type = answer.response.headers.get("content-type") ?? ""
  if (!type.startsWith("application/x-tar")) {
    throw new CliError(`The version's files came as ${type || "nothing"}, not a tar archive.`)
  }
  if (flags.tar === true) {
    process.stdout.write(archive)
    return
  }
  const dir = resolve(dest ?? name)
  mkdirSync(dir, { recursive: true, mode: 0o750 })
  if (readdirSync(dir).length > 0) {
    const ok = await confirm(
      `Directory "${dest ?? name}" is not empty, existing files may be overwritten. Continue extracting?`,
      flags.yes === true
    )
    if (!ok) throw new CliError("Canceled.")
  }
  process.stderr.write(`Extracting template to "${dest ?? name}"\n`)
  // tar's extraction keeps every entry inside `dir` (no absolute paths, no `..`, no links out).
  await new Promise<void>((done, fail) => {
    const extract = tarExtract({ cwd: dir, strict: true })
    extract.on("error", fail)
    extract.on("close", () => done())
    extract.end(archive)
  })
}

export const versionsList = async (
  ctx: Context,
  name: string,
  flags: { readonly includeArchived?: boolean; readonly org?: string }
) => {
  const client = ctx.client()
  const template = await templateNamed(client, name, flags.org)
  const versions = await versionsOf(client, template.id, flags.includeArchived === true)
  if (ctx.output === "json") return printJson(versions)
  const title = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)
  printTable(
    ["name", "created at", "created by", "status", "active", ...(flags.includeArchived === true ? ["archived"] : [])],
    versions.map((v) => [
      v.name,
      v.created_at,
      v.created_by?.username ?? "",
      title(v.job.status),
      v.id === template.active_version_id ? "Active" : "",
      ...(flags.includeArchived === true ? [v.archived ? "Archived" : ""] : [])
    ]),
    "template versions"
  )
}

/** `templates versions archive|unarchive <template> <version...>`: each named version. */
export const setVersionsArchived = async (
  ctx: Context,
  name: string,
  versionNames: ReadonlyArray<string>,
  archived: boolean,
  flags: { readonly org?: string }
) => {
  const client = ctx.client()
  const template = await templateNamed(client, name, flags.org)
  for (const versionName of versionNames) {
    const version = await versionNamed(client, template.id, versionName)
    const path = { params: { path: { templateversion: version.id } } }
    await unwrap(
      archived
        ? client.rest.POST("/api/v2/templateversions/{templateversion}/archive", path)
        : client.rest.POST("/api/v2/templateversions/{templateversion}/unarchive", path)
    )
    process.stdout.write(`Version ${version.name} ${archived ? "archived" : "unarchived"}.\n`)
  }
}

/**
 * `templates archive <template...>`: each template's unused versions whose import failed (`--all`:
 * every unused version), as the described system's `coder templates archive`.
 */
export const archiveUnused = async (
  ctx: Context,
  names: ReadonlyArray<string>,
  flags: { readonly all?: boolean; readonly org?: string }
) => {
  const client = ctx.client()
  for (const name of names) {
    const template = await templateNamed(client, name, flags.org)
    const { archived_ids } = await unwrap(
      client.rest.POST("/api/v2/templates/{template}/versions/archive", {
        params: { path: { template: template.id } },
        body: { all: flags.all === true }
      })
    )
    process.stdout.write(
      `Archived ${archived_ids.length} version${archived_ids.length === 1 ? "" : "s"} of ${template.name}.\n`
    )
  }
}
