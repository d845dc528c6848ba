/**
 * The agent's executables for the tests that run them (a vitest globalSetup): built once per
 * change of the agent or Node by scripts/executables.mjs into
 * node_modules/.cache/workbay-agent-bin (this machine's linux-amd64 and, from the npm registry's
 * arm64 Node, linux-arm64), and provided as `inject("workbayAgentBinaries")`: that folder.
 * The one place the tests build them; packages/docker/test/globalSetup.ts, after it, finds them
 * current. A build that could not make linux-arm64 (offline) warns and provides the rest: the
 * arm64 test then says SKIPPED (and fails under CI).
 */
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { TestProject } from "vitest/node"
import { buildAgentBinaries } from "../../../scripts/executables.mjs"

declare module "vitest" {
  export interface ProvidedContext {
    /** The folder of the agent's executables and their manifest.json. */
    workbayAgentBinaries: string
  }
}

const root = fileURLToPath(new URL("../../..", import.meta.url))
export const AGENT_BIN_DIR = join(root, "node_modules/.cache/workbay-agent-bin")

export default async function setup(project: TestProject) {
  await buildAgentBinaries({ outDir: AGENT_BIN_DIR })
  project.provide("workbayAgentBinaries", AGENT_BIN_DIR)
}
