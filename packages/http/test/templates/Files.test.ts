/** Black-box tests of files (uploads of template sources) over real HTTP and a fresh SQLite database. */
import { readArchive } from "@workbay/core"
import { makeWorkbay } from "@workbay/http"
import * as Sqlite from "@workbay/storage-sqlite"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { zerosZip, zipOf } from "../../../core/test/templates/archives.js"
import {
  type Client,
  createUser,
  expectResponse,
  type ServiceTestServer,
  SESSION_HEADER,
  startWithOwner,
  STRONG_PASSWORD,
  UNKNOWN_ID,
  UUID_PATTERN
} from "../support.js"
import { download, tar, upload, zip } from "./archives.js"

const LIMIT = 64 * 1024

describe("files", () => {
  let srv: ServiceTestServer
  let owner: Client
  let member: Client
  let other: Client
  let templateAdmin: Client
  const archive = tar([{ name: "main.tf", content: "terraform {}\n" }, {
    name: "README.md",
    content: "# A template\n"
  }])

  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner({ http: { maxFileBytes: LIMIT } }))
    member = (await createUser(owner)).client
    other = (await createUser(owner)).client
    templateAdmin = (await createUser(owner, { roles: ["template-admin"] })).client
  })
  afterAll(() => srv.close())

  it("stores a tar archive and answers 201 with its id in `hash`", async () => {
    const r = await upload(srv.url, member.token, archive)
    expect(r.status).toBe(201)
    expect(r.body).toEqual({ hash: expect.stringMatching(UUID_PATTERN) })
    expect(r.headers.get("content-type")).toMatch(/^application\/json/)
  })

  it("answers the same bytes from the same user with 200 and the same id, from another user with a new id", async () => {
    const bytes = tar([{ name: "main.tf", content: "dedupe\n" }])
    const first = await upload(srv.url, member.token, bytes)
    const again = await upload(srv.url, member.token, bytes)
    expect([first.status, again.status]).toEqual([201, 200])
    expect(again.body).toEqual(first.body)
    const theirs = await upload(srv.url, other.token, bytes)
    expect(theirs.status).toBe(201)
    expect(theirs.body.hash).not.toBe(first.body.hash)
  })

  it("answers the archive's exact bytes and content type to its creator, HEAD with the length only", async () => {
    const { body } = await upload(srv.url, member.token, archive)
    const r = await download(srv.url, member.token, body.hash)
    expect(r.status).toBe(200)
    expect(r.headers.get("content-type")).toBe("application/x-tar")
    expect(Buffer.from(r.bytes).equals(Buffer.from(archive))).toBe(true)
    const head = await download(srv.url, member.token, body.hash, "HEAD")
    expect(head.status).toBe(200)
    expect(head.bytes.length).toBe(0)
    expect(Number(head.headers.get("content-length"))).toBe(archive.length)
    expect(head.headers.get("content-type")).toBe("application/x-tar")
  })

  it("stores a zip archive as a tar archive of the same files, as the described system does", async () => {
    const bytes = zip([{ name: "main.tf", content: "terraform {}\n" }, { name: "dir/README.md", content: "# Hi\n" }])
    const up = await upload(srv.url, member.token, bytes, "application/zip")
    expect(up.status).toBe(201)
    const r = await download(srv.url, member.token, up.body.hash)
    expect(r.headers.get("content-type")).toBe("application/x-tar")
    const files = await Effect.runPromise(readArchive(r.bytes, "application/x-tar"))
    expect(Object.fromEntries([...files].map(([k, v]) => [k, Buffer.from(v).toString("utf8")]))).toEqual({
      "main.tf": "terraform {}\n",
      "dir/README.md": "# Hi\n"
    })
    // The same zip again is the same (converted) file.
    const again = await upload(srv.url, member.token, bytes, "application/x-zip-compressed")
    expect([again.status, again.body.hash]).toEqual([200, up.body.hash])
  })

  it("lets the owner and a template admin read anyone's file; another member gets 404", async () => {
    const { body } = await upload(srv.url, member.token, archive)
    expect((await download(srv.url, owner.token, body.hash)).status).toBe(200)
    expect((await download(srv.url, templateAdmin.token, body.hash)).status).toBe(200)
    const hidden = await download(srv.url, other.token, body.hash)
    expect(hidden.status).toBe(404)
    expect(JSON.parse(Buffer.from(hidden.bytes).toString())).toEqual({ message: "File not found." })
  })

  it("answers 401 to anonymous callers on both routes", async () => {
    const { body } = await upload(srv.url, member.token, archive)
    expect((await upload(srv.url, undefined, archive)).status).toBe(401)
    expect((await download(srv.url, undefined, body.hash)).status).toBe(401)
  })

  it("refuses other content types with 400, as the described system words it", async () => {
    for (const type of ["application/json", "text/plain", "application/gzip"]) {
      const r = await upload(srv.url, member.token, archive, type)
      expectResponse({ status: r.status, body: r.body, headers: r.headers }, 400)
      expect(r.body.message).toBe(`Unsupported content type header "${type}".`)
    }
    const none = await upload(srv.url, member.token, archive, null)
    expect(none.status).toBe(400)
    expect(none.body.message).toBe(`Unsupported content type header "".`)
  })

  it("refuses an empty body and a zip that is not one with 400", async () => {
    const empty = await upload(srv.url, member.token, new Uint8Array(0))
    expect(empty.status).toBe(400)
    expect(empty.body.message).toBe("The file is empty.")
    const notZip = await upload(srv.url, member.token, archive, "application/zip")
    expect(notZip.status).toBe(400)
    expect(notZip.body.message).toBe("Incomplete .zip archive file.")
  })

  it("answers 400 to an id that is not a UUID and 404 to an unknown one", async () => {
    const bad = await download(srv.url, member.token, "not-a-uuid")
    expect(bad.status).toBe(400)
    expect(JSON.parse(Buffer.from(bad.bytes).toString())).toEqual({
      message: "Validation failed.",
      validations: [{ field: "fileID", detail: "File id must be a valid UUID." }]
    })
    const unknown = await download(srv.url, member.token, UNKNOWN_ID)
    expect(unknown.status).toBe(404)
    expect(JSON.parse(Buffer.from(unknown.bytes).toString())).toEqual({ message: "File not found." })
  })

  it("takes a file up to the file limit (past the JSON limit's route) and answers 413 with the Response object over it", async () => {
    const big = tar([{ name: "big.bin", content: "x".repeat(LIMIT - 3 * 512 - 100) }])
    expect((await upload(srv.url, member.token, big)).status).toBe(201)
    const over = await upload(srv.url, member.token, new Uint8Array(LIMIT + 1))
    expect(over.status).toBe(413)
    expect(over.body).toEqual({ message: "Request body is too large.", detail: `The limit is ${LIMIT} bytes.` })
  })

  it("answers 413 to a chunked body that grows over the limit", async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(new Uint8Array(LIMIT / 2))
        controller.close()
      }
    })
    const res = await fetch(`${srv.url}/api/v2/files`, {
      method: "POST",
      headers: { "content-type": "application/x-tar", "Service-Session-Token": member.token! },
      body: stream,
      duplex: "half"
    } as RequestInit)
    expect(res.status).toBe(413)
  })
})

describe("hostile zip uploads", () => {
  let srv: ServiceTestServer
  let member: Client

  beforeAll(async () => {
    const started = await startWithOwner()
    srv = started.srv
    member = (await createUser(started.owner)).client
  })
  afterAll(() => srv.close())

  /** Sequential `GET /buildinfo` until `done` settles (and at least `min` of them): their statuses. */
  const readWhile = async (done: Promise<unknown>, min = 5) => {
    let settled = false
    void done.finally(() => (settled = true))
    const statuses: Array<number> = []
    while (!settled || statuses.length < min) {
      const res = await fetch(`${srv.url}/api/v2/buildinfo`)
      await res.arrayBuffer()
      statuses.push(res.status)
    }
    return statuses
  }

  it("refuses a 1 MB zip of one 1 GiB entry with 400 while other requests are answered", async () => {
    const bomb = zerosZip("zeros.bin", 1024 * 1024 * 1024)
    const uploading = upload(srv.url, member.token, bomb, "application/zip")
    const reads = await readWhile(uploading)
    const r = await uploading
    expectResponse({ status: r.status, body: r.body, headers: r.headers }, 400)
    expect(r.body).toEqual({
      message: "Incomplete .zip archive file.",
      detail: "The archive expands to more than 67108864 bytes."
    })
    expect(reads.every((status) => status === 200)).toBe(true)
  })

  it("refuses a zip whose header understates a 1 GiB entry with 400 while other requests are answered", async () => {
    const liar = zerosZip("zeros.bin", 1024 * 1024 * 1024, 1000)
    const uploading = upload(srv.url, member.token, liar, "application/zip")
    const reads = await readWhile(uploading)
    const r = await uploading
    expectResponse({ status: r.status, body: r.body, headers: r.headers }, 400)
    expect(r.body.detail).toMatch(/^The archive is not a readable zip file: too many bytes in the stream/)
    expect(reads.every((status) => status === 200)).toBe(true)
  })

  it("stores a zip of 3,500 small files", async () => {
    const files = Object.fromEntries(Array.from({ length: 3500 }, (_, i) => [`f${i}.txt`, `${i}`]))
    const up = await upload(srv.url, member.token, zipOf(files), "application/zip")
    expect(up.status).toBe(201)
    const stored = await download(srv.url, member.token, up.body.hash)
    expect((await Effect.runPromise(readArchive(stored.bytes, "application/x-tar"))).size).toBe(3500)
  })
})

describe("files through the web adapter", () => {
  it("keeps the bytes of an upload and of the answer", async () => {
    const workbay = await makeWorkbay(Sqlite.layerMemory, { passwordHashCost: 4 })
    try {
      const call = (path: string, init: RequestInit = {}) =>
        workbay.web(new Request(`http://localhost/api/v2${path}`, init))
      const json = { "content-type": "application/json" }
      await call("/users/first", {
        method: "POST",
        headers: json,
        body: JSON.stringify({ email: "web@example.com", username: "web", password: STRONG_PASSWORD })
      })
      const login = await call("/users/login", {
        method: "POST",
        headers: json,
        body: JSON.stringify({ email: "web@example.com", password: STRONG_PASSWORD })
      })
      const token = ((await login.json()) as { session_token: string }).session_token
      const bytes = Uint8Array.from({ length: 2048 }, (_, i) => (i * 7) % 256)
      const post = await call("/files", {
        method: "POST",
        headers: { "content-type": "application/x-tar", [SESSION_HEADER]: token },
        body: bytes as BodyInit
      })
      expect(post.status).toBe(201)
      const { hash } = (await post.json()) as { hash: string }
      const get = await call(`/files/${hash}`, { headers: { [SESSION_HEADER]: token } })
      expect(get.status).toBe(200)
      expect(get.headers.get("content-type")).toBe("application/x-tar")
      expect(Buffer.from(await get.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true)
    } finally {
      await workbay.dispose()
    }
  })
})
