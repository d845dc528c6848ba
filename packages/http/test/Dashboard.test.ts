/** The dashboard's files (src/Dashboard.ts): listed when the handler is made, each read on its first request. */
import { describe, expect, it } from "@effect/vitest"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeDashboard } from "../src/Dashboard.js"

const build = () => {
  const dir = mkdtempSync(join(tmpdir(), "workbay-dashboard-"))
  mkdirSync(join(dir, "assets"))
  writeFileSync(join(dir, "index.html"), "<!doctype html><title>first</title>")
  writeFileSync(join(dir, "assets", "app-abc.js"), "console.log('first')")
  return dir
}
const noHeaders = () => undefined

describe("dashboard files", () => {
  it("are read on their first request, then kept", () => {
    const dir = build()
    try {
      const dashboard = makeDashboard({ dir })
      // Changed after the handler was made, before any request: the first request reads them.
      writeFileSync(join(dir, "index.html"), "<!doctype html><title>second</title>")
      writeFileSync(join(dir, "assets", "app-abc.js"), "console.log('second')")
      expect(dashboard.answer("GET", "/workspaces", noHeaders).body?.toString()).toContain("second")
      expect(dashboard.answer("GET", "/assets/app-abc.js", noHeaders).body?.toString()).toBe("console.log('second')")
      // Read once: later changes are not seen.
      writeFileSync(join(dir, "assets", "app-abc.js"), "console.log('third')")
      expect(dashboard.answer("GET", "/assets/app-abc.js", noHeaders).body?.toString()).toBe("console.log('second')")
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("answers 404 for a listed file that can no longer be read", () => {
    const dir = build()
    try {
      const dashboard = makeDashboard({ dir })
      rmSync(join(dir, "assets", "app-abc.js"))
      expect(dashboard.answer("GET", "/assets/app-abc.js", noHeaders).status).toBe(404)
      expect(dashboard.answer("GET", "/assets/unknown.js", noHeaders).status).toBe(404)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("is refused without an index.html", () => {
    const dir = mkdtempSync(join(tmpdir(), "workbay-dashboard-"))
    try {
      expect(() => makeDashboard({ dir })).toThrow(/not built/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
