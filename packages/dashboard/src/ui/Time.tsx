/** Dates as people read them: "3 minutes ago" in the text, the exact time in `dateTime` and the title. */
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" })
const exact = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" })

const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1]
]

/** "3 minutes ago", "in 2 hours", "now". */
export const ago = (date: Date, now = Date.now()) => {
  const seconds = Math.round((date.getTime() - now) / 1000)
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === "second") {
      return Math.abs(seconds) < 5 ? "now" : relative.format(Math.round(seconds / size), unit)
    }
  }
  return exact.format(date)
}

export const Time = ({ value, relative: rel = true }: { value: string; relative?: boolean }) => {
  const date = new Date(value)
  if (Number.isNaN(date.getTime()) || date.getFullYear() <= 1) return <span>—</span>
  return (
    <time dateTime={value} title={exact.format(date)}>
      {rel ? ago(date) : exact.format(date)}
    </time>
  )
}
