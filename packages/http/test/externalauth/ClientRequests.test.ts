/**
 * The dashboard client's requests to the external auth routes (packages/http/src/externalauth/); see
 * ../clientRequests.ts.
 */
import { afterAll, describe, expect, it } from "vitest"
import { makeValidator } from "../schemas/ResponseSchemas.js"
import { closeExternalAuthWorld, externalAuthWorld } from "./fixtures.js"

describe("external auth, as the dashboard's external auth pages send it", () => {
  afterAll(closeExternalAuthWorld)

  it("getUserExternalAuthProviders, getExternalAuthProvider, getExternalAuthDevice, exchangeExternalAuthDevice, unlinkExternalAuthProvider", async () => {
    const x = await externalAuthWorld()
    const validate = makeValidator()
    const list = await x.member.client.get("/external-auth")
    expect(list.status).toBe(200)
    expect(validate("ListUserExternalAuthResponse")(list.body)).toBe(true)
    const one = await x.member.client.get("/external-auth/github")
    expect(one.status).toBe(200)
    expect(one.body.authenticated).toBe(true)
    const device = await x.member.client.get("/external-auth/gh-device/device")
    expect(device.status).toBe(200)
    x.provider.approveDevice(device.body.user_code, "dash-device")
    const exchanged = await x.member.client.post("/external-auth/gh-device/device", {
      device_code: device.body.device_code
    })
    expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(204)
    const unlinked = await x.member.client.delete("/external-auth/gh-device")
    expect(unlinked.status, JSON.stringify(unlinked.body)).toBe(200)
    expect(validate("DeleteExternalAuthByIDResponse")(unlinked.body)).toBe(true)
  })
})
