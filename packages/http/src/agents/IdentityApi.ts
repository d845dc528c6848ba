/**
 * Cloud instance identity routes (the described system's `POST /workspaceagents/*-instance-identity`):
 * an agent on a cloud machine exchanges a document its cloud signed for its agent token. They take
 * no token (the signed document is the credential). Each exchange mints a new token, so it is
 * audited, anonymously when refused. See docs/agents.md, "Instance identity".
 */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { AuthenticateResponse } from "@workbay/core"
import { Schema } from "effect"
import { audit, Audited } from "../Audit.js"
import { BadRequest, optionalOr, wireName } from "../Common.js"

/** Signed material is a few KiB; anything far larger is not an identity document. */
const MAX_SIGNED = 65_536

const signed = (what: string) =>
  Schema.String.pipe(
    Schema.minLength(1, { message: () => `The ${what} is required.` }),
    Schema.maxLength(MAX_SIGNED, { message: () => `The ${what} must be at most ${MAX_SIGNED} characters.` })
  )

const AgentName = optionalOr(
  Schema.String.pipe(Schema.maxLength(64, { message: () => "Must be at most 64 characters." })),
  () => ""
)

/** agentsdk `AWSInstanceIdentityToken`. */
export class AwsInstanceIdentityToken extends Schema.Class<AwsInstanceIdentityToken>("AWSInstanceIdentityToken")({
  agent_name: AgentName,
  document: signed("document"),
  signature: signed("signature")
}, wireName("AWSInstanceIdentityToken")) {}

/** agentsdk `AzureInstanceIdentityToken`. */
export class AzureInstanceIdentityToken extends Schema.Class<AzureInstanceIdentityToken>("AzureInstanceIdentityToken")({
  agent_name: AgentName,
  encoding: Schema.Literal("pkcs7").annotations({
    message: () => ({ message: `The encoding must be "pkcs7".`, override: true })
  }),
  signature: signed("signature")
}, wireName("AzureInstanceIdentityToken")) {}

/** agentsdk `GoogleInstanceIdentityToken`. */
export class GoogleInstanceIdentityToken
  extends Schema.Class<GoogleInstanceIdentityToken>("GoogleInstanceIdentityToken")({
    agent_name: AgentName,
    json_web_token: signed("token")
  }, wireName("GoogleInstanceIdentityToken"))
{}

const exchange = (name: string, path: `/${string}`) =>
  HttpApiEndpoint.post(name, path)
    // Mints the agent's token: audited as a write of the agent, anonymous when refused.
    .annotate(Audited, audit("workspace_agent", { action: "write", anonymous: true }))
    .addSuccess(AuthenticateResponse)

/** The three exchanges; no authentication. */
export class AgentIdentityApi extends HttpApiGroup.make("agentIdentity")
  .add(exchange("aws", "/workspaceagents/aws-instance-identity").setPayload(AwsInstanceIdentityToken))
  .add(exchange("azure", "/workspaceagents/azure-instance-identity").setPayload(AzureInstanceIdentityToken))
  .add(exchange("google", "/workspaceagents/google-instance-identity").setPayload(GoogleInstanceIdentityToken))
  .addError(BadRequest)
  .prefix("/api/v2")
{}
