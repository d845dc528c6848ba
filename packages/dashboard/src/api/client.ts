/**
 * The dashboard's only way to the service: the public API under /api/v2, with the session cookie
 * that `POST /users/login` sets (HttpOnly, so never read here: the browser sends it).
 *
 * `client` is openapi-fetch typed by `schema.d.ts`, which is generated from the service's HttpApi
 * definition (scripts/api-types.ts): every path, parameter, body and answer is the service's own,
 * and a route or field it does not have does not compile. `unwrap` turns an answer into its data,
 * or throws an `ApiError` with the service's message, detail and validations.
 */
import createClient from "openapi-fetch"
import type { components, paths } from "./schema.d.ts"

/** The API's named shapes (`Schemas["Workspace"]`, `Schemas["User"]`, ...). */
export type Schemas = components["schemas"]

export interface Validation {
  readonly field: string
  readonly detail: string
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly detail?: string,
    readonly validations: ReadonlyArray<Validation> = []
  ) {
    super(message)
  }
}

export const client = createClient<paths>({
  credentials: "same-origin",
  headers: { Accept: "application/json" }
})

/** An answer's data, or an `ApiError` carrying the service's Response object. */
export const unwrap = async <D>(
  answer: Promise<{ data?: D; error?: unknown; response: Response }>
): Promise<D> => {
  const { data, error, response } = await answer
  if (!response.ok) {
    const body = (typeof error === "object" && error !== null ? error : {}) as {
      message?: string
      detail?: string
      validations?: ReadonlyArray<Validation>
    }
    throw new ApiError(
      response.status,
      body.message ?? `${response.status} ${response.statusText}`,
      body.detail,
      body.validations ?? []
    )
  }
  return data as D
}

/** Whether a failure is the service answering `status` (404 for "no such thing", 401 for "signed out"). */
export const isStatus = (e: unknown, status: number) => e instanceof ApiError && e.status === status

/** The ws:// (or wss://) address of an API path on this origin. */
export const webSocketUrl = (path: string) =>
  `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/api/v2${path}`

/**
 * Follows a watch route (`{type: "data"|"ping", data}` JSON frames, as the described system's
 * watch-ws): `onData` gets each data frame. Returns the function that stops following.
 */
export const watch = <T>(path: string, onData: (data: T) => void) => {
  const socket = new WebSocket(webSocketUrl(path))
  socket.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { type: string; data: unknown }
    if (message.type === "data") onData(message.data as T)
  }
  return () => socket.close()
}
