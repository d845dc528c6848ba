/**
 * Cloud instance identity routes (the described system's `POST /workspaceagents/*-instance-identity`):
 * an agent on a cloud machine exchanges a document its cloud signed for its agent token. They take
 * no token (the signed document is the credential). Each exchange mints a new token, so it is
 * audited, anonymously when refused. See docs/agents.md, "Instance identity".
 */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  AuthenticateResponse,
  AwsInstanceIdentityRequest,
  AzureInstanceIdentityRequest,
  GoogleInstanceIdentityRequest
} from "@workbay/core"
import { audit, Audited } from "../Audit.js"
import { BadRequest } from "../Common.js"

const exchange = (name: string, path: `/${string}`) =>
  HttpApiEndpoint.post(name, path)
    // Mints the agent's token: audited as a write of the agent, anonymous when refused.
    .annotate(Audited, audit("workspace_agent", { action: "write", anonymous: true }))
    .addSuccess(AuthenticateResponse)

/** The three exchanges; no authentication. */
export class AgentIdentityApi extends HttpApiGroup.make("agentIdentity")
  .add(exchange("aws", "/workspaceagents/aws-instance-identity").setPayload(AwsInstanceIdentityRequest))
  .add(exchange("azure", "/workspaceagents/azure-instance-identity").setPayload(AzureInstanceIdentityRequest))
  .add(exchange("google", "/workspaceagents/google-instance-identity").setPayload(GoogleInstanceIdentityRequest))
  .addError(BadRequest)
  .prefix("/api/v2")
{}
