/**
 * The dashboard's only way to the service: the public API under /api/v2, with the session cookie
 * that `POST /users/login` sets (HttpOnly, so never read here: the browser sends it).
 *
 * `client` is @workbay/client's typed client (openapi-fetch over the types generated from the
 * service's HttpApi definition), the same one the CLI and the agent use: every path, parameter,
 * body and answer is the service's own, and a route or field it does not have does not compile.
 * `unwrap` turns an answer into its data, or throws an `ApiError` with the service's message,
 * detail and validations.
 */
import { makeClient } from "@workbay/client"

export { ApiError, apiErrorOf, isStatus, type Schemas, unwrap, type Validation } from "@workbay/client"

export const client = makeClient({ credentials: "same-origin" })

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
