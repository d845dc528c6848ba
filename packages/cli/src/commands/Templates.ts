/**
 * `templates list` and `templates push`, as the described system's cli/templatelist.go and
 * templatepush.go: push packs a folder as a tar archive (`POST /files`), imports it as a new
 * version (`POST /organizations/{org}/templateversions`) while following the import's logs,
 * then creates the template (`POST /organizations/{org}/templates`) or makes the version the
 * existing template's active one (`PATCH /templates/{id}/versions`).
 */
import { type Schemas, settle, unwrap } from "@workbay/client"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { basename, resolve } from "node:path"
import { create as tarCreate } from "tar"
import { parse as parseYaml } from "yaml"
import { checkJob, followLogs, logPrinter, untilFinished } from "../Builds.js"
import type { Context } from "../Context.js"
import { CliError, usageError } from "../Errors.js"
import { organizationOf } from "../Lookup.js"
import { ago, printJson, printTable } from "../Output.js"

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
