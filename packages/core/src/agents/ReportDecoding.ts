/**
 * Decoders of the agents' periodic reports, `batch_update_metadata` (each agent every few seconds)
 * and `update_stats` (every 30 s): at 2,000 agents some 270 messages a second. Schema's decoder
 * allocates about 25 KB for a report of two metadata items and 31 KB for a stats report, and the
 * stats class takes about 80 us (bench/README.md, "Agent reports decoded"); that garbage is a
 * part of what the terminals' echo waits for at scale (docs/scale.md).
 *
 * The rule that keeps them exact, as for the compiled encoders (Encoding.ts): a report passes the
 * fast path only when every check the schema makes holds (types, lengths, bounds, dates, counts,
 * the number of items and keys), and the fast path then builds what Schema would (the same class,
 * fields in the same order, defaults filled in, unknown fields dropped). Anything else, an
 * invalid report included, is decoded by Schema, which answers its own value or its own error.
 * `core/test/agents/ReportDecoding.test.ts` compares both on generated reports, valid and not.
 */
import { Either, type ParseResult, Predicate, Schema } from "effect"
import { GIVE_UP } from "../Encoding.js"
import { lazily } from "../Lazily.js"
import {
  MAX_METADATA_KEY_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_REPORTED_LENGTH,
  MAX_STATS_PROTOCOL_LENGTH,
  MAX_STATS_PROTOCOLS,
  MetadataUpdate,
  StatsUpdate
} from "./Reports.js"

type GiveUp = typeof GIVE_UP

const isObject = Predicate.isRecord
const has = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key)

/** A string of at most `max` UTF-16 units (Schema's `maxLength`). */
const text = (u: unknown, max: number): u is string => typeof u === "string" && u.length <= max
/** A non-negative safe integer (the reports' `Count`). */
const count = (u: unknown): u is number => typeof u === "number" && Number.isSafeInteger(u) && u >= 0

/** An optional field with a default: absent gives the default; present, it must pass `check`. */
const withDefault = <A>(o: Record<string, unknown>, key: string, check: (u: unknown) => u is A, fallback: A) => {
  if (!has(o, key)) return fallback
  const value = o[key]
  return check(value) ? value : GIVE_UP
}

/** `ReportTime`: an RFC 3339 string that `new Date` reads as a date of the years 1 to 9999. */
const reportTime = (u: unknown): Date | GiveUp => {
  if (typeof u !== "string") return GIVE_UP
  const date = new Date(u)
  const year = date.getUTCFullYear()
  return Number.isNaN(date.getTime()) || year < 1 || year > 9999 ? GIVE_UP : date
}

const reported = (u: unknown): u is string => text(u, MAX_METADATA_REPORTED_LENGTH)

const metadataItem = (u: unknown) => {
  if (!isObject(u)) return GIVE_UP
  const key = u.key
  const result = u.result
  if (!text(key, MAX_METADATA_KEY_LENGTH) || key.length < 1 || !isObject(result)) return GIVE_UP
  const collected_at = reportTime(result.collected_at)
  const age = withDefault(result, "age", count, 0)
  const value = withDefault(result, "value", reported, "")
  const error = withDefault(result, "error", reported, "")
  if (collected_at === GIVE_UP || age === GIVE_UP || value === GIVE_UP || error === GIVE_UP) return GIVE_UP
  return { key, result: { collected_at, age, value, error } }
}

const fastMetadata = (u: unknown): MetadataUpdate | GiveUp => {
  if (!isObject(u) || !Array.isArray(u.metadata) || u.metadata.length > MAX_METADATA_KEYS) return GIVE_UP
  const items = new Array<Exclude<ReturnType<typeof metadataItem>, GiveUp>>(u.metadata.length)
  for (let i = 0; i < items.length; i++) {
    const item = metadataItem(u.metadata[i])
    if (item === GIVE_UP) return GIVE_UP
    items[i] = item
  }
  return new MetadataUpdate({ metadata: items }, true)
}

const finiteNonNegative = (u: unknown): u is number => typeof u === "number" && Number.isFinite(u) && u >= 0

const connectionsByProto = (u: unknown): u is Record<string, number> => {
  if (!isObject(u) || Object.getPrototypeOf(u) !== Object.prototype) return false
  const keys = Object.keys(u)
  if (keys.length > MAX_STATS_PROTOCOLS) return false
  for (const key of keys) {
    if (key.length > MAX_STATS_PROTOCOL_LENGTH || key === "__proto__" || !count(u[key])) return false
  }
  return true
}

const COUNTS = [
  "rx_packets",
  "rx_bytes",
  "tx_packets",
  "tx_bytes",
  "session_count_vscode",
  "session_count_jetbrains",
  "session_count_reconnecting_pty",
  "session_count_ssh"
] as const

const fastStats = (u: unknown): StatsUpdate | GiveUp => {
  if (!isObject(u) || !isObject(u.stats)) return GIVE_UP
  const s = u.stats
  const byProto = withDefault(s, "connections_by_proto", connectionsByProto, undefined)
  const connection_count = withDefault(s, "connection_count", count, 0)
  const latency = withDefault(s, "connection_median_latency_ms", finiteNonNegative, 0)
  if (byProto === GIVE_UP || connection_count === GIVE_UP || latency === GIVE_UP) return GIVE_UP
  const stats: Record<string, unknown> = {
    connections_by_proto: byProto === undefined ? {} : { ...byProto },
    connection_count,
    connection_median_latency_ms: latency
  }
  for (const key of COUNTS) {
    const value = withDefault(s, key, count, 0)
    if (value === GIVE_UP) return GIVE_UP
    stats[key] = value
  }
  return new StatsUpdate({ stats: stats as StatsUpdate["stats"] }, true)
}

/** The fast paths alone (undefined where they give the report to Schema), for the tests. */
const alone = <A>(fast: (u: unknown) => A | GiveUp) => (u: unknown): A | undefined => {
  const value = fast(u)
  return value === GIVE_UP ? undefined : value
}
export const reportFastPaths = { metadata: alone(fastMetadata), stats: alone(fastStats) }

const withFallback =
  <A>(fast: (u: unknown) => A | GiveUp, slow: (u: unknown) => Either.Either<A, ParseResult.ParseError>) =>
  (u: unknown): Either.Either<A, ParseResult.ParseError> => {
    const value = fast(u)
    return value === GIVE_UP ? slow(u) : Either.right(value)
  }

/** `Schema.decodeUnknownEither(MetadataUpdate, { errors: "all" })`, without its walk for a valid report. */
export const decodeMetadataUpdate = withFallback(
  fastMetadata,
  lazily(() => Schema.decodeUnknownEither(MetadataUpdate, { errors: "all" }))
)

/** `Schema.decodeUnknownEither(StatsUpdate, { errors: "all" })`, without its walk for a valid report. */
export const decodeStatsUpdate = withFallback(
  fastStats,
  lazily(() => Schema.decodeUnknownEither(StatsUpdate, { errors: "all" }))
)
