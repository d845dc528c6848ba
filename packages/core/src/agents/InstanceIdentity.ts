/**
 * Cloud instance identity: an agent on a cloud machine proves which instance it runs on with a
 * document its cloud signed, and gets its agent's token in exchange (no other credential). Three
 * kinds, each verified against trust roots the deployment configures (settings
 * `awsInstanceIdentityCertificates`, `azureInstanceIdentityCertificates`,
 * `googleInstanceIdentityKeys`; none configured: the kind is refused):
 *
 * - AWS: the instance identity document (JSON with `instanceId`) and its `signature`, an RSA
 *   PKCS#1 v1.5 SHA-256 signature of the document's exact text by one of the region
 *   certificates (node:crypto).
 * - Azure: the attested document, a PKCS#7 SignedData whose content is JSON with `vmId`; its
 *   signature is checked, and its signer's chain up to a configured certificate (pkijs), and the
 *   signer must be Azure's metadata service (`metadata.azure.com` and its national clouds).
 * - Google: an RS256 identity token of the metadata server, whose audience is the deployment's
 *   access URL; the instance is `google.compute_engine.instance_id` (jose).
 *
 * The instance then names the agent: among agents of non-deleted workspaces' latest builds, the
 * one with that `instance_id` (and `agent_name`, when several share the instance). Only token
 * hashes are stored, so each exchange mints a new token and the agent's previous one stops
 * working.
 */
import { Clock, Effect, Option, Schema } from "effect"
import type * as Jose from "jose"
import { createPublicKey, type KeyObject, verify as verifySignature, X509Certificate } from "node:crypto"
import { hashAgentToken, newAgentToken } from "../AgentToken.js"
import { auditAdditional, auditResource, auditUser } from "../Audit.js"
import { BadRequest, Unauthorized } from "../Errors.js"
import { joseModule, pkijsModule } from "../OnDemand.js"
import { PubSub } from "../PubSub.js"
import { Settings } from "../Settings.js"
import { span } from "../Tracing.js"
import { UserRepo } from "../users/Repositories.js"
import { publishWorkspaceChange } from "../WorkspaceChannel.js"
import { AgentRepo } from "./Agent.js"
import type {
  AwsInstanceIdentityRequest,
  AzureInstanceIdentityRequest,
  GoogleInstanceIdentityRequest
} from "./Requests.js"

/** The answer of the instance identity routes (codersdk `AuthenticateResponse`). */
export class AuthenticateResponse extends Schema.Class<AuthenticateResponse>("AuthenticateResponse")({
  session_token: Schema.String
}) {}

/** Why a document was refused: the `detail` of the 401. */
export class IdentityRefused {
  readonly _tag = "IdentityRefused"
  constructor(readonly detail: string) {}
}

const refuse = (detail: string) => Effect.fail(new IdentityRefused(detail))

/** The PEM blocks of `text` (one setting value may hold several certificates). */
const pemBlocks = (text: string): ReadonlyArray<string> =>
  text.match(/-----BEGIN [A-Z0-9 ]+-----[\s\S]+?-----END [A-Z0-9 ]+-----/g) ?? []

const decodeBase64 = (text: string): Buffer | undefined => {
  const compact = text.replace(/\s+/g, "")
  if (compact === "" || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) return undefined
  return Buffer.from(compact, "base64")
}

// ---------------------------------------------------------------------------
// AWS

/** The public keys of configured AWS region certificates (PEM). A certificate that is not RSA is a setup error. */
export const awsKeys = (certificates: ReadonlyArray<string>): ReadonlyArray<KeyObject> =>
  certificates.flatMap(pemBlocks).map((pem) => {
    const key = new X509Certificate(pem).publicKey
    if (key.asymmetricKeyType !== "rsa") throw new Error("An AWS instance identity certificate must hold an RSA key.")
    return key
  })

/**
 * The instance id of an AWS instance identity document whose `signature` (base64) is one of
 * `keys`' RSA SHA-256 signatures of the document's text.
 */
export const verifyAws = (
  document: string,
  signature: string,
  keys: ReadonlyArray<KeyObject>
): Effect.Effect<string, IdentityRefused> =>
  Effect.suspend(() => {
    if (keys.length === 0) return refuse("No AWS certificates are configured on this deployment.")
    const raw = decodeBase64(signature)
    if (raw === undefined) return refuse("The signature is not base64.")
    const data = Buffer.from(document, "utf8")
    if (!keys.some((key) => verifySignature("sha256", data, key, raw))) {
      return refuse("The signature does not match the document under any configured AWS certificate.")
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(document)
    } catch {
      return refuse("The signed document is not JSON.")
    }
    const id = (parsed as { instanceId?: unknown } | null)?.instanceId
    if (typeof id !== "string" || id === "") return refuse("The signed document names no instanceId.")
    return Effect.succeed(id)
  })

// ---------------------------------------------------------------------------
// Azure

/**
 * Certificates configured for Azure (roots, and intermediates one chooses to trust): each one's DER,
 * checked by Node's parser here (pkijs reads them when a signature is verified).
 */
export const azureTrust = (certificates: ReadonlyArray<string>): ReadonlyArray<Uint8Array<ArrayBuffer>> =>
  certificates.flatMap(pemBlocks).map((pem) => new Uint8Array(new X509Certificate(pem).raw))

/** Names Azure's metadata service signs attested documents with (public and national clouds). */
const AZURE_SIGNER = /^(?:[a-z0-9-]+\.)*metadata\.(?:azure\.com|azure\.us|azure\.cn|microsoftazure\.de)$/i

/** The subject common name and DNS names of a certificate. */
const certificateNames = (cert: X509Certificate): ReadonlyArray<string> => {
  const cn = cert.subject.split("\n").filter((l) => l.startsWith("CN=")).map((l) => l.slice(3))
  const dns = (cert.subjectAltName ?? "").split(",").map((s) => s.trim()).filter((s) => s.startsWith("DNS:")).map((s) =>
    s.slice(4)
  )
  return [...cn, ...dns]
}

/**
 * The VM id of an Azure attested document: `signature` is the base64 PKCS#7 SignedData; its
 * signer must chain to one of `trusted` at `now` and be Azure's metadata service.
 */
export const verifyAzure = (
  signature: string,
  trusted: ReadonlyArray<Uint8Array<ArrayBuffer>>,
  now: Date
): Effect.Effect<string, IdentityRefused> =>
  Effect.gen(function*() {
    if (trusted.length === 0) return yield* refuse("No Azure certificates are configured on this deployment.")
    const raw = decodeBase64(signature)
    if (raw === undefined) return yield* refuse("The signature is not base64.")
    const pkijs = yield* pkijsModule
    const trustedCerts = trusted.map((der) => pkijs.Certificate.fromBER(der))
    let signed: InstanceType<typeof pkijs.SignedData>
    try {
      const info = pkijs.ContentInfo.fromBER(new Uint8Array(raw))
      if (info.contentType !== pkijs.ContentInfo.SIGNED_DATA) {
        return yield* refuse("The signature is not PKCS#7 signed data.")
      }
      signed = new pkijs.SignedData({ schema: info.content })
    } catch {
      return yield* refuse("The signature is not PKCS#7 signed data.")
    }
    if (signed.signerInfos.length !== 1) return yield* refuse("The signed data must have exactly one signer.")
    const result = yield* Effect.promise(() =>
      signed.verify({ signer: 0, checkChain: true, trustedCerts, checkDate: now, extendedMode: true })
        .then((r) => ({
          ok: r.signatureVerified === true && r.signerCertificateVerified === true,
          result: r,
          message: r.message
        }))
        .catch((e: unknown) => ({
          ok: false,
          result: undefined,
          message: e instanceof Error
            ? e.message
            : typeof (e as { message?: unknown })?.message === "string"
            ? (e as { message: string }).message
            : String(e)
        }))
    )
    if (!result.ok || result.result?.signerCertificate == null) {
      return yield* refuse(
        `The signed data does not verify against the configured Azure certificates: ${result.message}`
      )
    }
    const signer = new X509Certificate(Buffer.from(result.result.signerCertificate.toSchema().toBER()))
    if (!certificateNames(signer).some((name) => AZURE_SIGNER.test(name))) {
      return yield* refuse("The signer is not Azure's metadata service.")
    }
    // asn1js joins the parts of a constructed octet string (BER allows both forms).
    const content = signed.encapContentInfo.eContent?.getValue()
    if (content === undefined || content.byteLength === 0) return yield* refuse("The signed data carries no document.")
    let parsed: unknown
    try {
      parsed = JSON.parse(Buffer.from(content).toString("utf8"))
    } catch {
      return yield* refuse("The signed document is not JSON.")
    }
    const id = (parsed as { vmId?: unknown } | null)?.vmId
    if (typeof id !== "string" || id === "") return yield* refuse("The signed document names no vmId.")
    return id
  })

// ---------------------------------------------------------------------------
// Google

/** A configured Google verification key, with its key id when the setting named one. */
export interface GoogleKey {
  readonly kid: string | undefined
  readonly key: KeyObject
}

/**
 * Google keys from settings: each value is a JWKS document (`{"keys": [...]}`, as
 * `https://www.googleapis.com/oauth2/v3/certs` serves), a map of key ids to PEM certificates
 * (as `.../oauth2/v1/certs` serves), or PEM certificates or public keys.
 */
export const googleKeys = (values: ReadonlyArray<string>): ReadonlyArray<GoogleKey> =>
  values.flatMap((value): ReadonlyArray<GoogleKey> => {
    const text = value.trim()
    if (text.startsWith("{")) {
      const doc = JSON.parse(text) as Record<string, unknown>
      if (Array.isArray(doc.keys)) {
        return (doc.keys as Array<Record<string, unknown>>).map((jwk) => ({
          kid: typeof jwk.kid === "string" ? jwk.kid : undefined,
          key: createPublicKey({ key: jwk as never, format: "jwk" })
        }))
      }
      return Object.entries(doc).map(([kid, pem]) => ({ kid, key: new X509Certificate(String(pem)).publicKey }))
    }
    return pemBlocks(text).map((pem) => ({
      kid: undefined,
      key: pem.includes("CERTIFICATE") ? new X509Certificate(pem).publicKey : createPublicKey(pem)
    }))
  })

const GOOGLE_ISSUERS = ["https://accounts.google.com", "accounts.google.com"]

/** The message of a token refused for its claims (the signature held). */
const claimProblem = (joseErrors: typeof Jose.errors, e: unknown): string | undefined => {
  if (e instanceof joseErrors.JWTExpired) return "The token has expired."
  if (e instanceof joseErrors.JWTClaimValidationFailed) {
    if (e.claim === "aud") return "The token is for another audience than this deployment's access URL."
    if (e.claim === "iss") return "The token was not issued by Google."
    return `The token's "${e.claim}" claim is not valid: ${e.message}`
  }
  return undefined
}

/**
 * The instance id of a Google Compute Engine identity token: RS256, signed by one of `keys`
 * (those with the token's key id first), issued by Google to `audiences`, valid at `now`.
 */
export const verifyGoogle = (
  token: string,
  keys: ReadonlyArray<GoogleKey>,
  audiences: ReadonlyArray<string>,
  now: Date
): Effect.Effect<string, IdentityRefused> =>
  Effect.gen(function*() {
    if (keys.length === 0) return yield* refuse("No Google keys are configured on this deployment.")
    if (!/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token)) return yield* refuse("The token is not a compact JSON web token.")
    let kid: unknown
    try {
      kid = JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString("utf8")).kid
    } catch {
      return yield* refuse("The token's header is not JSON.")
    }
    const named = keys.filter((k) => k.kid !== undefined && k.kid === kid)
    const candidates = named.length > 0 ? named : keys.filter((k) => k.kid === undefined || kid === undefined)
    const jose = yield* joseModule
    for (const candidate of candidates) {
      const outcome = yield* Effect.promise(() =>
        jose.jwtVerify(token, candidate.key, {
          algorithms: ["RS256"],
          audience: [...audiences],
          issuer: GOOGLE_ISSUERS,
          currentDate: now,
          requiredClaims: ["exp", "iat"]
        }).then((r) => ({ payload: r.payload, error: undefined }), (error: unknown) => ({ payload: undefined, error }))
      )
      if (outcome.payload !== undefined) {
        const google = outcome.payload.google as { compute_engine?: { instance_id?: unknown } } | undefined
        const id = google?.compute_engine?.instance_id
        if (typeof id !== "string" || id === "") {
          return yield* refuse("The token names no google.compute_engine.instance_id (request it with format=full).")
        }
        return id
      }
      // Claims are checked after the signature: a claim problem means the key was the right one.
      const problem = claimProblem(jose.errors, outcome.error)
      if (problem !== undefined) return yield* refuse(problem)
    }
    return yield* refuse("The token's signature does not verify under any configured Google key.")
  })

// ---------------------------------------------------------------------------
// The exchange

export type IdentityKind = "aws" | "azure" | "google"

const KIND_NAMES: Record<IdentityKind, string> = { aws: "AWS", azure: "Azure", google: "GCP" }

export class InstanceIdentity extends Effect.Service<InstanceIdentity>()("@workbay/core/InstanceIdentity", {
  effect: Effect.gen(function*() {
    const agents = yield* AgentRepo
    const users = yield* UserRepo
    const settings = yield* Settings
    const pubsub = yield* PubSub
    // Trust roots are parsed once: a malformed one stops the service from starting.
    const aws = awsKeys(settings.awsInstanceIdentityCertificates)
    const azure = azureTrust(settings.azureInstanceIdentityCertificates)
    const google = googleKeys(settings.googleInstanceIdentityKeys)
    const accessUrl = settings.accessUrl.replace(/\/+$/, "")
    const audiences = [accessUrl, `${accessUrl}/`]

    const invalid = (kind: IdentityKind) => (e: IdentityRefused) =>
      new Unauthorized({ message: `Invalid ${KIND_NAMES[kind]} identity.`, detail: e.detail })

    /** A new token for the agent on `instanceId` (named `agentName` when given). */
    const exchange = (instanceId: string, agentName: string) =>
      Effect.gen(function*() {
        const found = yield* agents.findByInstanceId(instanceId)
        if (found.length === 0) {
          return yield* new Unauthorized({
            message: `Instance with id "${instanceId}" not found.`,
            detail: "No agent of a workspace's latest build runs on this instance."
          })
        }
        const named = agentName === "" ? found : found.filter((f) => f.agent.name === agentName)
        if (named.length === 0) {
          return yield* new Unauthorized({
            message: `Instance with id "${instanceId}" not found.`,
            detail: `No agent named "${agentName}" runs on this instance.`
          })
        }
        if (named.length > 1) {
          return yield* BadRequest.field(
            "agent_name",
            `${named.length} agents run on this instance (${named.map((f) => f.agent.name).join(", ")}); name one.`,
            "Several agents run on this instance."
          )
        }
        const { agent, workspace } = named[0]!
        // The token would not work (AgentAuth): say so now rather than hand it out.
        const owner = Option.getOrUndefined(yield* users.findById(workspace.owner_id))
        if (owner === undefined || owner.deleted || owner.status === "suspended") {
          return yield* new Unauthorized({
            message: "Workspace agent not authorized.",
            detail: "The workspace's owner is suspended or deleted."
          })
        }
        const token = newAgentToken()
        const hash = hashAgentToken(token)
        yield* agents.setTokenHash(agent.id, hash, new Date(yield* Clock.currentTimeMillis))
        // Connections made with the previous token end (they watch the workspace's signal).
        yield* Effect.provideService(publishWorkspaceChange(workspace.id), PubSub, pubsub)
        // The agent acts as its workspace's owner; the diff says the token changed, never what it is.
        yield* auditUser(workspace.owner_id)
        yield* auditResource(
          { type: "workspace_agent", id: agent.id, target: agent.name, organizationId: workspace.organization_id },
          { agent_token: agent.auth_token_hash },
          { agent_token: hash }
        )
        return new AuthenticateResponse({ session_token: token })
      })

    /** Verifies a document of `kind` at the clock's time, then exchanges its instance for a token. */
    const run = (
      kind: IdentityKind,
      agentName: string,
      verify: (now: Date) => Effect.Effect<string, IdentityRefused>
    ) =>
      Effect.zipRight(auditAdditional({ instance_identity: kind }), Clock.currentTimeMillis).pipe(
        Effect.flatMap((ms) => verify(new Date(ms))),
        Effect.mapError(invalid(kind)),
        Effect.flatMap((id) => exchange(id, agentName)),
        span(`InstanceIdentity.${kind}`)
      )

    /** POST /workspaceagents/aws-instance-identity. */
    const awsIdentity = (body: typeof AwsInstanceIdentityRequest.Type) =>
      run("aws", body.agent_name, () => verifyAws(body.document, body.signature, aws))

    /** POST /workspaceagents/azure-instance-identity. */
    const azureIdentity = (body: typeof AzureInstanceIdentityRequest.Type) =>
      run("azure", body.agent_name, (now) => verifyAzure(body.signature, azure, now))

    /** POST /workspaceagents/google-instance-identity. */
    const googleIdentity = (body: typeof GoogleInstanceIdentityRequest.Type) =>
      run("google", body.agent_name, (now) => verifyGoogle(body.json_web_token, google, audiences, now))

    return { aws: awsIdentity, azure: azureIdentity, google: googleIdentity } as const
  })
}) {}
