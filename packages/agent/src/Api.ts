/**
 * The agent's HTTP calls, through @workbay/client (the API's generated types, the one reader of
 * the service's Response body): exchanging a cloud instance identity for a token, and the
 * `/workspaceagents/me/` routes it calls outside its WebSocket connection. The token goes as
 * `Authorization: Bearer`, which the service takes whatever it names its session header.
 */
import { makeClient, unwrap, type WorkbayClient } from "@workbay/client"
import type { AgentOptions } from "./Options.js"

/** The API as the agent calls it: with its current token (it changes when an identity is exchanged again). */
export const makeApi = (url: string, token: () => string): WorkbayClient => makeClient({ url, token })

const metadataGet = async (url: string, headers: Record<string, string>) => {
  const response = await fetch(url, { headers })
  if (!response.ok) throw new Error(`The metadata service answered ${response.status} for ${url}.`)
  return response.text()
}

/** Reads this machine's signed identity from its cloud's metadata service and exchanges it for an agent token. */
export const tokenFromIdentity = async (options: AgentOptions): Promise<string> => {
  const api = makeClient({ url: options.url })
  const agent_name = options.agentName ?? ""
  switch (options.auth) {
    case "aws": {
      const base = options.metadataUrl ?? "http://169.254.169.254"
      // IMDSv2: a session token first; IMDSv1 answers without one.
      const session = await fetch(`${base}/latest/api/token`, {
        method: "PUT",
        headers: { "x-aws-ec2-metadata-token-ttl-seconds": "60" }
      })
        .then((r) => (r.ok ? r.text() : undefined))
        .catch(() => undefined)
      const headers: Record<string, string> = session === undefined ? {} : { "x-aws-ec2-metadata-token": session }
      const document = await metadataGet(`${base}/latest/dynamic/instance-identity/document`, headers)
      const signature = await metadataGet(`${base}/latest/dynamic/instance-identity/signature`, headers)
      const body = { document, signature: signature.replace(/\s+/g, ""), agent_name }
      return (await unwrap(api.POST("/api/v2/workspaceagents/aws-instance-identity", { body }))).session_token
    }
    case "azure": {
      const base = options.metadataUrl ?? "http://169.254.169.254"
      const attested = JSON.parse(
        await metadataGet(`${base}/metadata/attested/document?api-version=2020-09-01`, { metadata: "true" })
      )
      const body = { encoding: attested.encoding, signature: attested.signature, agent_name }
      return (await unwrap(api.POST("/api/v2/workspaceagents/azure-instance-identity", { body }))).session_token
    }
    case "google": {
      const base = options.metadataUrl ?? "http://metadata.google.internal"
      const audience = encodeURIComponent(options.url)
      const jwt = await metadataGet(
        `${base}/computeMetadata/v1/instance/service-accounts/default/identity?audience=${audience}&format=full`,
        { "metadata-flavor": "Google" }
      )
      const body = { json_web_token: jwt.trim(), agent_name }
      return (await unwrap(api.POST("/api/v2/workspaceagents/google-instance-identity", { body }))).session_token
    }
    default:
      throw new Error("A token is given; there is no identity to exchange.")
  }
}
