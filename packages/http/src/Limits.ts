/**
 * Bounds on what a request may hold and on what an error answer may say. Input is checked by
 * one iterative walk before any schema sees it, so no input, however deep, long or repetitive,
 * costs more than its size, overflows the stack, or grows into a large error body.
 */

/** Limits on path, query and body values, checked before decoding. Each answers 400 at its field. */
export interface InputLimits {
  /** Deepest nesting of objects and arrays in a body; the body object is level 1. */
  readonly maxDepth: number
  /** Most items in one array: a body array, or the values of one query parameter (repeated or comma-separated). */
  readonly maxArrayItems: number
  /** Longest string, in UTF-16 code units: body strings and field names, query and path values. */
  readonly maxStringLength: number
  /** Most fields in one body object, or distinct query parameters. */
  readonly maxKeys: number
}

/**
 * The defaults. Every request schema nests at most 4 levels (`checks.<name>.object.<field>`), its
 * longest lists (roles, organization ids, group members, allow-lists) are a few hundred at most,
 * and its longest strings (avatar URLs, icons, SSH keys) a few KiB; the defaults leave wide room
 * above that while keeping the worst accepted input cheap.
 */
export const defaultInputLimits: InputLimits = {
  maxDepth: 32,
  maxArrayItems: 1000,
  maxStringLength: 64 * 1024,
  maxKeys: 1000
}

/** Most validations one error answer lists; the detail says how many more there were. */
export const MAX_VALIDATIONS = 20

/**
 * Default bound on the values one walk queues. A 4 MiB JSON text holds fewer than 2^21 values;
 * only a value a host framework built, with shared or cyclic references, can reach it, and that
 * answers 400 rather than walking (nearly) forever.
 */
const MAX_VALUES = 4 * 1024 * 1024

/** One bad field: its JSON path (or parameter name), and what is wrong with it. */
export interface Violation {
  readonly field: string
  readonly detail: string
}

/** What a walk found: the first `MAX_VALIDATIONS` violations, and how many there were in all. */
export interface Inspection {
  readonly violations: ReadonlyArray<Violation>
  readonly total: number
}

export const NUL_DETAIL = "Must not contain NUL characters."

/** The detail of a container nested deeper than the limit. */
export const tooDeepDetail = (limits: InputLimits) =>
  `Must not nest objects and arrays deeper than ${limits.maxDepth} levels.`

/** The path of `key` in a container at `depth` and `path`; segments joined by ".", as Schema's formatter joins them. */
const join = (path: string, depth: number, key: string) => (depth === 1 ? key : `${path}.${key}`)

/**
 * Walks `root` (a parsed body, query parameters or path parameters) once, without recursion,
 * and reports every value over `limits` and every string holding a NUL character (no text
 * column stores one). The contents of an oversized array or object, or of one nested too deep,
 * are not looked at: one violation names the container. A NUL in a field name is reported at
 * the object holding it. Each field is reported once.
 */
export const inspectInput = (root: unknown, limits: InputLimits, maxValues = MAX_VALUES): Inspection => {
  const violations: Array<Violation> = []
  const reported = new Set<string>()
  let total = 0
  const report = (field: string, detail: string) => {
    if (reported.has(field)) return
    reported.add(field)
    total++
    if (violations.length < MAX_VALIDATIONS) violations.push({ field, detail })
  }
  // Three parallel stacks rather than one of tuples: no allocation per value.
  const values: Array<unknown> = [root]
  const paths: Array<string> = [""]
  const depths: Array<number> = [1]
  // Counted as they are queued, so a cycle of wide objects stops after maxValues, not maxValues objects.
  let queued = 1
  const tooMany = (more: number) => {
    queued += more
    if (queued <= maxValues) return false
    report("", `Must hold at most ${maxValues} values.`)
    return true
  }
  while (values.length > 0) {
    const value = values.pop()
    const path = paths.pop()!
    const depth = depths.pop()!
    if (typeof value === "string") {
      if (value.length > limits.maxStringLength) report(path, `Must be at most ${limits.maxStringLength} characters.`)
      else if (value.includes("\u0000")) report(path, NUL_DETAIL)
      continue
    }
    if (typeof value !== "object" || value === null) continue
    if (depth > limits.maxDepth) {
      report(path, tooDeepDetail(limits))
      continue
    }
    if (Array.isArray(value)) {
      if (value.length > limits.maxArrayItems) {
        report(path, `Must have at most ${limits.maxArrayItems} items.`)
        continue
      }
      if (tooMany(value.length)) break
      // Pushed last to first, so they are visited (and reported) in document order.
      for (let i = value.length - 1; i >= 0; i--) {
        values.push(value[i])
        paths.push(join(path, depth, String(i)))
        depths.push(depth + 1)
      }
      continue
    }
    const keys = Object.keys(value)
    if (keys.length > limits.maxKeys) {
      report(path, `Must have at most ${limits.maxKeys} fields.`)
      continue
    }
    if (tooMany(keys.length)) break
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!
      if (key.length > limits.maxStringLength) {
        report(join(path, depth, key), `Field names must be at most ${limits.maxStringLength} characters.`)
        continue
      }
      values.push((value as Record<string, unknown>)[key])
      paths.push(join(path, depth, key))
      depths.push(depth + 1)
      // The key itself, checked at the object's path just before its value: reports stay in document order.
      if (key.includes("\u0000")) {
        values.push(key)
        paths.push(path)
        depths.push(depth)
      }
    }
  }
  return { violations, total }
}

/**
 * Where JSON `text` first nests an array or object deeper than `maxDepth`: its path, or
 * undefined. Read before `JSON.parse`, which accepts any depth and spends about half a
 * microsecond per level (a second on a 4 MiB body of brackets); this scan stops at the first
 * container too deep. Text that is not JSON is not judged here: `JSON.parse` reports it.
 */
export const tooDeepJson = (text: string, maxDepth: number): string | undefined => {
  // Per open container: the index of the current item (arrays) or -1 (objects), and where the
  // current key's string starts and ends (objects).
  const items: Array<number> = []
  const keyStarts: Array<number> = []
  const keyEnds: Array<number> = []
  let expectKey = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      let end = i
      for (;;) {
        end = text.indexOf("\"", end + 1)
        if (end < 0) return undefined
        let backslashes = 0
        while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++
        if (backslashes % 2 === 0) break
      }
      if (expectKey && items.length > 0) {
        keyStarts[items.length - 1] = i
        keyEnds[items.length - 1] = end + 1
        expectKey = false
      }
      i = end
    } else if (c === 0x7b || c === 0x5b) {
      if (items.length >= maxDepth) return pathOf(text, items, keyStarts, keyEnds)
      items.push(c === 0x7b ? -1 : 0)
      keyStarts.push(-1)
      keyEnds.push(-1)
      expectKey = c === 0x7b
    } else if (c === 0x7d || c === 0x5d) {
      items.pop()
      keyStarts.pop()
      keyEnds.pop()
      expectKey = false
    } else if (c === 0x2c && items.length > 0) {
      const top = items.length - 1
      if (items[top]! >= 0) items[top]!++
      else expectKey = true
    }
  }
  return undefined
}

const pathOf = (text: string, items: Array<number>, keyStarts: Array<number>, keyEnds: Array<number>): string => {
  const parts: Array<string> = []
  for (let level = 0; level < items.length; level++) {
    if (items[level]! >= 0) {
      parts.push(String(items[level]))
      continue
    }
    const raw = keyStarts[level]! < 0 ? "\"\"" : text.slice(keyStarts[level], keyEnds[level])
    let key: string
    try {
      key = JSON.parse(raw) as string
    } catch {
      key = raw.slice(1, -1)
    }
    parts.push(key)
  }
  return parts.join(".")
}

/** UTF-8 bytes of one UTF-16 unit once JSON-encoded (surrogates counted as escaped, the most they take). */
const jsonBytes = (c: number): number =>
  c < 0x20 ? 6 : c === 0x22 || c === 0x5c ? 2 : c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdfff ? 6 : 3

/**
 * `text` cut so that, JSON-encoded, it takes at most `maxBytes` bytes; a cut ends in "…".
 * Looks at no more than `maxBytes` characters, whatever the length of `text`.
 */
export const clip = (text: string, maxBytes: number): string => {
  if (text.length * 6 <= maxBytes) return text
  let bytes = 0
  let cut = 0
  for (let i = 0; i < text.length; i++) {
    bytes += jsonBytes(text.charCodeAt(i))
    if (bytes > maxBytes) {
      // Do not split a surrogate pair.
      const last = text.charCodeAt(cut - 1)
      if (cut > 0 && last >= 0xd800 && last <= 0xdbff) cut--
      return `${text.slice(0, cut)}…`
    }
    if (bytes <= maxBytes - 3) cut = i + 1
  }
  return text
}
