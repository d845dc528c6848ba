import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0052: a provisioner host may be drained (docs/provisioner-daemons.md, "Draining"):
 * placement skips it; its workspaces stay where they are. Set by an operator, never by a report.
 */
export const migration = ({ boolean: bool }: DialectTypes): ReadonlyArray<string> => [
  `ALTER TABLE provisioner_hosts ADD COLUMN draining ${bool} NOT NULL DEFAULT FALSE`
]
