/**
 * The README's start command runs packages/server/dist/main.mjs: the launcher compiling the
 * CommonJS bundle server.cjs with its code cache (scripts/build.mjs). The other server tests run a
 * bundle of the same sources in another form (bundles.ts, an ES module), so this test builds the
 * real one (scripts/server-bundle.mjs `buildServerScripts`, as build.mjs does, into a folder of its
 * own under dist, without the code cache) and runs it: the libraries it loads on first use (tar
 * for a starter template's archive, jose for a license; and the synchronous ones behind stand-ins,
 * scripts/lazy-libraries.mjs: YAML, zip, RE2, CEL, Handlebars, marked; pg on Postgres) must load
 * in it, and the stand-ins' libraries must not load before a request needs them (a preload given to
 * the process reports each library as it loads).
 */
import { zipSync } from "fflate"
import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { LAZY_LIBRARIES } from "../../../scripts/lazy-libraries.mjs"
import { buildServerScripts, bundleOptions } from "../../../scripts/server-bundle.mjs"
import { firstOwnerSession } from "./owner.js"
import { freePort, freshDatabase } from "./process.js"

const pgUrl = inject("workbayPgUrl")
const root = fileURLToPath(new URL("../../..", import.meta.url))
const dist = fileURLToPath(new URL("../dist", import.meta.url))

/** A preload for the server's process: a line on stderr as each library of the stand-ins loads. */
const loadReporter = (libraries: ReadonlyArray<string>) => `
const Module = require("node:module")
const load = Module._load
const watched = new Set(${JSON.stringify(libraries)})
Module._load = function (request) {
  if (watched.has(request)) process.stderr.write("lazy library loaded: " + request + "\\n")
  return load.apply(this, arguments)
}
`

/** A template of the built-in provisioner with a pattern (RE2) and an expression (CEL). */
const TEMPLATE_YAML = `parameters:
  - name: region
    default: eu
    validation: { regex: "^[a-z]+$", error: "Lowercase letters only." }
  - name: size
    dynamic:
      default: 'param.region == "eu" ? "small" : "large"'
`

/**
 * A preload for the server's process, run with `--allow-natives-syntax`: on SIGUSR2 it runs a small
 * function hot (2 million calls, no allocation) and writes V8's optimization status of it to stderr.
 */
const OPTIMIZATION_PROBE = `
function hot(x) { return x * 2 + 1 }
process.on("SIGUSR2", () => {
  let sum = 0
  for (let i = 0; i < 2e6; i++) sum = (sum + hot(i)) | 0
  process.stderr.write("optimization status: " + %GetOptimizationStatus(hot) + " " + sum + "\\n")
})
`
/** V8's status bit of a function TurboFan has optimized (src/runtime/runtime.h, OptimizationStatus). */
const TURBOFANNED = 1 << 6

/** The built server started with `args`, and the libraries of the stand-ins it has loaded so far. */
const startBuilt = async (
  main: string,
  preload: string,
  args: ReadonlyArray<string>,
  env: Record<string, string>,
  nodeArgs: ReadonlyArray<string> = []
) => {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const child = spawn(
    process.execPath,
    [...nodeArgs, main, "--port", String(port), "--host", "127.0.0.1", "--access-url", url, ...args],
    {
      env: { ...process.env, ...env, NODE_OPTIONS: `--require ${preload}` },
      stdio: ["ignore", "pipe", "pipe"]
    }
  )
  let output = ""
  child.stdout.on("data", (d) => (output += d))
  child.stderr.on("data", (d) => (output += d))
  const exited = new Promise((resolve) => child.on("exit", resolve))
  const stop = async () => {
    child.kill("SIGTERM")
    await exited
  }
  try {
    await new Promise<void>((resolve, reject) => {
      const check = setInterval(() => {
        if (/ready in \d+ ms/.test(output)) {
          clearInterval(check)
          resolve()
        }
        if (child.exitCode !== null) {
          clearInterval(check)
          reject(new Error(`the server exited:\n${output}`))
        }
      }, 50)
    })
  } catch (e) {
    await stop()
    throw e
  }
  // Each library once (a library may require another of them: pg requires pg-connection-string).
  const loaded = () => [...new Set([...output.matchAll(/lazy library loaded: (\S+)/g)].map((m) => m[1]!))].sort()
  /** The probe's status (OPTIMIZATION_PROBE, when preloaded): asked by a signal, read from stderr. */
  const optimizationStatus = async () => {
    const before = output.length
    child.kill("SIGUSR2")
    for (let i = 0; i < 600; i++) {
      const m = /optimization status: (\d+)/.exec(output.slice(before))
      if (m !== null) return Number(m[1])
      await new Promise((r) => setTimeout(r, 50))
    }
    throw new Error(`no optimization status from the server:\n${output}`)
  }
  return { url, loaded, optimizationStatus, stop }
}

describe("the built server (dist/main.mjs)", () => {
  let outdir: string
  let main: string
  let preload: string
  beforeAll(async () => {
    mkdirSync(dist, { recursive: true })
    // Under dist, so that what the bundle leaves out resolves from node_modules as in an install.
    outdir = mkdtempSync(join(dist, "test-built-"))
    await buildServerScripts(outdir, { ...bundleOptions, absWorkingDir: root })
    main = join(outdir, "main.mjs")
    preload = join(outdir, "report-loads.cjs")
    writeFileSync(preload, loadReporter(LAZY_LIBRARIES))
  })
  afterAll(() => rmSync(outdir, { recursive: true, force: true }))

  it("is an ASCII script, which the launcher reads as Latin-1", () => {
    const script = readFileSync(join(outdir, "server.cjs"))
    expect(script.findIndex((byte) => byte > 0x7f)).toBe(-1)
    // Text outside ASCII is escaped (the ellipsis of clipped texts).
    expect(script.includes(Buffer.from("\\u2026"))).toBe(true)
  })

  it("loads its on-demand libraries on their first use, none at start: templates, archives, a license, notifications", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "workbay-bundle-"))
    // The notifications' webhook: its body carries the title as plain text (marked).
    const hooks: Array<{ title: string; title_markdown: string }> = []
    const hook = createServer((req, res) => {
      let body = ""
      req.on("data", (d) => (body += d))
      req.on("end", () => {
        hooks.push(JSON.parse(body))
        res.end()
      })
    })
    await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve))
    const hookPort = (hook.address() as { port: number }).port
    const server = await startBuilt(main, preload, [
      "--data-dir",
      dataDir,
      "--docker",
      "off",
      "--notifications-fetch-interval",
      "1s",
      "--notifications-method",
      "webhook",
      "--notifications-webhook-endpoint",
      `http://127.0.0.1:${hookPort}/hook`
    ], { DATABASE_URL: "" })
    const { url, loaded } = server
    try {
      const token = await firstOwnerSession(url)
      // Started, its first user made and signed in: none of them yet.
      expect(loaded()).toEqual([])
      const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" }
      const api = async (method: string, path: string, body?: unknown) => {
        const r = await fetch(`${url}/api/v2${path}`, {
          method,
          headers,
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })
        return { status: r.status, body: (await r.json().catch(() => undefined)) as any }
      }
      const orgs = (await (await fetch(`${url}/api/v2/users/me/organizations`, { headers })).json()) as Array<
        { id: string }
      >
      const version = (await (await fetch(`${url}/api/v2/organizations/${orgs[0]!.id}/templateversions`, {
        method: "POST",
        headers,
        body: JSON.stringify({ storage_method: "file", example_id: "scaletest", provisioner: "workbay", tags: {} })
      })).json()) as { id: string }
      let job: { status: string; error?: string } = { status: "pending" }
      for (let i = 0; i < 200 && ["pending", "running"].includes(job.status); i++) {
        await new Promise((r) => setTimeout(r, 100))
        job = ((await (await fetch(`${url}/api/v2/templateversions/${version.id}`, { headers })).json()) as {
          job: typeof job
        }).job
      }
      expect(job).toMatchObject({ status: "succeeded" })
      // A license that is no JSON web token: refused by jose, loaded on this first use.
      const license = await fetch(`${url}/api/v2/licenses`, {
        method: "POST",
        headers,
        body: JSON.stringify({ license: "not.a.jwt" })
      })
      expect(license.status).toBe(400)

      // The starters' listing (their READMEs' YAML front matter).
      const examples = await api("GET", "/templates/examples")
      expect(examples.body.map((e: { id: string }) => e.id)).toContain("docker")
      // A zip upload (yauzl) of a template with a pattern (re2js) and an expression (cel-js).
      const upload = await fetch(`${url}/api/v2/files`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/zip" },
        body: zipSync({ "template.yaml": new TextEncoder().encode(TEMPLATE_YAML) })
      })
      expect(upload.status).toBe(201)
      const fileId = ((await upload.json()) as { hash: string }).hash
      const zipped = await api("POST", `/organizations/${orgs[0]!.id}/templateversions`, {
        storage_method: "file",
        file_id: fileId,
        provisioner: "workbay",
        tags: {}
      })
      expect(zipped.status).toBe(201)
      for (let i = 0; i < 200 && ["pending", "running"].includes(zipped.body.job.status); i++) {
        await new Promise((r) => setTimeout(r, 100))
        zipped.body = (await api("GET", `/templateversions/${zipped.body.id}`)).body
      }
      expect(zipped.body.job).toMatchObject({ status: "succeeded" })
      const template = await api("POST", `/organizations/${orgs[0]!.id}/templates`, {
        name: "lazy",
        template_version_id: zipped.body.id
      })
      expect(template.status).toBe(201)
      const create = (region: string) =>
        api("POST", "/users/me/workspaces", {
          name: `w-${region.toLowerCase()}`,
          template_id: template.body.id,
          rich_parameter_values: [{ name: "region", value: region }]
        })
      // The pattern refuses, the expression gives the default: both ran.
      const refused = await create("EU")
      expect(refused.status).toBe(400)
      expect(JSON.stringify(refused.body)).toContain("Lowercase letters only.")
      const created = await create("us")
      expect(created.status).toBe(200)
      const params = await api("GET", `/workspacebuilds/${created.body.latest_build.id}/parameters`)
      expect(params.body).toContainEqual({ name: "size", value: "large" })

      // A notification rendered (Handlebars), its markdown read as plain text (marked) for the webhook.
      expect((await api("POST", "/notifications/test")).status).toBe(200)
      const test = () => hooks.find((h) => /test/i.test(h.title_markdown))
      for (let i = 0; i < 300 && test() === undefined; i++) await new Promise((r) => setTimeout(r, 100))
      expect(test()!.title).toMatch(/test/i)

      // Each library loaded once a request needed it; the ones the server never calls did not.
      expect(loaded()).toEqual(
        ["@marcbachmann/cel-js", "handlebars", "marked", "re2js", "yaml", "yauzl"].sort()
      )
    } finally {
      await server.stop()
      hook.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  // The launcher (launch.ts) keeps V8's optimizing compilers off through the start and while the
  // server idles, and turns them on once it works: the idle server does not hold them.
  it("optimizes no code while it idles, and optimizes once it serves a load", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "workbay-bundle-"))
    const probe = join(outdir, "probe-optimization.cjs")
    writeFileSync(probe, OPTIMIZATION_PROBE)
    const server = await startBuilt(
      main,
      preload,
      ["--data-dir", dataDir, "--docker", "off", "--api-rate-limit", "0"],
      {
        DATABASE_URL: ""
      },
      ["--allow-natives-syntax", "--require", probe]
    )
    try {
      const started = Date.now()
      // Started, past the start's settling (2 s) and a moment of quiet, before any request (the
      // first user's password hashing, landing after the settling on a slow machine, is work
      // that turns the compilers on): a hot function stays unoptimized.
      await new Promise((r) => setTimeout(r, Math.max(500, started + 3_000 - Date.now())))
      expect((await server.optimizationStatus()) & TURBOFANNED).toBe(0)
      const token = await firstOwnerSession(server.url)
      // A load: 20 clients reading their user, 100 requests each.
      const me = async () => {
        for (let i = 0; i < 100; i++) {
          const r = await fetch(`${server.url}/api/v2/users/me`, { headers: { authorization: `Bearer ${token}` } })
          expect(r.status).toBe(200)
          await r.arrayBuffer()
        }
      }
      await Promise.all(Array.from({ length: 20 }, me))
      expect((await server.optimizationStatus()) & TURBOFANNED).toBe(TURBOFANNED)
    } finally {
      await server.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  // On Postgres the storage needs pg (and pg-connection-string) at start; on SQLite neither loads.
  it.skipIf(pgUrl === null)("loads pg for a Postgres database, and serves from it", async () => {
    const db = await freshDatabase(pgUrl!)
    const server = await startBuilt(main, preload, ["--docker", "off"], { DATABASE_URL: db.url })
    try {
      const token = await firstOwnerSession(server.url)
      const me = await fetch(`${server.url}/api/v2/users/me`, { headers: { authorization: `Bearer ${token}` } })
      expect(me.status).toBe(200)
      expect(server.loaded()).toEqual(["pg", "pg-connection-string"])
    } finally {
      await server.stop()
      await db.drop()
    }
  })
})
