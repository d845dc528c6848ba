/**
 * One temporary folder for the whole run (a vitest globalSetup, the first): TMPDIR names it
 * before any worker process starts, so every `os.tmpdir()` of the tests, of the workers and of
 * the servers, agents and CLIs they start goes under it, and the run's end removes it with all
 * the tests made there (servers' data folders, CLI homes, binaries' copies), including those of
 * a test that failed before its own clean-up.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

export default function setup() {
  const previous = process.env.TMPDIR
  const dir = mkdtempSync(join(tmpdir(), "workbay-vitest-"))
  process.env.TMPDIR = dir
  return () => {
    if (previous === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = previous
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
  }
}
