import type { RichParameter } from "@workbay/core"
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { resolveParameters } from "../../src/workspaces/Parameters.js"

const param = (p: Partial<RichParameter> & { name: string }): RichParameter => ({
  display_name: "",
  description: "",
  type: "string",
  mutable: true,
  ephemeral: false,
  default_value: "",
  icon: "",
  order: 0,
  options: [],
  validation_regex: "",
  validation_error: "",
  validation_min: undefined,
  validation_max: undefined,
  validation_monotonic: "",
  required: false,
  ...p
})

const fields = (r: ReturnType<typeof resolveParameters>) => Either.isLeft(r) ? r.left.map((v) => v.field) : []

describe("resolveParameters", () => {
  it("takes the preset, then the given value, then the previous one, then the default", () => {
    const ps = [
      param({ name: "a", default_value: "d" }),
      param({ name: "b", default_value: "d" }),
      param({ name: "c", default_value: "d" })
    ]
    const r = resolveParameters(ps, {
      given: [{ name: "a", value: "given" }, { name: "b", value: "given" }, { name: "zzz", value: "ignored" }],
      previous: [{ name: "c", value: "prev" }],
      preset: [{ name: "a", value: "preset" }]
    })
    expect(r).toEqual(
      Either.right([{ name: "a", value: "preset" }, { name: "b", value: "given" }, { name: "c", value: "prev" }])
    )
  })
  it("matches validation patterns in linear time, as Go's regexp does: a backtracking pattern cannot stall a build", () => {
    // JavaScript's RegExp takes longer than the test's timeout on this pair (exponential backtracking).
    const ps = [param({ name: "evil", validation_regex: "^(a+)+$", validation_error: "Only a's." })]
    const r = resolveParameters(ps, { given: [{ name: "evil", value: `${"a".repeat(40)}!` }], previous: undefined })
    expect(fields(r)).toEqual(["rich_parameter_values.evil"])
    expect(resolveParameters(ps, { given: [{ name: "evil", value: "aaaa" }], previous: undefined })).toEqual(
      Either.right([{ name: "evil", value: "aaaa" }])
    )
  })
  it("refuses missing required values, options, regex, numbers, bools and lists, one validation each", () => {
    const ps = [
      param({ name: "req", required: true }),
      param({ name: "opt", options: [{ name: "A", value: "a", description: "", icon: "" }] }),
      param({ name: "re", validation_regex: "^x", validation_error: "Starts with x." }),
      param({ name: "num", type: "number", validation_min: 1, validation_max: 3 }),
      param({ name: "flag", type: "bool" }),
      param({ name: "list", type: "list(string)" })
    ]
    const r = resolveParameters(ps, {
      given: [
        { name: "opt", value: "b" },
        { name: "re", value: "y" },
        { name: "num", value: "4" },
        { name: "flag", value: "yes" },
        { name: "list", value: "[1]" }
      ],
      previous: undefined
    })
    expect(fields(r).sort()).toEqual(
      ["flag", "list", "num", "opt", "re", "req"].map((n) => `rich_parameter_values.${n}`).sort()
    )
    if (Either.isLeft(r)) expect(r.left.find((v) => v.field.endsWith(".re"))!.detail).toBe("Starts with x.")
  })
  it("keeps immutable parameters after the first build and holds monotonic ones", () => {
    const ps = [
      param({ name: "fixed", mutable: false, default_value: "a" }),
      param({ name: "n", type: "number", validation_monotonic: "increasing", default_value: "1" })
    ]
    const previous = [{ name: "fixed", value: "a" }, { name: "n", value: "5" }]
    expect(fields(resolveParameters(ps, { given: [{ name: "fixed", value: "b" }], previous }))).toEqual([
      "rich_parameter_values.fixed"
    ])
    expect(fields(resolveParameters(ps, { given: [{ name: "n", value: "4" }], previous }))).toEqual([
      "rich_parameter_values.n"
    ])
    expect(Either.isRight(resolveParameters(ps, { given: [{ name: "fixed", value: "b" }], previous: undefined }))).toBe(
      true
    )
    expect(resolveParameters(ps, { given: [{ name: "n", value: "6" }], previous })).toEqual(
      Either.right([{ name: "fixed", value: "a" }, { name: "n", value: "6" }])
    )
  })
  it("does not carry ephemeral values to the next build", () => {
    const ps = [param({ name: "once", ephemeral: true, default_value: "" })]
    expect(resolveParameters(ps, { given: [], previous: [{ name: "once", value: "secret" }] })).toEqual(
      Either.right([{ name: "once", value: "" }])
    )
  })
})
