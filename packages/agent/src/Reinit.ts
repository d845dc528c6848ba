/**
 * Follows `GET /workspaceagents/me/reinit` (server-sent events, parsed by `eventsource-parser`):
 * each `data` event (the described system's `ReinitializationEvent`, `{WorkspaceID, reason}`)
 * goes to `onEvent`; `ping`s keep the stream alive. It reconnects with backoff (a quarter second,
 * doubling to ten seconds, with jitter) until closed, whatever the service answers: the agent's
 * own connection decides whether its token still works.
 */
import { createParser } from "eventsource-parser"

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

export const followReinit = (options: ReinitOptions): { readonly close: () => void } => {
  const controller = new AbortController()
  const { signal } = controller
  const follow = async () => {
    let backoff = MIN_BACKOFF_MS
    while (!signal.aborted) {
      try {
        const response = await fetch(`${options.url}/api/v2/workspaceagents/me/reinit`, {
          headers: { authorization: `Bearer ${options.token()}`, accept: "text/event-stream" },
          signal
        })
        if (!response.ok || response.body === null) {
          await response.body?.cancel()
          throw new Error(`the service answered ${response.status}`)
        }
        backoff = MIN_BACKOFF_MS
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
        const decoder = new TextDecoder()
        const reader = response.body.getReader()
        while (true) {
          const { done, value } = await reader.read()
          if (done) break
          parser.feed(decoder.decode(value, { stream: true }))
        }
      } catch (e) {
        if (signal.aborted) return
        options.log(`reinit: ${e instanceof Error ? e.message : String(e)}`)
      }
      await new Promise((resolve) => setTimeout(resolve, backoff * (0.75 + Math.random() / 2)).unref())
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS)
    }
  }
  void follow()
  return { close: () => controller.abort() }
}
