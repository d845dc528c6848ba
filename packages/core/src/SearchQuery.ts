/** Parser of the `q` search strings (`key:value` terms and free text). */
import { Effect } from "effect"
import { BadRequest, Validation } from "./Errors.js"

export interface ParsedQuery {
  readonly terms: ReadonlyMap<string, string>
  readonly text: ReadonlyArray<string>
}

/**
 * Splits `q` into `key:value` terms and free-text words. Values may be quoted
 * (`name:"a b"`). Keys outside `allowed` fail with a 400 naming `q`.
 */
export const parseQuery = (
  q: string | undefined,
  allowed: ReadonlyArray<string>
): Effect.Effect<ParsedQuery, BadRequest> => {
  const terms = new Map<string, string>()
  const text: Array<string> = []
  const problems: Array<Validation> = []
  const tokens = (q ?? "").match(/(?:[^\s"]+|"[^"]*")+/g) ?? []
  for (const token of tokens) {
    const i = token.indexOf(":")
    if (i <= 0) {
      text.push(token.replace(/"/g, ""))
      continue
    }
    const key = token.slice(0, i).toLowerCase()
    const value = token.slice(i + 1).replace(/^"|"$/g, "")
    if (!allowed.includes(key)) {
      problems.push(new Validation({ field: "q", detail: `Query param "${key}" is not a valid query param.` }))
    } else if (value === "") {
      problems.push(new Validation({ field: "q", detail: `Query param "${key}" has no value.` }))
    } else {
      terms.set(key, value)
    }
  }
  return problems.length > 0
    ? Effect.fail(new BadRequest({ message: "Invalid search query.", validations: problems }))
    : Effect.succeed({ terms, text })
}
