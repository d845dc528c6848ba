// Workspaces created at once on three Docker hosts vs on one (issue 43; node --conditions=@workbay/source
// --import tsx bench/hosts-burst.ts). Not a test: it measures and reports.
//
// For each layout, a fresh service in process on a SQLite file (no Docker provisioner of its own) and
// one `workbay provisioner start` daemon per host (--concurrency 3 each): one host (this machine's
// engine), then three (it and two more engines started here, bench/dockerHosts.ts). --burst
// workspaces of the Docker starter (1 GiB each: on one host they must fit one machine's memory, 24
// GiB here) are asked at once; the time from the first request to the last agent `ready`, and the
// latency of GET /users/me (one client, in a loop) meanwhile beside the same with nothing running.
// All engines share this machine's two cores: three hosts here add the daemons' parallelism (three
// times the jobs at once), not three machines' CPUs; on real hosts the containers' own start-up
// would also run side by side. Writes bench/results/hosts-burst.md. Options: --burst 20 --no-write.
import Docker from "dockerode"
import type { ChildProcess } from "node:child_process"
import { randomUUID } from "node:crypto"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { nodeLessImage } from "../packages/agent/test/DockerImage.js"
import { bundleCli } from "../packages/cli/test/support.js"
import { cleanUp } from "../packages/docker/test/support.js"
import { buildAgentBinaries } from "../scripts/executables.mjs"
import { controlPlane, copyImage, type Engine, startDaemon, startEngine } from "./dockerHosts.js"
import { percentile } from "./dockerWorld.js"
import { fmt, logger, machineLine, request, sleep, writeReport } from "./lib.mjs"

const { values: opts } = parseArgs({
  options: { burst: { type: "string", default: "20" }, "no-write": { type: "boolean", default: false } }
})
const burst = Number(opts.burst)
const log = logger("hosts-burst")
const startedAt = new Date()
const load0 = loadavg()
const dir = mkdtempSync(join(tmpdir(), "workbay-bench-hosts-"))
const main = new Docker({ socketPath: "/var/run/docker.sock" })
const extra: Array<Engine> = []
const children: Array<ChildProcess> = []
const deployments: Array<string> = []

const run = async (hostCount: number, image: string, binDir: string, cli: string) => {
  const deploymentId = randomUUID()
  deployments.push(deploymentId)
  const home = join(dir, `layout-${hostCount}`)
  mkdirSync(home)
  const plane = await controlPlane(home, deploymentId, binDir)
  const { get, json, key, orgId, post, url } = plane
  await request(`${plane.base}/groups/${orgId}`, {
    method: "PATCH",
    headers: json,
    body: JSON.stringify({ quota_allowance: 1000 })
  })
  const sockets = ["/var/run/docker.sock", ...extra.map((e) => e.socket)].slice(0, hostCount)
  const mine = sockets.map((socket, i) =>
    startDaemon(cli, {
      url,
      key,
      name: `host-${i + 1}`,
      socket,
      home,
      extra: ["--docker-network", "host", "--agent-url", url, "--concurrency", "3"]
    })
  )
  children.push(...mine)
  await plane.hostsConnected(hostCount)
  const template = await plane.dockerTemplate("docker", {
    example_id: "docker",
    user_variable_values: [{ name: "image", value: image }]
  })

  const meLatency = async (until: () => boolean, max = Infinity) => {
    const times: Array<number> = []
    while (!until() && times.length < max) {
      const t0 = performance.now()
      await get("/users/me")
      times.push(performance.now() - t0)
    }
    return times
  }
  const idle = await meLatency(() => false, 300)

  let done = false
  const t0 = performance.now()
  const during = meLatency(() => done)
  const ids = await Promise.all(Array.from({ length: burst }, async (_, i) => {
    const r = await post(`/organizations/${orgId}/members/me/workspaces`, {
      name: `w${i}`,
      template_id: template.id,
      rich_parameter_values: [{ name: "memory", value: "1" }]
    })
    if (r.status !== 200) throw new Error(`create w${i}: ${r.status} ${JSON.stringify(r.body)}`)
    return r.body.id as string
  }))
  const placed: Record<string, number> = {}
  await Promise.all(ids.map(async (id) => {
    for (let i = 0;; i++) {
      const w = (await get(`/workspaces/${id}`)).body
      if (w.latest_build.status === "failed") throw new Error(`build failed: ${w.latest_build.job.error}`)
      const agent = (w.latest_build.resources ?? []).flatMap((r: any) => r.agents ?? [])[0]
      if (w.latest_build.status === "running" && agent?.lifecycle_state === "ready") {
        const host = w.latest_build.resources.flatMap((r: any) => r.metadata ?? []).find((m: any) => m.key === "host")
        placed[host?.value ?? "?"] = (placed[host?.value ?? "?"] ?? 0) + 1
        return
      }
      if (i > 6000) throw new Error(`workspace ${id} never ready`)
      await sleep(200)
    }
  }))
  const lastReady = performance.now() - t0
  done = true
  const busy = await during
  log(`${hostCount} host(s): last agent ready after ${fmt(lastReady / 1000, 1)} s; placed ${JSON.stringify(placed)}`)

  for (const c of mine) c.kill("SIGKILL")
  await plane.close()
  for (const engine of [main, ...extra.map((e) => e.docker)]) await cleanUp(engine, deploymentId).catch(() => undefined)
  return { lastReady, idle, busy, placed }
}

const mainRun = async () => {
  const binDir = join(process.cwd(), "node_modules/.cache/workbay-agent-bin")
  const [, image] = await Promise.all([buildAgentBinaries({ outDir: binDir }), nodeLessImage(main, "perl")])
  for (const name of ["wbhost2", "wbhost3"]) extra.push(await startEngine(dir, `${name}-${process.pid}`))
  for (const e of extra) await copyImage(main, e.docker, image)
  const cli = await bundleCli()
  const one = await run(1, image, binDir, cli)
  const three = await run(3, image, binDir, cli)
  const row = (name: string, r: typeof one) =>
    `| ${name} | ${fmt(r.lastReady / 1000, 1)} s | ${fmt(percentile(r.idle, 50), 1)} / ${
      fmt(percentile(r.idle, 99), 1)
    } ms | ${fmt(percentile(r.busy, 50), 1)} / ${fmt(percentile(r.busy, 99), 1)} ms (${r.busy.length}) | ${
      JSON.stringify(r.placed)
    } |`
  const report = `# ${burst} workspaces at once: three Docker hosts vs one

${machineLine(startedAt, load0)}

${burst} workspaces of the Docker starter (1 GiB each, an agent each) asked at once (bench/hosts-burst.ts);
one \`workbay provisioner start\` per host, three jobs at once each; the service in process on a
SQLite file. All engines run on this one machine (two cores), so three hosts add the daemons'
parallelism, not CPUs.

| layout | first request to last agent ready | GET /users/me idle, p50 / p99 | during the burst, p50 / p99 (n) | placed |
|---|---:|---:|---:|---|
${row("one host", one)}
${row("three hosts", three)}

Ratio, last agent ready: three hosts ${fmt(three.lastReady / one.lastReady, 2)}x of one host's time.
`
  writeReport(report, "hosts-burst.md", { write: !opts["no-write"], log })
}

const cleanup = async () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL")
  for (const id of deployments) await cleanUp(main, id).catch(() => undefined)
  for (const e of extra) {
    for (const id of deployments) await cleanUp(e.docker, id).catch(() => undefined)
    await e.stop()
  }
  rmSync(dir, { recursive: true, force: true })
}

mainRun().then(cleanup, async (e) => {
  console.error(e)
  await cleanup()
  process.exit(1)
}).then(() => process.exit(0))
