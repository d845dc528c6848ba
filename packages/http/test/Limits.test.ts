import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { clip, defaultInputLimits, inspectInput, tooDeepJson } from "../src/Limits.js"

const limits = defaultInputLimits

/** `{"a":{"a":...1...}}`, `depth` objects deep, built without recursion. */
const deepObject = (depth: number) => {
  const root: Record<string, unknown> = {}
  let node = root
  for (let i = 1; i < depth; i++) node = (node.a = {}) as Record<string, unknown>
  return root
}

/** Text of the characters JSON and UTF-8 make longest: controls, quotes, lone and paired surrogates, multi-byte. */
const hardText = fc
  .array(
    fc.oneof(fc.constantFrom("\u0000", "\u001f", "\"", "\\", "\n", "\ud800", "\udc00", "é", "€", "😀"), fc.char()),
    { maxLength: 300 }
  )
  .map((chars) => chars.join(""))

const utf8JsonBytes = (s: string) => Buffer.byteLength(JSON.stringify(s)) - 2

describe("inspectInput", () => {
  it("walks 100,000 levels without recursion and names the first one too deep", () => {
    const found = inspectInput(deepObject(100_000), limits)
    expect(found).toEqual({
      violations: [
        { field: Array(32).fill("a").join("."), detail: "Must not nest objects and arrays deeper than 32 levels." }
      ],
      total: 1
    })
  })

  it("names an oversized array, string, object and key once each, without looking inside", () => {
    const body = {
      list: Array(100_000).fill({ nested: "\u0000" }),
      text: "x".repeat(limits.maxStringLength + 1),
      wide: Object.fromEntries(Array.from({ length: limits.maxKeys + 1 }, (_, i) => [`k${i}`, "\u0000"])),
      ["k".repeat(limits.maxStringLength + 1)]: 1,
      ok: ["fine", { deeper: "fine" }]
    }
    const found = inspectInput(body, limits)
    expect(found.violations.map((v) => v.field).sort()).toEqual([
      "k".repeat(limits.maxStringLength + 1),
      "list",
      "text",
      "wide"
    ])
    expect(found.total).toBe(4)
  })

  it("reports NUL in values at their path and in keys at the object holding them", () => {
    const found = inspectInput({ a: ["x", "y\u0000"], "b\u0000": { c: 1 }, d: { "e\u0000": 1, "f\u0000": 2 } }, limits)
    expect(found.violations).toEqual([
      { field: "a.1", detail: "Must not contain NUL characters." },
      { field: "", detail: "Must not contain NUL characters." },
      { field: "d", detail: "Must not contain NUL characters." }
    ])
  })

  it("lists 20 violations and counts the rest", () => {
    const found = inspectInput({ list: Array(1000).fill("\u0000") }, limits)
    expect(found.violations).toHaveLength(20)
    expect(found.total).toBe(1000)
  })

  it("stops on a cyclic value after a bounded number of values", () => {
    const cyclic: Record<string, unknown> = {}
    for (let i = 0; i < 1000; i++) cyclic[`k${i}`] = cyclic
    const found = inspectInput(cyclic, { ...limits, maxDepth: Number.MAX_SAFE_INTEGER }, 100_000)
    expect(found.violations).toEqual([{ field: "", detail: "Must hold at most 100000 values." }])
  })

  it("accepts __proto__ and constructor as plain field names", () => {
    const parsed = JSON.parse("{\"__proto__\":{\"polluted\":\"\\u0000\"},\"constructor\":{\"prototype\":1}}")
    expect(inspectInput(parsed, limits).violations).toEqual([
      { field: "__proto__.polluted", detail: "Must not contain NUL characters." }
    ])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe("tooDeepJson", () => {
  it("finds the path of the first container too deep, through keys with escapes and arrays", () => {
    const text = `{"x":[1,"]]]",{"y\\"z":[[[{"w":[]}]]]}],"q":2}`
    expect(tooDeepJson(text, 8)).toBeUndefined()
    expect(tooDeepJson(text, 7)).toBe("x.2.y\"z.0.0.0.w")
    expect(tooDeepJson(text, 3)).toBe("x.2.y\"z")
    expect(tooDeepJson("[".repeat(2_000_000) + "]".repeat(2_000_000), 32)).toBe(Array(32).fill("0").join("."))
  })

  it("leaves text that is not JSON to JSON.parse", () => {
    for (const text of ["{\"a\":\"unterminated", "]]]}}}", "{[[[[", "\"\\\\\\\"", ""]) {
      expect(() => tooDeepJson(text, 2)).not.toThrow()
    }
  })

  it("agrees with the walk of the parsed value", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 1, max: 6 }), (value, maxDepth) => {
        const text = JSON.stringify(value)
        const scanned = tooDeepJson(text, maxDepth)
        const walked = inspectInput(JSON.parse(text), { ...limits, maxDepth })
          .violations.filter((v) => v.detail.startsWith("Must not nest"))
          .map((v) => v.field)
        if (scanned === undefined) expect(walked).toEqual([])
        else expect(walked).toContain(scanned)
      }),
      { numRuns: 300 }
    )
  })
})

describe("clip", () => {
  it("bounds the JSON-encoded size whatever the characters", () => {
    fc.assert(
      fc.property(hardText, fc.integer({ min: 8, max: 300 }), (text, max) => {
        const clipped = clip(text, max)
        expect(utf8JsonBytes(clipped)).toBeLessThanOrEqual(max)
        if (clipped !== text) expect(text.startsWith(clipped.slice(0, -1))).toBe(true)
      }),
      { numRuns: 300 }
    )
    expect(clip("short", 100)).toBe("short")
    // 57 bytes for 9 escaped NULs, 3 for the ellipsis.
    expect(clip("\u0000".repeat(1_000_000), 60)).toBe(`${"\u0000".repeat(9)}…`)
  })
})
