/** Reading flags' values: durations and whole numbers, a bad one a bad command line (exit 2). */
import { usageError } from "./Errors.js"

/** `30s`, `5m`, `1h`, `250ms` or a number of seconds: milliseconds. */
export const parseDuration = (text: string, flag: string): number => {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim())
  if (m === null) throw usageError(`${flag} takes a duration such as 30s, 5m or 1h, not "${text}".`)
  const n = Number(m[1])
  return Math.round(n * ({ ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] ?? "s"] ?? 1000))
}

export const wholeNumber = (text: string, flag: string, min: number, max: number): number => {
  const n = Number(text)
  if (!Number.isInteger(n) || n < min || n > max) {
    throw usageError(`${flag} takes a whole number from ${min} to ${max}, not "${text}".`)
  }
  return n
}

/**
 * The sum of a run of `<number><unit>` parts that make up all of `text` (`1d12h30m`), each unit
 * worth `units[unit]`; undefined when `text` is anything else.
 */
export const sumOfUnits = (text: string, units: Readonly<Record<string, number>>): number | undefined => {
  const trimmed = text.trim()
  // Longer units first, so `ms` is not read as `m` then `s`.
  const names = Object.keys(units).sort((a, b) => b.length - a.length).join("|")
  const parts = [...trimmed.matchAll(new RegExp(`(\\d+(?:\\.\\d+)?)(${names})`, "g"))]
  if (trimmed === "" || parts.map((p) => p[0]).join("") !== trimmed) return undefined
  return parts.reduce((sum, p) => sum + Number(p[1]) * units[p[2]!]!, 0)
}
