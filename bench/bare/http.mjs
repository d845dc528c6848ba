// The HTTP plumbing every bare server shares: a JSON answer and the constant-time comparison of
// a key's hash. Node built-ins only, so a bare server loads nothing it does not need.
import { timingSafeEqual } from "node:crypto"

/** Writes `body` as JSON with `status`, its length given (as the service writes its answers). */
export const send = (res, status, body) => {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text)
  })
  res.end(text)
}

/** Whether two hashes (hex text) are equal, compared in constant time. */
export const sameHash = (a, b) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))
