// Prebuilt workspaces on Docker (npm run bench:prebuilds). Not a test: it measures and reports.
//
// The Docker bench's world (bench/dockerWorld.ts: the service in process on SQLite, the docker
// provisioner on this machine's daemon, the real agent executable, an image made here) with the
// Docker starter plus two presets of the same parameters: `warm` keeps one prebuilt workspace,
// `cold` none. --runs times, interleaved:
// - without a prebuild (the baseline): POST a workspace with `cold`, then poll (20 ms) until its
//   agent is `ready`: a build, a container, the agent downloaded and started;
// - with one: the reconciler (ticked by hand, untimed) has a prebuilt workspace ready; POST a
//   workspace with `warm` (which claims it), then poll until the claim's build's agent is `ready`:
//   the same container kept, its agent reinitialized as the claimer's.
// p50 and p99 of both from the request, and of the claim after its answer (what the issue asks:
// ready when create answers or within a second after). Each workspace is deleted after its run.
// Writes bench/results/prebuilds.md. Options: --runs 10 --no-write.
import { PrebuildsReconciler } from "@workbay/core"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { loadavg } from "node:os"
import { parseArgs } from "node:util"
import { templateArchive } from "../packages/docker/test/support.js"
import { dockerWorld, percentile } from "./dockerWorld.js"
import { fmt, logger, machineLine, request, root, writeReport } from "./lib.mjs"

const { values: opts } = parseArgs({
  options: { runs: { type: "string", default: "10" }, "no-write": { type: "boolean", default: false } }
})
const log = logger("prebuilds")
const runs = Number(opts.runs)
const startedAt = new Date()
const load0 = loadavg()

const world = await dockerWorld(log, { prebuilds: false })
const { base, auth, json, image } = world
const tick = () => world.service.run(Effect.flatMap(PrebuildsReconciler, (r) => r.tick()))

const starter = readFileSync(`${root}/examples/templates/docker/template.yaml`, "utf8")
const yaml = `${starter}presets:
  - name: warm
    parameters: { cpus: 1, memory: 1 }
    prebuilds: { instances: 1 }
  - name: cold
    parameters: { cpus: 1, memory: 1 }
`
const file = await request(`${base}/files`, {
  method: "POST",
  headers: { ...auth, "content-type": "application/x-tar" },
  body: await templateArchive(yaml)
})
const version = await world.importVersion({
  file_id: file.body.hash,
  provisioner: "docker",
  user_variable_values: [{ name: "image", value: image }]
})
if (version.job.status !== "succeeded") throw new Error(`import: ${JSON.stringify(version.job)}`)
const templateId = await world.makeTemplate("warm", version)
const presets = (await request(`${base}/templateversions/${version.id}/presets`, { headers: auth })).body as Array<any>
const presetId = (name: string) => presets.find((p) => p.Name === name).ID as string

/** The prebuilt workspace, once its agent is ready (untimed). */
const prebuiltReady = async () => {
  await tick()
  const id = await world.untilValue(async () => {
    const r = await request(`${base}/workspaces?q=${encodeURIComponent("owner:prebuilds")}`, { headers: auth })
    return (r.body.workspaces as Array<any>).find((w) => w.template_id === templateId)?.id as string | undefined
  }, "a prebuilt workspace")
  await world.runningAgentReady(id, "prebuilt")
  return id
}
const remove = async (id: string) => {
  await request(`${base}/workspaces/${id}/builds`, {
    method: "POST",
    headers: json(auth),
    body: JSON.stringify({ transition: "delete" })
  })
  await world.untilValue(
    async () => ((await request(`${base}/workspaces/${id}`, { headers: auth })).status === 404 ? true : undefined),
    "deleted"
  )
}
/** From the request to the agent of the workspace's latest build `ready`: total and after the answer (ms). */
const run = async (name: string, preset: string) => {
  const t0 = performance.now()
  const id = await world.createWorkspace(templateId, name, { template_version_preset_id: presetId(preset) })
  const answered = performance.now()
  await world.runningAgentReady(id, name)
  const done = performance.now()
  await remove(id)
  return { total: done - t0, afterAnswer: done - answered, id }
}

const report: Array<string> = []
try {
  const cold: Array<number> = []
  const warm: Array<number> = []
  const warmAfter: Array<number> = []
  await run("warm-up", "cold")
  for (let i = 0; i < runs; i++) {
    cold.push((await run(`cold-${i}`, "cold")).total)
    const prebuilt = await prebuiltReady()
    const claimed = await run(`warm-${i}`, "warm")
    if (claimed.id !== prebuilt) throw new Error(`run ${i} did not claim the prebuilt workspace ${prebuilt}`)
    warm.push(claimed.total)
    warmAfter.push(claimed.afterAnswer)
    log(`run ${i}: without ${fmt(cold.at(-1)!, 0)} ms, with ${fmt(claimed.total, 0)} ms`)
  }
  const p = (xs: Array<number>, q: number) => fmt(percentile(xs, q), 0)
  report.push(
    "# Prebuilt workspaces on Docker",
    "",
    machineLine(startedAt, load0),
    "",
    `Image: ${image} (no Node; the init script downloads the agent with perl). The Docker starter with two presets of the same parameters; containers on the host's network; SQLite file; in process. Agent ready: the lifecycle of the agent of the workspace's latest build is \`ready\` (polled every 20 ms).`,
    "",
    `## Create to agent ready (${runs} runs each, interleaved)`,
    "",
    "| | p50 ms | p99 ms |",
    "|---|---|---|",
    `| without a prebuild: POST (preset \`cold\`) → build, container, agent download and start → ready | ${
      p(cold, 50)
    } | ${p(cold, 99)} |`,
    `| with one: POST (preset \`warm\`, claims it) → the claim's build keeps the container → agent reinitialized → ready | ${
      p(warm, 50)
    } | ${p(warm, 99)} |`,
    `| with one, after the POST answered | ${p(warmAfter, 50)} | ${p(warmAfter, 99)} |`,
    `| ratio (with / without) | ${fmt(percentile(warm, 50) / percentile(cold, 50), 3)} | ${
      fmt(percentile(warm, 99) / percentile(cold, 99), 3)
    } |`
  )
} finally {
  await world.close()
}
writeReport(report.join("\n") + "\n", "prebuilds.md", { write: !opts["no-write"], log })
process.exit(0)
