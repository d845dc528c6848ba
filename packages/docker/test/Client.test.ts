/**
 * The Docker client against a fake daemon (a node:http server on a Unix socket), no Docker needed:
 * a redirect is a failed call that says so, whatever its location (a path, another host's URL, a
 * scheme nobody follows), nothing reaches the address it names, and the process goes on (an error
 * event nobody listens to, or a throw inside a response's event, would fail this run as an
 * unhandled error). The provisioner makes a client it is handed refuse redirects too, and a pull
 * whose progress is not JSON fails the build instead of the process.
 */
import Docker from "dockerode"
import { Effect, Either } from "effect"
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { createServer as createTcpServer, type Server as TcpServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { call, dockerClient, redirectRefused } from "../src/Client.js"
import { makeDockerProvisioner } from "../src/DockerProvisioner.js"
import { buildInput, templateArchive } from "./support.js"

type Handler = (req: IncomingMessage, res: ServerResponse) => void

const listening = (server: Server | TcpServer, at: string | number) =>
  new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    if (typeof at === "string") server.listen(at, () => resolve())
    else server.listen(at, "127.0.0.1", () => resolve())
  })
const closed = (server: Server | TcpServer) => new Promise<void>((resolve) => server.close(() => resolve()))

describe("the Docker client and a daemon that redirects", () => {
  const folder = mkdtempSync(join(tmpdir(), "workbay-fake-daemon-"))
  const socket = join(folder, "docker.sock")
  let handler: Handler = (_req, res) => res.writeHead(500).end()
  const daemon = createServer((req, res) => handler(req, res))
  const requests: Array<string> = []
  daemon.on("request", (req: IncomingMessage) => requests.push(`${req.method} ${req.url}`))
  // Where a redirect may point: it must never be reached.
  let reached = 0
  const target = createTcpServer((s) => {
    reached++
    s.destroy()
  })
  let port = 0

  beforeAll(async () => {
    await listening(daemon, socket)
    await listening(target, 0)
    port = (target.address() as { port: number }).port
  })
  afterEach(() => {
    requests.length = 0
  })
  afterAll(async () => {
    daemon.closeAllConnections()
    await closed(daemon)
    await closed(target)
    rmSync(folder, { recursive: true, force: true })
  })

  const redirectTo = (location: string, status = 301): Handler => (_req, res) =>
    res.writeHead(status, { location, "content-type": "text/html" }).end(`<a href="${location}">Moved</a>.`)
  /** Waits a little for a connection a followed redirect would make. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300))

  const locations = () => [
    "/volumes/var/run/docker.sock",
    `/127.0.0.1:${port}/x`,
    `http://127.0.0.1:${port}/x`,
    `//127.0.0.1:${port}/x`,
    "mailto:x",
    `ftp://127.0.0.1:${port}/x`,
    ""
  ]

  it("fails a call the daemon redirects, with a message saying so, and sends nothing where it points", async () => {
    const docker = dockerClient({ host: `unix://${socket}` })
    for (const location of locations()) {
      for (const status of [301, 307]) {
        handler = redirectTo(location, status)
        const result = await Effect.runPromise(
          Effect.either(call("inspect the volume x", () => docker.getVolume("x").inspect()))
        )
        expect(Either.isLeft(result), location).toBe(true)
        if (Either.isLeft(result)) {
          expect(result.left.message, location).toBe(redirectRefused(status))
          expect(result.left.message).toBe(
            `the Docker daemon answered with a redirect (${status}), which Workbay does not follow`
          )
          expect(result.left.status).toBe(status)
        }
      }
    }
    await settle()
    expect(reached).toBe(0)
    // One request per call: none followed the redirect back to the daemon either.
    expect(requests).toEqual(Array(locations().length * 2).fill("GET /volumes/x"))
  })

  it("fails a streamed call (events) the daemon redirects", async () => {
    const docker = dockerClient({ host: `unix://${socket}` })
    handler = redirectTo(`http://127.0.0.1:${port}/events`)
    const error = await new Promise<unknown>((resolve) => docker.getEvents({}, (e) => resolve(e)))
    expect((error as { statusCode?: number }).statusCode).toBe(301)
    await settle()
    expect(reached).toBe(0)
  })

  it("makes a client the provisioner is handed refuse redirects too", async () => {
    // An embedder's own client, not made by dockerClient.
    const provisioner = makeDockerProvisioner({ docker: new Docker({ socketPath: socket }) })
    handler = redirectTo(`/127.0.0.1:${port}/x`)
    const archive = await templateArchive(
      "resources:\n  - name: dev\n    type: docker_container\n    container: { image: debian }\n"
    )
    const ws = { id: randomUUID(), name: "dev", owner: "alice" }
    const result = await Effect.runPromise(
      Effect.either(provisioner.build(buildInput(archive, randomUUID(), ws, { transition: "start" })))
    )
    expect(Either.isLeft(result) && result.left.message).toBe(
      `Could not list the workspace's containers: ${redirectRefused(301)} (Docker answered 301)`
    )
    await settle()
    expect(reached).toBe(0)
  })

  it("fails a pull whose progress is not JSON, and the process goes on", async () => {
    handler = (req, res) => {
      if (req.url?.startsWith("/containers/json") === true) {
        return res.writeHead(200, { "content-type": "application/json" }).end("[]")
      }
      if (req.url?.startsWith("/images/create") === true) {
        res.writeHead(200, { "content-type": "application/json" })
        res.write("{\"status\":\"Pulling\"}\n")
        return res.end("<html>not the daemon</html>\n")
      }
      return res.writeHead(404, { "content-type": "application/json" }).end("{\"message\":\"No such image\"}")
    }
    const provisioner = makeDockerProvisioner({ docker: dockerClient({ host: `unix://${socket}` }) })
    const archive = await templateArchive(
      "resources:\n  - name: dev\n    type: docker_container\n    container: { image: \"example.com/team/img:1\" }\n"
    )
    const ws = { id: randomUUID(), name: "dev", owner: "alice" }
    const result = await Effect.runPromise(
      Effect.either(provisioner.build(buildInput(archive, randomUUID(), ws, { transition: "start" })))
    )
    expect(Either.isLeft(result) && result.left.message).toMatch(
      /^Could not pull the image example\.com\/team\/img:1: the daemon's pull progress is not JSON: <html>/
    )
  })
})
