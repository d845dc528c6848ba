import type { DialectTypes } from "../Schema.js"

/**
 * Migration 0004: audit entries about API keys name the key's owner in `resource_id`,
 * as the described system does (a UUID; key ids are not). Earlier entries held the key
 * id: they get the owner of the key when it still exists, else the entry's user (who
 * made, used or removed the key).
 */
export const migration = (_types: DialectTypes): ReadonlyArray<string> => [
  `UPDATE audit_logs
    SET resource_id = COALESCE((SELECT k.user_id FROM api_keys k WHERE k.id = audit_logs.resource_id), audit_logs.user_id)
    WHERE resource_type = 'api_key' AND length(resource_id) <> 36`
]
