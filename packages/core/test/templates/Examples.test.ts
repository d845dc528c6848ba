/** The shipped starter templates: the module inside the library is the examples folder, and each example imports. */
import { describe, expect, it } from "@effect/vitest"
import { makeTemplateProvisioner, readArchive, TAR_MIME_TYPE, workbayProvisioner } from "@workbay/core"
import { Effect } from "effect"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { EXAMPLE_FILES } from "../../src/templates/ExampleFiles.js"
import {
  exampleArchive,
  exampleProvisioner,
  isTemplateExample,
  templateExamples
} from "../../src/templates/Examples.js"

const examplesDir = fileURLToPath(new URL("../../../../examples/templates", import.meta.url))

const walk = (dir: string): Array<string> =>
  readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })

describe("starter templates", () => {
  it("are the files of examples/templates (run node scripts/examples.mjs after changing them)", () => {
    const onDisk: Record<string, Record<string, string>> = {}
    for (const id of readdirSync(examplesDir).filter((d) => statSync(join(examplesDir, d)).isDirectory())) {
      const dir = join(examplesDir, id)
      onDisk[id] = Object.fromEntries(
        walk(dir).map((p) => [relative(dir, p).split("\\").join("/"), readFileSync(p, "utf8")])
      )
    }
    expect(EXAMPLE_FILES).toEqual(onDisk)
    expect(templateExamples().map((e) => e.id)).toEqual(Object.keys(onDisk).sort())
  })

  it("list their README's front matter and Markdown", () => {
    for (const e of templateExamples()) {
      expect(e.name.length).toBeGreaterThan(0)
      expect(e.description.length).toBeGreaterThan(0)
      expect(e.markdown.startsWith("---")).toBe(false)
    }
    expect(isTemplateExample("basic")).toBe(true)
    expect(isTemplateExample("toString")).toBe(false)
    expect(isTemplateExample("nope")).toBe(false)
  })

  // Live clock: the imports honour the examples' `build.delay_ms` (docs/templates.md).
  it.live("each makes the same tar archive every time, which the template language of its provisioner reads", () =>
    Effect.gen(function*() {
      expect(yield* exampleArchive("nope")).toBeUndefined()
      for (const e of templateExamples()) {
        const archive = (yield* exampleArchive(e.id))!
        expect(yield* exampleArchive(e.id)).toEqual(archive)
        const files = yield* readArchive(archive, TAR_MIME_TYPE)
        expect([...files.keys()].sort()).toEqual(Object.keys(EXAMPLE_FILES[e.id]!).sort())
        // The `docker` starter's own provisioner (with the daemon) imports it in packages/docker's tests.
        const provisioner = exampleProvisioner(e.id) === "workbay"
          ? workbayProvisioner
          : makeTemplateProvisioner({ type: exampleProvisioner(e.id) })
        const result = yield* provisioner.import({ archive, content_type: TAR_MIME_TYPE, variable_values: [] })
        expect(result.resources.length).toBeGreaterThan(0)
      }
    }))

  it("docs/templates.md shows the docker starter's template.yaml in full, as shipped", () => {
    const page = readFileSync(new URL("../../../../docs/templates.md", import.meta.url), "utf8")
    const shipped = EXAMPLE_FILES["docker"]!["template.yaml"]!
    expect(page).toContain("```yaml\n" + shipped + "```")
  })
})
