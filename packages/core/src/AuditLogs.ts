/** The read side of the audit and connection logs, and retention. (Being built.) */
import { Effect } from "effect"

export class AuditLogs extends Effect.Service<AuditLogs>()("@workbay/core/AuditLogs", {
  effect: Effect.succeed({} as const)
}) {}
