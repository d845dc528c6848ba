/**
 * An app's health check, as the described system's agent makes it: a `GET` of the check's URL,
 * healthy when an answer's status is below 500 (redirects are not followed: a 3xx is an answer),
 * unhealthy when none comes within the check's interval or the request fails.
 *
 * Made with `node:http`, its body drained and dropped at once: `fetch` kept a stream, an abort
 * signal and a dozen other objects per check alive until the unread body was collected (in the
 * scaletest's process of 2,000 agents the largest share of what its young collections promoted).
 */
import { request as httpRequest } from "node:http"
import { request as httpsRequest } from "node:https"

export const probeHealth = (url: string, timeoutMs: number): Promise<boolean> =>
  new Promise<boolean>((resolve) => {
    let target: URL
    try {
      target = new URL(url)
    } catch {
      return resolve(false)
    }
    const request = target.protocol === "http:" ? httpRequest : target.protocol === "https:" ? httpsRequest : undefined
    if (request === undefined) return resolve(false)
    const req = request(target, { method: "GET" }, (res) => {
      clearTimeout(timer)
      res.resume()
      resolve((res.statusCode ?? 500) < 500)
    })
    const timer = setTimeout(() => req.destroy(new Error("the health check timed out")), timeoutMs)
    timer.unref()
    req.on("error", () => {
      clearTimeout(timer)
      resolve(false)
    })
    req.end()
  })
