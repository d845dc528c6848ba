// Moving a stopped workspace between two Docker hosts (issue 43; node --conditions=@workbay/source
// --import tsx bench/move.ts). Not a test: it measures and reports.
//
// Two Docker engines on this machine: the machine's own (/var/run/docker.sock) and a second dockerd
// started here with a data root, exec root and socket of its own (no network of its own: both
// engines' containers are only created, never started, except the workspace's). The service in
// process on a SQLite file, with no Docker provisioner of its own; one `workbay provisioner start`
// daemon per engine (the CLI, bundled as its tests bundle it), each a host. A workspace of a
// template with a home volume and a container is started and stopped, its home filled with
// --size-mib MiB of random bytes, then moved to the other host (POST /workspaces/{id}/moves until
// the move succeeded: both engines' archive endpoints, the two daemons' links joined in the
// service, every volume read back and checked). Beside it, the bare baseline: the same volume
// copied between the same two engines with `docker cp` (`docker -H A cp c:/path - | docker -H B cp
// - c2:/path`), the plain way an operator would. Also the service's peak RSS during the move.
// Writes bench/results/move.md. Options: --size-mib 1024 --runs 2 --no-write.
import Docker from "dockerode"
import { type ChildProcess, execFileSync } from "node:child_process"
import { randomBytes, randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { PassThrough } from "node:stream"
import { parseArgs } from "node:util"
import { pack } from "tar-stream"
import { nodeLessImage } from "../packages/agent/test/DockerImage.js"
import { bundleCli } from "../packages/cli/test/support.js"
import { cleanUp } from "../packages/docker/test/support.js"
import { controlPlane, copyImage, type Engine, startDaemon, startEngine } from "./dockerHosts.js"
import { fmt, logger, machineLine, request, sleep, writeReport } from "./lib.mjs"

const { values: opts } = parseArgs({
  options: {
    "size-mib": { type: "string", default: "1024" },
    runs: { type: "string", default: "2" },
    "no-write": { type: "boolean", default: false }
  }
})
const sizeMib = Number(opts["size-mib"])
const runs = Number(opts.runs)
const log = logger("move")
const startedAt = new Date()
const load0 = loadavg()

const engineA = new Docker({ socketPath: "/var/run/docker.sock" })
const dir = mkdtempSync(join(tmpdir(), "workbay-bench-move-"))
const children: Array<ChildProcess> = []
let second: Engine | undefined
const deploymentId = randomUUID()

/** A container (never started) of `image` with `volume` at /mnt/home. */
const helper = (engine: Docker, image: string, volume: string) =>
  engine.createContainer({
    Image: image,
    Entrypoint: ["/bin/true"],
    Labels: { "com.workbay.deployment": deploymentId },
    HostConfig: { NetworkMode: "none", Mounts: [{ Type: "volume", Source: volume, Target: "/mnt/home" }] }
  })

/** Writes `mib` MiB of random bytes into `volume` (one file, streamed). */
const fill = async (engine: Docker, image: string, volume: string, mib: number) => {
  const c = await helper(engine, image, volume)
  const archive = pack()
  const body = new PassThrough()
  archive.pipe(body)
  const entry = archive.entry({ name: "data.bin", size: mib * 1024 * 1024, mode: 0o644, uid: 1000, gid: 1000 })
  const written = c.putArchive(body as unknown as NodeJS.ReadableStream, { path: "/mnt/home" })
  for (let i = 0; i < mib; i++) {
    if (!entry.write(randomBytes(1024 * 1024))) await new Promise((resolve) => entry.once("drain", resolve))
  }
  entry.end()
  archive.finalize()
  await written
  await c.remove({ force: true })
}

const main = async () => {
  second = await startEngine(dir, `wbmove${process.pid}`)
  const engineB = second.docker
  const socketB = second.socket
  const image = await nodeLessImage(engineA, "perl")
  await copyImage(engineA, engineB, image)
  log(`image ${image} on both engines`)

  const plane = await controlPlane(dir, deploymentId)
  const { auth, base, get, key, orgId, post, url } = plane
  const cli = await bundleCli()
  for (const [name, socket] of [["bench-a", "/var/run/docker.sock"], ["bench-b", socketB]] as const) {
    children.push(startDaemon(cli, { url, key, name, socket, home: dir, extra: ["--docker-network", "none"] }))
  }
  await plane.hostsConnected(2)

  const templateYaml = `resources:
  - name: home
    type: docker_volume
  - name: dev
    type: docker_container
    container:
      image: ${image}
      command: ["sleep", "infinity"]
      network: none
      mounts:
        - { type: volume, source: home, target: /home/workbay }
`
  const tar = pack()
  tar.entry({ name: "template.yaml" }, templateYaml)
  tar.finalize()
  const chunks: Array<Buffer> = []
  for await (const c of tar) chunks.push(c as Buffer)
  const up = await request(`${base}/files`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/x-tar" },
    body: Buffer.concat(chunks)
  })
  const template = await plane.dockerTemplate("movable", { file_id: up.body.hash })
  const created = (await post(`/organizations/${orgId}/members/me/workspaces`, {
    name: "moving",
    template_id: template.id
  })).body
  const until = async (path: string, ok: (b: any) => boolean, what: string) => {
    for (let i = 0;; i++) {
      const b = (await get(path)).body
      if (ok(b)) return b
      if (i > 3000) throw new Error(`timed out: ${what}: ${JSON.stringify(b).slice(0, 500)}`)
      await sleep(50)
    }
  }
  const latestIs = (status: string) =>
    until(`/workspaces/${created.id}`, (w) => {
      if (w.latest_build.status === "failed") throw new Error(`build failed: ${w.latest_build.job.error}`)
      return w.latest_build.status === status
    }, status)
  await latestIs("running")
  await post(`/workspaces/${created.id}/builds`, { transition: "stop" })
  await latestIs("stopped")
  const engines: Record<string, Docker> = { "bench-a": engineA, "bench-b": engineB }
  /** The host whose engine holds the workspace's volume. */
  const hostOf = async () => {
    for (const [name, engine] of Object.entries(engines)) {
      const found = (await engine.listVolumes({
        filters: JSON.stringify({ label: [`com.workbay.workspace.id=${created.id}`] })
      })).Volumes ?? []
      if (found.length > 0) return name
    }
    throw new Error("the workspace's volume is on neither engine")
  }
  const volumeName = `workbay-${created.id}-home`
  await fill(engines[await hostOf()]!, image, volumeName, sizeMib)
  log(`${sizeMib} MiB written into ${volumeName} on ${await hostOf()}`)

  const moveTimes: Array<number> = []
  const cpTimes: Array<number> = []
  let peakRss = 0
  const rss0 = process.memoryUsage().rss
  for (let run = 0; run < runs; run++) {
    const from = await hostOf()
    const to = from === "bench-a" ? "bench-b" : "bench-a"
    const t0 = performance.now()
    const asked = await post(`/workspaces/${created.id}/moves`, { host: to })
    if (asked.status !== 201) throw new Error(`move: ${asked.status} ${JSON.stringify(asked.body)}`)
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50)
    const done = await until(`/workspaces/${created.id}/moves`, (ms) =>
      ms[0].status !== "pending" &&
      ms[0].status !== "running", "the move")
    clearInterval(sampler)
    const ms = performance.now() - t0
    if (done[0].status !== "succeeded") throw new Error(`the move failed: ${done[0].error}`)
    moveTimes.push(ms)
    log(`move ${from} -> ${to}: ${fmt(ms / 1000, 2)} s, ${done[0].volumes[0].bytes} bytes`)
    await until(`/workspaces/${created.id}/moves`, (m) => m[0].cleanup_status === "succeeded", "the cleanup")

    // The baseline: the same volume from the engine it is on now to a fresh one on the other, with docker cp.
    const target = `bench-cp-${run}-${deploymentId.slice(0, 8)}`
    await engines[from]!.createVolume({ Name: target, Labels: { "com.workbay.deployment": deploymentId } })
    const src = await helper(engines[to]!, image, volumeName)
    const dst = await helper(engines[from]!, image, target)
    const hostFlag = (name: string) => (name === "bench-a" ? "unix:///var/run/docker.sock" : `unix://${socketB}`)
    const c0 = performance.now()
    execFileSync("sh", [
      "-c",
      `docker -H ${hostFlag(to)} cp ${src.id}:/mnt/home/. - | docker -H ${hostFlag(from)} cp - ${dst.id}:/mnt/home`
    ], { stdio: "inherit" })
    const cms = performance.now() - c0
    cpTimes.push(cms)
    log(`docker cp ${to} -> ${from}: ${fmt(cms / 1000, 2)} s`)
    await src.remove({ force: true })
    await dst.remove({ force: true })
    await engines[from]!.getVolume(target).remove()
  }

  const median = (xs: Array<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  const moveMs = median(moveTimes)
  const cpMs = median(cpTimes)
  const mib = sizeMib
  const report = `# Moving a stopped workspace between two Docker hosts

${machineLine(startedAt, load0)}

${mib} MiB of random bytes in the workspace's home volume; ${runs} moves back and forth, each beside
a \`docker cp\` of the same volume between the same two engines (bench/move.ts). The service in
process on a SQLite file; each engine's daemon a \`workbay provisioner start\` process; both engines
on this machine.

| | Workbay move | bare: docker cp | ratio |
|---|---:|---:|---:|
| time, median of ${runs} (POST to succeeded; the pipe's end) | ${fmt(moveMs / 1000, 2)} s | ${
    fmt(cpMs / 1000, 2)
  } s | ${fmt(moveMs / cpMs, 2)}x |
| throughput | ${fmt(mib / (moveMs / 1000), 0)} MiB/s | ${fmt(mib / (cpMs / 1000), 0)} MiB/s | |
| every run | ${moveTimes.map((t) => fmt(t / 1000, 2)).join(", ")} s | ${
    cpTimes.map((t) => fmt(t / 1000, 2)).join(", ")
  } s | |
| the service's RSS: before the moves / peak during them | ${fmt(rss0 / 1024 / 1024, 0)} / ${
    fmt(peakRss / 1024 / 1024, 0)
  } MB | | |

What the move does beyond the copy: the two jobs' hand-out and links (the service joins them frame
by frame), and the new host reads the volume back and compares its SHA-256 with the old host's
before the move succeeds (a second read of the whole volume on the new engine); then the old
volume is removed by the cleanup job (not timed). \`docker cp\` checks nothing.
`
  writeReport(report, "move.md", { write: !opts["no-write"], log })
  await plane.close()
}

const cleanup = async () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL")
  await cleanUp(engineA, deploymentId).catch(() => undefined)
  if (second !== undefined) {
    await cleanUp(second.docker, deploymentId).catch(() => undefined)
    await second.stop()
  }
  rmSync(dir, { recursive: true, force: true })
}

main().then(cleanup, async (e) => {
  console.error(e)
  await cleanup()
  process.exit(1)
}).then(() => process.exit(0))
