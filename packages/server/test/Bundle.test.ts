/**
 * The README's start command runs packages/server/dist/main.mjs: the launcher compiling the
 * CommonJS bundle server.cjs with its code cache (scripts/build.mjs). The other server tests run a
 * bundle of the same sources in another form (bundles.ts, an ES module), so this test builds the
 * real one (scripts/server-bundle.mjs `buildServerScripts`, as build.mjs does, into a folder of its
 * own under dist, without the code cache) and runs it: the libraries it loads on first use (tar
 * for a starter template's archive, jose for a license) must load in it.
 */
import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { buildServerScripts, bundleOptions } from "../../../scripts/server-bundle.mjs"
import { firstOwnerSession } from "./owner.js"
import { freePort } from "./process.js"

const root = fileURLToPath(new URL("../../..", import.meta.url))
const dist = fileURLToPath(new URL("../dist", import.meta.url))

describe("the built server (dist/main.mjs)", () => {
  it("loads its on-demand libraries: a starter template's archive, a license", async () => {
    mkdirSync(dist, { recursive: true })
    // Under dist, so that what the bundle leaves out resolves from node_modules as in an install.
    const outdir = mkdtempSync(join(dist, "test-built-"))
    await buildServerScripts(outdir, { ...bundleOptions, absWorkingDir: root })
    const main = join(outdir, "main.mjs")
    const dataDir = mkdtempSync(join(tmpdir(), "workbay-bundle-"))
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    const child = spawn(
      process.execPath,
      [
        main,
        "--port",
        String(port),
        "--host",
        "127.0.0.1",
        "--access-url",
        url,
        "--data-dir",
        dataDir,
        "--docker",
        "off"
      ],
      { env: { ...process.env, DATABASE_URL: "" }, stdio: ["ignore", "pipe", "pipe"] }
    )
    let output = ""
    child.stdout.on("data", (d) => (output += d))
    child.stderr.on("data", (d) => (output += d))
    const exited = new Promise((resolve) => child.on("exit", resolve))
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
      const token = await firstOwnerSession(url)
      const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" }
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
    } finally {
      child.kill("SIGTERM")
      await exited
      rmSync(dataDir, { recursive: true, force: true })
      rmSync(outdir, { recursive: true, force: true })
    }
  })
})
