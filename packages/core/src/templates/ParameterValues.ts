/**
 * One parameter value checked against its parameter (options, regex, bounds, type), shared by
 * workspace builds (`workspaces/Parameters.ts`) and the dynamic parameters' form
 * (`DynamicParameters.ts`), so both say the same. Pure.
 */
import { compilePattern } from "../Pattern.js"
import type { RichParameter } from "../provisioners/Provisioner.js"

/** Problems with one value of `p` (empty when it is fine). */
export const checkValue = (p: RichParameter, value: string): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const label = `Parameter "${p.name}"`
  if (p.type === "number") {
    const n = Number(value)
    if (value.trim() === "" || !Number.isFinite(n)) return [`${label} must be a number.`]
    if (p.validation_min !== undefined && n < p.validation_min) {
      problems.push(p.validation_error !== "" ? p.validation_error : `${label} must be at least ${p.validation_min}.`)
    }
    if (p.validation_max !== undefined && n > p.validation_max) {
      problems.push(p.validation_error !== "" ? p.validation_error : `${label} must be at most ${p.validation_max}.`)
    }
  }
  if (p.type === "bool" && value !== "true" && value !== "false") return [`${label} must be "true" or "false".`]
  let items: ReadonlyArray<string> = [value]
  if (p.type === "list(string)") {
    let parsed: unknown
    try {
      parsed = JSON.parse(value)
    } catch {
      parsed = undefined
    }
    if (!Array.isArray(parsed) || !parsed.every((x) => typeof x === "string")) {
      return [`${label} must be a JSON array of strings.`]
    }
    items = parsed
  }
  if (p.options.length > 0) {
    const allowed = new Set(p.options.map((o) => o.value))
    const bad = items.filter((x) => !allowed.has(x))
    if (bad.length > 0) problems.push(`${label}: ${JSON.stringify(bad[0])} is not one of the options.`)
  }
  if (p.validation_regex !== "" && p.type !== "list(string)") {
    const re = compilePattern(p.validation_regex)
    if (re !== undefined && !re.test(value)) {
      problems.push(p.validation_error !== "" ? p.validation_error : `${label} must match ${p.validation_regex}.`)
    }
  }
  return problems
}
