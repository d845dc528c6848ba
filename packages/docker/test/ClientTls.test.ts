/**
 * A tcp:// engine behind mutual TLS (a daemon started with `--tlsverify`): the client given a
 * `DOCKER_CERT_PATH`-style folder checks the engine's certificate against `ca.pem` and presents its
 * own. The engine here is a node:https server that answers the two calls `ping` makes, with real
 * certificates made by openssl for this test: a handshake without the client's certificate, or
 * with one another authority signed, is refused, and so is an engine whose certificate the
 * client's authority did not sign.
 */
import { Effect, Either } from "effect"
import { execFile } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import type { IncomingMessage, ServerResponse } from "node:http"
import { createServer, type Server } from "node:https"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dockerClient, ping } from "../src/Client.js"

const run = promisify(execFile)

/** An authority in `dir` (`<name>-ca.pem`, `<name>-ca.key`). */
const authority = async (dir: string, name: string) => {
  await run("openssl", [
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-days",
    "1",
    "-subj",
    `/CN=${name} test CA`,
    "-keyout",
    join(dir, `${name}-ca.key`),
    "-out",
    join(dir, `${name}-ca.pem`)
  ])
}

/** A certificate `<out>.pem` (key `<out>.key`) signed by `ca`, for `subjectAltName` when given. */
const certificate = async (dir: string, ca: string, out: string, cn: string, altName?: string) => {
  await run("openssl", [
    "req",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-subj",
    `/CN=${cn}`,
    "-keyout",
    join(dir, `${out}.key`),
    "-out",
    join(dir, `${out}.csr`)
  ])
  const ext = join(dir, `${out}.ext`)
  await run("sh", [
    "-c",
    `printf '%s\\n' "${altName === undefined ? "extendedKeyUsage=clientAuth" : `subjectAltName=${altName}`}" > ${ext}`
  ])
  await run("openssl", [
    "x509",
    "-req",
    "-in",
    join(dir, `${out}.csr`),
    "-CA",
    join(dir, `${ca}-ca.pem`),
    "-CAkey",
    join(dir, `${ca}-ca.key`),
    "-CAcreateserial",
    "-days",
    "1",
    "-extfile",
    ext,
    "-out",
    join(dir, `${out}.pem`)
  ])
}

/** A DOCKER_CERT_PATH folder: the authority to trust, the client's certificate and key. */
const certFolder = (dir: string, name: string, ca: string, client: string) => {
  const folder = join(dir, name)
  mkdirSync(folder)
  copyFileSync(join(dir, `${ca}-ca.pem`), join(folder, "ca.pem"))
  copyFileSync(join(dir, `${client}.pem`), join(folder, "cert.pem"))
  copyFileSync(join(dir, `${client}.key`), join(folder, "key.pem"))
  return folder
}

/** What an engine answers to `ping`'s call. */
const answer = (req: IncomingMessage, res: ServerResponse) => {
  if (req.url?.endsWith("/version")) {
    res.setHeader("content-type", "application/json")
    return res.end(JSON.stringify({ Version: "tls-test" }))
  }
  res.statusCode = 404
  res.end("{}")
}

describe("the Docker client over mutual TLS", () => {
  let dir = ""
  let engine: Server
  let host = ""

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "workbay-docker-tls-"))
    await Promise.all([authority(dir, "good"), authority(dir, "other")])
    await Promise.all([
      certificate(dir, "good", "engine", "engine", "IP:127.0.0.1"),
      certificate(dir, "good", "client", "client"),
      certificate(dir, "other", "stranger", "stranger"),
      certificate(dir, "other", "impostor", "impostor", "IP:127.0.0.1")
    ])
    engine = createServer({
      ca: readFileSync(join(dir, "good-ca.pem")),
      cert: readFileSync(join(dir, "engine.pem")),
      key: readFileSync(join(dir, "engine.key")),
      requestCert: true,
      rejectUnauthorized: true
    }, answer)
    await new Promise<void>((resolve) => engine.listen(0, "127.0.0.1", resolve))
    host = `tcp://127.0.0.1:${(engine.address() as AddressInfo).port}`
  }, 60_000)
  afterAll(async () => {
    await new Promise<void>((resolve) => (engine === undefined ? resolve() : engine.close(() => resolve())))
    if (dir !== "") rmSync(dir, { recursive: true, force: true })
  })

  it("reaches an engine that asks for the client's certificate", async () => {
    const docker = dockerClient({ host, certPath: certFolder(dir, "client-folder", "good", "client") })
    const answered = await Effect.runPromise(Effect.either(ping(docker)))
    expect(Either.getOrThrow(answered).Version).toBe("tls-test")
  })

  it("is refused with a certificate another authority signed, and without TLS", async () => {
    const stranger = dockerClient({ host, certPath: certFolder(dir, "stranger-folder", "good", "stranger") })
    expect(Either.isLeft(await Effect.runPromise(Effect.either(ping(stranger))))).toBe(true)
    expect(Either.isLeft(await Effect.runPromise(Effect.either(ping(dockerClient({ host })))))).toBe(true)
  })

  it("refuses an engine whose certificate its authority did not sign", async () => {
    const impostor = createServer({
      cert: readFileSync(join(dir, "impostor.pem")),
      key: readFileSync(join(dir, "impostor.key"))
    }, answer)
    await new Promise<void>((resolve) => impostor.listen(0, "127.0.0.1", resolve))
    try {
      const docker = dockerClient({
        host: `tcp://127.0.0.1:${(impostor.address() as AddressInfo).port}`,
        certPath: certFolder(dir, "client-folder-2", "good", "client")
      })
      expect(Either.isLeft(await Effect.runPromise(Effect.either(ping(docker))))).toBe(true)
    } finally {
      await new Promise<void>((resolve) => impostor.close(() => resolve()))
    }
  })
})
