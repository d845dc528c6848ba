/**
 * The service's log: one Effect `Logger` writing JSON lines or human lines, with every value
 * that looks like a secret redacted before it is written (docs/operations.md, "Logs").
 *
 * Redaction works on three things: annotation and object fields whose name says they hold a
 * secret (passwords, tokens, keys, codes, cookies, `Authorization`), query parameters of the same
 * names inside text, and shapes of secret in any text (a URL's password, `Bearer ...`, the
 * service's own token formats). It is a safety net: the service's code logs no secret on purpose.
 */
import { Cause, HashMap, Layer, List, Logger, LogLevel } from "effect"

/** How lines are written: `json` (one object a line) or `human` (time, level, message, fields). */
export type LogFormat = "json" | "human"

/** The log levels the settings name. */
export type LogLevelName = "trace" | "debug" | "info" | "warning" | "warn" | "error" | "fatal" | "none"

export interface LoggingOptions {
  /** The lowest level written. Default `info`. */
  readonly level?: LogLevelName | LogLevel.LogLevel | undefined
  /** Default `json`. */
  readonly format?: LogFormat | undefined
  /** Where each line goes (without its newline). Default: standard error. */
  readonly write?: ((line: string) => void) | undefined
  /** A logger of one's own instead of the built-in one (`format` and `write` are then unused). */
  readonly logger?: Logger.Logger<unknown, unknown> | undefined
}

const levels: Readonly<Record<LogLevelName, LogLevel.LogLevel>> = {
  trace: LogLevel.Trace,
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warning: LogLevel.Warning,
  warn: LogLevel.Warning,
  error: LogLevel.Error,
  fatal: LogLevel.Fatal,
  none: LogLevel.None
}

/** The level a setting names (case-insensitive), or undefined when it names none. */
export const parseLogLevel = (text: string): LogLevel.LogLevel | undefined =>
  levels[text.trim().toLowerCase() as LogLevelName]

const levelOf = (level: LoggingOptions["level"]): LogLevel.LogLevel =>
  level === undefined ? LogLevel.Info : typeof level === "string" ? parseLogLevel(level) ?? LogLevel.Info : level

export const REDACTED = "[REDACTED]"

/** Field names (lower case, without `_`, `-` and spaces) whose values are secrets. */
const SECRET_NAME =
  /password|passwd|secret|token|authorization|cookie|apikey|passcode|otp$|^code$|privatekey|credential|^key$|provisionerkey|sessionkey/

/** True when a field, header or parameter called `name` holds a secret. */
export const isSecretName = (name: string): boolean => SECRET_NAME.test(name.toLowerCase().replace(/[-_\s]/g, ""))

/** Secret shapes in text; each keeps its first group and drops the rest. */
const SECRET_TEXT: ReadonlyArray<RegExp> = [
  // A URL's password: scheme://user:password@host
  /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@"']*:)[^\s@/"']+(?=@)/gi,
  // Authorization schemes.
  /(\b(?:bearer|basic|token)\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
  // query or form parameters and JSON/logfmt fields with secret names: name=value, "name":"value"
  /([?&\s,{;]["']?[A-Za-z0-9_-]*(?:password|secret|token|passcode|api[_-]?key|authorization|cookie|code)["']?\s*[=:]\s*["']?)[^&\s"',;}]+/gi,
  // The service's own prefixed tokens (OAuth2 codes, refresh tokens, client secrets, registration tokens).
  /(\b)wb(?:c|r|s|ra|pk|pt)_[A-Za-z0-9]{16,}/g,
  // Session and API keys: <10-character id>-<22-character secret>.
  /(\b[A-Za-z0-9]{10}-)[A-Za-z0-9]{22}\b/g
]

/** `text` with every secret shape replaced by {@link REDACTED}. */
export const redactText = (text: string): string => {
  let out = text
  for (const pattern of SECRET_TEXT) out = out.replace(pattern, (_m, keep: string) => `${keep}${REDACTED}`)
  return out
}

/** `value` with secret-named fields and secret-shaped text redacted (objects and arrays are copied, depth-limited). */
export const redact = (value: unknown, depth = 0): unknown => {
  if (typeof value === "string") return redactText(value)
  if (value === null || typeof value !== "object") return value
  if (depth > 6) return "[...]"
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1))
  if (value instanceof Date) return value.toISOString()
  if (value instanceof Error) return redactText(value.stack ?? `${value.name}: ${value.message}`)
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    out[k] = isSecretName(k) && v !== undefined && v !== null && v !== ""
      ? REDACTED
      : redact(v, depth + 1)
  }
  return out
}

const levelLabel = (level: LogLevel.LogLevel): string => level.label === "WARN" ? "warning" : level.label.toLowerCase()

/** The message of a log call: its strings joined (Effect passes several as an array). */
const messageText = (message: unknown): string => {
  const parts = Array.isArray(message) ? message : [message]
  return parts.map((m) => (typeof m === "string" ? m : safeJson(m))).join(" ")
}

const safeJson = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

/** One line of the log as a plain object: time, level, msg, the annotations, and the cause when there is one. */
const entry = (options: Logger.Logger.Options<unknown>): Record<string, unknown> => {
  const line: Record<string, unknown> = {
    time: options.date.toISOString(),
    level: levelLabel(options.logLevel),
    msg: redactText(messageText(options.message))
  }
  for (const [key, value] of HashMap.toEntries(options.annotations)) {
    if (key === "time" || key === "level" || key === "msg") continue
    line[key] = isSecretName(key) && value !== undefined && value !== null && value !== "" ? REDACTED : redact(value)
  }
  const spans = List.toArray(options.spans)
  if (spans.length > 0) line.spans = spans.map((s) => s.label)
  if (!Cause.isEmpty(options.cause)) line.cause = redactText(Cause.pretty(options.cause, { renderErrorCause: true }))
  return line
}

const humanValue = (value: unknown): string => {
  const text = typeof value === "string" ? value : safeJson(value)
  return /[\s"=]/.test(text) ? JSON.stringify(text) : text
}

/** The logger: JSON lines or human lines through `write`, secrets redacted. */
export const makeLogger = (options: Pick<LoggingOptions, "format" | "write"> = {}): Logger.Logger<unknown, void> => {
  const write = options.write ?? ((line: string) => void process.stderr.write(`${line}\n`))
  const format = options.format ?? "json"
  return Logger.make((o) => {
    const line = entry(o)
    if (format === "json") return write(safeJson(line))
    const { time, level, msg, cause, ...fields } = line
    const rest = Object.entries(fields).map(([k, v]) => `${k}=${humanValue(v)}`).join(" ")
    write(
      `${time as string} ${(level as string).toUpperCase().padEnd(7)} ${msg as string}${rest === "" ? "" : ` ${rest}`}${
        cause === undefined ? "" : `\n${cause as string}`
      }`
    )
  })
}

/**
 * The service's logging as a layer: Effect's default logger replaced by {@link makeLogger}, and
 * the minimum level set. Provide it below everything else (makeWorkbay does with its `logging`
 * option), so that the runtime's fibers carry both.
 */
export const loggingLayer = (options: LoggingOptions = {}): Layer.Layer<never> =>
  Layer.merge(
    Logger.replace(Logger.defaultLogger, options.logger ?? makeLogger(options)),
    Logger.minimumLogLevel(levelOf(options.level))
  )
