// Workspaces on Docker (npm run bench:docker). Not a test: it measures and reports.
//
// Runs the service in process (TypeScript sources through tsx, like the tests), on a SQLite file,
// with the docker provisioner on this machine's daemon (containers on the host's network), the
// agent's executable (scripts/executables.mjs) and an image with no Node, curl or wget (perl
// only, as plain Ubuntu; packages/agent/test/DockerImage.ts), made here, never pulled.
// (a) create-to-ready, one workspace at a time, --runs times: POST a workspace of the docker
//     starter, then poll (20 ms) until its agent's lifecycle is `ready`. Interleaved with it, the
//     bare baseline: the same image, the same init script and agent, started straight through the
//     Engine API (create + start, dockerode) with an external agent's token, until that agent is
//     `ready`. p50 and p99 of both, their difference (what Workbay adds) and ratio.
// (b) --burst workspaces created at once: time from the first request to the last `ready`, and
//     GET /users/me latency (sequential, as one client) meanwhile against the same before.
// (c) stop, then start, with 64 MiB of random data in the home volume: each transition's time
//     (to `stopped`; to the agent `ready`) and the data's SHA-256 before and after.
// Writes bench/results/docker.md. Options: --runs 20 --burst 20 --no-write.
// Everything listens on and loads 127.0.0.1 only; containers and volumes carry the run's deployment
// id and are removed at the end.
import { loadavg } from "node:os"
import { parseArgs } from "node:util"
import { pack } from "tar-stream"
import { execIn as execInContainer } from "../packages/docker/test/support.js"
import { dockerWorld, percentile } from "./dockerWorld.js"
import { fmt, logger, machineLine, request, sleep, writeReport } from "./lib.mjs"

const { values: opts } = parseArgs({
  options: {
    runs: { type: "string", default: "20" },
    burst: { type: "string", default: "20" },
    "no-write": { type: "boolean", default: false }
  }
})
const log = logger("docker")
const runs = Number(opts.runs)
const burst = Number(opts.burst)
const startedAt = new Date()
const load0 = loadavg()

const world = await dockerWorld(log)
const {
  docker,
  deploymentId,
  image,
  base,
  auth,
  json,
  importVersion,
  makeTemplate,
  untilValue,
  workspace,
  agentIdOf,
  readyAgent,
  createWorkspace
} = world
const BARE_LABEL = "workbay.bench.run"

const dockerVersion = await importVersion({
  example_id: "docker",
  provisioner: "docker",
  user_variable_values: [{ name: "image", value: image }]
})
if (dockerVersion.job.status !== "succeeded") throw new Error(`import: ${JSON.stringify(dockerVersion.job)}`)
const dockerTemplate = await makeTemplate("docker", dockerVersion)

// The baseline's agents: external ones (a record only), each started by hand in a bare container.
const externalArchive = async (): Promise<Buffer> => {
  const tar = pack()
  tar.entry(
    { name: "template.yaml" },
    "resources:\n  - name: box\n    type: container\n    agents:\n      - name: main\n        external: true\n"
  )
  tar.finalize()
  const chunks: Array<Buffer> = []
  for await (const c of tar) chunks.push(c as Buffer)
  return Buffer.concat(chunks)
}
const file = await request(`${base}/files`, {
  method: "POST",
  headers: { ...auth, "content-type": "application/x-tar" },
  body: await externalArchive()
})
const externalVersion = await importVersion({ file_id: file.body.hash, provisioner: "workbay" })
const externalTemplate = await makeTemplate("external", externalVersion)

/** A workspace of the docker starter, from the request to its agent `ready` (ms). */
const workbayRun = async (name: string) => {
  const t0 = performance.now()
  const id = await createWorkspace(dockerTemplate, name)
  await world.runningAgentReady(id, name)
  return { ms: performance.now() - t0, id }
}
const initScript = String((await request(`${base}/init-script/linux/amd64`, { headers: auth })).body)
/** The same image, init script and agent, started straight through the Engine API (ms to `ready`). */
const bareRun = async (name: string) => {
  const id = await createWorkspace(externalTemplate, name)
  const w = await untilValue(async () => {
    const got = await workspace(id)
    return got.latest_build.status === "running" ? got : undefined
  }, `external workspace ${name}`)
  const token =
    (await request(`${base}/workspaces/${id}/external-agent/main/credentials`, { headers: auth })).body.agent_token
  const t0 = performance.now()
  const container = await docker.createContainer({
    Image: image,
    Entrypoint: ["sh", "-c", initScript],
    Env: [`WORKBAY_AGENT_TOKEN=${token}`],
    Labels: { [BARE_LABEL]: deploymentId },
    HostConfig: { NetworkMode: "host", Init: true }
  })
  await container.start()
  await readyAgent(agentIdOf(w)!)
  return performance.now() - t0
}

/** Runs `cmd` in a running container: its standard output, trimmed. */
const execIn = async (id: string, cmd: Array<string>) => (await execInContainer(docker, id, cmd)).trim()

const report: Array<string> = []
try {
  // (a) one at a time, interleaved with the baseline.
  const workbayMs: Array<number> = []
  const bareMs: Array<number> = []
  await workbayRun("warm-up")
  await bareRun("warm-up-bare")
  for (let i = 0; i < runs; i++) {
    workbayMs.push((await workbayRun(`one-${i}`)).ms)
    bareMs.push(await bareRun(`bare-${i}`))
  }
  log(`create-to-ready: workbay p50 ${fmt(percentile(workbayMs, 50))} ms, bare p50 ${fmt(percentile(bareMs, 50))} ms`)

  // (b) a burst, with GET /users/me meanwhile.
  const meLatencies = async (until: () => boolean) => {
    const out: Array<number> = []
    while (!until()) {
      const t0 = performance.now()
      await request(`${base}/users/me`, { headers: auth })
      out.push(performance.now() - t0)
      await sleep(10)
    }
    return out
  }
  let quietDone = false
  const quietRun = meLatencies(() => quietDone)
  await sleep(3000)
  quietDone = true
  const quiet = await quietRun
  let burstDone = false
  const busyRun = meLatencies(() => burstDone)
  const t0 = performance.now()
  const burstTimes = await Promise.all(
    Array.from({ length: burst }, async (_, i) => {
      await workbayRun(`burst-${i}`)
      return performance.now() - t0
    })
  )
  burstDone = true
  const busy = await busyRun
  const lastReady = Math.max(...burstTimes)
  log(`burst of ${burst}: last ready after ${fmt(lastReady)} ms`)

  // (c) stop and start with data in the home volume.
  const kept = await workbayRun("kept")
  const [container] = await docker.listContainers({
    filters: JSON.stringify({ label: [`com.workbay.workspace.id=${kept.id}`] })
  })
  const exec = (cmd: Array<string>) => execIn(container!.Id, cmd)
  await exec(["sh", "-c", "head -c 67108864 /dev/urandom > /home/workbay/data"])
  const size = Number(await exec(["sh", "-c", "wc -c < /home/workbay/data"]))
  if (size !== 64 * 1024 * 1024) throw new Error(`the data file has ${size} bytes`)
  const before = (await exec(["sha256sum", "/home/workbay/data"])).split(" ")[0]
  const build = async (transition: string) => {
    const r = await request(`${base}/workspaces/${kept.id}/builds`, {
      method: "POST",
      headers: json(auth),
      body: JSON.stringify({ transition })
    })
    if (r.status !== 200 && r.status !== 201) throw new Error(`${transition}: ${r.status} ${JSON.stringify(r.body)}`)
  }
  let s0 = performance.now()
  await build("stop")
  await untilValue(
    async () => ((await workspace(kept.id)).latest_build.status === "stopped" ? true : undefined),
    "stopped"
  )
  const stopMs = performance.now() - s0
  s0 = performance.now()
  await build("start")
  const restarted = await untilValue(async () => {
    const w = await workspace(kept.id)
    return w.latest_build.status === "running" && w.latest_build.transition === "start" ? agentIdOf(w) : undefined
  }, "started again")
  await readyAgent(restarted)
  const startMs = performance.now() - s0
  const [again] = await docker.listContainers({
    filters: JSON.stringify({ label: [`com.workbay.workspace.id=${kept.id}`] })
  })
  const afterOut = await execIn(again!.Id, ["sha256sum", "/home/workbay/data"])
  const after = afterOut.split(" ")[0]

  const p = (xs: Array<number>, q: number) => fmt(percentile(xs, q), 0)
  report.push(
    "# Workspaces on Docker",
    "",
    machineLine(startedAt, load0),
    "",
    `Image: ${image} (no Node, no curl or wget: the init script downloads the agent with perl). Containers on the host's network; SQLite file; in process.`,
    "",
    `## Create to agent ready, one at a time (${runs} runs each, interleaved)`,
    "",
    "| | p50 ms | p99 ms |",
    "|---|---|---|",
    `| Workbay: POST workspace → build (volume, container, start) → agent ready | ${p(workbayMs, 50)} | ${
      p(workbayMs, 99)
    } |`,
    `| bare: create + start through the Engine API → the same agent ready | ${p(bareMs, 50)} | ${p(bareMs, 99)} |`,
    `| Workbay adds | ${fmt(percentile(workbayMs, 50) - percentile(bareMs, 50), 0)} | ${
      fmt(percentile(workbayMs, 99) - percentile(bareMs, 99), 0)
    } |`,
    `| ratio | ${fmt(percentile(workbayMs, 50) / percentile(bareMs, 50), 2)} | ${
      fmt(percentile(workbayMs, 99) / percentile(bareMs, 99), 2)
    } |`,
    "",
    `## ${burst} workspaces created at once`,
    "",
    `Last agent ready ${fmt(lastReady / 1000, 2)} s after the first request (first ${
      fmt(Math.min(...burstTimes) / 1000, 2)
    } s).`,
    "",
    "| GET /users/me (one client, sequential) | requests | p50 ms | p99 ms |",
    "|---|---|---|---|",
    `| before, idle | ${quiet.length} | ${fmt(percentile(quiet, 50), 1)} | ${fmt(percentile(quiet, 99), 1)} |`,
    `| during the burst | ${busy.length} | ${fmt(percentile(busy, 50), 1)} | ${fmt(percentile(busy, 99), 1)} |`,
    "",
    "## Stop, then start, with 64 MiB in the home volume",
    "",
    "| step | ms |",
    "|---|---|",
    `| stop (container removed, volume kept) → stopped | ${fmt(stopMs, 0)} |`,
    `| start → agent ready | ${fmt(startMs, 0)} |`,
    "",
    `SHA-256 of the 64 MiB before: \`${before}\`, after: \`${after}\` (${before === after ? "the same" : "DIFFERENT"}).`
  )
} finally {
  await world.close()
  const bare = JSON.stringify({ label: [`${BARE_LABEL}=${deploymentId}`] })
  for (const c of await docker.listContainers({ all: true, filters: bare })) {
    await docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)
  }
}
writeReport(report.join("\n") + "\n", "docker.md", { write: !opts["no-write"], log })
process.exit(0)
