/**
 * What an update asks before it builds (parameters.ts `unanswered`): a required parameter the
 * workspace has no value for, and a value the new version's rules refuse; never an ephemeral one,
 * nor one with a default or a value that still fits.
 */
import { describe, expect, it } from "vitest"
import type { Parameter } from "../../src/workspaces/api.ts"
import { unanswered } from "../../src/workspaces/parameters.ts"

const param = (p: Partial<Parameter> & { name: string }): Parameter => ({
  default_value: "",
  description: "",
  description_plaintext: "",
  ephemeral: false,
  form_type: "",
  icon: "",
  mutable: false,
  options: [],
  required: false,
  type: "string",
  ...p
})

describe("the parameters an update asks for", () => {
  it("asks for a new required one and a value the new rules refuse, nothing else", () => {
    const parameters = [
      param({ name: "region", options: [{ name: "EU", value: "eu", description: "", icon: "" }] }),
      param({ name: "project", required: true }),
      param({ name: "size", type: "number", default_value: "2", validation_max: 4 }),
      param({ name: "cpus", type: "number", default_value: "2", validation_max: 8 }),
      param({ name: "token", required: true, ephemeral: true }),
      param({ name: "note", default_value: "hi" })
    ]
    const previous = [
      { name: "region", value: "us" },
      { name: "size", value: "6" },
      { name: "cpus", value: "6" }
    ]
    expect(unanswered(parameters, previous).map((p) => p.name)).toEqual(["region", "project", "size"])
    expect(unanswered(parameters, [...previous, { name: "project", value: "x" }]).map((p) => p.name)).toEqual([
      "region",
      "size"
    ])
    expect(unanswered([], previous)).toEqual([])
  })
})
