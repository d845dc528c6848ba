/**
 * Compiled response encoders (core `Encoding.ts`) against Schema's own encoder, over every
 * endpoint's success schema in the WorkbayApi definition: for generated values of the schema's
 * type (`Arbitrary`), both answer the same JSON text (values and key order); values that do not
 * fit answer the same error. The hot responses must compile (not fall back to Schema as a whole).
 */
import { HttpApiSchema } from "@effect/platform"
import { compileEncoder, compileEncodeStep } from "@workbay/core"
import { WorkbayApi } from "@workbay/http"
import { Arbitrary, Either, FastCheck as fc, Schema, type SchemaAST } from "effect"
import { describe, expect, it } from "vitest"

interface Success {
  readonly name: string
  readonly schema: Schema.Schema<any, any, never>
}

/** The JSON success schemas of every endpoint (each member of a union of successes). */
const successes: ReadonlyArray<Success> = Object.values(WorkbayApi.groups).flatMap((group: any) =>
  Object.values(group.endpoints).flatMap((endpoint: any) => {
    const ast: SchemaAST.AST = endpoint.successSchema.ast
    if (HttpApiSchema.isVoid(ast)) return []
    const members = ast._tag === "Union" ? ast.types : [ast]
    return members
      .filter((m) => !HttpApiSchema.isVoid(m) && HttpApiSchema.getEncoding(m).kind === "Json")
      .map((m, i) => ({
        name: `${group.identifier}.${endpoint.name}${members.length > 1 ? `#${i}` : ""}`,
        schema: Schema.make(m)
      }))
  })
)

/** An arbitrary of the schema's type, when Effect can make one (some declarations have none). */
const arbitraryOf = (schema: Schema.Schema<any, any, never>): fc.Arbitrary<unknown> | undefined => {
  try {
    return Arbitrary.make(schema)
  } catch {
    return undefined
  }
}

const text = (r: Either.Either<unknown, unknown>) =>
  Either.isRight(r) ? JSON.stringify(r.right) : `error: ${String(r.left)}`

describe("compiled encoders", () => {
  it("cover the responses, the hot ones included", () => {
    const compiled = successes.filter((s) => compileEncodeStep(s.schema) !== undefined).map((s) => s.name)
    for (
      const hot of [
        "users.get",
        "users.list",
        "workspaces.get",
        "workspaces.list",
        "templates.get",
        "groups.get",
        "audit.auditLogs"
      ]
    ) {
      expect(compiled, hot).toContain(hot)
    }
    // Most responses compile; the rest are encoded by Schema as before.
    expect(compiled.length / successes.length).toBeGreaterThan(0.9)
  })

  it("can generate values of most responses", async () => {
    let made = 0
    for (const s of successes) {
      if (arbitraryOf(s.schema) !== undefined) made++
      // A turn of the event loop per schema (docs/testing.md, "A busy machine").
      await new Promise((resolve) => setImmediate(resolve))
    }
    expect(made / successes.length).toBeGreaterThan(0.9)
  })

  // One test per response: generating values of the large records takes a while on a busy machine.
  // The arbitrary is made in the test, not at collection: making all of them at once held a
  // worker's event loop for most of a minute under a CPU hog. Each test first lets the event loop
  // turn: vitest runs synchronous tests one after the other without a turn, and these 240 held a
  // worker's loop 23 s on a quiet machine, 64 s under a CPU hog (past the 60 s RPC limit).
  for (const s of successes) {
    it(`answer what Schema answers for generated values: ${s.name}`, async (ctx) => {
      await new Promise((resolve) => setImmediate(resolve))
      const arbitrary = arbitraryOf(s.schema)
      if (arbitrary === undefined) return ctx.skip()
      const fast = compileEncoder(s.schema)
      const slow = Schema.encodeUnknownEither(s.schema)
      fc.assert(
        fc.property(arbitrary, (value) => {
          expect(text(fast(value)), s.name).toBe(text(slow(value)))
        }),
        { numRuns: 8, seed: 42 }
      )
    })
  }

  it("answer Schema's error for values that do not fit", async () => {
    for (const s of successes) {
      const fast = compileEncoder(s.schema)
      const slow = Schema.encodeUnknownEither(s.schema)
      for (const bad of [null, 42, "text", [], { id: "not-a-uuid" }]) {
        expect(text(fast(bad)), s.name).toBe(text(slow(bad)))
      }
      // A turn of the event loop per schema: the whole loop held a worker 53 s under a CPU hog,
      // near vitest's 60 s RPC limit (docs/testing.md, "A busy machine").
      await new Promise((resolve) => setImmediate(resolve))
    }
  })
})
