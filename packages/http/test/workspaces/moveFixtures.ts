/**
 * Hosts for the tests of workspace moves (Moves.test.ts, the response rows): a daemon of a host runs
 * core's daemon client (`runDaemonSession`, the code `workbay provisioner start` runs) over a real
 * WebSocket, with a `docker` provisioner whose volumes live in memory and that copies them over the
 * move's link with the Docker driver's link protocol (docker's Move.ts). Everything on the
 * service's side is real.
 */
import {
  type DaemonLink,
  makeProvisioners,
  makeTemplateProvisioner,
  type MoveLink,
  moveLinkOf,
  type Provisioner,
  ProvisionerFailure,
  runDaemonSession,
  type VolumeMoveInput
} from "@workbay/core"
import { Deferred, Effect, Queue } from "effect"
import { createHash } from "node:crypto"
import { expect } from "vitest"
import WebSocket from "ws"
import { type Client, type ServiceTestServer, uniqueName } from "../support.js"
import { createVersion } from "../templates/versions.js"

export const GIB = 1024 ** 3
const KEY_HEADER = "Coder-Provisioner-Daemon-Key"
export const IMAGE = "workbay-test/dev:1"

export const MOVABLE_TEMPLATE = `resources:
  - name: home
    type: docker_volume
  - name: dev
    type: docker_container
    container:
      image: ${IMAGE}
`

export interface MemoryHost {
  readonly name: string
  /** Volumes by name: the workspace they belong to and their bytes. */
  readonly volumes: Map<string, { readonly workspace: string; data: Buffer }>
  readonly images: Set<string>
  /** The statuses the service answered each move link this host opened (101: open). */
  readonly links: Array<number>
  readonly stop: () => Promise<void>
}

export const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex")
const fail = (message: string) => new ProvisionerFailure({ message, logs: [] })
const step = <A>(f: () => Promise<A>) => Effect.tryPromise({ try: f, catch: (e) => fail(String(e)) })

/** One side of a move on an in-memory host: the link protocol of the Docker driver's Move.ts. */
const memoryMove = (host: MemoryHost, input: VolumeMoveInput) =>
  Effect.gen(function*() {
    const mine = [...host.volumes].filter(([, v]) => v.workspace === input.workspace_id)
    if (input.side === "cleanup") {
      for (const [name] of mine) host.volumes.delete(name)
      return { volumes: [] }
    }
    if (input.side === "import" && input.images.some((i) => !host.images.has(i))) {
      return yield* Effect.fail(fail(`The image ${input.images[0]} is not on this host: nothing was copied.`))
    }
    const link: MoveLink = yield* input.openLink!(input.stream)
    const next = () => step(() => link.next())
    if (input.side === "export") {
      expect(JSON.parse((yield* next()) as string)).toEqual({ type: "ready" })
      const sent = []
      for (const [name, v] of mine) {
        yield* step(() => link.send(JSON.stringify({ type: "volume", name, labels: {} })))
        // In pieces, as an engine's archive stream comes.
        for (let at = 0; at < v.data.length; at += 64 * 1024) {
          yield* step(() => link.send(v.data.subarray(at, at + 64 * 1024)))
        }
        yield* step(() => link.send(JSON.stringify({ type: "volume_end", bytes: v.data.length, sha256: sha(v.data) })))
        sent.push({ name, bytes: v.data.length, sha256: sha(v.data) })
      }
      yield* step(() => link.send(JSON.stringify({ type: "end" })))
      expect(JSON.parse((yield* next()) as string)).toEqual({ type: "verified" })
      link.close()
      return { volumes: sent }
    }
    yield* step(() => link.send(JSON.stringify({ type: "ready" })))
    const got = []
    while (true) {
      const message = JSON.parse((yield* next()) as string)
      if (message.type === "end") break
      const parts: Array<Uint8Array> = []
      while (true) {
        const frame = yield* next()
        if (frame === undefined) return yield* Effect.fail(fail("the old host went away"))
        if (typeof frame === "string") {
          const end = JSON.parse(frame)
          const data = Buffer.concat(parts)
          if (sha(data) !== end.sha256) return yield* Effect.fail(fail("damaged"))
          host.volumes.set(message.name, { workspace: input.workspace_id, data })
          got.push({ name: message.name, bytes: data.length, sha256: sha(data) })
          break
        }
        parts.push(frame)
      }
    }
    yield* step(() => link.send(JSON.stringify({ type: "verified" })))
    return { volumes: got }
  })

/** A `docker` provisioner whose volumes live in `host`'s memory: a start makes the home volume once. */
const memoryProvisioner = (host: MemoryHost): Provisioner => ({
  ...makeTemplateProvisioner({
    type: "docker",
    driver: {
      apply: (ctx) =>
        Effect.sync(() => {
          const id = ctx.input.workspace.id
          const name = `workbay-${id}-home`
          if (ctx.input.transition === "start" && !host.volumes.has(name)) {
            host.volumes.set(name, { workspace: id, data: Buffer.from(`the home of ${id}, made on ${host.name}\n`) })
          }
          if (ctx.input.transition === "delete") host.volumes.delete(name)
          return {
            resources: ctx.resources.map((r) =>
              r.type === "docker_container"
                ? { ...r, metadata: [...r.metadata, { key: "image", value: IMAGE, sensitive: false }] }
                : r
            ),
            state: {}
          }
        })
    }
  }),
  moveVolumes: (input) => memoryMove(host, input)
})

/** A daemon of host `name` with `memory` bytes, serving with core's daemon client over a real WebSocket. */
export const startMemoryHost = async (
  srv: ServiceTestServer,
  orgId: string,
  key: string,
  name: string,
  memory: number,
  images: ReadonlyArray<string> = [IMAGE]
) => {
  const volumes = new Map<string, { workspace: string; data: Buffer }>()
  const stopped = Effect.runSync(Deferred.make<void>())
  const host: MemoryHost = {
    name,
    volumes,
    images: new Set(images),
    links: [],
    stop: async () => {
      Effect.runSync(Deferred.succeed(stopped, undefined))
      socket.close()
      await done
    }
  }
  const socket = new WebSocket(
    `${srv.wsUrl}/api/v2/organizations/${orgId}/provisionerdaemons/serve?provisioner=docker&name=${name}&host=${name}`,
    { headers: { [KEY_HEADER]: key } }
  )
  const messages = Effect.runSync(Queue.unbounded<string>())
  const closed = Effect.runSync(Deferred.make<void>())
  socket.on("message", (d) => Effect.runSync(Queue.offer(messages, d.toString())))
  socket.on("close", () => Effect.runSync(Deferred.succeed(closed, undefined)))
  await new Promise((resolve, reject) => {
    socket.once("open", resolve)
    socket.once("error", reject)
  })
  const link: DaemonLink = {
    send: (text) => Effect.sync(() => socket.readyState === WebSocket.OPEN && socket.send(text)),
    receive: Effect.raceFirst(
      Queue.take(messages),
      Effect.flatMap(Deferred.await(closed), () => Effect.fail("closed"))
    ),
    close: Effect.sync(() => socket.close())
  }
  const openMoveLink = (stream: { path: string; token: string }) =>
    step(() =>
      new Promise<MoveLink>((resolve, reject) => {
        const ws = new WebSocket(`${srv.wsUrl}${stream.path}`, {
          headers: { [KEY_HEADER]: key, "Workbay-Move-Token": stream.token }
        })
        ws.once("open", () => {
          host.links.push(101)
          resolve(moveLinkOf(ws))
        })
        ws.once("unexpected-response", (_req, res) => {
          host.links.push(res.statusCode ?? 0)
          reject(new Error(`the link was refused: ${res.statusCode}`))
        })
        ws.once("error", reject)
      })
    )
  const done = Effect.runPromise(runDaemonSession(link, {
    provisioners: makeProvisioners([memoryProvisioner(host)]),
    capacity: Effect.succeed({
      cpus: 8,
      memory_bytes: memory,
      memory_promised_bytes: 0,
      cpus_promised: 0,
      containers: 0,
      disk_free_bytes: 100 * GIB
    }),
    stop: Deferred.await(stopped),
    openMoveLink
  }))
  return host
}

export const waitFor = async <T>(read: () => Promise<T>, ok: (t: T) => boolean, ms = 30_000): Promise<T> => {
  const until = Date.now() + ms
  let last = await read()
  while (!ok(last) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 25))
    last = await read()
  }
  return last
}

/** The workspace's latest build once its job ended. */
export const settled = (owner: Client, workspaceId: string) =>
  waitFor(
    async () => (await owner.get(`/workspaces/${workspaceId}`)).body.latest_build,
    (b) => b.job.status !== "pending" && b.job.status !== "running"
  )

/** The workspace's latest move once it ended. */
export const moveSettled = (owner: Client, workspaceId: string) =>
  waitFor(
    async () => (await owner.get(`/workspaces/${workspaceId}/moves`)).body[0],
    (m) => m.status === "succeeded" || m.status === "failed"
  )

/** A template of `MOVABLE_TEMPLATE` (a home volume, a container of `IMAGE`) for the `docker` daemons: imported by one of them. */
export const movableTemplate = async (srv: ServiceTestServer, owner: Client, orgId: string) => {
  const version = await createVersion(srv, owner, orgId, MOVABLE_TEMPLATE, { provisioner: "docker" })
  expect(version.status, JSON.stringify(version.body)).toBe(201)
  await waitFor(
    async () => (await owner.get(`/templateversions/${version.body.id}`)).body.job.status,
    (s) => s === "succeeded"
  )
  const template = await owner.post(`/organizations/${orgId}/templates`, {
    name: uniqueName("movable"),
    template_version_id: version.body.id
  })
  expect(template.status, JSON.stringify(template.body)).toBe(201)
  return template.body.id as string
}

/** A workspace of `templateId` for `client`, started (where placement puts it) and stopped. */
export const stoppedWorkspace = async (client: Client, orgId: string, templateId: string) => {
  const created = await client.post(`/organizations/${orgId}/members/me/workspaces`, {
    name: uniqueName("ws"),
    template_id: templateId
  })
  expect(created.status, JSON.stringify(created.body)).toBe(200)
  const started = await settled(client, created.body.id)
  expect(started.status, JSON.stringify(started.job)).toBe("running")
  const stop = await client.post(`/workspaces/${created.body.id}/builds`, { transition: "stop" })
  expect(stop.status, JSON.stringify(stop.body)).toBe(200)
  expect((await settled(client, created.body.id)).status).toBe("stopped")
  return created.body as { id: string; name: string }
}
