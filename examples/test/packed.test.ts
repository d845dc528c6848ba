/**
 * Workbay as a dependency, the way an application gets it: build and `npm pack` the library
 * packages, install the tarballs into a new application outside the repository, run the
 * README's embedding example there with plain `node` (no TypeScript loader), and type-check
 * TypeScript against the published declarations.
 *
 * better-sqlite3 is installed with --ignore-scripts and given the addon this repository
 * already compiled (same package version, same Node): what a prebuilt binary provides.
 * Compiling it here costs about two and a half minutes on a 2-core machine, where the prebuilt
 * download is unreachable. WORKBAY_PACKED_COMPILE=1 installs it the ordinary way instead.
 *
 * Building, packing and installing take about 40 s. The installed application is kept in
 * node_modules/.cache/workbay-packed under a hash of everything that goes into it (the library
 * packages' files, the root manifests and lock file, this file, Node's version), so a clean clone
 * (CI) does it all once and a run on an unchanged tree starts from a copy of the kept application
 * (hard links, in a new folder outside the repository as before: Node and tsc resolve nothing from
 * the repository's node_modules). The tests themselves run on every run.
 */
import { execFile, spawn } from "node:child_process"
import { createHash } from "node:crypto"
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync
} from "node:fs"
import { createRequire } from "node:module"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../..", import.meta.url))
const requireFromRoot = createRequire(join(root, "package.json"))
const libraries = ["core", "storage-sql", "storage-sqlite", "storage-postgres", "http", "docker", "client"]
const compile = process.env.WORKBAY_PACKED_COMPILE === "1"

/** The README's "Embedding" example: the first js block of that section. */
const readmeExample = () => {
  const match = /^## Embedding\n[\s\S]*?^```js\n([\s\S]*?)^```$/m.exec(readFileSync(join(root, "README.md"), "utf8"))
  if (match?.[1] === undefined) throw new Error("README.md has no ```js block under \"## Embedding\"")
  return match[1]
}

/** npm settings that say where packages come from: the only npm_* variables kept. */
const kept = /^npm_config_(cache|registry|userconfig|globalconfig|cafile|nodedir|proxy|https_proxy|noproxy)$/i

/**
 * The environment without npm's other variables: under `npm test` they describe this
 * repository (npm_config_local_prefix, npm_package_*, the workspace), and an npm started
 * in the application must not act on them.
 */
const env = (extra: Record<string, string> = {}) => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => kept.test(k) || !/^(npm_|init_cwd$)/i.test(k))),
  ...extra
})

const run = async (command: string, args: ReadonlyArray<string>, cwd: string) => {
  try {
    return (await promisify(execFile)(command, args, { cwd, env: env(), maxBuffer: 64 << 20 })).stdout
  } catch (e) {
    const { stdout, stderr } = e as { stdout?: string; stderr?: string }
    throw new Error(`${command} ${args.join(" ")} failed in ${cwd}:\n${stdout ?? ""}\n${stderr ?? ""}`)
  }
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

const versionOf = (packageJson: string): string => JSON.parse(readFileSync(packageJson, "utf8")).version

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`

const filesUnder = (dir: string, skip: ReadonlySet<string>): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    skip.has(entry.name)
      ? []
      : entry.isDirectory()
      ? filesUnder(join(dir, entry.name), skip)
      : [join(dir, entry.name)]
  )

/**
 * Under `npm test` (scripts/test.mjs) the type check runs beside the tests and builds the library
 * packages as it checks them (tsconfig.check.json); WORKBAY_TYPECHECK_DONE names the file it writes
 * its exit code to when it ends. Building them here at the same time would write the same files
 * twice, so this waits for it; a failed type check fails this test (its output is printed with the
 * type check's). Run alone (`npx vitest run examples/test/packed.test.ts`), nothing to wait for.
 */
const typeCheckBuilt = async () => {
  const done = process.env.WORKBAY_TYPECHECK_DONE
  if (done === undefined || done === "") return
  while (!existsSync(done)) await new Promise((resolve) => setTimeout(resolve, 250))
  const code = readFileSync(done, "utf8").trim()
  if (code !== "0") throw new Error(`the type check, which builds the packages, failed (exit ${code}): see its output`)
}

/** A hash of everything the installed application is made from (see the comment at the top). */
const inputsHash = () => {
  const hash = createHash("sha256").update(`${process.version} ${compile}\0`)
  const files = [
    ...libraries.flatMap((l) =>
      filesUnder(join(root, "packages", l), new Set(["dist", "node_modules", "test", "vitest.config.ts"]))
    ),
    ...["package.json", "package-lock.json", "tsconfig.json", "tsconfig.build.json", "tsconfig.check.json"].map((f) =>
      join(root, f)
    ),
    fileURLToPath(import.meta.url)
  ].sort()
  for (const file of files) hash.update(relative(root, file)).update("\0").update(readFileSync(file)).update("\0")
  return hash.digest("hex").slice(0, 16)
}

const cacheRoot = join(root, "node_modules/.cache/workbay-packed")

/** Copies `from` to `to` as hard links (no data copied; the same file system), else as a plain copy. */
const linkCopy = async (from: string, to: string) => {
  try {
    await promisify(execFile)("cp", ["-al", from, to])
  } catch {
    rmSync(to, { recursive: true, force: true })
    cpSync(from, to, { recursive: true })
  }
}

describe("packed packages", () => {
  let work = ""
  let app = ""
  // The README example's server and its admin's token, once the first test started it.
  let base = ""
  let adminToken = ""
  const stopApp: Array<() => Promise<unknown>> = []

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "workbay-packed-"))
    app = join(work, "app")
    const sqliteVersion = versionOf(requireFromRoot.resolve("better-sqlite3/package.json"))
    const cached = join(cacheRoot, inputsHash())
    if (existsSync(join(cached, ".complete"))) {
      const since = performance.now()
      await linkCopy(join(cached, "app"), app)
      expect(versionOf(join(app, "node_modules/better-sqlite3/package.json"))).toBe(sqliteVersion)
      console.log(`installed the application from ${relative(root, cached)} in ${seconds(since)}`)
      return
    }
    let since = performance.now()
    await typeCheckBuilt()
    // One tsc process builds the five packages in a third of the time of five prepack runs
    // (it parses effect's declarations once); each prepack then finds its package up to date.
    // Under `npm test` the type check has built them already, and this finds them up to date.
    await run("npm", ["run", "build:packages"], root)
    console.log(`built the packages in ${seconds(since)}`)
    since = performance.now()
    const packed = JSON.parse(
      await run(
        "npm",
        ["pack", "--json", "--pack-destination", work, ...libraries.flatMap((l) => ["--workspace", `packages/${l}`])],
        root
      )
    ) as Array<{ filename: string }>
    console.log(`packed ${packed.length} packages in ${seconds(since)}`)

    // Pinned to the repository's versions: the addon copied below must match its JavaScript,
    // and @types/node comes from the npm cache like every other package here.
    const typesNodeVersion = versionOf(requireFromRoot.resolve("@types/node/package.json"))
    mkdirSync(app)
    writeFileSync(
      join(app, "package.json"),
      JSON.stringify({ name: "workbay-packed-app", private: true, type: "module" })
    )
    since = performance.now()
    await run(
      "npm",
      [
        "install",
        ...packed.map((p) => join(work, p.filename)),
        `better-sqlite3@${sqliteVersion}`,
        `@types/node@${typesNodeVersion}`,
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        ...(compile ? [] : ["--ignore-scripts"])
      ],
      app
    )
    if (!compile) {
      const addon = "build/Release/better_sqlite3.node"
      const from = join(dirname(requireFromRoot.resolve("better-sqlite3/package.json")), addon)
      const to = join(app, "node_modules/better-sqlite3", addon)
      mkdirSync(dirname(to), { recursive: true })
      cpSync(from, to)
    }
    expect(versionOf(join(app, "node_modules/better-sqlite3/package.json"))).toBe(sqliteVersion)
    console.log(`installed the tarballs in ${seconds(since)}${compile ? " (compiling better-sqlite3)" : ""}`)

    // Kept for the next run (only what the install made: the tests write their files after).
    // Written aside and renamed into place, the older entries removed.
    mkdirSync(cacheRoot, { recursive: true })
    const partial = join(cacheRoot, `partial-${process.pid}`)
    rmSync(partial, { recursive: true, force: true })
    mkdirSync(partial)
    await linkCopy(app, join(partial, "app"))
    writeFileSync(join(partial, ".complete"), "")
    for (const old of readdirSync(cacheRoot).filter((name) => join(cacheRoot, name) !== partial)) {
      rmSync(join(cacheRoot, old), { recursive: true, force: true })
    }
    renameSync(partial, cached)
  })

  afterAll(async () => {
    for (const stop of stopApp) await stop()
    if (work !== "") rmSync(work, { recursive: true, force: true })
  })

  it("run the README's embedding example with plain node", async () => {
    writeFileSync(join(app, "app.mjs"), readmeExample())
    const port = await freePort()
    const since = performance.now()
    const child = spawn(process.execPath, ["app.mjs"], {
      cwd: app,
      env: env({ PORT: String(port), NODE_OPTIONS: "" }),
      stdio: ["ignore", "pipe", "pipe"]
    })
    const exited = new Promise((resolve) => child.once("exit", resolve))
    stopApp.push(() => (child.kill("SIGTERM"), exited))
    let output = ""
    child.stdout.on("data", (d) => (output += d))
    child.stderr.on("data", (d) => (output += d))

    base = `http://127.0.0.1:${port}`
    for (;;) {
      if (child.exitCode !== null) throw new Error(`node app.mjs exited with ${child.exitCode}:\n${output}`)
      const health = await fetch(`${base}/healthz`).catch(() => undefined)
      if (health?.ok) break
      if (performance.now() - since > 30_000) throw new Error(`node app.mjs did not answer within 30 s:\n${output}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    console.log(`node app.mjs answered in ${seconds(since)}`)

    const json = { "Content-Type": "application/json" }
    const account = { email: "admin@example.com", username: "admin", password: "Correct-Horse-Battery-9" }
    const first = await fetch(`${base}/api/v2/users/first`, {
      method: "POST",
      headers: json,
      body: JSON.stringify(account)
    })
    expect(first.status).toBe(201)
    const login = await fetch(`${base}/api/v2/users/login`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ email: account.email, password: account.password })
    })
    expect(login.status).toBe(201)
    const { session_token } = (await login.json()) as { session_token: string }
    adminToken = session_token
    const me = await fetch(`${base}/api/v2/users/me`, { headers: { "Service-Session-Token": session_token } })
    expect(me.status).toBe(200)
    expect(await me.json()).toMatchObject({ username: "admin", email: "admin@example.com" })

    // The starter templates ship inside the package: listed, and a version made from one imports.
    const auth = { "Service-Session-Token": session_token }
    const examples = await fetch(`${base}/api/v2/templates/examples`, { headers: auth })
    expect(examples.status).toBe(200)
    expect(((await examples.json()) as Array<{ id: string }>).map((e) => e.id)).toContain("basic")
    const created = await fetch(`${base}/api/v2/organizations/default/templateversions`, {
      method: "POST",
      headers: { ...json, ...auth },
      body: JSON.stringify({ storage_method: "file", example_id: "basic", provisioner: "terraform", tags: {} })
    })
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as { id: string }
    let status = ""
    for (let i = 0; i < 200 && !["succeeded", "failed", "canceled"].includes(status); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      const version = await fetch(`${base}/api/v2/templateversions/${id}`, { headers: auth })
      status = ((await version.json()) as { job: { status: string } }).job.status
    }
    expect(status).toBe("succeeded")
  })

  it("call that server with @workbay/client from plain node, refusals read into an ApiError", async () => {
    expect(adminToken).not.toBe("")
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { ApiError, makeClient, unwrap } from "@workbay/client"
const client = makeClient({ url: process.env.BASE, token: process.env.TOKEN })
const me = await unwrap(client.GET("/api/v2/users/{user}", { params: { path: { user: "me" } } }))
const missing = await unwrap(client.GET("/api/v2/templates/{template}", {
  params: { path: { template: "00000000-0000-4000-8000-000000000000" } }
})).catch((e) => e)
console.log(me.username, missing instanceof ApiError, missing.status)`
      ],
      { cwd: app, env: env({ NODE_OPTIONS: "", BASE: base, TOKEN: adminToken }) }
    )
    expect(stdout.trim()).toBe("admin true 404")
  })

  it("make the docker provisioner with plain node, from @workbay/docker's dist", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { dockerClient, makeDockerProvisioner } from "@workbay/docker"
const p = makeDockerProvisioner({ docker: dockerClient({ host: "unix:///nonexistent.sock" }) })
console.log(p.type, typeof p.import, typeof p.build)`
      ],
      { cwd: app, env: env({ NODE_OPTIONS: "" }) }
    )
    expect(stdout.trim()).toBe("docker function function")
  })

  it("type-check TypeScript against their declarations", async () => {
    // The README example as TypeScript, and uses whose @ts-expect-error lines fail if a type decays to any.
    writeFileSync(join(app, "readme.ts"), readmeExample())
    writeFileSync(
      join(app, "check.ts"),
      `import { makeClient, type Schemas } from "@workbay/client"
import { NullUuid } from "@workbay/core"
import { makeWorkbay, type Workbay } from "@workbay/http"
import * as Postgres from "@workbay/storage-postgres"
import type { StoragePorts } from "@workbay/storage-sql"
import * as Sqlite from "@workbay/storage-sqlite"

const workbay: Workbay = await makeWorkbay(Sqlite.layer({ filename: ":memory:" }), { retention: false })
const response: Response = await workbay.web(new Request("http://localhost/api/v2/buildinfo"))
const id: NullUuid = NullUuid.of("3f1e8d4c-7a2b-4c1d-9e8f-0a1b2c3d4e5f")
export const used: ReadonlyArray<unknown> = [response, id, Postgres.layer({ url: "postgres://db/workbay" })]
export type Ports = StoragePorts

// @ts-expect-error the SQLite layer needs a filename
Sqlite.layer({})
// @ts-expect-error settings are typed
await makeWorkbay(Sqlite.layerMemory, { settings: { accessUrl: 3000 } })
// @ts-expect-error a handler, not a number
export const port: number = workbay.node

const client = makeClient({ url: "http://localhost", token: () => "token" })
export const me: Promise<Schemas["User"] | undefined> = client
  .GET("/api/v2/users/{user}", { params: { path: { user: "me" } } })
  .then((answer) => answer.data)
// @ts-expect-error a route the API does not have
export const nowhere = client.GET("/api/v2/no-such-route")
// @ts-expect-error a field the User does not have
export const field = (user: Schemas["User"]) => user.no_such_field
`
    )
    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          exactOptionalPropertyTypes: true,
          // Check the published .d.ts files too, not only this application's code.
          skipLibCheck: false,
          noEmit: true,
          types: ["node"]
        },
        files: ["readme.ts", "check.ts"]
      })
    )
    const since = performance.now()
    await run(process.execPath, [requireFromRoot.resolve("typescript/bin/tsc"), "-p", "tsconfig.json"], app)
    console.log(`tsc checked the application in ${seconds(since)}`)
  })
})
