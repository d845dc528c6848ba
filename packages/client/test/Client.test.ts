/**
 * The typed client over real HTTP (a node:http server standing in for the service's answers):
 * the token as a Bearer header, read again for each request; the service's Response object read
 * into an ApiError; statuses a caller expects settled without throwing.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiError, apiErrorOf, isStatus, makeClient, settle, unwrap } from "../src/index.js"

let url = ""
const seen: Array<{ readonly path: string; readonly authorization: string | undefined }> = []
const answer = (res: ServerResponse, status: number, body: string, type = "application/json") => {
  res.writeHead(status, { "content-type": type })
  res.end(body)
}
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  seen.push({ path: req.url ?? "", authorization: req.headers.authorization })
  if (req.url === "/api/v2/buildinfo") return answer(res, 200, JSON.stringify({ version: "v1.2.3" }))
  if (req.url === "/api/v2/users/first") return answer(res, 404, JSON.stringify({ message: "No first user." }))
  if (req.url === "/api/v2/users/me") return answer(res, 502, "<html>bad gateway</html>", "text/html")
  answer(
    res,
    400,
    JSON.stringify({
      message: "Validation failed.",
      detail: "Check the fields.",
      validations: [{ field: "username", detail: "Username is taken." }, { field: 3 }]
    })
  )
})

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe("makeClient", () => {
  it("sends the token as a Bearer header, read for each request", async () => {
    let token = "one"
    const client = makeClient({ url, token: () => token })
    expect((await unwrap(client.GET("/api/v2/buildinfo"))).version).toBe("v1.2.3")
    token = "two"
    await unwrap(client.GET("/api/v2/buildinfo"))
    expect(seen.slice(-2).map((s) => s.authorization)).toEqual(["Bearer one", "Bearer two"])
  })

  it("sends no Authorization header without a token", async () => {
    await unwrap(makeClient({ url }).GET("/api/v2/buildinfo"))
    expect(seen.at(-1)?.authorization).toBeUndefined()
  })

  it("reads a refusal's Response object into an ApiError (validations with a field and a detail only)", async () => {
    const refused = await unwrap(
      makeClient({ url }).POST("/api/v2/users", {
        body: { email: "a@b.c", username: "taken", password: "a long password", organization_ids: [] }
      })
    ).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(ApiError)
    expect(refused).toMatchObject({
      status: 400,
      message: "Validation failed.",
      detail: "Check the fields.",
      validations: [{ field: "username", detail: "Username is taken." }]
    })
  })

  it("names the status of an answer that is not a Response object, with the start of its text", async () => {
    const refused = await unwrap(makeClient({ url }).GET("/api/v2/users/{user}", { params: { path: { user: "me" } } }))
      .catch((e: unknown) => e)
    expect(refused).toMatchObject({ status: 502, message: "The service answered 502 Bad Gateway." })
  })

  it("settles the statuses a caller expects, and throws on others", async () => {
    const client = makeClient({ url })
    expect(await settle(client.GET("/api/v2/users/first"), [404])).toEqual({ status: 404, data: undefined })
    expect(await settle(client.GET("/api/v2/buildinfo"), [404])).toMatchObject({
      status: 200,
      data: { version: "v1.2.3" }
    })
    const refused = await settle(client.GET("/api/v2/users/first"), [304]).catch((e: unknown) => e)
    expect(isStatus(refused, 404)).toBe(true)
  })
})

describe("apiErrorOf", () => {
  it("reads a Response object given as text (a refused WebSocket upgrade)", () => {
    const e = apiErrorOf(403, "Forbidden", JSON.stringify({ message: "Forbidden.", detail: "Not yours." }))
    expect([e.status, e.message, e.detail, e.validations]).toEqual([403, "Forbidden.", "Not yours.", []])
  })

  it("keeps at most 500 characters of a body that is not JSON", () => {
    const e = apiErrorOf(500, "", "x".repeat(2_000))
    expect([e.message, e.detail?.length]).toEqual(["The service answered 500.", 500])
  })

  it("shows the start of a JSON body that is not a Response object", () => {
    expect(apiErrorOf(502, "Bad Gateway", { error: "upstream" }).detail).toBe(`{"error":"upstream"}`)
  })

  it("has no detail for an empty body", () => {
    expect(apiErrorOf(503, "Service Unavailable", undefined).detail).toBeUndefined()
  })
})
