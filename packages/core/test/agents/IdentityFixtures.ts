/**
 * Test trust roots and signed identity documents, made here with real keys: a CA and the
 * certificates it issues (pkijs), AWS document signatures (node:crypto), Azure PKCS#7
 * attested documents (pkijs) and Google identity tokens (jose). Shared by the verifier tests and
 * the HTTP tests of the instance identity routes.
 */
import * as asn1js from "asn1js"
import { exportJWK, SignJWT } from "jose"
import { KeyObject, sign, webcrypto } from "node:crypto"
import * as pkijs from "pkijs"

const ALG = {
  name: "RSASSA-PKCS1-v1_5",
  hash: "SHA-256",
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048
}
const DAY = 86_400_000

export interface Issued {
  readonly cert: pkijs.Certificate
  readonly keys: CryptoKeyPair
  /** The certificate in PEM. */
  readonly pem: string
}

const keyPair = () => webcrypto.subtle.generateKey(ALG, true, ["sign", "verify"]) as Promise<CryptoKeyPair>

let serial = 1

const commonName = (name: string) => {
  const rdn = new pkijs.RelativeDistinguishedNames()
  rdn.typesAndValues.push(
    new pkijs.AttributeTypeAndValue({ type: "2.5.4.3", value: new asn1js.Utf8String({ value: name }) })
  )
  return rdn
}

const toPem = (der: ArrayBuffer) =>
  `-----BEGIN CERTIFICATE-----\n${
    Buffer.from(der).toString("base64").replace(/(.{64})/g, "$1\n")
  }\n-----END CERTIFICATE-----\n`

/** A certificate for `name` issued by `issuer` (self-signed without one); a CA when `ca`, else with `name` as its DNS name. */
const certificate = async (
  name: string,
  issuer: Issued | undefined,
  options: { readonly ca?: boolean; readonly notAfter?: Date; readonly notBefore?: Date }
): Promise<Issued> => {
  const keys = await keyPair()
  const cert = new pkijs.Certificate()
  cert.version = 2
  cert.serialNumber = new asn1js.Integer({ value: serial++ })
  cert.subject = commonName(name)
  cert.issuer = issuer === undefined ? commonName(name) : issuer.cert.subject
  cert.notBefore.value = options.notBefore ?? new Date(Date.now() - DAY)
  cert.notAfter.value = options.notAfter ?? new Date(Date.now() + 365 * DAY)
  await cert.subjectPublicKeyInfo.importKey(keys.publicKey)
  const basic = new pkijs.BasicConstraints({ cA: options.ca === true })
  cert.extensions = [
    new pkijs.Extension({
      extnID: "2.5.29.19",
      critical: true,
      extnValue: basic.toSchema().toBER(false),
      parsedValue: basic
    })
  ]
  if (options.ca !== true) {
    const names = new pkijs.AltName({ altNames: [new pkijs.GeneralName({ type: 2, value: name })] })
    cert.extensions.push(
      new pkijs.Extension({ extnID: "2.5.29.17", extnValue: names.toSchema().toBER(false), parsedValue: names })
    )
  }
  await cert.sign((issuer ?? { keys }).keys.privateKey, "SHA-256")
  return { cert, keys, pem: toPem(cert.toSchema(true).toBER(false)) }
}

/** A self-signed CA certificate. */
export const makeCa = (name: string): Promise<Issued> => certificate(name, undefined, { ca: true })

/** A certificate for `name` (also its DNS name) issued by `issuer`; a CA itself when `ca`. */
export const issue = (
  issuer: Issued,
  name: string,
  options: { readonly ca?: boolean; readonly notAfter?: Date; readonly notBefore?: Date } = {}
): Promise<Issued> => certificate(name, issuer, options)

// AWS ------------------------------------------------------------------------

/** An AWS instance identity document's text for `instanceId`. */
export const awsDocument = (instanceId: string, region = "us-east-1") =>
  JSON.stringify(
    {
      accountId: "123456789012",
      architecture: "x86_64",
      availabilityZone: `${region}a`,
      imageId: "ami-0123456789abcdef0",
      instanceId,
      instanceType: "t3.micro",
      pendingTime: "2026-01-01T00:00:00Z",
      privateIp: "10.0.0.1",
      region,
      version: "2017-09-30"
    },
    null,
    2
  )

/** The base64 RSA SHA-256 signature of `document` by `signer` (the region certificate's key). */
export const awsSignature = (document: string, signer: Issued) =>
  sign("sha256", Buffer.from(document, "utf8"), KeyObject.from(signer.keys.privateKey)).toString("base64")

// Azure ----------------------------------------------------------------------

/** An Azure attested document's JSON for `vmId`. */
export const azureDocument = (vmId: string) =>
  JSON.stringify({
    licenseType: "",
    nonce: "20260101-000000",
    plan: { name: "", product: "", publisher: "" },
    sku: "22_04-lts-gen2",
    subscriptionId: "00000000-0000-0000-0000-000000000001",
    timeStamp: { createdOn: "01/01/26 00:00:00 -0000", expiresOn: "01/01/26 06:00:00 -0000" },
    vmId
  })

/**
 * The base64 PKCS#7 SignedData of `content` signed by `signer`, carrying `chain` (the signer's
 * certificate and any intermediates) as the attested document does. `constructed` splits the
 * content into a constructed octet string of 16-byte parts (BER allows it).
 */
export const azureSignature = async (
  content: string,
  signer: Issued,
  chain: ReadonlyArray<Issued>,
  constructed = false
) => {
  const bytes = new TextEncoder().encode(content)
  const parts = Array.from(
    { length: Math.ceil(bytes.length / 16) },
    (_, i) => new asn1js.OctetString({ valueHex: bytes.slice(i * 16, i * 16 + 16) })
  )
  const signerCert = signer.cert
  const signed = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({
      eContentType: pkijs.ContentInfo.DATA,
      eContent: constructed
        ? new asn1js.OctetString({ idBlock: { isConstructed: true }, value: parts } as never)
        : new asn1js.OctetString({ valueHex: bytes })
    }),
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({ issuer: signerCert.issuer, serialNumber: signerCert.serialNumber })
      })
    ],
    certificates: chain.map((i) => i.cert)
  })
  await signed.sign(signer.keys.privateKey, 0, "SHA-256")
  const info = new pkijs.ContentInfo({ contentType: pkijs.ContentInfo.SIGNED_DATA, content: signed.toSchema(true) })
  return Buffer.from(info.toSchema().toBER()).toString("base64")
}

// Google ---------------------------------------------------------------------

export interface GoogleSigner {
  readonly kid: string
  readonly keys: CryptoKeyPair
  /** `{"keys": [...]}` with the public key, as Google's JWKS endpoint serves it. */
  readonly jwks: string
}

export const makeGoogleSigner = async (kid: string): Promise<GoogleSigner> => {
  const keys = await keyPair()
  const jwk = { ...(await exportJWK(keys.publicKey)), kid, alg: "RS256", use: "sig" }
  return { kid, keys, jwks: JSON.stringify({ keys: [jwk] }) }
}

/** A Compute Engine identity token for `instanceId`, as the metadata server makes it (`format=full`). */
export const googleToken = (
  signer: GoogleSigner,
  instanceId: string,
  options: {
    readonly audience: string
    readonly issuer?: string
    readonly issuedAt?: Date
    readonly lifetimeSeconds?: number
    readonly kid?: string
  }
) => {
  const iat = Math.floor((options.issuedAt ?? new Date()).getTime() / 1000)
  return new SignJWT({
    azp: "112233445566778899000",
    email: "1234-compute@developer.gserviceaccount.com",
    google: {
      compute_engine: {
        instance_creation_timestamp: iat - 60,
        instance_id: instanceId,
        instance_name: "box",
        project_id: "workbay-test",
        project_number: 1234,
        zone: "europe-west1-b"
      }
    }
  })
    .setProtectedHeader({ alg: "RS256", kid: options.kid ?? signer.kid, typ: "JWT" })
    .setIssuer(options.issuer ?? "https://accounts.google.com")
    .setAudience(options.audience)
    .setSubject("112233445566778899000")
    .setIssuedAt(iat)
    .setExpirationTime(iat + (options.lifetimeSeconds ?? 3600))
    .sign(signer.keys.privateKey)
}
