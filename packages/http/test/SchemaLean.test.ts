/**
 * The server's and the CLI's bundles make Effect's schemas without a class of methods each
 * (scripts/schema-lean.mjs). Here a probe (schemaLean/probe.ts) with core, the API's definition
 * and Effect is bundled twice, with and without that plugin, and run by `node` (a process of its
 * own: the two copies of the library stay out of the test's worker). Every schema core exports and
 * every schema of every endpoint (its path, query, payload, successes and errors), with five made
 * from each (annotated, in an array, in a struct, picked and omitted), is compared between the
 * two: the same description, AST, JSON Schema and statics, and the same outcome (the value, or the
 * error's message) when decoding, validating, re-encoding and `make`-ing generated values of its
 * encoded side and junk.
 */
import { build } from "esbuild"
import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { leanSchemaSource, schemaLean } from "../../../scripts/schema-lean.mjs"

interface Probe {
  readonly chain: ReadonlyArray<string>
  readonly ownMethods: ReadonlyArray<string>
  readonly decoded: number
  readonly fingerprints: ReadonlyArray<{ readonly name: string; readonly shape: string; readonly behaviour?: string }>
}

describe("Effect's Schema as the server's bundle has it (scripts/schema-lean.mjs)", () => {
  let dir: string
  let stock: Probe
  let lean: Probe
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "schema-lean-"))
    const probe = async (name: string, plugins: Array<typeof schemaLean>): Promise<Probe> => {
      const outfile = join(dir, `${name}.mjs`)
      await build({
        entryPoints: [join(import.meta.dirname, "schemaLean", "probe.ts")],
        bundle: true,
        platform: "node",
        target: "node20",
        format: "esm",
        outfile,
        conditions: ["@workbay/source"],
        logLevel: "warning",
        external: ["better-sqlite3", "pg-native", "bufferutil", "utf-8-validate", "ssh2", "@lydell/node-pty"],
        banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" },
        plugins
      })
      const result = join(dir, `${name}.json`)
      await promisify(execFile)(process.execPath, [outfile, result], { maxBuffer: 16 * 1024 * 1024 })
      return JSON.parse(readFileSync(result, "utf8")) as Probe
    }
    ;[stock, lean] = await Promise.all([probe("stock", []), probe("lean", [schemaLean])])
  }, 300_000)
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("makes each schema a class of its own data only, its methods inherited (and the stock bundle does not)", () => {
    expect(stock.ownMethods).toEqual(["annotations", "pick", "omit"])
    expect(lean.ownMethods).toEqual([])
    expect(lean.chain).toEqual(["TypeLiteralClass", "TypeLiteralBase", "SchemaBase"])
    expect(stock.chain).toEqual(["TypeLiteralClass", "SchemaClass"])
  })

  it("gives every schema of core and of the API the same description, AST, JSON Schema and statics", () => {
    expect(lean.fingerprints.map((f) => f.name)).toEqual(stock.fingerprints.map((f) => f.name))
    expect(stock.fingerprints.length).toBeGreaterThan(5_000)
    const shapes = new Map(stock.fingerprints.map((f) => [f.name, f.shape]))
    expect(lean.fingerprints.filter((f) => f.shape !== shapes.get(f.name)).map((f) => f.name)).toEqual([])
  })

  it("decodes, validates, encodes and makes the same values with both, and refuses junk with the same messages", () => {
    const behaviours = new Map(stock.fingerprints.map((f) => [f.name, f.behaviour]))
    expect(lean.fingerprints.filter((f) => f.behaviour !== behaviours.get(f.name)).map((f) => f.name)).toEqual([])
    expect(stock.fingerprints.filter((f) => f.behaviour !== undefined).length).toBeGreaterThan(1_000)
    expect(lean.decoded).toBe(stock.decoded)
    expect(stock.decoded).toBeGreaterThan(1_000)
  })

  it("refuses an Effect whose Schema module is not the text it rewrites", () => {
    const source = readFileSync(join(process.cwd(), "node_modules/effect/dist/esm/Schema.js"), "utf8")
    expect(leanSchemaSource(source)).toContain("class TypeLiteralBase extends SchemaBase")
    expect(() => leanSchemaSource(source.replace("static members = [...members];", "static members = members;")))
      .toThrow(/not the text this plugin rewrites/)
    expect(() => leanSchemaSource(source.replace("out = transform(encodedSide, declaration, {", "out = x;")))
      .toThrow(/not the text this plugin rewrites/)
  })
})
