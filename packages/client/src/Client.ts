/**
 * The typed client of the public API: openapi-fetch over {@link paths}, the types generated from
 * the service's own HttpApi definition (src/ApiTypes.ts). Every path, parameter, body and answer
 * is the service's, so a route or a field it does not have does not compile in the dashboard, the
 * CLI or the agent, which all reach the API through this.
 *
 * The token travels as `Authorization: Bearer <token>`, which every deployment accepts whatever
 * it named its session header; a browser leaves it out and sends its session cookie instead.
 */
import createClient, { type Client } from "openapi-fetch"
import type { components, paths } from "./ApiTypes.js"
import { apiErrorOf } from "./Errors.js"

/** The API's named shapes (`Schemas["Workspace"]`, `Schemas["User"]`, ...). */
export type Schemas = components["schemas"]

/** Every route of the API by its path (`/api/v2/...`). */
export type Paths = paths

/** A client of the whole API. */
export type WorkbayClient = Client<paths, "application/json">

export interface ClientOptions {
  /** The deployment's root URL (`https://workbay.example.com`); empty for this page's origin. */
  readonly url?: string
  /** The session token, or how to read the current one for each request; none for the cookie or no session. */
  readonly token?: string | (() => string | undefined)
  /** The fetch to send requests with (the global one otherwise). */
  readonly fetch?: (request: Request) => Promise<Response>
  /** Whether the browser sends its cookies (`same-origin` for the dashboard). */
  readonly credentials?: RequestCredentials
}

/** A client of the deployment at `options.url`. */
export const makeClient = (options: ClientOptions = {}): WorkbayClient => {
  const client = createClient<paths>({
    baseUrl: options.url ?? "",
    headers: { Accept: "application/json" },
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.credentials === undefined ? {} : { credentials: options.credentials })
  })
  const token = options.token
  if (token !== undefined) {
    client.use({
      onRequest: ({ request }) => {
        const current = typeof token === "function" ? token() : token
        if (current !== undefined) request.headers.set("authorization", `Bearer ${current}`)
        return request
      }
    })
  }
  return client
}

/** What a client call resolves to (openapi-fetch's answer). */
export interface Answer<D> {
  readonly data?: D
  readonly error?: unknown
  readonly response: Response
}

/** An answer's data, or an `ApiError` carrying the service's Response object. */
export const unwrap = async <D>(answer: Promise<Answer<D>>): Promise<D> => {
  const { data, error, response } = await answer
  if (!response.ok) throw apiErrorOf(response.status, response.statusText, error)
  return data as D
}

/**
 * An answer whose status is a success or one of `statuses` (a 404 that means "none yet", a 304
 * that means "unchanged"): the status and the data (undefined for the listed statuses); any
 * other refusal is an `ApiError`.
 */
export const settle = async <D>(
  answer: Promise<Answer<D>>,
  statuses: ReadonlyArray<number>
): Promise<{ readonly status: number; readonly data: D | undefined }> => {
  const { data, error, response } = await answer
  if (response.ok) return { status: response.status, data }
  if (statuses.includes(response.status)) return { status: response.status, data: undefined }
  throw apiErrorOf(response.status, response.statusText, error)
}
