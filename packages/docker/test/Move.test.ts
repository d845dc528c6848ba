/**
 * The Docker driver's side of a workspace move (src/Move.ts) on this machine's real engine, each
 * side against a scripted other end of the link: what an import writes is read back and must match
 * what the old host sent; an import that breaks half-way, or whose bytes arrived damaged, removes
 * what it made; an export whose link breaks leaves the old volume as it was; a host without the
 * workspace's image refuses before the link is opened. (Two real engines: cli/test/MultiHost.test.ts.)
 */
import type { MoveLink, VolumeMoveInput } from "@workbay/core"
import { Effect, Exit } from "effect"
import { createHash, randomBytes, randomUUID } from "node:crypto"
import tar from "tar-stream"
import { afterAll, describe, expect, inject, it } from "vitest"
import { dockerClient } from "../src/Client.js"
import { LABEL_DEPLOYMENT, LABEL_WORKSPACE_ID } from "../src/Labels.js"
import { moveVolumes } from "../src/Move.js"
import { cleanUp, STARTER_IMAGE, testDeployment } from "./support.js"

const made = inject("workbayDocker")

describe.skipIf(made === null)("moving a workspace's volumes (one engine, a scripted other end)", () => {
  const docker = dockerClient({ host: process.env.DOCKER_HOST })
  const deployment = testDeployment()
  afterAll(() => cleanUp(docker, deployment))

  const labels = (workspace: string) => ({ [LABEL_DEPLOYMENT]: deployment, [LABEL_WORKSPACE_ID]: workspace })
  const volumeOf = async (workspace: string) =>
    (await docker.listVolumes({ filters: JSON.stringify({ label: [`${LABEL_WORKSPACE_ID}=${workspace}`] }) }))
      .Volumes ?? []
  const helpersLeft = async () =>
    (await docker.listContainers({
      all: true,
      filters: JSON.stringify({ label: [`${LABEL_DEPLOYMENT}=${deployment}`] })
    })).length

  /** A volume of `workspace` holding `data` as home/data.bin (uid 1000). */
  const seed = async (workspace: string, data: Buffer) => {
    const name = `workbay-${workspace}-home`
    await docker.createVolume({ Name: name, Labels: labels(workspace) })
    const c = await docker.createContainer({
      Image: STARTER_IMAGE,
      Entrypoint: ["/bin/true"],
      Labels: labels(workspace),
      HostConfig: { NetworkMode: "none", Mounts: [{ Type: "volume", Source: name, Target: "/workbay-move/0" }] }
    })
    const archive = tar.pack()
    archive.entry({ name: "data.bin", mode: 0o640, uid: 1000, gid: 1000 }, data)
    archive.finalize()
    await c.putArchive(archive as unknown as NodeJS.ReadableStream, { path: "/workbay-move/0" })
    // What an export sends of it: the engine's own archive of the mount.
    const out = await c.getArchive({ path: "/workbay-move/0" })
    const parts: Array<Buffer> = []
    for await (const part of out as AsyncIterable<Buffer>) parts.push(part)
    await c.remove({ force: true })
    return { name, archive: Buffer.concat(parts) }
  }

  /** A link whose other end says `script` (frames, then an error or the end) and records what it hears. */
  const scripted = (script: ReadonlyArray<Uint8Array | string | Error>, breakAfterSends = Infinity) => {
    const heard: Array<Uint8Array | string> = []
    let at = 0
    const link: MoveLink = {
      send: async (data) => {
        if (heard.length >= breakAfterSends) throw new Error("the link closed (1011)")
        heard.push(data)
      },
      next: async () => {
        const frame = script[at++]
        if (frame instanceof Error) throw frame
        return frame
      },
      close: () => {}
    }
    return { link, heard }
  }

  const run = (input: Omit<VolumeMoveInput, "deployment_id" | "stream" | "images"> & { images?: Array<string> }) =>
    Effect.runPromiseExit(moveVolumes(docker, {
      deployment_id: deployment,
      images: [STARTER_IMAGE],
      stream: { path: "/x", token: "t" },
      ...input
    }))

  it("an import writes what arrives, reads it back, and answers each volume's size and SHA-256", async () => {
    const from = randomUUID()
    const data = randomBytes(3 * 1024 * 1024 + 17)
    const { archive } = await seed(from, data)
    const sha = createHash("sha256").update(archive).digest("hex")
    const to = randomUUID()
    const name = `workbay-${to}-home`
    const other = scripted([
      JSON.stringify({ type: "volume", name, labels: { "team": "a" } }),
      archive.subarray(0, 1024 * 1024),
      archive.subarray(1024 * 1024),
      JSON.stringify({ type: "volume_end", bytes: archive.length, sha256: sha }),
      JSON.stringify({ type: "end" })
    ])
    const exit = await run({ side: "import", workspace_id: to, openLink: () => Effect.succeed(other.link) })
    expect(Exit.isSuccess(exit) && exit.value).toEqual({ volumes: [{ name, bytes: archive.length, sha256: sha }] })
    expect(other.heard.map((f) => JSON.parse(String(f)).type)).toEqual(["ready", "verified"])
    const [volume] = await volumeOf(to)
    expect(volume?.Labels).toMatchObject({ ...labels(to), team: "a" })
    expect(await helpersLeft()).toBe(0)
  })

  it("an import whose bytes arrived damaged, or whose link broke half-way, removes what it made", async () => {
    const { archive } = await seed(randomUUID(), randomBytes(512 * 1024))
    for (const ending of ["damaged", "broken"] as const) {
      const to = randomUUID()
      const name = `workbay-${to}-home`
      const other = scripted([
        JSON.stringify({ type: "volume", name, labels: {} }),
        archive.subarray(0, 200 * 1024),
        ...(ending === "broken"
          ? [new Error("the link closed (1011: The other side of the stream broke off.)")]
          : [
            archive.subarray(200 * 1024),
            JSON.stringify({ type: "volume_end", bytes: archive.length, sha256: "0".repeat(64) })
          ])
      ])
      const exit = await run({ side: "import", workspace_id: to, openLink: () => Effect.succeed(other.link) })
      expect(Exit.isFailure(exit)).toBe(true)
      expect(String(Exit.isFailure(exit) && exit.cause)).toContain(
        ending === "damaged" ? `The volume ${name} arrived damaged` : "The move's link broke while receiving a volume"
      )
      expect(await volumeOf(to)).toEqual([])
      expect(await helpersLeft()).toBe(0)
    }
  })

  it("an import to a host without the workspace's image fails before it opens the link", async () => {
    let opened = false
    const exit = await run({
      side: "import",
      workspace_id: randomUUID(),
      images: ["workbay-test/absent:never"],
      openLink: () => Effect.sync(() => (opened = true)).pipe(Effect.as(scripted([]).link))
    })
    expect(String(Exit.isFailure(exit) && exit.cause)).toContain(
      "The image workbay-test/absent:never is not on this host: the workspace could not start here, so nothing was copied."
    )
    expect(opened).toBe(false)
  })

  it("an export sends each volume as the engine archives it; one whose link breaks leaves the volume as it was", async () => {
    const workspace = randomUUID()
    const data = randomBytes(2 * 1024 * 1024)
    const { archive, name } = await seed(workspace, data)
    const whole = scripted([JSON.stringify({ type: "ready" }), JSON.stringify({ type: "verified" })])
    const exit = await run({ side: "export", workspace_id: workspace, openLink: () => Effect.succeed(whole.link) })
    const sha = createHash("sha256").update(archive).digest("hex")
    expect(Exit.isSuccess(exit) && exit.value).toEqual({ volumes: [{ name, bytes: archive.length, sha256: sha }] })
    const bytes = Buffer.concat(whole.heard.filter((f): f is Uint8Array => typeof f !== "string"))
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(sha)
    expect(whole.heard.filter((f) => typeof f === "string").map((f) => JSON.parse(f as string).type)).toEqual([
      "volume",
      "volume_end",
      "end"
    ])

    const broken = scripted([JSON.stringify({ type: "ready" })], 3)
    const failed = await run({ side: "export", workspace_id: workspace, openLink: () => Effect.succeed(broken.link) })
    expect(String(Exit.isFailure(failed) && failed.cause)).toContain(`Could not send the volume ${name}`)
    expect((await volumeOf(workspace)).map((v) => v.Name)).toEqual([name])
    expect(await helpersLeft()).toBe(0)
    // The cleanup, once asked, removes it.
    expect(Exit.isSuccess(await run({ side: "cleanup", workspace_id: workspace }))).toBe(true)
    expect(await volumeOf(workspace)).toEqual([])
  })
})
