/**
 * Writes packages/core/src/templates/ExampleFiles.ts from examples/templates/<id>/: the starter
 * templates Workbay ships, as text inside the library, so that they reach every install (npm
 * package, bundled server) and nothing is read from disk at run time. Run it after changing an
 * example: `node scripts/examples.mjs`. A test (packages/core/test/templates/Examples.test.ts)
 * fails while the module and the folder differ.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const examplesDir = join(root, "examples", "templates")
const target = join(root, "packages", "core", "src", "templates", "ExampleFiles.ts")

/** Every file under `dir`, as paths relative to it with `/` separators, sorted. */
const walk = (dir) =>
  readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })

/** The module's text for the examples found on disk. */
export const renderExampleFiles = () => {
  const ids = readdirSync(examplesDir).filter((id) => statSync(join(examplesDir, id)).isDirectory()).sort()
  const entries = ids.map((id) => {
    const dir = join(examplesDir, id)
    const files = walk(dir).map((path) => [relative(dir, path).split("\\").join("/"), readFileSync(path, "utf8")])
    return `  ${JSON.stringify(id)}: {\n${
      files.map(([p, text]) => `    ${JSON.stringify(p)}: ${JSON.stringify(text)}`).join(",\n")
    }\n  }`
  })
  return [
    "/**",
    " * The starter templates' files, by example id and path. Generated from examples/templates/ by",
    " * scripts/examples.mjs: do not edit; change the folder and run the script.",
    " */",
    "export const EXAMPLE_FILES: Readonly<Record<string, Readonly<Record<string, string>>>> = {",
    entries.join(",\n"),
    "}",
    ""
  ].join("\n")
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(target, renderExampleFiles())
  console.log(`wrote ${relative(root, target)}`)
}
