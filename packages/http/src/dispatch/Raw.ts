/**
 * A request and its answer as the adapters (Adapters.ts, a host framework) hand them over and
 * write them: no framework's types, only what the dispatcher reads and writes.
 */

/** A request as the adapters hand it over. */
export interface RawRequest {
  readonly method: string
  /** Path and query, e.g. `/api/v2/users?limit=5`. */
  readonly url: string
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  /**
   * The body text (undefined when there is none), its bytes (routes with a raw body, see
   * `Dispatcher.bodyLimit`), or a value a framework already parsed.
   */
  readonly body: string | Uint8Array | undefined | { readonly parsed: unknown }
  /**
   * The immediate peer's address (the socket's; "" when unknown). The dispatcher serves the
   * request under the client's address found from it (`clientAddress`, RealIp.ts).
   */
  readonly remoteAddress: string
}

export interface RawResponse {
  readonly status: number
  readonly headers: Record<string, string | Array<string>>
  /** JSON text, or the bytes of a binary answer. */
  readonly body: string | Uint8Array | undefined
  /** A streaming answer (server-sent events): the adapter writes the headers, then opens it. */
  readonly stream?: StreamingBody | undefined
  /** A file's bytes (FileAnswer.ts): the adapter writes the headers, then streams the file at `path`. */
  readonly file?: { readonly path: string } | undefined
}

/** Where a streaming body writes: `write` resolves once the text is taken (after a drain when the buffer is full). */
export interface StreamWriter {
  readonly write: (text: string) => Promise<void>
  readonly end: () => void
}

/** A body written piece by piece; `open` starts it and answers the function that stops it (the client left). */
export interface StreamingBody {
  readonly open: (writer: StreamWriter) => () => void
}

/** How a request's body is read: as bytes or text, and up to how many bytes. */
export interface BodyLimit {
  readonly maxBytes: number
  /** Keep the bytes (the route takes a raw body); otherwise the body is read as UTF-8 text. */
  readonly binary: boolean
}

/** One header's value (the first, when repeated). */
export const header = (headers: RawRequest["headers"], name: string): string | undefined => {
  const v = headers[name]
  return v === undefined ? undefined : typeof v === "string" ? v : v[0]
}
