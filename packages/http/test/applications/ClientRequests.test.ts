/**
 * The dashboard client's requests to the applications routes (packages/http/src/applications/); see
 * ../clientRequests.ts.
 */
import { afterAll, describe, expect, it } from "vitest"
import { closeExternalAuthWorld, externalAuthWorld } from "../externalauth/fixtures.js"

describe("applications, as the dashboard's external auth pages send them", () => {
  afterAll(closeExternalAuthWorld)

  it("getApplicationsHost, and the redirect to an app host with the key", async () => {
    const x = await externalAuthWorld()
    expect((await x.member.client.get("/applications/host")).body).toEqual({
      host: `*.apps.example.test:${new URL(x.srv.url).port}`
    })
    const r = await x.member.client.get(
      `/applications/auth-redirect?redirect_uri=${
        encodeURIComponent("http://code--main--ws--linked-member.apps.example.test/")
      }`
    )
    expect(r.status).toBe(307)
    expect(new URL(r.headers.get("location")!).searchParams.get("coder_application_connect_api_key")).toBeTruthy()
  })
})
