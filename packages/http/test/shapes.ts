/**
 * Field-set checks for response bodies: the fields always sent, and those sent only when
 * not empty (the described system's `omitempty` fields; see docs/api.md, Responses).
 */
import { expect } from "vitest"

/** Fields of a reduced user that are always sent. */
export const REDUCED_USER_FIELDS = [
  "created_at",
  "email",
  "id",
  "last_seen_at",
  "login_type",
  "status",
  "updated_at",
  "username"
] as const
/** Fields of a reduced user that are absent when empty. */
export const REDUCED_USER_OPTIONAL = ["avatar_url", "is_service_account", "name", "theme_preference"] as const
/** Fields of a full user: the reduced ones plus these, always sent. */
export const USER_FIELDS = [...REDUCED_USER_FIELDS, "has_ai_seat", "organization_ids", "roles"] as const

/**
 * Asserts `body` has every field of `required`, no field outside `required` and `optional`,
 * and that each optional field present is not empty (`""`, `false`, `[]`, `{}`).
 */
export const expectFields = (
  body: Record<string, unknown>,
  required: ReadonlyArray<string>,
  optional: ReadonlyArray<string> = []
) => {
  const keys = Object.keys(body)
  expect(
    keys.filter((k) => !required.includes(k) && !optional.includes(k)),
    "unexpected fields"
  ).toEqual([])
  expect(
    required.filter((k) => !keys.includes(k)),
    "missing fields"
  ).toEqual([])
  for (const k of optional) {
    if (!(k in body)) continue
    const v = body[k]
    const empty = v === "" ||
      v === false ||
      (Array.isArray(v) && v.length === 0) ||
      (typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0)
    expect(empty, `${k} is sent empty (${JSON.stringify(v)}); it should be absent`).toBe(false)
  }
}
