/** Dynamic parameters: the template language's expressions, their bounds, and the evaluation of a form. */
import type { RichParameter, WorkspaceOwnerData } from "@workbay/core"
import { Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  dynamicParametersResponse,
  evaluateParameters,
  parametersForBuild
} from "../../src/templates/DynamicParameters.js"
import {
  compileExpression,
  evaluateExpression,
  MAX_EXPRESSION_LENGTH,
  MAX_LIST_VALUES
} from "../../src/templates/Expressions.js"
import { parseTemplate } from "../../src/templates/TemplateFile.js"
import { resolveParameters } from "../../src/workspaces/Parameters.js"

const param = (p: Partial<RichParameter> & { name: string }): RichParameter => ({
  display_name: "",
  description: "",
  type: "string",
  mutable: false,
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

const owner: WorkspaceOwnerData = {
  id: "00000000-0000-4000-8000-000000000001",
  name: "alice",
  full_name: "Alice",
  email: "alice@example.com",
  groups: ["Everyone", "gpu-users"]
}

const region = param({
  name: "region",
  default_value: "eu",
  options: [{ name: "EU", value: "eu", description: "", icon: "" }, {
    name: "US",
    value: "us",
    description: "",
    icon: ""
  }]
})
const size = param({
  name: "size",
  dynamic: {
    options: `param.region == "eu" ? ["small", "medium"] : ["large"]`,
    default: `param.region == "eu" ? "small" : "large"`
  }
})
const gpu = param({
  name: "gpu",
  type: "bool",
  default_value: "false",
  dynamic: { visible: `"gpu-users" in owner.groups` }
})
const disk = param({
  name: "disk",
  type: "number",
  default_value: "10",
  dynamic: {
    max: `param.size == "small" ? 20 : 200`,
    error: `"At most " + (param.size == "small" ? "20" : "200") + " GB."`
  }
})
const version = [region, size, gpu, disk]

const run = (text: string, context = { param: {}, owner: {} }) =>
  Either.flatMap(compileExpression(text), (e) => evaluateExpression(e, context))

describe("expressions", () => {
  it("evaluates CEL over parameters and the owner", () => {
    expect(run(`param.n > 2 ? "big" : "small"`, { param: { n: 2.5 }, owner: {} })).toEqual(Either.right("big"))
    expect(run(`"admins" in owner.groups`, { param: {}, owner: { groups: ["admins"] } })).toEqual(Either.right(true))
    expect(run(`[1, 2].map(x, x * 2)`)).toEqual(Either.right([2, 4]))
  })

  it("refuses what could hold the server", () => {
    expect(Either.getLeft(compileExpression("x".repeat(MAX_EXPRESSION_LENGTH + 1)))._tag).toBe("Some")
    expect(Either.getLeft(compileExpression(`cel.bind(a, "x" + "x", a + a)`))).toEqual(
      expect.objectContaining({ value: expect.stringContaining("cel.bind") })
    )
    expect(Either.isLeft(compileExpression(`"aaaa".matches("(a+)+$")`))).toBe(true)
    expect(Either.isLeft(compileExpression(`[1].all(a, [1].all(b, [1].all(c, true)))`))).toBe(true)
    expect(Either.isRight(compileExpression(`[1].all(a, [1].all(b, true))`))).toBe(true)
    expect(Either.isLeft(compileExpression("(".repeat(100) + "1" + ")".repeat(100)))).toBe(true)
    expect(Either.isLeft(compileExpression(`[${Array.from({ length: MAX_LIST_VALUES + 1 }, () => 1).join(",")}]`)))
      .toBe(true)
  })

  it("answers errors, never throws, for missing keys and type mismatches", () => {
    expect(Either.isLeft(run(`param.missing`))).toBe(true)
    expect(Either.isLeft(run(`1 + "a"`))).toBe(true)
    expect(Either.isLeft(run(`1 / 0`))).toBe(true)
  })
})

describe("evaluateParameters", () => {
  it("computes options and defaults from parameters above", () => {
    const eu = dynamicParametersResponse(7, version, {}, owner)
    expect(eu.id).toBe(7)
    const sizeEu = eu.parameters.find((p) => p.name === "size")!
    expect(sizeEu.options.map((o) => o.value.value)).toEqual(["small", "medium"])
    expect(sizeEu.value).toEqual(expect.objectContaining({ value: "small", valid: true }))
    const us = dynamicParametersResponse(8, version, { region: "us" }, owner)
    const sizeUs = us.parameters.find((p) => p.name === "size")!
    expect(sizeUs.options.map((o) => [o.name, o.value.value])).toEqual([["large", "large"]])
    expect(sizeUs.value.value).toBe("large")
    expect(us.parameters.find((p) => p.name === "disk")!.validations[0]!.validation_max).toBe(200)
  })

  it("hides a parameter the owner may not see", () => {
    const names = (o: WorkspaceOwnerData) => dynamicParametersResponse(1, version, {}, o).parameters.map((p) => p.name)
    expect(names(owner)).toContain("gpu")
    expect(names({ ...owner, groups: ["Everyone"] })).not.toContain("gpu")
  })

  it("says what is wrong with a value in the parameter's diagnostics", () => {
    const r = dynamicParametersResponse(2, version, { size: "large" }, owner)
    const sizeDiag = r.parameters.find((p) => p.name === "size")!.diagnostics
    expect(sizeDiag[0]!.severity).toBe("error")
    expect(sizeDiag[0]!.detail).toContain("not one of the options")
    const d = dynamicParametersResponse(3, version, { disk: "50" }, owner).parameters.find((p) => p.name === "disk")!
    expect(d.diagnostics.map((x) => x.detail)).toEqual(["At most 20 GB."])
  })

  it("takes options as maps with names and descriptions", () => {
    const p = param({ name: "o", dynamic: { options: `[{"name": "Large", "value": "l", "description": "Big"}]` } })
    const [e] = evaluateParameters([p], {}, owner)
    expect(e!.parameter.options).toEqual([{ name: "Large", value: "l", description: "Big", icon: "" }])
  })

  it("keeps a failing expression's property as written and reports it", () => {
    const broken = param({ name: "b", default_value: "x", dynamic: { default: `param.nothing` } })
    const [e] = evaluateParameters([broken], {}, owner)
    expect(e!.value).toBe("x")
    expect(e!.diagnostics[0]!.extra.code).toBe("expression")
  })

  it("gives builds the parameters as evaluated: hidden ones ignored, options as computed", () => {
    const hidden = parametersForBuild(version, { region: "us" }, { ...owner, groups: [] })
    expect(hidden.map((p) => p.name)).toEqual(["region", "size", "disk"])
    const refused = resolveParameters(hidden, {
      given: [{ name: "size", value: "small" }, { name: "region", value: "us" }],
      previous: undefined
    })
    expect(Either.isLeft(refused)).toBe(true)
    const accepted = resolveParameters(hidden, { given: [{ name: "region", value: "us" }], previous: undefined })
    expect(Either.getOrThrow(accepted)).toEqual([
      { name: "region", value: "us" },
      { name: "size", value: "large" },
      { name: "disk", value: "10" }
    ])
  })
})

describe("template.yaml", () => {
  const template = (parameters: string) => parseTemplate("template.yaml", `parameters:\n${parameters}`)
  it("accepts expressions naming parameters above", () => {
    const t = template(
      `  - name: region\n    default: eu\n  - name: size\n    form_type: dropdown\n    dynamic:\n      options: 'param.region == "eu" ? ["s"] : ["l"]'\n      default: '"s"'\n`
    )
    expect(Either.isRight(t)).toBe(true)
  })
  it("refuses invalid expressions and names of parameters below, at their key", () => {
    const t = template(
      `  - name: a\n    dynamic:\n      default: 'param.b'\n      visible: '1 +'\n  - name: b\n    default: x\n`
    )
    expect(Either.getLeft(t).pipe((o) => o._tag === "Some" ? o.value : [])).toEqual([
      expect.stringContaining("key parameters[0].dynamic.default: refers to param.b"),
      expect.stringContaining("key parameters[0].dynamic.visible: is not a valid expression")
    ])
  })
})

describe("bounds, property-tested", () => {
  const inputValue = fc.oneof(
    fc.string({ maxLength: 64 }),
    fc.double().map(String),
    fc.constantFrom("true", "false", "[]", "[\"a\"]", "", "{", "null"),
    fc.string({ maxLength: 5_000 })
  )
  const inputs = fc.dictionary(fc.constantFrom("region", "size", "gpu", "disk", "other", "__proto__"), inputValue)
  const anyOwner = fc.record({
    id: fc.uuid(),
    name: fc.string({ maxLength: 32 }),
    full_name: fc.string({ maxLength: 32 }),
    email: fc.string({ maxLength: 64 }),
    groups: fc.array(fc.string({ maxLength: 16 }), { maxLength: 8 })
  })

  it("random inputs and owners never crash the evaluation", () => {
    fc.assert(
      fc.property(inputs, anyOwner, fc.integer(), (i, o, id) => {
        const r = dynamicParametersResponse(id, version, i, o)
        expect(r.id).toBe(id)
        for (const p of r.parameters) expect(Array.isArray(p.diagnostics)).toBe(true)
      }),
      { seed: 20_240_601, numRuns: 500 }
    )
  })

  // Expressions built from the language's pieces: each compiles within bounds or is refused,
  // and evaluates to a value or an error without throwing, quickly.
  const atom = fc.constantFrom(
    "param.a",
    "param.n",
    "param.l",
    "owner.name",
    "owner.groups",
    "1",
    "2.5",
    "\"x\"",
    "true",
    "[1, 2, 3]",
    "{\"k\": 1}",
    "null"
  )
  const expression: fc.Arbitrary<string> = fc.letrec((tie) => ({
    e: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      atom,
      fc.tuple(tie("e"), fc.constantFrom("+", "-", "*", "/", "%", "==", "<", "&&", "||", "in"), tie("e"))
        .map(([a, op, b]) => `(${a} ${op} ${b})`),
      fc.tuple(tie("e"), tie("e"), tie("e")).map(([a, b, c]) => `(${a} ? ${b} : ${c})`),
      fc.tuple(tie("e"), fc.constantFrom("map", "filter", "all", "exists"), tie("e"))
        .map(([a, m, b]) => `${a}.${m}(x, ${b})`),
      fc.tuple(fc.constantFrom("size", "string", "int", "double"), tie("e")).map(([f, a]) => `${f}(${a})`),
      fc.string({ maxLength: 40 })
    )
  })).e

  it("random expressions are refused or evaluate within bounds, never throwing", () => {
    const context = {
      param: { a: "text", n: 3, l: Array.from({ length: MAX_LIST_VALUES }, (_, i) => String(i)) },
      owner: { name: "alice", groups: ["g"] }
    }
    fc.assert(
      fc.property(expression, (text) => {
        const compiled = compileExpression(text)
        if (Either.isLeft(compiled)) return
        const started = performance.now()
        evaluateExpression(compiled.right, context)
        // A bound, not a timing assertion of a feature: two nested comprehensions over 256 values.
        expect(performance.now() - started).toBeLessThan(1_000)
      }),
      { seed: 4_242, numRuns: 1_000 }
    )
  })
})
