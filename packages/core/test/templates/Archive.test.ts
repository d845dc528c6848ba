/** Reading template archives: tar and zip, normalized paths, bounds. */
import { describe, expect, it } from "@effect/vitest"
import { readArchive } from "@workbay/core"
import { Effect } from "effect"
import { bytes, tarOf, zipOf } from "./archives.js"

const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b))

describe("readArchive", () => {
  it.effect("reads a tar archive's files by normalized path", () =>
    Effect.gen(function*() {
      const data = yield* Effect.promise(() => tarOf({ "./template.yaml": "a: 1", "dir//b.txt": "b" }))
      const files = yield* readArchive(data, "application/x-tar")
      expect([...files.keys()].sort()).toEqual(["dir/b.txt", "template.yaml"])
      expect(text(files.get("template.yaml"))).toBe("a: 1")
    }))

  it.effect("reads a zip archive, by content type or by its first bytes", () =>
    Effect.gen(function*() {
      const data = zipOf({ "template.yaml": "a: 1", "dir/": new Uint8Array(), "dir/c.txt": "c" })
      const files = yield* readArchive(data, "application/zip")
      expect([...files.keys()].sort()).toEqual(["dir/c.txt", "template.yaml"])
      const sniffed = yield* readArchive(data, "application/x-tar")
      expect(text(sniffed.get("dir/c.txt"))).toBe("c")
    }))

  it.effect("refuses an entry that leaves the archive", () =>
    Effect.gen(function*() {
      const data = yield* Effect.promise(() => tarOf({ "a/../../etc/passwd": "x" }))
      const error = yield* Effect.flip(readArchive(data, "application/x-tar"))
      expect(error.message).toBe(`The archive entry "a/../../etc/passwd" points outside the archive.`)
      const zipped = yield* Effect.flip(readArchive(zipOf({ "../x": "x" }), "application/zip"))
      expect(zipped.message).toContain("points outside the archive")
    }))

  it.effect("refuses a zip that expands past the bound, while expanding", () =>
    Effect.gen(function*() {
      const bomb = zipOf({ "zeros.bin": new Uint8Array(8 * 1024 * 1024) })
      expect(bomb.length).toBeLessThan(64 * 1024)
      const error = yield* Effect.flip(
        readArchive(bomb, "application/zip", { maxFiles: 10, maxExpandedBytes: 1024 * 1024 })
      )
      expect(error.message).toBe("The archive expands to more than 1048576 bytes.")
    }))

  it.effect("refuses too many files", () =>
    Effect.gen(function*() {
      const data = yield* Effect.promise(() => tarOf({ a: "1", b: "2", c: "3" }))
      const error = yield* Effect.flip(readArchive(data, "application/x-tar", { maxFiles: 2, maxExpandedBytes: 100 }))
      expect(error.message).toBe("The archive holds more than 2 files.")
    }))

  it.effect("answers a clear error for bytes that are no archive", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(readArchive(bytes("x".repeat(1024)), "application/x-tar"))
      expect(error.message).toMatch(/^The archive is not a readable tar file/)
      const zipError = yield* Effect.flip(readArchive(bytes("PK\u0003\u0004garbage"), "application/zip"))
      expect(zipError.message).toMatch(/^The archive is not a readable zip file|truncated/)
    }))
})
