/** Server-sent events test support: a reader over a streaming fetch. */

/** An SSE reader: every event parsed as it arrives, until `stop`. */
export const readEvents = async (url: string, headers: Record<string, string>) => {
  const controller = new AbortController()
  const response = await fetch(url, { headers, signal: controller.signal })
  const events: Array<{ event: string; data?: any }> = []
  const done = (async () => {
    if (response.status !== 200 || response.body === null) return
    const decoder = new TextDecoder()
    let buffer = ""
    try {
      for await (const chunk of response.body as any as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true })
        let end: number
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message"
          const data = block.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n")
          events.push(data === "" ? { event } : { event, data: JSON.parse(data) })
        }
      }
    } catch {
      // aborted
    }
  })()
  return {
    response,
    events,
    stop: async () => {
      controller.abort()
      await done
    }
  }
}
