/**
 * The starter templates Workbay ships (examples/templates/<id>/, inside the library as
 * `EXAMPLE_FILES`): listed as the described system's TemplateExample, and turned into the tar
 * archive a template version is imported from (`example_id`). Each example's README.md carries
 * the listing's fields in a YAML front matter (`display_name`, `description`, `icon`, `tags`,
 * optionally `url`, and `provisioner`: the type it is written for, `workbay` when absent) above
 * its Markdown.
 */
import { Effect, Schema } from "effect"
import * as YAML from "yaml"
import { once } from "../Lazily.js"
import { writeTar } from "./Archive.js"
import { EXAMPLE_FILES } from "./ExampleFiles.js"
import { WORKBAY_PROVISIONER } from "./WorkbayProvisioner.js"

/** A starter template, as the described system lists its examples. */
export class TemplateExample extends Schema.Class<TemplateExample>("TemplateExample")({
  id: Schema.String,
  url: Schema.String,
  name: Schema.String,
  description: Schema.String,
  icon: Schema.String,
  tags: Schema.Array(Schema.String),
  markdown: Schema.String
}) {}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/

const frontMatter = (readme: string): Record<string, unknown> => {
  const match = FRONT_MATTER.exec(readme)
  return match === null ? {} : (YAML.parse(match[1]!) ?? {})
}

/** The provisioner type example `id` is written for (its front matter's `provisioner`, else `workbay`). */
export const exampleProvisioner = (id: string): string => {
  const provisioner = frontMatter(EXAMPLE_FILES[id]?.["README.md"] ?? "").provisioner
  return typeof provisioner === "string" && provisioner !== "" ? provisioner : WORKBAY_PROVISIONER
}

const text = (value: unknown) => (typeof value === "string" ? value : "")

/** The listing of one example from its README's front matter (the Markdown is what follows it). */
const toExample = (id: string, files: Readonly<Record<string, string>>): TemplateExample => {
  const readme = files["README.md"] ?? ""
  const match = FRONT_MATTER.exec(readme)
  const meta = frontMatter(readme)
  const tags = Array.isArray(meta.tags) ? meta.tags.filter((t): t is string => typeof t === "string") : []
  return new TemplateExample({
    id,
    url: text(meta.url),
    name: text(meta.display_name) || id,
    description: text(meta.description),
    icon: text(meta.icon),
    tags,
    markdown: (match === null ? readme : readme.slice(match[0].length)).trim()
  }, true)
}

/** Every shipped example, by id; computed on the first call (it parses YAML), then shared. */
export const templateExamples: () => ReadonlyArray<TemplateExample> = once(() =>
  Object.keys(EXAMPLE_FILES)
    .sort()
    .map((id) => toExample(id, EXAMPLE_FILES[id]!))
)

/** Whether `id` names a shipped example. */
export const isTemplateExample = (id: string): boolean => Object.prototype.hasOwnProperty.call(EXAMPLE_FILES, id)

const encoder = new TextEncoder()

/** The tar archive of example `id`'s files (the same bytes every time), or undefined for an unknown id. */
export const exampleArchive = (id: string) => {
  if (!isTemplateExample(id)) return Effect.succeed(undefined)
  const files = EXAMPLE_FILES[id]!
  return Effect.orDie(writeTar(new Map(Object.keys(files).map((path) => [path, encoder.encode(files[path]!)]))))
}
