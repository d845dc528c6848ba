/**
 * The kinds of value a setting holds. A kind says how the text of a flag or environment variable
 * is read into the value (or refused with an error naming the flag), and how
 * `GET /deployment/config` carries the value (`wire`). Every setting of the table (Table.ts) has
 * one; the standalone server reads its flags and variables through them.
 */
import { Duration, Either } from "effect"
import { parseEncryptionKeys } from "../SecretBox.js"

/** One entry of the `external_auth` setting, in the described system's field names. */
export interface ExternalAuthConfig {
  /** `github`, `gitlab`, or any other name for a generic OAuth2 provider. */
  readonly type: string
  /** Unique id of the provider; defaults to `type`. */
  readonly id?: string | undefined
  readonly client_id: string
  /** Secret: never reported (deployment config) and never logged. */
  readonly client_secret?: string | undefined
  readonly auth_url?: string | undefined
  readonly token_url?: string | undefined
  /** Answers 200 to a valid access token (as `Authorization: Bearer`); empty: tokens are not checked. */
  readonly validate_url?: string | undefined
  /** Where unlinking revokes the token (RFC 7009; GitHub's grant deletion for type github). */
  readonly revoke_url?: string | undefined
  readonly app_install_url?: string | undefined
  readonly app_installations_url?: string | undefined
  /** Never use the refresh token: an expired link must be made again. */
  readonly no_refresh?: boolean | undefined
  readonly scopes?: ReadonlyArray<string> | undefined
  /** Fields of the token answer kept beside the token and handed to agents as `token_extra`. */
  readonly extra_token_keys?: ReadonlyArray<string> | undefined
  readonly device_flow?: boolean | undefined
  readonly device_code_url?: string | undefined
  /** Matched against the URL an agent asks about (`match`), e.g. `^(https?://)?github\.com(/.*)?$`. */
  readonly regex?: string | undefined
  readonly display_name?: string | undefined
  readonly display_icon?: string | undefined
  /** PKCE methods the provider accepts (`S256`); default `["S256"]`, `[]` for none. */
  readonly code_challenge_methods_supported?: ReadonlyArray<string> | undefined
}

/** How `/deployment/config` carries a value: as is, as a list, as Go's nanoseconds, or the providers' public view. */
export type WireKind = "string" | "bool" | "int" | "duration" | "strings" | "json" | "providers"

export interface SettingType<A> {
  readonly wire: WireKind
  /** The value the text of `--flag` (or its variable) gives; throws an Error naming the flag when it gives none. */
  readonly parse: (flag: string, text: string) => A
}

// ---------------------------------------------------------------------------
// Readers of text, shared with the server's own flags

const durationUnits: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** Parses `0`, or one or more `<number><unit>` parts (`ms`, `s`, `m`, `h`, `d`): `30d`, `1h30m`. */
export const parseDuration = (text: string): Duration.Duration | undefined => {
  const t = text.trim()
  if (/^0+$/.test(t)) return Duration.zero
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d))+$/.test(t)) return undefined
  let ms = 0
  for (const [, n, unit] of t.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)) ms += Number(n) * durationUnits[unit!]!
  return Duration.millis(ms)
}

/** `host:port` (IPv6 in brackets: `[::1]:2112`; an empty host: all interfaces). */
export const parseHostPort = (text: string, flag: string): { host: string; port: number; text: string } => {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\[\]]*)):(\d{1,5})$/.exec(text)
  const port = m === null ? NaN : Number(m[3])
  if (m === null || !Number.isInteger(port) || port > 65535) {
    throw new Error(`Invalid --${flag} "${text}" (host:port, e.g. 127.0.0.1:2112 or [::1]:2112).`)
  }
  return { host: m[1] ?? m[2] ?? "", port, text }
}

/** Comma-separated encryption keys, each checked (the error names keys by position, never by value). */
export const encryptionKeys = (flag: string, text: string): ReadonlyArray<string> => {
  const keys = text.split(",").map((t) => t.trim()).filter((t) => t !== "")
  const parsed = parseEncryptionKeys(keys)
  if (Either.isLeft(parsed)) throw new Error(`Invalid --${flag}: ${parsed.left.join(" ")}`)
  return keys
}

/** Whether a switch's text says on (`1`, `true`, `yes`, `on`, any case). */
export const truthy = (s: string) => ["1", "true", "yes", "on"].includes(s.toLowerCase())
const falsy = (s: string) => ["0", "false", "no", "off"].includes(s.toLowerCase())

const parseJson = (flag: string, text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    throw new Error(`Invalid --${flag}: not JSON.`)
  }
}

/** `a`, `a or b`, `a, b or c`. */
const either = (words: ReadonlyArray<string>) =>
  words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`

// ---------------------------------------------------------------------------
// The kinds

/** Text, as given. */
export const text: SettingType<string> = { wire: "string", parse: (_flag, text) => text }

/** One of a few words. */
export const oneOf = <const L extends string>(...words: ReadonlyArray<L>): SettingType<L> => ({
  wire: "string",
  parse: (flag, text) => {
    if (!(words as ReadonlyArray<string>).includes(text)) {
      throw new Error(`Invalid --${flag} "${text}" (${either(words)}).`)
    }
    return text as L
  }
})

/** An http or https URL. */
export const url: SettingType<string> = {
  wire: "string",
  parse: (flag, text) => {
    if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol)) {
      throw new Error(`Invalid --${flag} "${text}" (an http or https URL).`)
    }
    return text
  }
}

/** A listener's `host:port`, kept as written. */
export const address: SettingType<string> = { wire: "string", parse: (flag, text) => parseHostPort(text, flag).text }

/** A switch: true, false, yes, no, on, off, 1 or 0. */
export const bool: SettingType<boolean> = {
  wire: "bool",
  parse: (flag, text) => {
    if (!truthy(text) && !falsy(text)) throw new Error(`Invalid value "${text}" for --${flag} (use true or false).`)
    return truthy(text)
  }
}

/** A whole number of any sign. */
export const int: SettingType<number> = {
  wire: "int",
  parse: (flag, text) => {
    const n = Number(text)
    if (!Number.isSafeInteger(n)) throw new Error(`Invalid --${flag} "${text}" (a whole number).`)
    return n
  }
}

/** A whole number of at least 1. */
export const count: SettingType<number> = {
  wire: "int",
  parse: (flag, text) => {
    const n = Number(text)
    if (!Number.isInteger(n) || n < 1) throw new Error(`Invalid --${flag} "${text}" (a whole number of at least 1).`)
    return n
  }
}

/**
 * A duration (`30s`, `5m`, `1h30m`, `90d`, `0`); the error gives `hint` as examples, and
 * `positive` refuses zero.
 */
export const duration = (hint = "30s, 5m, 1h", positive = false): SettingType<Duration.Duration> => ({
  wire: "duration",
  parse: (flag, text) => {
    const value = parseDuration(text)
    if (value === undefined || (positive && Duration.toMillis(value) <= 0)) {
      throw new Error(`Invalid duration "${text}" for --${flag} (use e.g. ${hint}).`)
    }
    return value
  }
})

/** A comma-separated list (items trimmed, empty ones dropped). */
export const strings: SettingType<ReadonlyArray<string>> = {
  wire: "strings",
  parse: (_flag, text) => text.split(",").map((t) => t.trim()).filter((t) => t !== "")
}

/** Comma-separated words, each one of `words`. */
export const wordsOf = <const L extends string>(...words: ReadonlyArray<L>): SettingType<ReadonlyArray<L>> => ({
  wire: "strings",
  parse: (flag, text) => {
    const given = strings.parse(flag, text)
    const bad = given.find((w) => !(words as ReadonlyArray<string>).includes(w))
    if (bad !== undefined) throw new Error(`Invalid --${flag} "${bad}" (${either(words)}, comma-separated).`)
    return given as ReadonlyArray<L>
  }
})

/** Comma-separated encryption keys, each base64 of 32 bytes. */
export const keys: SettingType<ReadonlyArray<string>> = { wire: "strings", parse: encryptionKeys }

/** A JSON object (its members are not checked further). */
export const jsonObject = <A extends object>(): SettingType<A> => ({
  wire: "json",
  parse: (flag, text) => {
    const value = parseJson(flag, text)
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new Error(`Invalid --${flag}: a JSON object is expected.`)
    }
    return value as A
  }
})

/** A link of the dashboard's help menu. */
export interface SupportLink {
  readonly name: string
  readonly target: string
  readonly icon: string
  readonly location?: string | undefined
}

/** A JSON list of links `{"name", "target", "icon", "location"?}` (location: navbar or dropdown). */
export const links: SettingType<ReadonlyArray<SupportLink>> = {
  wire: "json",
  parse: (flag, text) => {
    const value = parseJson(flag, text)
    const isLink = (l: unknown) =>
      typeof l === "object" && l !== null && ["name", "target", "icon"].every((k) =>
        typeof (l as Record<string, unknown>)[k] === "string"
      ) &&
      ["navbar", "dropdown", undefined].includes((l as Record<string, unknown>).location as string | undefined)
    if (!Array.isArray(value) || !value.every(isLink)) {
      throw new Error(`Invalid --${flag}: a JSON list of {"name", "target", "icon"} objects is expected.`)
    }
    return value as ReadonlyArray<SupportLink>
  }
}

/** External auth providers: a JSON list of provider objects (checked further where they are resolved). */
export const providers: SettingType<ReadonlyArray<ExternalAuthConfig>> = {
  wire: "providers",
  parse: (flag, text) => {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (e) {
      throw new Error(`Invalid --${flag}: not JSON (${(e as Error).message}).`)
    }
    if (!Array.isArray(parsed) || !parsed.every((p) => typeof p === "object" && p !== null)) {
      throw new Error(`Invalid --${flag}: a JSON list of provider objects is expected.`)
    }
    return parsed as ReadonlyArray<ExternalAuthConfig>
  }
}

/** A value only code sets (an embedder, or the server from a file): no text reads into it. */
export const inCode = <A>(): SettingType<A> => ({
  wire: "json",
  parse: (flag) => {
    throw new Error(`--${flag} is set in code only.`)
  }
})
