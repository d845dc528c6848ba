/**
 * Workspace agents' tokens: minted by the builds that make agents (template version dry runs,
 * workspace builds), checked by the agents' authentication (agents/AgentAuth.ts). Only the hash
 * is stored.
 */
import { createHash, randomUUID } from "node:crypto"

/**
 * A new agent token: a random UUID (122 random bits), the form the described system's agents
 * present. API keys have the form `<id>-<secret>` of other lengths, so the two never mix.
 */
export const newAgentToken = (): string => randomUUID()

/** Whether `token` has an agent token's form. */
export const isAgentToken = (token: string): boolean =>
  token.length === 36 && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(token)

/** The SHA-256 (hex) of an agent token: all that is stored of it. */
export const hashAgentToken = (token: string): string => createHash("sha256").update(token.toLowerCase()).digest("hex")
