/** A minimal browser for sign-in tests: a cookie jar per origin and redirects followed by hand. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface Answer {
  readonly status: number
  readonly location: string | undefined
  readonly body: any
  readonly text: string
  readonly url: string
  readonly headers: Headers
}

export class Browser {
  /** host -> name -> value */
  readonly jar = new Map<string, Map<string, string>>()

  cookies(url: string): Map<string, string> {
    const host = new URL(url).host
    let m = this.jar.get(host)
    if (m === undefined) this.jar.set(host, m = new Map())
    return m
  }

  cookie(url: string, name: string): string | undefined {
    return this.cookies(url).get(name)
  }

  setCookie(url: string, name: string, value: string) {
    this.cookies(url).set(name, value)
  }

  async request(
    url: string,
    init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}
  ): Promise<Answer> {
    const jar = this.cookies(url)
    const headers: Record<string, string> = { ...init.headers }
    if (jar.size > 0) headers.cookie = [...jar].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; ")
    let body: string | undefined
    if (init.form !== undefined) {
      body = new URLSearchParams(init.form).toString()
      headers["content-type"] = "application/x-www-form-urlencoded"
    }
    const res = await fetch(url, {
      method: init.method ?? (body ? "POST" : "GET"),
      headers,
      body: body ?? null,
      redirect: "manual"
    })
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";")
      const eq = pair!.indexOf("=")
      const name = pair!.slice(0, eq).trim()
      const value = decodeURIComponent(pair!.slice(eq + 1).trim())
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === ""
      if (expired) jar.delete(name)
      else jar.set(name, value)
    }
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = text === "" ? undefined : JSON.parse(text)
    } catch {
      // not JSON
    }
    const location = res.headers.get("location") ?? undefined
    return {
      status: res.status,
      location: location === undefined ? undefined : new URL(location, url).href,
      body: parsed,
      text,
      url,
      headers: res.headers
    }
  }

  /** Follows redirects from `url` until an answer is not a redirect or `stop` says so. */
  async follow(url: string, stop: (a: Answer) => boolean = () => false, hops = 15): Promise<Answer> {
    let answer = await this.request(url)
    while (
      hops-- > 0 && answer.status >= 300 && answer.status < 400 && answer.location !== undefined && !stop(answer)
    ) {
      answer = await this.request(answer.location)
    }
    return answer
  }
}

/** A tiny HTTP server on a random loopback port. */
export const listen = async (handler: (req: IncomingMessage, res: ServerResponse, body: string) => void) => {
  const server: Server = createServer((req, res) => {
    let body = ""
    req.on("data", (c) => (body += c))
    req.on("end", () => handler(req, res, body))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

export const sendJson = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" })
  res.end(JSON.stringify(body))
}
