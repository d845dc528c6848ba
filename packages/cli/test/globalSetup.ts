/**
 * The `workbay` command's executables with no Node (a vitest globalSetup), for the tests that run
 * them as people download them (Executable.test.ts): built by scripts/executables.mjs into
 * node_modules/.cache/workbay-cli-bin once per change of the command line or Node (this machine's
 * linux-amd64 and, from the npm registry's arm64 Node, linux-arm64), and provided as
 * `inject("workbayCliBinaries")`: that folder.
 */
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { TestProject } from "vitest/node"
import { buildCliBinaries } from "../../../scripts/executables.mjs"

declare module "vitest" {
  export interface ProvidedContext {
    /** The folder of the command line's executables and their manifest.json. */
    workbayCliBinaries: string
  }
}

const root = fileURLToPath(new URL("../../..", import.meta.url))
export const CLI_BIN_DIR = join(root, "node_modules/.cache/workbay-cli-bin")

export default async function setup(project: TestProject) {
  await buildCliBinaries({ outDir: CLI_BIN_DIR })
  project.provide("workbayCliBinaries", CLI_BIN_DIR)
}
