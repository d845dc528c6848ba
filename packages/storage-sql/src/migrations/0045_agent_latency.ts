import type { DialectTypes } from "../Schema.js"

/** Migration 0045: each agent's latest round trip (microseconds) to the replica holding its connection. */
export const migration = (_types: DialectTypes): ReadonlyArray<string> => [
  `ALTER TABLE workspace_agents ADD COLUMN latency_us BIGINT`
]
