// @vitest-environment happy-dom
/**
 * The templates area's logic without a browser (happy-dom and Testing Library): the template
 * variables' form (which variables it asks for after a failed import, how it checks and reads
 * them, the secrets it keeps, whether values change the import, each failure's message on its
 * field), the settings form's body, the insights' range, the archive's content type, and the
 * README's Markdown with raw HTML in it.
 */
import { cleanup, fireEvent, render } from "@testing-library/react"
import { afterEach, describe, expect, it, vi } from "vitest"
import { ApiError } from "../../src/api/client.ts"
import { archiveType, type TemplateVariable } from "../../src/templates/api.ts"
import { insightsRange } from "../../src/templates/Insights.tsx"
import { settingsBody } from "../../src/templates/Settings.tsx"
import {
  changesValues,
  variableErrors,
  VariablesForm,
  variablesToAsk,
  variableValues,
  withKeptSecrets
} from "../../src/templates/VariablesForm.tsx"
import { Markdown, withoutFrontMatter } from "../../src/ui/Markdown.tsx"
import { screen } from "./screen.ts"

afterEach(cleanup)

const variable = (v: Partial<TemplateVariable> & { name: string }): TemplateVariable => ({
  description: "",
  type: "string",
  value: "",
  default_value: "",
  required: false,
  sensitive: false,
  ...v
})

const failed = (error: string) => ({ job: { error, error_code: "REQUIRED_TEMPLATE_VARIABLES" as const } }) as never

describe("variablesToAsk", () => {
  it("adds the required variables the import's message names and the service did not list", () => {
    const asked = variablesToAsk(failed("Required template variables need values: region, project."), [
      variable({ name: "region", description: "Where.", required: true })
    ])
    expect(asked.map((v) => [v.name, v.required, v.description])).toEqual([
      ["region", true, "Where."],
      ["project", true, ""]
    ])
  })

  it("asks for the listed variables alone when the message names none", () => {
    expect(variablesToAsk(failed("Something else."), [variable({ name: "a" })]).map((v) => v.name)).toEqual(["a"])
  })
})

describe("variableValues", () => {
  const vars = [
    variable({ name: "project", required: true }),
    variable({ name: "cpus", type: "number" }),
    variable({ name: "debug", type: "bool" }),
    variable({ name: "note" })
  ]
  const reader = (values: Record<string, string>) => (name: string) => values[name] ?? null

  it("reads every field, trimmed; a bool is its checkbox; an empty optional one is left to its default", () => {
    expect(variableValues(vars, reader({ project: " apollo ", cpus: "4", debug: "on", note: "" }))).toEqual({
      values: [
        { name: "project", value: "apollo" },
        { name: "cpus", value: "4" },
        { name: "debug", value: "true" }
      ],
      errors: {}
    })
    expect(variableValues(vars, reader({ project: "x" })).values).toContainEqual({ name: "debug", value: "false" })
  })

  it("names each bad field: a required one left empty, a number that is not one", () => {
    expect(variableValues(vars, reader({ project: "  ", cpus: "four" })).errors).toEqual({
      project: "A value is required.",
      cpus: "Must be a number."
    })
  })
})

describe("variableValues with keepSecrets", () => {
  it("lets a required sensitive field stay empty (the service keeps its value), and no other", () => {
    const vars = [variable({ name: "token", required: true, sensitive: true }), variable({ name: "a", required: true })]
    expect(variableValues(vars, () => "", true)).toEqual({ values: [], errors: { a: "A value is required." } })
    expect(variableValues(vars, () => "", false).errors).toEqual({
      token: "A value is required.",
      a: "A value is required."
    })
  })
})

describe("withKeptSecrets and changesValues", () => {
  const vars = [
    variable({ name: "image", default_value: "ubuntu:24.04" }),
    variable({ name: "token", sensitive: true }),
    variable({ name: "debug", type: "bool", default_value: "false" })
  ]

  it("keeps a secret given before when its field was left empty, never a field's own value", () => {
    const given = [{ name: "token", value: "s3cret" }, { name: "image", value: "debian" }]
    expect(withKeptSecrets(vars, [{ name: "image", value: "alpine" }], given)).toEqual([
      { name: "image", value: "alpine" },
      { name: "token", value: "s3cret" }
    ])
    expect(withKeptSecrets(vars, [{ name: "token", value: "new" }], given)).toEqual([{ name: "token", value: "new" }])
  })

  it("compares what each variable would be, an absent value being the default", () => {
    // The defaults typed back in (the form fills them) change nothing.
    expect(changesValues(vars, [], [{ name: "image", value: "ubuntu:24.04" }, { name: "debug", value: "false" }]))
      .toBe(false)
    expect(changesValues(vars, [], [{ name: "image", value: "local:1" }])).toBe(true)
    expect(changesValues(vars, [{ name: "token", value: "a" }], [{ name: "token", value: "a" }])).toBe(false)
    expect(changesValues(vars, [{ name: "image", value: "local:1" }], [])).toBe(true)
  })
})

describe("variableErrors", () => {
  const failedWith = (error: string, code?: "REQUIRED_TEMPLATE_VARIABLES") =>
    ({ job: { status: "failed", error, ...(code === undefined ? {} : { error_code: code }) } }) as never

  it("puts a failed import's words on the variables it names", () => {
    expect(
      variableErrors(
        failedWith("Required template variables need values: a, b.", "REQUIRED_TEMPLATE_VARIABLES"),
        null,
        []
      )
    )
      .toEqual({ a: "A value is required.", b: "A value is required." })
    expect(variableErrors(failedWith(`Parsing\nThe value of template variable "cpus" must be a number.`), null, []))
      .toEqual({ cpus: `The value of template variable "cpus" must be a number.` })
    expect(variableErrors(failedWith("The image is missing."), null, [])).toEqual({})
    expect(variableErrors({ job: { status: "succeeded" } } as never, null, [])).toEqual({})
  })

  it("puts the service's validation of user_variable_values.N on the variable sent Nth", () => {
    const refused = new ApiError(400, "Validation failed.", undefined, [
      { field: "user_variable_values.1.value", detail: "Must be at most 65536 characters." },
      { field: "name", detail: "Elsewhere." }
    ])
    expect(variableErrors(undefined, refused, [{ name: "a", value: "" }, { name: "b", value: "x" }])).toEqual({
      b: "Must be at most 65536 characters."
    })
  })
})

describe("VariablesForm", () => {
  const vars = [
    variable({ name: "project", required: true, description: "The project's name." }),
    variable({ name: "token", sensitive: true, value: "*redacted*" }),
    variable({ name: "region", default_value: "eu" })
  ]

  it("labels each field, describes it, and refuses an empty required one with an announced message", () => {
    const onSubmit = vi.fn()
    render(<VariablesForm variables={vars} onSubmit={onSubmit} />)
    const project = screen.getByRole("textbox", { name: "project (required)" })
    expect(project.getAttribute("aria-describedby")).toContain("-hint")
    // A sensitive variable is a password field, never filled with what the service redacted.
    expect((screen.getByLabelText("token") as HTMLInputElement).type).toBe("password")
    expect((screen.getByLabelText("token") as HTMLInputElement).value).toBe("")
    expect((screen.getByRole("textbox", { name: "region" }) as HTMLInputElement).value).toBe("eu")

    fireEvent.click(screen.getByRole("button", { name: "Import with these values" }))
    expect(onSubmit).not.toHaveBeenCalled()
    expect(screen.getByRole("alert").textContent).toContain("project: A value is required.")
    expect(project.getAttribute("aria-invalid")).toBe("true")
    expect(project.getAttribute("aria-describedby")).toContain("-error")
  })

  it("hands over the values once every field is good, keeping those given before", () => {
    const onSubmit = vi.fn()
    render(<VariablesForm variables={vars} given={[{ name: "project", value: "apollo" }]} onSubmit={onSubmit} />)
    expect((screen.getByRole("textbox", { name: "project (required)" }) as HTMLInputElement).value).toBe("apollo")
    fireEvent.change(screen.getByLabelText("token"), { target: { value: "s3cret" } })
    fireEvent.click(screen.getByRole("button", { name: "Import with these values" }))
    expect(onSubmit).toHaveBeenCalledWith([
      { name: "project", value: "apollo" },
      { name: "token", value: "s3cret" },
      { name: "region", value: "eu" }
    ])
    expect(screen.queryByRole("alert")).toBeNull()
  })
})

describe("VariablesForm for a template's values", () => {
  it("shows errors from elsewhere on their fields, notes what an empty secret does, and keeps it empty", () => {
    const onSubmit = vi.fn()
    render(
      <VariablesForm
        variables={[
          variable({ name: "image", value: "debian", default_value: "ubuntu" }),
          variable({ name: "token", sensitive: true, required: true, value: "*redacted*" })
        ]}
        action="Save variables"
        sensitiveNote="Left empty, it keeps its value."
        keepSecrets
        errors={{ image: "The image is not on the daemon." }}
        onSubmit={onSubmit}
      />
    )
    const image = screen.getByRole("textbox", { name: "image" }) as HTMLInputElement
    expect(image.value).toBe("debian")
    expect(image.getAttribute("aria-invalid")).toBe("true")
    expect(screen.getByRole("alert").textContent).toContain("image: The image is not on the daemon.")
    const token = screen.getByLabelText("token (required)") as HTMLInputElement
    expect([token.type, token.value, token.required]).toEqual(["password", "", false])
    expect(document.getElementById(token.getAttribute("aria-describedby")!)?.textContent).toBe(
      "Left empty, it keeps its value."
    )
    fireEvent.click(screen.getByRole("button", { name: "Save variables" }))
    expect(onSubmit).toHaveBeenCalledWith([{ name: "image", value: "debian" }])
  })
})

describe("settingsBody", () => {
  it("turns hours into milliseconds and checkboxes into booleans", () => {
    const form = new FormData()
    form.set("name", " tpl ")
    form.set("default_ttl_ms", "1.5")
    form.set("activity_bump_ms", "")
    form.set("allow_user_autostart", "on")
    form.set("max_port_share_level", "public")
    expect(settingsBody(form)).toMatchObject({
      name: "tpl",
      default_ttl_ms: 5_400_000,
      activity_bump_ms: 0,
      allow_user_autostart: true,
      allow_user_autostop: false,
      allow_user_cancel_workspace_jobs: false,
      max_port_share_level: "public"
    })
    form.set("default_ttl_ms", "-1")
    form.set("max_port_share_level", "everyone")
    const bad = settingsBody(form)
    // Sent as it is: the service names the field.
    expect(bad.default_ttl_ms).toBe(-3_600_000)
    expect(bad).not.toHaveProperty("max_port_share_level")
  })

  it("turns the day checkboxes, the required stop and the dormancy days into the service's fields", () => {
    const form = new FormData()
    form.set("autostart_monday", "on")
    form.set("autostart_friday", "on")
    form.set("autostop_days", "daily")
    form.set("autostop_weeks", "")
    form.set("time_til_dormant_ms", "1.5")
    form.set("failure_ttl_ms", "")
    expect(settingsBody(form)).toMatchObject({
      autostart_requirement: { days_of_week: ["monday", "friday"] },
      autostop_requirement: {
        days_of_week: ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"],
        weeks: 1
      },
      time_til_dormant_ms: 129_600_000,
      failure_ttl_ms: 0,
      time_til_dormant_autodelete_ms: 0
    })
    form.set("autostop_days", "nonsense")
    form.set("autostop_weeks", "two")
    const body = settingsBody(form)
    expect(body.autostop_requirement).toEqual({ days_of_week: [], weeks: Number.NaN })
  })
})

describe("insightsRange", () => {
  it("starts on a UTC midnight and ends at the next whole hour", () => {
    expect(insightsRange(7, Date.parse("2025-03-10T13:20:05.123Z"))).toEqual({
      start: "2025-03-03T00:00:00Z",
      end: "2025-03-10T14:00:00Z"
    })
    expect(insightsRange(7, Date.parse("2025-03-10T13:00:00Z")).end).toBe("2025-03-10T13:00:00Z")
  })
})

describe("archiveType", () => {
  it("is zip by the file's type or name, else tar", () => {
    expect(archiveType({ name: "t.zip", type: "" })).toBe("application/zip")
    expect(archiveType({ name: "t", type: "application/x-zip-compressed" })).toBe("application/zip")
    expect(archiveType({ name: "t.tar", type: "" })).toBe("application/x-tar")
  })
})

describe("Markdown (a document: a README)", () => {
  it("renders Markdown, drops raw HTML and removes javascript: links", () => {
    const { container } = render(
      <Markdown document>
        {`# Title\n\n**bold** <b>raw</b>\n\n<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n\n[x](javascript:alert(1))`}
      </Markdown>
    )
    expect(screen.getByRole("heading", { name: "Title", level: 3 })).toBeTruthy()
    expect(container.querySelector("strong")?.textContent).toBe("bold")
    expect(container.querySelector("script, img, b")).toBeNull()
    const link = container.querySelector("a")
    expect([link?.textContent, link?.getAttribute("href")]).toEqual(["x", ""])
  })
})

describe("withoutFrontMatter", () => {
  it("leaves out a leading YAML front matter, and nothing else", () => {
    expect(withoutFrontMatter("---\ndisplay_name: Basic\ntags: [a]\n---\n\n# Basic\n")).toBe("\n# Basic\n")
    expect(withoutFrontMatter("# Title\n\n---\n\ntext\n---\n")).toBe("# Title\n\n---\n\ntext\n---\n")
    expect(withoutFrontMatter("---\nunclosed\n")).toBe("---\nunclosed\n")
  })
})
