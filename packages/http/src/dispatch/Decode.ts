/**
 * A request's input (path parameters, query, body) decoded into what its handler takes, or one
 * 400 naming every bad field. Each part is first walked once for what no schema should see
 * (values over the input limits, NUL characters; Limits.ts); a part with such values is not
 * decoded. A raw body (a route declaring `HttpApiSchema.Uint8Array`) is taken as bytes in one of
 * its content types, never walked or parsed.
 */
import type { BadRequest } from "@workbay/core"
import { Either } from "effect"
import { Buffer } from "node:buffer"
import { type InputLimits, inspectInput, MAX_VALIDATIONS, tooDeepDetail, tooDeepJson } from "../Limits.js"
import { mediaTypeOf } from "../RequestContext.js"
import { header, type RawRequest } from "./Raw.js"
import type { CompiledRoute, Decoder } from "./Route.js"
import { badRequest, collectValidations, moreNote, type ValidationEntry } from "./Validations.js"

/**
 * Decodes the path parameters `params`, the query and the body of `req` into `into` (`path`,
 * `urlParams`, `payload`, as the handler takes them); a 400 with every bad field when they do
 * not fit.
 */
export const decodeRequest = (
  route: CompiledRoute,
  params: unknown,
  query: string,
  req: RawRequest,
  limits: InputLimits,
  into: Record<string, unknown>
): BadRequest | undefined => {
  const listed: Array<ValidationEntry> = []
  let total = 0
  let exact = true
  const add = (found: ReadonlyArray<ValidationEntry>, count: number, exactCount = true) => {
    total += count
    exact &&= exactCount
    for (const v of found) if (listed.length < MAX_VALIDATIONS) listed.push(v)
  }
  const problems = () =>
    total === 0
      ? undefined
      : badRequest(
        "Validation failed.",
        total > listed.length ? moreNote(listed.length, total, exact) : undefined,
        listed
      )
  /** Walks then decodes one part; its decoded value, or undefined when it does not fit. */
  const check = (input: unknown, decode: Decoder): unknown => {
    const inspection = inspectInput(input, limits)
    if (inspection.total > 0) return void add(inspection.violations, inspection.total)
    const r = decode(input)
    if (Either.isRight(r)) return r.right
    const collected = collectValidations(r.left)
    add(collected.validations, collected.total, collected.exact)
    return undefined
  }
  if (route.decodePath !== undefined) into.path = check(params, route.decodePath)
  else {
    const inspection = inspectInput(params, limits)
    add(inspection.violations, inspection.total)
  }
  if (route.decodeQuery !== undefined) {
    into.urlParams = check(parseQuery(query, route.arrayQueryKeys, limits), route.decodeQuery)
  }
  if (route.decodePayload !== undefined && route.binaryBody !== undefined) {
    // Bytes in a declared content type; nothing to walk or parse.
    const contentType = header(req.headers, "content-type") ?? ""
    if (!route.binaryBody.includes(mediaTypeOf(contentType))) {
      return badRequest(
        `Unsupported content type header "${contentType}".`,
        `Send one of: ${route.binaryBody.join(", ")}.`
      )
    }
    const raw = req.body
    const bytes = raw === undefined
      ? new Uint8Array(0)
      : raw instanceof Uint8Array
      ? raw
      : typeof raw === "string"
      ? Buffer.from(raw, "utf8")
      : raw.parsed instanceof Uint8Array
      ? raw.parsed
      : undefined
    if (bytes === undefined) return badRequest("Request body must be the raw bytes of the file.")
    const r = route.decodePayload(bytes)
    if (Either.isLeft(r)) return badRequest("Request body must be the raw bytes of the file.", r.left.message)
    into.payload = r.right
  } else if (route.decodePayload !== undefined) {
    let body: unknown
    // Bytes (a framework's raw body parser) are read as UTF-8 text like any body.
    const text = req.body instanceof Uint8Array ? Buffer.from(req.body).toString("utf8") : req.body
    if (typeof text === "object") body = text.parsed
    else if (text === undefined || text.trim() === "") body = {}
    else {
      const contentType = header(req.headers, "content-type") ?? ""
      if (contentType.includes("application/x-www-form-urlencoded")) body = parseForm(text, limits)
      else {
        const tooDeep = tooDeepJson(text, limits.maxDepth)
        if (tooDeep !== undefined) {
          add([{ field: tooDeep, detail: tooDeepDetail(limits) }], 1)
          return problems()
        }
        try {
          body = JSON.parse(text)
        } catch (e) {
          return badRequest("Request body must be valid JSON.", e instanceof Error ? e.message : String(e))
        }
      }
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      return badRequest("Request body must be a JSON object.")
    }
    into.payload = check(body, route.decodePayload)
  }
  return problems()
}

/**
 * The query parameters; a repeated one, or one of `arrays` (comma-separated), is an array. It
 * stops collecting past the limits (one parameter more, one value more), so that the walk reports
 * them without thousands of values being split first.
 */
const parseQuery = (
  query: string,
  arrays: ReadonlySet<string>,
  limits: InputLimits
): Record<string, string | Array<string>> => {
  const out = new Map<string, string | Array<string>>()
  if (query === "") return {}
  const most = limits.maxArrayItems + 1
  for (const [k, v] of new URLSearchParams(query)) {
    const prev = out.get(k)
    if (prev === undefined) {
      if (out.size > limits.maxKeys) continue
      out.set(k, arrays.has(k) ? v.split(",", most).filter((s) => s !== "") : v)
    } else if (Array.isArray(prev)) {
      if (prev.length >= most) continue
      for (const item of arrays.has(k) ? v.split(",", most - prev.length) : [v]) prev.push(item)
    } else out.set(k, [prev, v])
  }
  // From a Map: a parameter named __proto__ is a field like any other.
  return Object.fromEntries(out)
}

/** A form body (`a=1&b=2`); like the query, it stops collecting one field past the limit. */
const parseForm = (text: string, limits: InputLimits): Record<string, string> => {
  const out = new Map<string, string>()
  for (const [k, v] of new URLSearchParams(text)) {
    if (!out.has(k) && out.size > limits.maxKeys) continue
    out.set(k, v)
  }
  return Object.fromEntries(out)
}
