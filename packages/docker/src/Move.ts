/**
 * Moving a stopped workspace's volumes from one Docker engine to another (docs/provisioner-daemons.md,
 * "Moving a workspace"), one side per host, through the two engines' archive endpoints:
 *
 * - **export** (old host): waits for the new host's `ready`, then for each of the workspace's
 *   volumes (found by the workspace's labels) sends `{"type":"volume","name","labels"}`, the
 *   volume's archive (`GET /containers/{id}/archive` of a helper container that mounts it, never
 *   started) as binary frames, and `{"type":"volume_end","bytes","sha256"}`; then `{"type":"end"}`,
 *   and waits for the new host's `{"type":"verified"}`. Nothing on the old host changes.
 * - **import** (new host): first checks that every image the workspace ran is on the engine (a
 *   host that could not start the workspace gets nothing), then says `ready`; makes each volume
 *   with the old one's labels, writes the archive into it (`PUT /containers/{id}/archive`) as it
 *   arrives, reads it back and compares the SHA-256 of what it reads with the old host's; any
 *   difference, or a link that breaks, fails the import and removes what it made.
 * - **cleanup** (old host, once the import's success is recorded): removes the workspace's volumes.
 *
 * Memory stays bounded: frames pass from one engine's stream to the link and from the link to the
 * other engine's with back-pressure end to end.
 */
import type { MovedVolume, MoveLink, ProvisionerLogSink, VolumeMoveInput, VolumeMoveResult } from "@workbay/core"
import { ProvisionerFailure } from "@workbay/core"
import type Docker from "dockerode"
import { Duration, Effect, Exit } from "effect"
import { createHash } from "node:crypto"
import { PassThrough, type Readable } from "node:stream"
import { call, type DockerError, labelFilter, orMissing } from "./Client.js"
import { LABEL_RESOURCE, workspaceSelector } from "./Labels.js"

/** Where helper containers mount the volumes: volume i at `/workbay-move/i`. */
const MOUNT_ROOT = "/workbay-move"
/** The label value of a helper container (a build of the workspace removes any left behind). */
const HELPER_RESOURCE = "workbay.move-helper"
/** The longest one volume's archive may take to write or read back. */
const VOLUME_TIMEOUT = Duration.hours(6)

type LinkMessage =
  | { readonly type: "ready" }
  | { readonly type: "volume"; readonly name: string; readonly labels: Record<string, string> }
  | { readonly type: "volume_end"; readonly bytes: number; readonly sha256: string }
  | { readonly type: "end" }
  | { readonly type: "verified" }

const failure = (message: string) => new ProvisionerFailure({ message, logs: [] })

const fromDocker = (e: DockerError) =>
  failure(`Could not ${e.action}: ${e.message}${e.status === 0 ? "" : ` (Docker answered ${e.status})`}`)

const linkStep = <A>(what: string, f: () => Promise<A>) =>
  Effect.tryPromise({
    try: f,
    catch: (e) => failure(`The move's link broke while ${what}: ${e instanceof Error ? e.message : String(e)}`)
  })

/** The next text message of the link, read as one of the move's messages. */
const nextMessage = (link: MoveLink, what: string) =>
  Effect.flatMap(linkStep(what, () => link.next()), (frame) => {
    if (frame === undefined) return Effect.fail(failure(`The other host closed the move's link while ${what}.`))
    if (typeof frame !== "string") return Effect.fail(failure(`Unexpected bytes on the move's link while ${what}.`))
    try {
      return Effect.succeed(JSON.parse(frame) as LinkMessage)
    } catch {
      return Effect.fail(failure(`A message on the move's link is not JSON (${what}).`))
    }
  })

const send = (link: MoveLink, message: LinkMessage | Uint8Array, what: string) =>
  linkStep(what, () => link.send(message instanceof Uint8Array ? message : JSON.stringify(message)))

const formatBytes = (bytes: number) =>
  bytes >= 1024 ** 3
    ? `${(bytes / 1024 ** 3).toFixed(2)} GiB`
    : bytes >= 1024 ** 2
    ? `${(bytes / 1024 ** 2).toFixed(1)} MiB`
    : `${bytes} B`

/** The SHA-256 and size of a readable's bytes, each chunk also handed to `each` (awaited: back-pressure). */
const digest = async (stream: Readable | NodeJS.ReadableStream, each?: (chunk: Uint8Array) => Promise<void>) => {
  const hash = createHash("sha256")
  let bytes = 0
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk)
    bytes += chunk.length
    if (each !== undefined) await each(chunk)
  }
  return { bytes, sha256: hash.digest("hex") }
}

/** The largest frame a side sends (the service takes messages up to its large-message cap, 10 MiB by default). */
const MAX_FRAME_BYTES = 1024 * 1024

/**
 * Sends an engine's stream in frames of about {@link FRAME_BYTES} (an engine hands chunks of a few
 * KiB; each frame costs every hop a message), at most {@link MAX_FRAME_BYTES}.
 */
const FRAME_BYTES = 256 * 1024

const framer = (link: MoveLink) => {
  let held: Array<Uint8Array> = []
  let size = 0
  const flush = async () => {
    if (size === 0) return
    const frame = held.length === 1 ? held[0]! : Buffer.concat(held, size)
    held = []
    size = 0
    for (let at = 0; at < frame.length; at += MAX_FRAME_BYTES) {
      await link.send(frame.subarray(at, Math.min(frame.length, at + MAX_FRAME_BYTES)))
    }
  }
  return {
    push: async (chunk: Uint8Array) => {
      held.push(chunk)
      size += chunk.length
      if (size >= FRAME_BYTES) await flush()
    },
    flush
  }
}

/** Moves a workspace's volumes: one side, on `docker` (the host this daemon runs on). */
export const moveVolumes = (
  docker: Docker,
  input: VolumeMoveInput
): Effect.Effect<VolumeMoveResult, ProvisionerFailure> => {
  const log: ProvisionerLogSink = input.onLog ?? (() => Effect.void)
  const info = (output: string) =>
    log({ created_at: new Date(), level: "info", stage: `Moving the workspace (${input.side})`, output })
  const selector = workspaceSelector(input.deployment_id, input.workspace_id)
  const volumesOfWorkspace = call(
    "list the workspace's volumes",
    () => docker.listVolumes({ filters: labelFilter(selector) })
  )
    .pipe(Effect.map((listed) => [...(listed.Volumes ?? [])].sort((a, b) => a.Name.localeCompare(b.Name))))

  /** A container (never started) of `image` with `mounts` at /workbay-move/i, removed with the scope. */
  const helper = (image: string, mounts: ReadonlyArray<{ readonly name: string; readonly index: number }>) =>
    Effect.acquireRelease(
      call("create the move's helper container", () =>
        docker.createContainer({
          Image: image,
          Entrypoint: ["/workbay-move-helper"],
          Labels: { ...selector, [LABEL_RESOURCE]: HELPER_RESOURCE },
          NetworkDisabled: true,
          HostConfig: {
            NetworkMode: "none",
            Mounts: mounts.map((m) => ({ Type: "volume", Source: m.name, Target: `${MOUNT_ROOT}/${m.index}` }))
          }
        })),
      (c) => Effect.ignore(call("remove the move's helper container", () => c.remove({ force: true, v: false })))
    )

  const openLink = () => {
    if (input.openLink === undefined) return Effect.fail(failure("This side of the move has no link to open."))
    return Effect.acquireRelease(input.openLink(input.stream), (link) => Effect.sync(() => link.close()))
  }

  const exportSide = Effect.gen(function*() {
    const volumes = yield* volumesOfWorkspace
    const image = input.images[0]
    if (volumes.length > 0 && image === undefined) {
      return yield* Effect.fail(failure("The workspace ran no image: no helper container can reach its volumes."))
    }
    if (
      image !== undefined &&
      (yield* orMissing(call(`inspect the image ${image}`, () => docker.getImage(image).inspect()))) === undefined
    ) {
      return yield* Effect.fail(
        failure(`The image ${image} is not on this host: the helper that reads the volumes is made of it.`)
      )
    }
    yield* info(
      `${volumes.length} volume${volumes.length === 1 ? "" : "s"} to copy: ${
        volumes.map((v) => v.Name).join(", ") || "none"
      }.`
    )
    const link = yield* openLink()
    const ready = yield* nextMessage(link, "waiting for the new host")
    if (ready.type !== "ready") return yield* Effect.fail(failure(`The new host answered ${ready.type}, not ready.`))
    const mounts = volumes.map((v, index) => ({ name: v.Name, index }))
    const container = mounts.length === 0 ? undefined : yield* helper(image!, mounts)
    const sent: Array<MovedVolume> = []
    for (const m of mounts) {
      const volume = volumes[m.index]!
      yield* send(link, { type: "volume", name: m.name, labels: volume.Labels ?? {} }, "announcing a volume")
      const archive = yield* call(
        `read the volume ${m.name}`,
        () => container!.getArchive({ path: `${MOUNT_ROOT}/${m.index}` })
      )
      const { bytes, sha256 } = yield* Effect.tryPromise({
        try: async () => {
          const frames = framer(link)
          try {
            const sums = await digest(archive, frames.push)
            await frames.flush()
            return sums
          } catch (e) {
            // A read left open holds the helper (its removal would wait on it).
            ;(archive as { destroy?: () => void }).destroy?.()
            throw e
          }
        },
        catch: (e) => failure(`Could not send the volume ${m.name}: ${e instanceof Error ? e.message : String(e)}`)
      }).pipe(
        Effect.timeoutFail({
          duration: VOLUME_TIMEOUT,
          onTimeout: () => failure(`Sending the volume ${m.name} took too long.`)
        })
      )
      yield* send(link, { type: "volume_end", bytes, sha256 }, "ending a volume")
      yield* info(`Volume ${m.name}: ${formatBytes(bytes)} sent (sha256 ${sha256}).`)
      sent.push({ name: m.name, bytes, sha256 })
    }
    yield* send(link, { type: "end" }, "ending the copy")
    const verdict = yield* nextMessage(link, "waiting for the new host to verify the copy")
    if (verdict.type !== "verified") {
      return yield* Effect.fail(failure(`The new host answered ${verdict.type}, not verified.`))
    }
    yield* info("The new host verified every volume; the old ones stay until the move's cleanup.")
    return { volumes: sent }
  })

  const importSide = Effect.gen(function*() {
    for (const image of input.images) {
      const found = yield* orMissing(call(`inspect the image ${image}`, () => docker.getImage(image).inspect()))
      if (found === undefined) {
        return yield* Effect.fail(
          failure(`The image ${image} is not on this host: the workspace could not start here, so nothing was copied.`)
        )
      }
    }
    const made: Array<string> = []
    const received: Array<MovedVolume> = []
    const copy = Effect.gen(function*() {
      const link = yield* openLink()
      yield* send(link, { type: "ready" }, "saying it is ready")
      let index = 0
      while (true) {
        const message = yield* nextMessage(link, "waiting for a volume")
        if (message.type === "end") break
        if (message.type !== "volume") {
          return yield* Effect.fail(failure(`Unexpected ${message.type} on the move's link.`))
        }
        const name = message.name
        const image = input.images[0]
        if (image === undefined) {
          return yield* Effect.fail(failure("The workspace ran no image: no helper container can write its volumes."))
        }
        const existing = yield* orMissing(call(`inspect the volume ${name}`, () => docker.getVolume(name).inspect()))
        if (existing !== undefined) {
          const own = existing.Labels ?? {}
          if (Object.entries(selector).some(([k, v]) => own[k] !== v)) {
            return yield* Effect.fail(
              failure(
                `A volume named ${name} exists on this host that the workspace did not make; Workbay leaves it alone.`
              )
            )
          }
          // A copy an earlier, failed move left here: replaced.
          yield* call(
            `remove the earlier copy of the volume ${name}`,
            () => docker.getVolume(name).remove({ force: true })
          )
        }
        yield* call(
          `create the volume ${name}`,
          () => docker.createVolume({ Name: name, Labels: { ...message.labels, ...selector } })
        )
        made.push(name)
        const at = index++
        const result = yield* Effect.scoped(Effect.gen(function*() {
          const container = yield* helper(image, [{ name, index: at }])
          const body = new PassThrough({ highWaterMark: 1024 * 1024 })
          // A write left open holds the helper (its removal would wait on it): a failure aborts it first.
          const abort = new AbortController()
          yield* Effect.addFinalizer(() =>
            Effect.sync(() => {
              if (body.writableEnded) return
              abort.abort()
              body.destroy()
            })
          )
          const written = Effect.runPromise(
            Effect.either(
              call(
                `write the volume ${name}`,
                () => container.putArchive(body, { path: MOUNT_ROOT, abortSignal: abort.signal }),
                VOLUME_TIMEOUT
              )
            )
          )
          const hash = createHash("sha256")
          let bytes = 0
          let end: LinkMessage | undefined
          while (end === undefined) {
            const frame = yield* linkStep("receiving a volume", () => link.next())
            if (frame === undefined) {
              body.destroy()
              return yield* Effect.fail(
                failure(`The old host closed the move's link in the middle of the volume ${name}.`)
              )
            }
            if (typeof frame === "string") {
              try {
                end = JSON.parse(frame) as LinkMessage
              } catch {
                return yield* Effect.fail(failure(`A message on the move's link is not JSON (volume ${name}).`))
              }
              break
            }
            hash.update(frame)
            bytes += frame.length
            if (!body.write(frame)) yield* Effect.promise(() => new Promise<void>((r) => body.once("drain", () => r())))
          }
          body.end()
          const wrote = yield* Effect.promise(() => written)
          if (wrote._tag === "Left") return yield* Effect.fail(fromDocker(wrote.left))
          if (end.type !== "volume_end") {
            return yield* Effect.fail(failure(`Unexpected ${end.type} in the middle of the volume ${name}.`))
          }
          const arrived = hash.digest("hex")
          if (arrived !== end.sha256 || bytes !== end.bytes) {
            return yield* Effect.fail(
              failure(
                `The volume ${name} arrived damaged: ${bytes} bytes, sha256 ${arrived}; the old host sent ${end.bytes}, ${end.sha256}.`
              )
            )
          }
          // What the engine holds now, read back, must be what left the old host.
          const readBack = yield* call(
            `read back the volume ${name}`,
            () => container.getArchive({ path: `${MOUNT_ROOT}/${at}` })
          )
          const check = yield* Effect.tryPromise({
            try: () => digest(readBack),
            catch: (e) => failure(`Could not read back the volume ${name}: ${String(e)}`)
          })
          if (check.sha256 !== end.sha256) {
            return yield* Effect.fail(
              failure(
                `The volume ${name} as written here does not match the old host's (sha256 ${check.sha256}, not ${end.sha256}).`
              )
            )
          }
          return { name, bytes, sha256: check.sha256 } satisfies MovedVolume
        }))
        yield* info(`Volume ${name}: ${formatBytes(result.bytes)} written and verified (sha256 ${result.sha256}).`)
        received.push(result)
      }
      yield* send(link, { type: "verified" }, "saying the copy is verified")
      return { volumes: received }
    })
    return yield* Effect.scoped(copy).pipe(
      // What a failed (or interrupted) import made here goes: the workspace stays on its old host, whole.
      Effect.onExit((exit) =>
        Exit.isSuccess(exit)
          ? Effect.void
          : Effect.forEach(
            made,
            (name) =>
              Effect.ignore(call(`remove the volume ${name}`, () => docker.getVolume(name).remove({ force: true }))),
            { discard: true }
          )
      )
    )
  })

  const cleanupSide = Effect.gen(function*() {
    const volumes = yield* volumesOfWorkspace
    for (const v of volumes) {
      yield* orMissing(call(`remove the volume ${v.Name}`, () => docker.getVolume(v.Name).remove()))
      yield* info(`Volume ${v.Name}: removed from the old host.`)
    }
    if (volumes.length === 0) yield* info("No volume of the workspace is left on this host.")
    return { volumes: [] }
  })

  const run = input.side === "export" ? exportSide : input.side === "import" ? importSide : cleanupSide
  return Effect.scoped(run).pipe(
    Effect.catchTag("DockerError", (e) => Effect.fail(fromDocker(e))),
    Effect.withSpan(`DockerProvisioner.move.${input.side}`)
  )
}
