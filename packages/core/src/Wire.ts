/**
 * Response fields the described system omits when empty. Its Go types tag them
 * `json:",omitempty"`: an empty string, `false`, `0`, an empty list or map is
 * not sent at all (a `null` pointer neither), so a client that checks formats
 * never sees `"avatar_url": ""`. Times are structs in Go and are always sent.
 *
 * The field is declared with {@link omitEmpty} on the response class and the
 * conversion leaves it out when empty with {@link putNonEmpty}: the encoder then
 * has nothing to transform, which keeps list pages as fast as plain fields.
 */
import { Schema, type Types } from "effect"

/** A response field that is absent when empty (Go's `omitempty`). */
export const omitEmpty = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

/** Whether Go's `omitempty` drops this value: `""`, `false`, `0`, `null`, an empty array or an empty object. */
export const isEmptyValue = (value: unknown): boolean => {
  if (value === "" || value === false || value === 0 || value === null || value === undefined) return true
  if (Array.isArray(value)) return value.length === 0
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    for (const _ in value) return false
    return true
  }
  return false
}

/** The mutable properties a response class is constructed from. */
export type WireProps<C extends new (props: any, disableValidation?: boolean) => any> = Types.Mutable<
  ConstructorParameters<C>[0]
>

/** Sets `target[key]` to `value` unless `value` is empty (see {@link isEmptyValue}). */
export const putNonEmpty = <T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void => {
  if (!isEmptyValue(value)) target[key] = value as T[K]
}
