/**
 * Cross-site requests (docs/authentication.md, "Cross-site requests"): a state change made with the
 * session cookie is refused (403) when the browser says another site made it (`Sec-Fetch-Site`, or
 * without it `Origin`); the same request from this origin, one with the session header or a bearer
 * (a browser adds neither by itself), a read, and a client that sends neither header all pass.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Client, expectResponse, startWithOwner, type TestServer } from "../support.js"

describe("cross-site requests with the session cookie", () => {
  let srv: TestServer
  let owner: Client
  let url: string
  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner())
    url = srv.anonymous.baseUrl
  })
  afterAll(() => srv.close())

  const cookie = () => `service_session_token=${owner.token!}`
  /** PUT /users/me/profile (a state change) with the cookie and `headers`. */
  const change = (headers: Record<string, string>, name = "Olivia") =>
    fetch(`${url}/users/me/profile`, {
      method: "PUT",
      headers: { cookie: cookie(), "content-type": "application/json", ...headers },
      body: JSON.stringify({ username: "admin", name })
    }).then(async (r) => ({ status: r.status, body: await r.json(), headers: r.headers }))

  it("refuses a state change another site made, by Sec-Fetch-Site or by Origin, and changes nothing", async () => {
    const bySite = await change({ "sec-fetch-site": "cross-site", origin: "https://evil.example" }, "Forged")
    expectResponse(bySite as any, 403)
    expect(bySite.body).toEqual({ message: "Cross-site request refused.", detail: "Sec-Fetch-Site is \"cross-site\"." })
    // A sibling subdomain is another origin too (same-site is not same-origin).
    expect((await change({ "sec-fetch-site": "same-site" }, "Forged")).status).toBe(403)
    const byOrigin = await change({ origin: "https://evil.example" }, "Forged")
    expect(byOrigin.status).toBe(403)
    expect(byOrigin.body.detail).toBe("The request's Origin is not this service.")
    expect((await change({ origin: "null" }, "Forged")).status).toBe(403)
    expect((await owner.get("/users/me")).body.name).not.toBe("Forged")
  })

  it("lets the same change through from this origin, by typing, with a header token, or from a non-browser client", async () => {
    const host = new URL(url).host
    expect((await change({ "sec-fetch-site": "same-origin", origin: `http://${host}` })).status).toBe(200)
    expect((await change({ "sec-fetch-site": "none" })).status).toBe(200)
    expect((await change({ origin: `http://${host}` })).status).toBe(200)
    expect((await change({})).status).toBe(200)
    // The session header (or a bearer) is no browser's ambient credential: no check.
    const withHeader = await fetch(`${url}/users/me/profile`, {
      method: "PUT",
      headers: {
        "Service-Session-Token": owner.token!,
        "content-type": "application/json",
        "sec-fetch-site": "cross-site"
      },
      body: JSON.stringify({ username: "admin", name: "Olivia" })
    })
    expect(withHeader.status).toBe(200)
    // A read is harmless.
    const read = await fetch(`${url}/users/me`, { headers: { cookie: cookie(), "sec-fetch-site": "cross-site" } })
    expect(read.status).toBe(200)
  })
})
