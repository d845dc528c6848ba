/** The server's instance identity trust roots: files named by flags or variables (flags win). */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { loadConfig } from "../src/index.js"

describe("instance identity settings of the server", () => {
  it("reads each kind's file from its flag or variable, with the source; none given leaves them unset", () => {
    const dir = mkdtempSync(join(tmpdir(), "workbay-identity-"))
    try {
      const aws = join(dir, "aws.pem")
      const other = join(dir, "other.pem")
      const google = join(dir, "google.json")
      writeFileSync(aws, "-----BEGIN CERTIFICATE-----\nAWS\n-----END CERTIFICATE-----\n")
      writeFileSync(other, "OTHER")
      writeFileSync(google, "{\"keys\":[]}")
      expect(loadConfig([], {}).instanceIdentity).toEqual({ aws: undefined, azure: undefined, google: undefined })
      const config = loadConfig(["--aws-instance-identity-certificates", aws], {
        WORKBAY_AWS_INSTANCE_IDENTITY_CERTIFICATES: other,
        WORKBAY_AZURE_INSTANCE_IDENTITY_CERTIFICATES: other,
        WORKBAY_GOOGLE_INSTANCE_IDENTITY_KEYS: google
      })
      expect(config.instanceIdentity.aws).toEqual({ value: expect.stringContaining("AWS"), source: "flag" })
      expect(config.instanceIdentity.azure).toEqual({ value: "OTHER", source: "env" })
      expect(config.instanceIdentity.google).toEqual({ value: "{\"keys\":[]}", source: "env" })
      expect(() => loadConfig(["--google-instance-identity-keys", join(dir, "missing.json")], {})).toThrow(
        /Cannot read --google-instance-identity-keys/
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
