/** Human output (aligned tables) and `--output json` (the API's JSON as it came, indented). */
import { usageError } from "./Errors.js"

export type OutputFormat = "table" | "json"

export const outputFormatOf = (value: string | undefined): OutputFormat => {
  if (value === undefined || value === "" || value === "table" || value === "text") return "table"
  if (value === "json") return "json"
  throw usageError(`--output must be "table" or "json", not "${value}".`)
}

export const printJson = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
}

/** Rows under upper-case headers, columns two spaces apart; "No <what> found." for no rows. */
export const printTable = (
  headers: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<string>>,
  what: string
) => {
  if (rows.length === 0) {
    process.stderr.write(`No ${what} found.\n`)
    return
  }
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)))
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join("  ").trimEnd()
  process.stdout.write(`${[line(headers.map((h) => h.toUpperCase())), ...rows.map(line)].join("\n")}\n`)
}

/** "3m ago", "2h ago", "5d ago" (or "-" for nothing) for an RFC 3339 time. */
export const ago = (time: string | null | undefined, now = Date.now()): string => {
  if (time === undefined || time === null || time === "") return "-"
  const ms = now - Date.parse(time)
  if (Number.isNaN(ms)) return "-"
  const s = Math.max(0, Math.round(ms / 1000))
  if (s < 60) return `${s}s ago`
  if (s < 3600) return `${Math.floor(s / 60)}m ago`
  if (s < 86_400) return `${Math.floor(s / 3600)}h ago`
  return `${Math.floor(s / 86_400)}d ago`
}
