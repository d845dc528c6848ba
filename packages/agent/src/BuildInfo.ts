/**
 * What this agent runs with, for `workbay-agent --build-info` (one JSON line): its version, Node's,
 * the platform, whether it is the executable with no Node, and which optional native helpers
 * load: ws's frame masking and UTF-8 check (`bufferutil`, `utf-8-validate`; without them ws does
 * the same in JavaScript, slower). The executable carries them as assets where their packages
 * ship a prebuilt one for its platform (scripts/executables.mjs).
 */
import { createRequire } from "node:module"
import { AGENT_VERSION } from "./Agent.js"

/**
 * Whether the module `load` imports loads and is what `works` expects. (A bundled CommonJS module
 * whose first load threw answers an empty object the second time, not the error: hence the check.)
 */
const loads = (load: () => Promise<Record<string, any>>, works: (m: Record<string, any>) => boolean) =>
  load().then(works, () => false)

/** Whether this process is a single executable application (`node:sea`, Node 20's way to ask). */
const isExecutable = (): boolean => {
  try {
    const sea = createRequire(import.meta.url)("node:sea") as { isSea?: () => boolean }
    return sea.isSea?.() === true
  } catch {
    return false
  }
}

export const buildInfo = async () => ({
  version: AGENT_VERSION,
  node: process.version,
  platform: process.platform,
  arch: process.arch,
  executable: isExecutable(),
  native: {
    bufferutil: await loads(() => import("bufferutil"), (m) => typeof (m.mask ?? m.default?.mask) === "function"),
    "utf-8-validate": await loads(() => import("utf-8-validate"), (m) => typeof (m.default ?? m) === "function")
  }
})
