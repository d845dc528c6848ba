/** Reading template archives: tar and zip, normalized paths, bounds. */
import { describe, expect, it } from "@effect/vitest"
import { readArchive } from "@workbay/core"
import { Effect } from "effect"
import { bytes, paxBombTar, tarOf, zerosZip, zipOf } from "./archives.js"

const GiB = 1024 * 1024 * 1024

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

  it.effect("refuses a zip of one 1 GiB entry of zeros by its declared size, and the event loop turns meanwhile", () =>
    Effect.gen(function*() {
      const bomb = zerosZip("zeros.bin", GiB)
      expect(bomb.length).toBeLessThan(2 * 1024 * 1024)
      // An immediate set before the read runs before the refusal: the read does not hold the event loop.
      let ticked = false
      setImmediate(() => (ticked = true))
      const error = yield* Effect.flip(readArchive(bomb, "application/zip"))
      expect(error.message).toBe("The archive expands to more than 67108864 bytes.")
      expect(ticked).toBe(true)
    }))

  it.effect("stops inflating a zip whose headers understate its size", () =>
    Effect.gen(function*() {
      // Headers say 100 bytes; the entry inflates to 1 GiB.
      const liar = zerosZip("zeros.bin", GiB, 100)
      let ticked = false
      setImmediate(() => (ticked = true))
      const error = yield* Effect.flip(readArchive(liar, "application/zip"))
      expect(error.message).toMatch(/^The archive is not a readable zip file: too many bytes in the stream/)
      expect(ticked).toBe(true)
      // Stated within the bound but inflating past it: cut off at the stated size as well.
      const under = zerosZip("zeros.bin", 4 * 1024 * 1024, 1024 * 1024)
      const cut = yield* Effect.flip(readArchive(under, "application/zip"))
      expect(cut.message).toMatch(/^The archive is not a readable zip file: too many bytes in the stream/)
    }))

  it.effect("refuses a zip whose headers overstate its size", () =>
    Effect.gen(function*() {
      const liar = zerosZip("zeros.bin", 1024, 4096)
      const error = yield* Effect.flip(readArchive(liar, "application/zip"))
      expect(error.message).toMatch(/^The archive is not a readable zip file: not enough bytes in the stream/)
    }))

  it.effect("reads a zip of 1,024 zero bytes built like the bomb", () =>
    Effect.gen(function*() {
      const files = yield* readArchive(zerosZip("dir/zeros.bin", 1024), "application/zip")
      expect(files.get("dir/zeros.bin")).toEqual(new Uint8Array(1024))
    }))

  const manyFiles = (n: number) =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`dir${i % 7}/f${i}.txt`, `${i}`]))

  it.effect("reads zips of 3,500 and of 4,096 small files (with their directories), and refuses 4,097", () =>
    Effect.gen(function*() {
      for (const n of [3500, 4096]) {
        const dirs = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`dir${i}/`, new Uint8Array()]))
        const files = yield* readArchive(zipOf({ ...dirs, ...manyFiles(n) }), "application/zip")
        expect(files.size).toBe(n)
        expect(text(files.get(`dir${(n - 1) % 7}/f${n - 1}.txt`))).toBe(`${n - 1}`)
      }
      const error = yield* Effect.flip(readArchive(zipOf(manyFiles(4097)), "application/zip"))
      expect(error.message).toBe("The archive holds more than 4096 files.")
    }))

  it.effect("reads tars of 4,096 small files, and refuses 4,097", () =>
    Effect.gen(function*() {
      const data = yield* Effect.promise(() => tarOf(manyFiles(4096)))
      expect((yield* readArchive(data, "application/x-tar")).size).toBe(4096)
      const over = yield* Effect.promise(() => tarOf(manyFiles(4097)))
      const error = yield* Effect.flip(readArchive(over, "application/x-tar"))
      expect(error.message).toBe("The archive holds more than 4096 files.")
    }))

  it.effect("reads a tar whose global pax header has 80,000 keys before 300 pax-headed entries", () =>
    Effect.gen(function*() {
      // tar-stream copied the global keys into each entry's header: minutes of work for 1 MB.
      const files = yield* readArchive(paxBombTar(80_000, 300), "application/x-tar")
      expect([...files.keys()]).toEqual(["template.yaml"])
    }))

  it.effect("lets the event loop turn while reading a large tar", () =>
    Effect.gen(function*() {
      const data = yield* Effect.promise(() =>
        tarOf({ a: new Uint8Array(3 * 1024 * 1024), b: new Uint8Array(3 * 1024 * 1024) })
      )
      let ticked = false
      setImmediate(() => (ticked = true))
      const files = yield* readArchive(data, "application/x-tar")
      expect(files.get("b")?.length).toBe(3 * 1024 * 1024)
      expect(ticked).toBe(true)
    }))
})
