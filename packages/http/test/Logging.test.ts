/** The logger: JSON and human lines, the level applied, secrets redacted from fields, messages and causes. */
import { Cause, Effect, type Layer } from "effect"
import { describe, expect, it } from "vitest"
import { isSecretName, loggingLayer, redactText } from "../src/Logging.js"

const capture = (options: Parameters<typeof loggingLayer>[0]) => {
  const lines: Array<string> = []
  const layer = loggingLayer({ ...options, write: (l) => void lines.push(l) })
  const run = (effect: Effect.Effect<void>) => Effect.runSync(Effect.provide(effect, layer as Layer.Layer<never>))
  return { lines, run }
}

describe("the logger", () => {
  it("writes JSON lines with time, level, msg, annotations and cause, at or above its level", () => {
    const { lines, run } = capture({ level: "info", format: "json" })
    run(Effect.logDebug("hidden"))
    run(Effect.logInfo("shown").pipe(Effect.annotateLogs({ request_id: "r-1", status: 200 })))
    run(Effect.logError("failed", Cause.fail(new Error("boom"))))
    expect(lines).toHaveLength(2)
    const [shown, failed] = lines.map((l) => JSON.parse(l))
    expect(shown).toMatchObject({ level: "info", msg: "shown", request_id: "r-1", status: 200 })
    expect(Date.parse(shown.time)).not.toBeNaN()
    expect(failed).toMatchObject({ level: "error", msg: "failed" })
    expect(failed.cause).toContain("boom")
  })

  it("writes human lines", () => {
    const { lines, run } = capture({ level: "debug", format: "human" })
    run(Effect.logWarning("careful").pipe(Effect.annotateLogs("route", "/api/v2/users")))
    expect(lines[0]).toMatch(/^\S+Z WARN(ING)?\s+careful route=\/api\/v2\/users$/)
  })

  it("redacts secret fields, parameters, credentials and token shapes", () => {
    const { lines, run } = capture({ level: "info", format: "json" })
    const key = "abcdefghij-ABCDEFGHIJKLMNOPQRSTUV"
    run(
      Effect.logInfo(
        `GET /x?code=c0de1234&state=ok Authorization: Bearer tok3n-value-123 postgres://u:pa55word@db/x ${key} wbr_${
          "a".repeat(40)
        }`
      ).pipe(
        Effect.annotateLogs({
          password: "hunter22",
          session_token: "s3cret-s3cret",
          headers: { Cookie: "a=b", accept: "json" }
        })
      )
    )
    run(Effect.logError("failed", Cause.fail(new Error(`bad {"client_secret":"wbs_${"b".repeat(40)}"}`))))
    const text = lines.join("\n")
    for (
      const secret of [
        "c0de1234",
        "tok3n-value-123",
        "pa55word",
        "ABCDEFGHIJKLMNOPQRSTUV",
        "a".repeat(40),
        "b".repeat(40),
        "hunter22",
        "s3cret-s3cret",
        "a=b"
      ]
    ) {
      expect(text).not.toContain(secret)
    }
    const first = JSON.parse(lines[0]!)
    expect(first.password).toBe("[REDACTED]")
    expect(first.headers).toEqual({ Cookie: "[REDACTED]", accept: "json" })
    expect(first.msg).toContain("state=ok")
    expect(first.msg).toContain("postgres://u:[REDACTED]@db/x")
  })

  it("names secret fields", () => {
    for (
      const name of [
        "password",
        "Service-Session-Token",
        "client_secret",
        "Authorization",
        "one_time_passcode",
        "code",
        "api_key"
      ]
    ) {
      expect(isSecretName(name), name).toBe(true)
    }
    for (const name of ["request_id", "status", "route", "user_id"]) expect(isSecretName(name), name).toBe(false)
    expect(redactText("nothing here")).toBe("nothing here")
  })
})
