/** The license key setting: read from its flag or variable into the settings; a key that is not Ed25519 stops the start. */
import { makeWorkbay } from "@workbay/http"
import * as Sqlite from "@workbay/storage-sqlite"
import { generateKeyPairSync } from "node:crypto"
import { describe, expect, it } from "vitest"
import { loadConfig } from "../src/Config.js"

const pem = generateKeyPairSync("ed25519").publicKey.export({ type: "spki", format: "pem" }).toString()

describe("license key configuration", () => {
  it("reads the key from the variable or the flag", () => {
    expect(loadConfig([], { WORKBAY_LICENSE_PUBLIC_KEY: pem }).settings.licensePublicKey).toEqual({
      value: pem.trim(),
      source: "env"
    })
    expect(loadConfig([`--license-public-key=${pem}`], {}).settings.licensePublicKey).toEqual({
      value: pem.trim(),
      source: "flag"
    })
    expect(loadConfig([], {}).settings.licensePublicKey).toBeUndefined()
  })

  it("starts with an Ed25519 key and refuses another kind of key", async () => {
    const ok = await makeWorkbay(Sqlite.layerMemory, {
      settings: { licensePublicKey: pem },
      retention: false,
      hangDetector: false,
      lifecycle: false
    })
    await ok.dispose()
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({ type: "spki", format: "pem" })
      .toString()
    await expect(
      makeWorkbay(Sqlite.layerMemory, {
        settings: { licensePublicKey: rsa },
        retention: false,
        hangDetector: false,
        lifecycle: false
      })
    )
      .rejects.toThrow(/Ed25519/)
  })
})
