/**
 * Follows `GET /workspaceagents/me/reinit` (server-sent events, parsed by `eventsource-parser`):
 * each `data` event (the described system's `ReinitializationEvent`, `{WorkspaceID, reason}`)
 * goes to `onEvent`; `ping`s keep the stream alive. It reconnects with backoff (a quarter second,
 * doubling to ten seconds, with jitter) until closed, whatever the service answers: the agent's
 * own connection decides whether its token still works.
 *
 * Read with `node:http`, each chunk handed to the parser as it comes: `fetch`'s web stream made
 * a reader's promise, a view and a queue entry per chunk, and the scaletest's process of 2,000
 * agents reads every agent's pings (`fetch`'s streams led what it allocated; it now allocates 6%
 * less in all, docs/scale.md).
 */
import { createParser } from "eventsource-parser"
import { type IncomingMessage, request as httpRequest } from "node:http"
import { request as httpsRequest } from "node:https"

export interface ReinitEvent {
  readonly WorkspaceID: string
  readonly reason: string
}

export interface ReinitOptions {
  readonly url: string
  readonly token: () => string
  readonly onEvent: (event: ReinitEvent) => void
  readonly log: (line: string) => void
}

const MIN_BACKOFF_MS = 250
const MAX_BACKOFF_MS = 10_000

/**
 * One follow of the stream: `opened` once the service answered 200, then `feed` each chunk;
 * resolves when it ends (the service closed it), rejects when it could not be opened or broke
 * off, or when the service answered other than 200.
 */
const followOnce = (
  url: URL,
  token: string,
  signal: AbortSignal,
  opened: () => void,
  feed: (text: string) => void
): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    const request = url.protocol === "https:" ? httpsRequest : httpRequest
    const req = request(url, {
      method: "GET",
      headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
      signal
    }, (res: IncomingMessage) => {
      if (res.statusCode !== 200) {
        res.resume()
        return reject(new Error(`the service answered ${res.statusCode}`))
      }
      opened()
      res.setEncoding("utf8")
      res.on("data", feed)
      res.once("end", resolve)
      res.once("error", (e) => reject(new Error(`the stream broke off (${e.message})`)))
      // A connection that drops before the end ("aborted") ends the follow too.
      res.once("close", () => (res.complete ? resolve() : reject(new Error("the stream broke off"))))
    })
    req.once("error", reject)
    req.end()
  })

export const followReinit = (options: ReinitOptions): { readonly close: () => void } => {
  const controller = new AbortController()
  const { signal } = controller
  const follow = async () => {
    let backoff = MIN_BACKOFF_MS
    let url: URL
    try {
      url = new URL(`${options.url}/api/v2/workspaceagents/me/reinit`)
    } catch (e) {
      return options.log(`reinit: ${e instanceof Error ? e.message : String(e)}`)
    }
    while (!signal.aborted) {
      const parser = createParser({
        onEvent: (event) => {
          if (event.event !== "data") return
          try {
            options.onEvent(JSON.parse(event.data) as ReinitEvent)
          } catch (e) {
            options.log(`reinit: an event that is not JSON: ${String(e)}`)
          }
        }
      })
      try {
        await followOnce(url, options.token(), signal, () => (backoff = MIN_BACKOFF_MS), (text) => parser.feed(text))
      } catch (e) {
        if (signal.aborted) return
        options.log(`reinit: ${e instanceof Error ? e.message : String(e)}`)
      }
      if (signal.aborted) return
      await new Promise((resolve) => setTimeout(resolve, backoff * (0.75 + Math.random() / 2)).unref())
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS)
    }
  }
  void follow()
  return { close: () => controller.abort() }
}
