/**
 * The agent's HTTP calls: exchanging a cloud instance identity for a token, and the
 * `/workspaceagents/me/` routes it calls outside its WebSocket connection. The token goes as
 * `Authorization: Bearer`, which the service takes whatever it names its session header.
 */
import type { AgentOptions } from "./Options.js"

export class ApiError extends Error {
  constructor(readonly status: number, readonly body: unknown, what: string) {
    const message = typeof body === "object" && body !== null && "message" in body
      ? String((body as { message: unknown }).message)
      : ""
    super(`${what}: ${status}${message === "" ? "" : ` ${message}`}`)
  }
}

export interface Api {
  readonly url: string
  readonly token: () => string
  readonly request: <A = unknown>(method: string, path: string, body?: unknown) => Promise<A>
}

export const makeApi = (url: string, token: () => string): Api => ({
  url,
  token,
  request: async <A>(method: string, path: string, body?: unknown): Promise<A> => {
    const headers: Record<string, string> = { authorization: `Bearer ${token()}`, accept: "application/json" }
    if (body !== undefined) headers["content-type"] = "application/json"
    const response = await fetch(`${url}/api/v2${path}`, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body)
    })
    const text = await response.text()
    const parsed = text === "" ? undefined : JSON.parse(text)
    if (!response.ok) throw new ApiError(response.status, parsed, `${method} ${path}`)
    return parsed as A
  }
})

const metadataGet = async (url: string, headers: Record<string, string>) => {
  const response = await fetch(url, { headers })
  if (!response.ok) throw new Error(`The metadata service answered ${response.status} for ${url}.`)
  return response.text()
}

/** Reads this machine's signed identity from its cloud's metadata service and exchanges it for an agent token. */
export const tokenFromIdentity = async (options: AgentOptions): Promise<string> => {
  const post = async (kind: string, body: Record<string, unknown>) => {
    const response = await fetch(`${options.url}/api/v2/workspaceagents/${kind}-instance-identity`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ ...body, agent_name: options.agentName ?? "" })
    })
    const parsed = await response.json().catch(() => undefined)
    if (!response.ok) throw new ApiError(response.status, parsed, `POST /workspaceagents/${kind}-instance-identity`)
    return (parsed as { session_token: string }).session_token
  }
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
      return post("aws", { document, signature: signature.replace(/\s+/g, "") })
    }
    case "azure": {
      const base = options.metadataUrl ?? "http://169.254.169.254"
      const attested = JSON.parse(
        await metadataGet(`${base}/metadata/attested/document?api-version=2020-09-01`, { metadata: "true" })
      )
      return post("azure", { encoding: attested.encoding, signature: attested.signature })
    }
    case "google": {
      const base = options.metadataUrl ?? "http://metadata.google.internal"
      const audience = encodeURIComponent(options.url)
      const jwt = await metadataGet(
        `${base}/computeMetadata/v1/instance/service-accounts/default/identity?audience=${audience}&format=full`,
        { "metadata-flavor": "Google" }
      )
      return post("google", { json_web_token: jwt.trim() })
    }
    default:
      throw new Error("A token is given; there is no identity to exchange.")
  }
}
