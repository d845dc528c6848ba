/** Handlers of the init script and the served executables (the agent's and the command line's). */
import { type BinaryProgram, initScriptFor, type ServedBinary, servedBinary } from "@workbay/core"
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

/** The executable a path names; Windows' file ends in `.exe`, which is taken off the arch. */
const find = (program: BinaryProgram, path: { readonly os: string; readonly arch: string }) =>
  servedBinary(
    program,
    path.os,
    path.os === "windows" && path.arch.endsWith(".exe") ? path.arch.slice(0, -4) : path.arch
  )

/** The file name a binary is served as. */
const fileNameOf = (b: ServedBinary) => `${b.program}-${b.os}-${b.arch}${b.os === "windows" ? ".exe" : ""}`

/** The file, its hash as ETag; 304 when If-None-Match names it. */
const answerFile = (binary: ServedBinary) =>
  Effect.gen(function*() {
    const ctx = yield* RequestContext
    const etag = `"${binary.sha256}"`
    ctx.setHeader("etag", etag)
    ctx.setHeader("cache-control", "no-cache")
    if (matches(ctx.header("if-none-match"), etag)) return yield* notModified
    return new FileAnswer(binary.path, binary.size, "application/octet-stream")
  })

/** `<sha256>  <file>\n`, as `sha256sum` prints it. */
const checksumOf = (binary: ServedBinary) => new TextEncoder().encode(`${binary.sha256}  ${fileNameOf(binary)}\n`)

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
  binary: ({ path }) => Effect.flatMap(find("workbay-agent", path), answerFile),
  binaryChecksum: ({ path }) => Effect.map(find("workbay-agent", path), checksumOf),
  cliBinary: ({ path }) => Effect.flatMap(find("workbay", path), answerFile),
  cliBinaryChecksum: ({ path }) => Effect.map(find("workbay", path), checksumOf)
})
