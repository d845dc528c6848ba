/**
 * Template archives: a tar or zip file read into memory as files by path, within bounds (file
 * count, expanded size), so a hostile upload cannot exhaust memory. Nothing touches the disk.
 * Both are read as streams with the bounds applied as bytes arrive: a zip's entries inflate
 * through Node's zlib off the event loop in small chunks, so refusing a bomb costs at most the
 * bound's worth of work and other requests go on meanwhile.
 */
import { Data, Effect } from "effect"
import { Buffer } from "node:buffer"
import type { ReadEntry } from "tar"
import * as tar from "tar-stream"
import * as yauzl from "yauzl"
import { loadTar } from "../OnDemand.js"
import { WINDOWS_ZIP_MIME_TYPE, ZIP_MIME_TYPE } from "./File.js"

/** The archive could not be read; `message` says why in a full sentence. */
export class ArchiveError extends Data.TaggedError("ArchiveError")<{ readonly message: string }> {}

export interface ArchiveLimits {
  /** The most regular files an archive may hold. */
  readonly maxFiles: number
  /** The most bytes its files may hold once expanded. */
  readonly maxExpandedBytes: number
}

/** 4,096 files, 64 MiB expanded. */
export const defaultArchiveLimits: ArchiveLimits = { maxFiles: 4096, maxExpandedBytes: 64 * 1024 * 1024 }

/** An archive's regular files by normalized path (`dir/file.txt`, no leading `./`). */
export type ArchiveFiles = ReadonlyMap<string, Uint8Array>

class Refused extends Error {}

/**
 * The normalized path of an entry (`./a//b` -> `a/b`), `""` for the root, or a refusal for
 * absolute paths and `..` segments.
 */
export const normalizeArchivePath = (raw: string): string => {
  const path = raw.replace(/\\/g, "/")
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) {
    throw new Refused(`The archive entry "${raw}" has an absolute path.`)
  }
  const parts = path.split("/").filter((p) => p !== "" && p !== ".")
  if (parts.includes("..")) throw new Refused(`The archive entry "${raw}" points outside the archive.`)
  return parts.join("/")
}

const isZip = (contentType: string, data: Uint8Array) =>
  contentType === ZIP_MIME_TYPE || contentType === WINDOWS_ZIP_MIME_TYPE ||
  (data[0] === 0x50 && data[1] === 0x4b && data[2] === 0x03 && data[3] === 0x04)

class Collector {
  readonly files = new Map<string, Uint8Array>()
  admitted = 0
  expanded = 0
  constructor(readonly limits: ArchiveLimits) {}
  /** The entry's normalized path, counted against the file bound. */
  admit(name: string): string {
    const path = normalizeArchivePath(name)
    this.admitted += 1
    if (this.admitted > this.limits.maxFiles) {
      throw new Refused(`The archive holds more than ${this.limits.maxFiles} files.`)
    }
    return path
  }
  grow(bytes: number) {
    this.expanded += bytes
    this.check(this.expanded)
  }
  check(expanded: number) {
    if (expanded > this.limits.maxExpandedBytes) {
      throw new Refused(`The archive expands to more than ${this.limits.maxExpandedBytes} bytes.`)
    }
  }
}

const concat = (chunks: ReadonlyArray<Uint8Array>, size: number) => {
  const out = new Uint8Array(size)
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.length
  }
  return out
}

/** The zip end-of-central-directory record ends every zip, within its last 65,557 bytes. */
const endsLikeZip = (data: Uint8Array): boolean => {
  const from = Math.max(0, data.length - 65_557)
  for (let i = data.length - 22; i >= from; i--) {
    if (data[i] === 0x50 && data[i + 1] === 0x4b && data[i + 2] === 0x05 && data[i + 3] === 0x06) return true
  }
  return false
}

const readZip = async (data: Uint8Array, collector: Collector) => {
  if (!endsLikeZip(data)) throw new Error("it has no end of central directory record")
  // Names are decoded here rather than by yauzl, so a bad path gets this module's own message.
  const zip = await yauzl.fromBufferPromise(Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
    lazyEntries: true,
    decodeStrings: false,
    validateEntrySizes: true
  })
  // The central directory first: its file count and declared sizes are checked before a byte is
  // inflated, so an honest bomb is refused at once.
  const entries: Array<{ readonly path: string; readonly entry: yauzl.Entry }> = []
  let declared = 0
  for await (const entry of zip.eachEntry()) {
    const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, false)
    if (name.endsWith("/")) continue
    const path = collector.admit(name)
    declared += entry.uncompressedSize
    collector.check(declared)
    if (path !== "") entries.push({ path, entry })
  }
  // Then the data. A header that understates its size is cut off by yauzl's size check at the
  // declared size; the running count is kept too, so nothing reads past the bound either way.
  for (const { path, entry } of entries) {
    const stream = await zip.openReadStreamPromise(entry)
    const chunks: Array<Uint8Array> = []
    let size = 0
    try {
      for await (const chunk of stream) {
        const bytes = chunk as Uint8Array
        collector.grow(bytes.length)
        chunks.push(bytes)
        size += bytes.length
      }
    } finally {
      stream.destroy()
    }
    collector.files.set(path, concat(chunks, size))
  }
}

/** Whether the first 512-byte block is a tar header (its checksum holds) or the end marker. */
const startsLikeTar = (data: Uint8Array) => {
  if (data.length < 512) return false
  let sum = 0
  let zeros = true
  for (let i = 0; i < 512; i++) {
    const b = data[i]!
    if (b !== 0) zeros = false
    sum += i >= 148 && i < 156 ? 32 : b
  }
  if (zeros) return true
  const field = new TextDecoder().decode(data.subarray(148, 156)).replace(/[\0 ]+$/g, "").trim()
  return /^[0-7]+$/.test(field) && parseInt(field, 8) === sum
}

/** Extended (pax) and long-name headers are a few hundred bytes in real archives. */
const MAX_TAR_META_BYTES = 64 * 1024
const TAR_PIECE_BYTES = 256 * 1024

// Read with node-tar's parser, which keeps only the pax keys it knows (tar-stream copies every
// key of a global pax header into each entry's, which a crafted 2 MB tar turns into minutes of
// work), ignores meta entries over `maxMetaEntrySize`, and in strict mode fails on damage.
const readTar = async (data: Uint8Array, collector: Collector) => {
  let failed = false
  const { Parser: TarParser } = await loadTar()
  const parser = new TarParser({ strict: true, maxMetaEntrySize: MAX_TAR_META_BYTES })
  const done = new Promise<void>((resolve, reject) => {
    const fail = (e: unknown) => {
      if (failed) return
      failed = true
      reject(e)
      parser.abort(e instanceof Error ? e : new Error(String(e)))
    }
    parser.on("entry", (entry: ReadEntry) => {
      if (failed || (entry.type !== "File" && entry.type !== "OldFile" && entry.type !== "ContiguousFile")) {
        entry.resume()
        return
      }
      try {
        const path = collector.admit(entry.path)
        collector.grow(entry.size ?? 0)
        const chunks: Array<Uint8Array> = []
        let size = 0
        entry.on("data", (chunk: Buffer) => {
          chunks.push(chunk)
          size += chunk.length
        })
        entry.on("end", () => {
          if (path !== "" && !failed) collector.files.set(path, concat(chunks, size))
        })
      } catch (e) {
        entry.resume()
        fail(e)
      }
    })
    parser.on("error", fail)
    parser.on("end", () => failed || resolve())
  })
  // Refused while pieces are still being fed; awaited below.
  done.catch(() => undefined)
  // Fed a piece at a time, letting the event loop turn between pieces: parsing is synchronous.
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  for (let at = 0; at < bytes.length && !failed; at += TAR_PIECE_BYTES) {
    parser.write(bytes.subarray(at, at + TAR_PIECE_BYTES))
    await new Promise((resolve) => setImmediate(resolve))
  }
  if (!failed) parser.end()
  return done
}

/**
 * Reads a tar or zip archive (zip when the content type says so or the bytes start like one)
 * into its regular files. Directories and links are skipped; a path that leaves the archive,
 * too many files, too many expanded bytes or a damaged archive fail with `ArchiveError`.
 */
export const readArchive = (
  data: Uint8Array,
  contentType: string,
  limits: ArchiveLimits = defaultArchiveLimits
): Effect.Effect<ArchiveFiles, ArchiveError> =>
  Effect.tryPromise({
    try: async () => {
      const collector = new Collector(limits)
      if (isZip(contentType, data)) await readZip(data, collector)
      else if (!startsLikeTar(data)) throw new Error("its first block is not a tar header")
      else await readTar(data, collector)
      return collector.files as ArchiveFiles
    },
    catch: (e) =>
      new ArchiveError({
        message: e instanceof Refused
          ? e.message
          : `The archive is not a readable ${isZip(contentType, data) ? "zip" : "tar"} file: ${
            e instanceof Error ? e.message : String(e)
          }.`
      })
  }).pipe(Effect.withSpan("Archive.read"))

/**
 * A tar archive of `files` (regular files, mode 0644, mtime 0, sorted by path): the same files
 * always make the same bytes.
 */
export const writeTar = (files: ArchiveFiles): Effect.Effect<Uint8Array, ArchiveError> =>
  Effect.tryPromise({
    try: () =>
      new Promise<Uint8Array>((resolve, reject) => {
        const pack = tar.pack()
        const chunks: Array<Uint8Array> = []
        let size = 0
        pack.on("data", (data: unknown) => {
          const chunk = data as Uint8Array
          chunks.push(chunk)
          size += chunk.length
        })
        pack.on("end", () => resolve(concat(chunks, size)))
        pack.on("error", reject)
        for (const path of [...files.keys()].sort()) {
          const bytes = files.get(path)!
          pack.entry(
            { name: path, size: bytes.length, mode: 0o644, mtime: new Date(0) },
            Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
          )
        }
        pack.finalize()
      }),
    catch: (e) =>
      new ArchiveError({
        message: `The files could not be written as a tar archive: ${e instanceof Error ? e.message : String(e)}.`
      })
  })

/**
 * Rewrites a zip archive as a tar archive of the same regular files (mode 0644, sorted by path),
 * as the described system stores zip uploads. The zip is read within `limits` first, so a zip
 * bomb fails here with `ArchiveError` like any damaged archive.
 */
export const zipToTar = (
  data: Uint8Array,
  limits: ArchiveLimits = defaultArchiveLimits
): Effect.Effect<Uint8Array, ArchiveError> =>
  Effect.flatMap(readArchive(data, ZIP_MIME_TYPE, limits), (files) =>
    writeTar(files).pipe(
      Effect.mapError((e) =>
        new ArchiveError({
          message: e.message.replace("The files could not be written", "The zip archive could not be rewritten")
        })
      )
    )).pipe(Effect.withSpan("Archive.zipToTar"))
