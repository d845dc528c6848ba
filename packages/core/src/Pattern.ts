/**
 * Regular expressions that templates supply (parameter validations), matched as the described
 * system's Go `regexp` matches them: RE2 syntax, in time linear in the value (re2js). JavaScript's
 * `RegExp` backtracks, so a pattern such as `^(a+)+$` and a value of a few dozen `a`s and a `!`
 * would hold the event loop for minutes while every other request waits.
 */
import { RE2JS } from "re2js"

/** A compiled pattern: `test` answers whether it matches anywhere in the value (Go's `MatchString`). */
export interface Pattern {
  readonly test: (value: string) => boolean
}

/**
 * The compiled pattern, or undefined when `source` is not valid RE2 syntax (as in the described
 * system, lookarounds and backreferences are not).
 */
export const compilePattern = (source: string): Pattern | undefined => {
  try {
    const re = RE2JS.compile(source)
    return { test: (value) => re.test(value) }
  } catch {
    return undefined
  }
}
