/** Handlers of the init script and the agent's executables. */
import { agentBinary, initScriptFor } from "@workbay/core"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { WorkbayApi } from "../Api.js"
import { FileAnswer } from "../FileAnswer.js"
import { implement } from "../Handlers.js"
import { notModified, RequestContext } from "../RequestContext.js"

/** Whether an If-None-Match header names `etag` (or `*`). */
const matches = (ifNoneMatch: string | undefined, etag: string) =>
  ifNoneMatch !== undefined &&
  ifNoneMatch.split(",").some((t) => {
    const tag = t.trim()
    return tag === "*" || tag === etag || tag === `W/${etag}`
  })

export const AgentBinariesHttp = implement(WorkbayApi, "agentBinaries", {
  initScript: ({ path }) =>
    Effect.gen(function*() {
      const script = Buffer.from(yield* initScriptFor(path.os, path.arch))
      const ctx = yield* RequestContext
      // As the described system: the script's digest (RFC 9530), and never cached (the access URL may change).
      ctx.setHeader("content-digest", `sha-256=:${createHash("sha256").update(script).digest("base64")}:`)
      ctx.setHeader("cache-control", "no-store")
      return new Uint8Array(script)
    }),
  binary: ({ path }) =>
    Effect.gen(function*() {
      const arch = path.os === "windows" && path.arch.endsWith(".exe") ? path.arch.slice(0, -4) : path.arch
      const binary = yield* agentBinary(path.os, arch)
      const ctx = yield* RequestContext
      const etag = `"${binary.sha256}"`
      ctx.setHeader("etag", etag)
      ctx.setHeader("cache-control", "no-cache")
      if (matches(ctx.header("if-none-match"), etag)) return yield* notModified
      return new FileAnswer(binary.path, binary.size, "application/octet-stream")
    })
})
