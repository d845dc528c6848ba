// @vitest-environment happy-dom
/**
 * The parameter form without a browser: the checks of parameters.ts (as the service makes them),
 * the presets, the service's validations mapped onto fields, the schedule's cron lines, and the
 * fields themselves (ParameterFields: names, notes, errors announced) with Testing Library.
 */
import { cleanup, fireEvent, render } from "@testing-library/react"
import { useState } from "react"
import { afterEach, describe, expect, it } from "vitest"
import type { Parameter, Preset } from "../../src/workspaces/api.ts"
import { ParameterFields } from "../../src/workspaces/ParameterFields.tsx"
import {
  applyPreset,
  type Errors,
  initialValues,
  serverErrors,
  toRequest,
  validateAll,
  validateName,
  validateValue,
  type Values
} from "../../src/workspaces/parameters.ts"
import { describe as describeSchedule, fromCron, toCron } from "../../src/workspaces/schedule.ts"
import { screen } from "./screen.ts"

afterEach(cleanup)

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

const cpus = param({
  name: "cpus",
  display_name: "CPUs",
  type: "number",
  default_value: "2",
  mutable: true,
  validation_min: 1,
  validation_max: 8,
  validation_monotonic: "increasing"
})
const repo = param({
  name: "repo",
  display_name: "Repository",
  default_value: "https://example.com/a.git",
  validation_regex: "^https://",
  validation_error: "Must be an https address."
})
const region = param({
  name: "region",
  default_value: "eu",
  options: [
    { name: "Europe", value: "eu", description: "", icon: "" },
    { name: "America", value: "us", description: "", icon: "" }
  ]
})
const debug = param({ name: "debug", type: "bool", default_value: "false" })
const tags = param({
  name: "tags",
  type: "list(string)",
  default_value: "[]",
  required: true,
  options: [
    { name: "Go", value: "go", description: "", icon: "" },
    { name: "Rust", value: "rust", description: "", icon: "" }
  ]
})
const project = param({ name: "project", required: true, ephemeral: true, mutable: true })

describe("validateValue", () => {
  it("checks numbers against min and max, and monotonic ones against the previous value", () => {
    expect(validateValue(cpus, "4")).toBeUndefined()
    expect(validateValue(cpus, "9")).toBe("CPUs must be at most 8.")
    expect(validateValue(cpus, "0")).toBe("CPUs must be at least 1.")
    expect(validateValue(cpus, "two")).toBe("CPUs must be a number.")
    expect(validateValue(cpus, "")).toBe("CPUs needs a value.")
    expect(validateValue(cpus, "3", "4")).toBe("CPUs must be equal or greater than the previous value, 4.")
    expect(validateValue(cpus, "5", "4")).toBeUndefined()
    expect(validateValue({ ...cpus, validation_monotonic: "decreasing" }, "5", "4")).toBe(
      "CPUs must be equal or lower than the previous value, 4."
    )
    expect(validateValue({ ...cpus, validation_error: "Between 1 and 8, please." }, "9")).toBe(
      "Between 1 and 8, please."
    )
  })

  it("checks strings against the regex (the template's message), options, bools, lists and required values", () => {
    expect(validateValue(repo, "https://example.com/b.git")).toBeUndefined()
    expect(validateValue(repo, "ftp://example.com")).toBe("Must be an https address.")
    expect(validateValue({ ...repo, validation_error: "" }, "ftp://x")).toBe("Repository must match ^https://.")
    expect(validateValue(region, "us")).toBeUndefined()
    expect(validateValue(region, "asia")).toBe("region: “asia” is not one of the options.")
    expect(validateValue(debug, "true")).toBeUndefined()
    expect(validateValue(debug, "yes")).toBe("debug must be true or false.")
    expect(validateValue(tags, `["go"]`)).toBeUndefined()
    expect(validateValue(tags, `["go","c"]`)).toBe("tags: “c” is not one of the options.")
    expect(validateValue(tags, "[]")).toBe("tags is required.")
    expect(validateValue(tags, "go")).toBe("tags must be a list of strings.")
    expect(validateValue(project, "")).toBe("project is required.")
    // An optional string may be empty; a bad regex in the template is left to the service.
    expect(validateValue(param({ name: "note" }), "")).toBeUndefined()
    expect(validateValue(param({ name: "odd", validation_regex: "(" }), "x")).toBeUndefined()
  })

  it("gathers every bad value by name, and starts from defaults or the previous build's values", () => {
    const all = [cpus, repo, region, project]
    const values = initialValues(all, [{ name: "cpus", value: "4" }, { name: "project", value: "was" }])
    // The previous value of an ephemeral parameter is not carried.
    expect(values).toEqual({ cpus: "4", repo: "https://example.com/a.git", region: "eu", project: "" })
    expect(validateAll(all, values)).toEqual({ project: "project is required." })
    expect(validateAll(all, { ...values, cpus: "3", project: "p" }, [{ name: "cpus", value: "4" }])).toEqual({
      cpus: "CPUs must be equal or greater than the previous value, 4."
    })
    expect(toRequest(all, { ...values, project: "p" })).toEqual([
      { name: "cpus", value: "4" },
      { name: "repo", value: "https://example.com/a.git" },
      { name: "region", value: "eu" },
      { name: "project", value: "p" }
    ])
  })

  it("fills a preset's values and says which it holds", () => {
    const preset: Preset = {
      ID: "p1",
      Name: "big",
      Default: false,
      Description: "",
      Icon: "",
      DesiredPrebuildInstances: null,
      Parameters: [{ Name: "cpus", Value: "4" }, { Name: "region", Value: "us" }]
    }
    const { values, fixed } = applyPreset({ cpus: "2", region: "eu", repo: "x" }, preset)
    expect(values).toEqual({ cpus: "4", region: "us", repo: "x" })
    expect([...fixed]).toEqual(["cpus", "region"])
    expect(applyPreset({ cpus: "2" }, undefined).fixed.size).toBe(0)
  })

  it("puts the service's validations on their fields", () => {
    const { errors, rest } = serverErrors([
      { field: "rich_parameter_values.cpus", detail: "Too many." },
      { field: "name", detail: "Taken." },
      { field: "template_id", detail: "Gone." }
    ], ["name", "cpus"])
    expect(errors).toEqual({ cpus: "Too many.", name: "Taken." })
    expect(rest).toEqual([{ field: "template_id", detail: "Gone." }])
  })

  it("checks workspace names as the service does", () => {
    expect(validateName("dev-one")).toBeUndefined()
    expect(validateName("")).toBe("Name is required.")
    expect(validateName("-dev")).toMatch(/single dashes/)
    expect(validateName("dev--one")).toMatch(/single dashes/)
    expect(validateName("a".repeat(33))).toBe("Name must be at most 32 characters.")
  })
})

describe("the autostart schedule", () => {
  it("writes and reads weekly cron lines", () => {
    expect(toCron({ days: [3, 1], time: "08:30", timezone: "UTC" })).toBe("CRON_TZ=UTC 30 8 * * 1,3")
    expect(toCron({ days: [0, 1, 2, 3, 4, 5, 6], time: "00:05", timezone: "Europe/Paris" })).toBe(
      "CRON_TZ=Europe/Paris 5 0 * * *"
    )
    expect(fromCron("CRON_TZ=Europe/Paris 30 9 * * 1-5")).toEqual({
      days: [1, 2, 3, 4, 5],
      time: "09:30",
      timezone: "Europe/Paris"
    })
    expect(fromCron("0 7 * * 0,6")).toEqual({ days: [0, 6], time: "07:00", timezone: "UTC" })
    expect(fromCron("")).toBeUndefined()
    expect(fromCron("*/5 * * * *")).toBeUndefined()
    expect(describeSchedule({ days: [1, 2, 3, 4, 5], time: "09:30", timezone: "UTC" })).toBe("Weekdays at 09:30 (UTC)")
    expect(describeSchedule({ days: [1, 3], time: "09:30", timezone: "UTC" })).toBe("Monday, Wednesday at 09:30 (UTC)")
  })
})

/** The fields as the creation form uses them: errors shown once a field is left. */
const Form = ({ parameters, fixed }: { parameters: ReadonlyArray<Parameter>; fixed?: ReadonlySet<string> }) => {
  const [values, setValues] = useState<Values>(() => initialValues(parameters))
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set())
  const all = validateAll(parameters, values)
  const errors: Errors = Object.fromEntries(Object.entries(all).filter(([k]) => touched.has(k)))
  return (
    <ParameterFields
      parameters={parameters}
      values={values}
      errors={errors}
      {...(fixed === undefined ? {} : { fixed })}
      onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))}
      onBlur={(name) => setTouched((t) => new Set(t).add(name))}
    />
  )
}

describe("ParameterFields", () => {
  it("names each control by its label, and announces a field's error once it is left, until it is fixed", () => {
    render(<Form parameters={[cpus, repo, region, debug, tags, project]} />)
    const cpusBox = screen.getByRole("spinbutton", { name: "CPUs" }) as HTMLInputElement
    expect(cpusBox.value).toBe("2")
    expect(screen.getByRole("radio", { name: "Europe" })).toHaveProperty("checked", true)
    expect(screen.getByRole("checkbox", { name: "debug" })).toHaveProperty("checked", false)
    expect(screen.getByRole("checkbox", { name: "Rust" })).toHaveProperty("checked", false)
    expect(screen.queryAllByRole("alert")).toEqual([])

    fireEvent.change(cpusBox, { target: { value: "9" } })
    // Not before the field is left.
    expect(screen.queryAllByRole("alert")).toEqual([])
    fireEvent.blur(cpusBox)
    const alert = screen.getByRole("alert")
    expect(alert.textContent).toBe("CPUs must be at most 8.")
    expect(cpusBox.getAttribute("aria-invalid")).toBe("true")
    expect(cpusBox.getAttribute("aria-describedby")).toContain(alert.id)

    fireEvent.change(cpusBox, { target: { value: "8" } })
    expect(screen.queryAllByRole("alert")).toEqual([])
    expect(cpusBox.getAttribute("aria-invalid")).toBeNull()

    const repoBox = screen.getByRole("textbox", { name: "Repository" })
    fireEvent.change(repoBox, { target: { value: "git@example.com:a.git" } })
    fireEvent.blur(repoBox)
    expect(screen.getByRole("alert").textContent).toBe("Must be an https address.")

    // A list with options: checkboxes writing a JSON array.
    const go = screen.getByRole("checkbox", { name: "Go" })
    fireEvent.blur(go)
    expect(screen.getAllByRole("alert").map((a) => a.textContent)).toContain("tags is required.")
    fireEvent.click(go)
    expect(screen.getAllByRole("alert").map((a) => a.textContent)).not.toContain("tags is required.")
  })

  it("says which parameters are required, immutable, ephemeral or held by the preset", () => {
    render(<Form parameters={[cpus, region, project]} fixed={new Set(["cpus"])} />)
    expect(screen.getByRole("spinbutton", { name: "CPUs" })).toHaveProperty("disabled", true)
    expect(screen.getByText(/Set by the preset\./)).toBeTruthy()
    expect(screen.getByText(/From 1 to 8, increasing only\./)).toBeTruthy()
    expect(screen.getByText("Cannot be changed once the workspace is created.")).toBeTruthy()
    const projectBox = screen.getByRole("textbox", { name: "project" })
    const notes = document.getElementById(projectBox.getAttribute("aria-describedby")!.split(" ")[0]!)
    expect(notes?.textContent).toBe("Required. Ephemeral: used for this build only.")
  })
})
