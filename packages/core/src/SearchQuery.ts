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

/**
 * A comma-separated term (`status:running,stopped`) whose values must be among `allowed`: the
 * values (lowercased), `undefined` when the term is absent, a 400 on `q` naming the first value
 * that is not a `what`.
 */
export const enumTerm = <A extends string>(
  key: string,
  value: string | undefined,
  allowed: ReadonlyArray<A>,
  what: string
): Effect.Effect<Array<A> | undefined, BadRequest> => {
  if (value === undefined) return Effect.succeed(undefined)
  const wanted = value.split(",").map((s) => s.trim().toLowerCase())
  const bad = wanted.find((s) => !(allowed as ReadonlyArray<string>).includes(s))
  return bad === undefined
    ? Effect.succeed(wanted as Array<A>)
    : Effect.fail(
      new BadRequest({
        message: "Invalid search query.",
        validations: [
          new Validation({
            field: "q",
            detail: `Query param "${key}" has invalid value: ${JSON.stringify(bad)} is not ${what}.`
          })
        ]
      })
    )
}
