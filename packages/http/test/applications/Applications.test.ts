/**
 * The application routes over real HTTP: the wildcard app host, and the application key handed
 * (307) to an app host only, limited to `application_connect`; the access URL is sent straight
 * back without one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createUser,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  startWithOwner,
  type TestUser
} from "../support.js"

const KEY_PARAM = "coder_application_connect_api_key"

describe("applications", () => {
  let srv: ServiceTestServer
  let owner: Client
  let dev: TestUser

  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner({
      lifecycle: false,
      settings: { wildcardAccessUrl: "*.apps.example.test" }
    }))
    dev = await createUser(owner, { username: "apps-dev" })
  })
  afterAll(() => srv?.close())

  const redirect = (client: Client, uri: string) =>
    client.get(`/applications/auth-redirect?redirect_uri=${encodeURIComponent(uri)}`)

  it("GET /applications/host answers the wildcard app host, with the access URL's port", async () => {
    const r = await dev.client.get("/applications/host")
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ host: `*.apps.example.test:${new URL(srv.url).port}` })
    expectResponse(await dev.client.as(undefined).get("/applications/host"), 401)
  })

  it("hands an application key to an app host (307), limited to application_connect", async () => {
    const r = await redirect(dev.client, "http://code--main--ws--apps-dev.apps.example.test/some/path?x=1")
    expect(r.status, JSON.stringify(r.body)).toBe(307)
    const to = new URL(r.headers.get("location")!)
    expect(to.host).toBe("code--main--ws--apps-dev.apps.example.test")
    expect(to.pathname).toBe("/some/path")
    expect(to.searchParams.get("x")).toBe("1")
    const key = to.searchParams.get(KEY_PARAM)!
    expect(key).toMatch(/^[a-zA-Z0-9]{10}-[a-zA-Z0-9]{22}$/)
    // The key works, but only for connecting to applications.
    const asKey = dev.client.as(key)
    expectResponse(await asKey.get("/users/me"), 403)
    expectResponse(await redirect(asKey, srv.url), 403)
    const object = { resource_type: "workspace", owner_id: dev.user.id, organization_id: dev.user.organization_ids[0] }
    const checks = await asKey.post("/authcheck", {
      checks: { connect: { action: "application_connect", object }, read: { action: "read", object } }
    })
    expect(checks.status, JSON.stringify(checks.body)).toBe(200)
    expect(checks.body).toEqual({ connect: true, read: false })
  })

  it("sends the browser straight back to the access URL, with no key (its session cookie reaches it)", async () => {
    const audited = async () =>
      (await owner.get(`/audit?limit=1&q=${encodeURIComponent("resource_type:api_key username:apps-dev")}`)).body.count
    const entries = await audited()
    const uri = `${srv.url}/@apps-dev/ws/apps/code/x?y=1`
    const r = await redirect(dev.client, uri)
    expect(r.status, JSON.stringify(r.body)).toBe(307)
    expect(r.headers.get("location")).toBe(uri)
    // A key already in the URL is not passed on either.
    const given = await redirect(dev.client, `${srv.url}/@apps-dev/ws/apps/code/?${KEY_PARAM}=abc&y=1`)
    expect(given.headers.get("location")).toBe(`${srv.url}/@apps-dev/ws/apps/code/?y=1`)
    // No key was made, so none was audited.
    expect(await audited()).toBe(entries)
  })

  it("refuses any other host, a bare wildcard parent, a non-URL and a missing redirect_uri (400)", async () => {
    for (
      const uri of [
        "https://evil.example/",
        "http://apps.example.test/",
        "http://a.b.apps.example.test.evil.example/",
        "not a url",
        "javascript:alert(1)",
        "http://user:pw@x.apps.example.test/"
      ]
    ) {
      expectValidations(await redirect(dev.client, uri), ["redirect_uri"])
    }
    expectValidations(await dev.client.get("/applications/auth-redirect"), ["redirect_uri"])
    expectResponse(await dev.client.as(undefined).get("/applications/auth-redirect?redirect_uri=x"), 401)
  })

  it("issuing the key is audited, without its secret", async () => {
    await redirect(dev.client, "http://x.apps.example.test/")
    const audit = await owner.get(`/audit?limit=20&q=${encodeURIComponent("resource_type:api_key username:apps-dev")}`)
    expect(audit.status, JSON.stringify(audit.body)).toBe(200)
    const entry = (audit.body.audit_logs as Array<any>).find((e) => e.status_code === 307)
    expect(entry).toBeDefined()
    expect(entry.diff.scopes.new).toEqual(["application_connect"])
    expect(entry.diff.hashed_secret).toEqual({ old: "", new: "", secret: true })
  })
})

describe("applications without a wildcard app host", () => {
  let srv: ServiceTestServer
  let owner: Client
  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner({ lifecycle: false }))
  })
  afterAll(() => srv?.close())

  it("the host is empty, the access URL is sent straight back, and no host gets a key", async () => {
    expect((await owner.get("/applications/host")).body).toEqual({ host: "" })
    const back = await owner.get(`/applications/auth-redirect?redirect_uri=${encodeURIComponent(srv.url)}`)
    expect(back.status).toBe(307)
    expect(new URL(back.headers.get("location")!).searchParams.has(KEY_PARAM)).toBe(false)
    expectValidations(
      await owner.get(`/applications/auth-redirect?redirect_uri=${encodeURIComponent("http://x.apps.example.test/")}`),
      ["redirect_uri"]
    )
  })
})
