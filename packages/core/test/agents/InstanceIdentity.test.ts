/**
 * The instance identity verifiers on documents signed with real keys made by the test: what
 * each accepts (the instance id) and why it refuses forgeries.
 */
import { Effect, Either } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import {
  awsKeys,
  azureTrust,
  googleKeys,
  verifyAws,
  verifyAzure,
  verifyGoogle
} from "../../src/agents/InstanceIdentity.js"
import {
  awsDocument,
  awsSignature,
  azureDocument,
  azureSignature,
  type GoogleSigner,
  googleToken,
  issue,
  type Issued,
  makeCa,
  makeGoogleSigner
} from "./IdentityFixtures.js"

/** The instance id, or the refusal's detail. */
const outcome = async (effect: Effect.Effect<string, { readonly detail: string }>) => {
  const result = await Effect.runPromise(Effect.either(effect))
  return Either.isRight(result) ? { id: result.right } : { refused: result.left.detail }
}

describe("AWS instance identity", () => {
  let region: Issued
  let other: Issued
  beforeAll(async () => {
    region = await makeCa("ec2.amazonaws.com")
    other = await makeCa("ec2.example.com")
  })

  it("accepts a document signed by a configured region certificate and answers its instanceId", async () => {
    const document = awsDocument("i-0abc")
    const keys = awsKeys([other.pem, region.pem])
    expect(await outcome(verifyAws(document, awsSignature(document, region), keys))).toEqual({ id: "i-0abc" })
    // Several certificates in one setting value work too; base64 with line breaks as AWS serves it.
    const wrapped = awsSignature(document, region).replace(/(.{64})/g, "$1\n")
    expect(await outcome(verifyAws(document, wrapped, awsKeys([other.pem + "\n" + region.pem])))).toEqual({
      id: "i-0abc"
    })
  })

  it("refuses a signature by another key, a tampered document, bad base64, and no configured certificate", async () => {
    const document = awsDocument("i-0abc")
    const keys = awsKeys([region.pem])
    expect((await outcome(verifyAws(document, awsSignature(document, other), keys))).refused).toMatch(/does not match/)
    const tampered = document.replace("i-0abc", "i-0evil")
    expect((await outcome(verifyAws(tampered, awsSignature(document, region), keys))).refused).toMatch(/does not match/)
    expect((await outcome(verifyAws(document, "not base64!", keys))).refused).toMatch(/base64/)
    expect((await outcome(verifyAws(document, awsSignature(document, region), []))).refused).toMatch(
      /No AWS certificates/
    )
  })

  it("refuses a signed document that is not JSON or names no instance", async () => {
    const keys = awsKeys([region.pem])
    expect((await outcome(verifyAws("hello", awsSignature("hello", region), keys))).refused).toMatch(/not JSON/)
    const empty = JSON.stringify({ region: "us-east-1" })
    expect((await outcome(verifyAws(empty, awsSignature(empty, region), keys))).refused).toMatch(/no instanceId/)
  })

  it("a certificate that is not a certificate is a setup error", () => {
    expect(() => awsKeys(["-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----"])).toThrow()
  })
})

describe("Azure instance identity", () => {
  let root: Issued
  let intermediate: Issued
  let signer: Issued
  let strangerRoot: Issued
  beforeAll(async () => {
    root = await makeCa("Test Azure Root")
    intermediate = await issue(root, "Test Azure Issuing CA", { ca: true })
    signer = await issue(intermediate, "metadata.azure.com")
    strangerRoot = await makeCa("Someone Else")
  })
  const now = () => new Date()

  it("accepts a document whose signer chains to a configured root through the carried intermediate", async () => {
    const signature = await azureSignature(azureDocument("vm-1"), signer, [signer, intermediate])
    expect(await outcome(verifyAzure(signature, azureTrust([root.pem]), now()))).toEqual({ id: "vm-1" })
  })

  it("reads a document carried in a constructed octet string", async () => {
    const signature = await azureSignature(azureDocument("vm-parts"), signer, [signer, intermediate], true)
    expect(await outcome(verifyAzure(signature, azureTrust([root.pem]), now()))).toEqual({ id: "vm-parts" })
  })

  it("accepts a chain completed by a configured intermediate", async () => {
    const signature = await azureSignature(azureDocument("vm-1"), signer, [signer])
    expect(await outcome(verifyAzure(signature, azureTrust([root.pem, intermediate.pem]), now()))).toEqual({
      id: "vm-1"
    })
    expect((await outcome(verifyAzure(signature, azureTrust([root.pem]), now()))).refused).toMatch(/does not verify/)
  })

  it("refuses a chain to an unknown root", async () => {
    const signature = await azureSignature(azureDocument("vm-1"), signer, [signer, intermediate])
    expect((await outcome(verifyAzure(signature, azureTrust([strangerRoot.pem]), now()))).refused).toMatch(
      /does not verify/
    )
  })

  it("refuses a signer that is not Azure's metadata service, even under a trusted root", async () => {
    const impostor = await issue(intermediate, "evil.example.com")
    const signature = await azureSignature(azureDocument("vm-1"), impostor, [impostor, intermediate])
    expect((await outcome(verifyAzure(signature, azureTrust([root.pem]), now()))).refused).toMatch(/metadata service/)
  })

  it("refuses a signature by a key other than the carried signer certificate's", async () => {
    const other = await issue(intermediate, "metadata.azure.com")
    // Signed with `other`'s key but presenting `signer`'s certificate (same issuer and name).
    const forged = await azureSignature(azureDocument("vm-1"), { ...other, cert: signer.cert, pem: signer.pem }, [
      signer,
      intermediate
    ])
    expect((await outcome(verifyAzure(forged, azureTrust([root.pem]), now()))).refused).toMatch(/does not verify/)
  })

  it("refuses an expired signer certificate", async () => {
    const old = await issue(intermediate, "metadata.azure.com", {
      notBefore: new Date(Date.now() - 10 * 86_400_000),
      notAfter: new Date(Date.now() - 86_400_000)
    })
    const signature = await azureSignature(azureDocument("vm-1"), old, [old, intermediate])
    expect((await outcome(verifyAzure(signature, azureTrust([root.pem]), now()))).refused).toMatch(/does not verify/)
  })

  it("refuses what is not PKCS#7, a document without vmId, and no configured certificate", async () => {
    const trust = azureTrust([root.pem])
    expect((await outcome(verifyAzure("bm90IHBrY3M3", trust, now()))).refused).toMatch(/not PKCS#7/)
    expect((await outcome(verifyAzure("%%%", trust, now()))).refused).toMatch(/base64/)
    const noVm = await azureSignature(JSON.stringify({ nonce: "1" }), signer, [signer, intermediate])
    expect((await outcome(verifyAzure(noVm, trust, now()))).refused).toMatch(/no vmId/)
    const good = await azureSignature(azureDocument("vm-1"), signer, [signer, intermediate])
    expect((await outcome(verifyAzure(good, [], now()))).refused).toMatch(/No Azure certificates/)
  })
})

describe("Google instance identity", () => {
  const audience = "https://workbay.example.com"
  let google: GoogleSigner
  let stranger: GoogleSigner
  beforeAll(async () => {
    google = await makeGoogleSigner("key-1")
    stranger = await makeGoogleSigner("key-1")
  })
  const verify = (token: string, keys = googleKeys([google.jwks]), now = new Date()) =>
    outcome(verifyGoogle(token, keys, [audience, `${audience}/`], now))

  it("accepts a token signed by a configured key for this audience and answers the instance id", async () => {
    expect(await verify(await googleToken(google, "1234567890", { audience }))).toEqual({ id: "1234567890" })
  })

  it("takes keys as JWKS, as a map of key ids to PEM certificates, or as PEM", async () => {
    const { makeCa } = await import("./IdentityFixtures.js")
    const ca = await makeCa("Google test cert")
    const signer = { kid: "cert-1", keys: ca.keys, jwks: "" }
    const token = await googleToken(signer, "42", { audience })
    expect(await verify(token, googleKeys([JSON.stringify({ "cert-1": ca.pem })]))).toEqual({ id: "42" })
    expect(await verify(token, googleKeys([ca.pem]))).toEqual({ id: "42" })
    // The matching kid is found among several keys.
    expect(await verify(token, googleKeys([google.jwks, JSON.stringify({ "cert-1": ca.pem })]))).toEqual({ id: "42" })
  })

  it("refuses a token signed by another key with the same kid", async () => {
    expect((await verify(await googleToken(stranger, "1", { audience }))).refused).toMatch(/signature/)
  })

  it("refuses a token for another audience, from another issuer, expired or not yet valid", async () => {
    expect((await verify(await googleToken(google, "1", { audience: "https://elsewhere.example.com" }))).refused)
      .toMatch(/another audience/)
    expect((await verify(await googleToken(google, "1", { audience, issuer: "https://evil.example.com" }))).refused)
      .toMatch(/not issued by Google/)
    const old = await googleToken(google, "1", { audience, issuedAt: new Date(Date.now() - 2 * 3_600_000) })
    expect((await verify(old)).refused).toMatch(/expired/)
    // Valid an hour ago, refused now: the clock given decides.
    expect(await verify(old, undefined, new Date(Date.now() - 2 * 3_600_000 + 60_000))).toEqual({ id: "1" })
  })

  it("refuses a tampered token, garbage, a token without an instance id, and no configured key", async () => {
    const token = await googleToken(google, "1", { audience })
    const [h, p, s] = token.split(".")
    const claims = JSON.parse(Buffer.from(p!, "base64url").toString())
    claims.google.compute_engine.instance_id = "2"
    const tampered = [h, Buffer.from(JSON.stringify(claims)).toString("base64url"), s].join(".")
    expect((await verify(tampered)).refused).toMatch(/signature/)
    expect((await verify("not a token")).refused).toMatch(/compact/)
    const { SignJWT } = await import("jose")
    const bare = await new SignJWT({}).setProtectedHeader({ alg: "RS256", kid: "key-1" }).setIssuer(
      "https://accounts.google.com"
    )
      .setAudience(audience).setIssuedAt().setExpirationTime("1h").sign(google.keys.privateKey)
    expect((await verify(bare)).refused).toMatch(/instance_id/)
    expect((await verify(token, [])).refused).toMatch(/No Google keys/)
  })

  it("refuses tokens of other algorithms", async () => {
    const { SignJWT } = await import("jose")
    const hs = await new SignJWT({ google: { compute_engine: { instance_id: "1" } } }).setProtectedHeader({
      alg: "HS256",
      kid: "key-1"
    })
      .setIssuer("https://accounts.google.com").setAudience(audience).setIssuedAt().setExpirationTime("1h")
      .sign(new TextEncoder().encode("a shared secret of at least 32 bytes!"))
    expect((await verify(hs)).refused).toBeDefined()
  })
})
