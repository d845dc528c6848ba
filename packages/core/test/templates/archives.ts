/** Builds template archives in tests: tar with tar-stream's pack, zip with fflate, zip bombs by hand. */
import { zipSync } from "fflate"
import { Buffer } from "node:buffer"
import { constants, crc32, deflateRawSync } from "node:zlib"
import * as tar from "tar-stream"

export const bytes = (text: string) => new TextEncoder().encode(text)

export const tarOf = (files: Record<string, string | Uint8Array>): Promise<Uint8Array> =>
  new Promise((resolve, reject) => {
    const pack = tar.pack()
    for (const [name, content] of Object.entries(files)) {
      pack.entry({ name }, Buffer.from(typeof content === "string" ? bytes(content) : content))
    }
    pack.finalize()
    const chunks: Array<Buffer> = []
    pack.on("data", (c: unknown) => void chunks.push(c as Buffer))
    pack.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))))
    pack.on("error", reject)
  })

export const zipOf = (files: Record<string, string | Uint8Array>): Uint8Array =>
  zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, typeof v === "string" ? bytes(v) : v])))

const MiB = 1024 * 1024

/**
 * A zip of one deflated entry `name` of `size` zero bytes, inflating to `size` while the zip
 * itself is about a thousandth of it (a zip bomb). The deflate stream is written a mebibyte at
 * a time, each piece full-flushed so the pieces join into one stream, so building it never
 * holds `size` bytes. `declared` is the size its headers state: the true size unless a test
 * makes them lie.
 */
export const zerosZip = (name: string, size: number, declared = size): Uint8Array => {
  const flushed = (n: number) => deflateRawSync(Buffer.alloc(n), { level: 9, finishFlush: constants.Z_FULL_FLUSH })
  const whole = flushed(MiB)
  const pieces: Array<Buffer> = []
  let crc = 0
  const zeros = Buffer.alloc(MiB)
  for (let left = size; left > 0; left -= MiB) {
    const n = Math.min(left, MiB)
    pieces.push(n === MiB ? whole : flushed(n))
    crc = crc32(n === MiB ? zeros : zeros.subarray(0, n), crc)
  }
  // The last block: empty, fixed codes, BFINAL set.
  pieces.push(Buffer.from([0x03, 0x00]))
  const body = Buffer.concat(pieces)
  const fileName = Buffer.from(name, "utf8")
  const local = Buffer.alloc(30)
  local.writeUInt32LE(0x04034b50, 0)
  local.writeUInt16LE(20, 4)
  local.writeUInt16LE(8, 8)
  local.writeUInt32LE(crc >>> 0, 14)
  local.writeUInt32LE(body.length, 18)
  local.writeUInt32LE(declared, 22)
  local.writeUInt16LE(fileName.length, 26)
  const central = Buffer.alloc(46)
  central.writeUInt32LE(0x02014b50, 0)
  central.writeUInt16LE(20, 4)
  central.writeUInt16LE(20, 6)
  central.writeUInt16LE(8, 10)
  central.writeUInt32LE(crc >>> 0, 16)
  central.writeUInt32LE(body.length, 20)
  central.writeUInt32LE(declared, 24)
  central.writeUInt16LE(fileName.length, 28)
  central.writeUInt32LE(0, 42)
  const directoryAt = local.length + fileName.length + body.length
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(1, 8)
  end.writeUInt16LE(1, 10)
  end.writeUInt32LE(central.length + fileName.length, 12)
  end.writeUInt32LE(directoryAt, 16)
  return new Uint8Array(Buffer.concat([local, fileName, body, central, fileName, end]))
}

const octal = (n: number, width: number) => n.toString(8).padStart(width - 1, "0") + "\0"

/** One ustar header block of type `type` ("0" file, "5" directory, "x" pax, "g" global pax). */
const tarHeader = (name: string, size: number, type: string) => {
  const h = Buffer.alloc(512)
  h.write(name, 0, 100, "utf8")
  h.write(octal(0o644, 8), 100, "ascii")
  h.write(octal(0, 8), 108, "ascii")
  h.write(octal(0, 8), 116, "ascii")
  h.write(octal(size, 12), 124, "ascii")
  h.write(octal(0, 12), 136, "ascii")
  h.write("        ", 148, "ascii")
  h.write(type, 156, "ascii")
  h.write("ustar\0", 257, "ascii")
  h.write("00", 263, "ascii")
  let sum = 0
  for (const b of h) sum += b
  h.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "ascii")
  return h
}

const padded = (data: Buffer) => [data, Buffer.alloc((512 - (data.length % 512)) % 512)]

/**
 * A tar whose global pax header holds about `keys` made-up keys, followed by `entries`
 * directories each with a small pax header of its own, and one file `template.yaml`. A reader
 * that merges the global keys into every entry's does `keys * entries` work.
 */
export const paxBombTar = (keys: number, entries: number): Uint8Array => {
  const records: Array<string> = []
  for (let i = 0; i < keys; i++) {
    const body = ` k${i}=v\n`
    const length = body.length + String(body.length + 2).length
    records.push(`${length}${body}`)
  }
  const global = Buffer.from(records.join(""))
  const local = Buffer.from("9 a=bcd\n")
  const content = Buffer.from("a: 1")
  const parts: Array<Buffer> = [tarHeader("pax_global_header", global.length, "g"), ...padded(global)]
  for (let i = 0; i < entries; i++) {
    parts.push(tarHeader("PaxHeader", local.length, "x"), ...padded(local), tarHeader(`d${i}/`, 0, "5"))
  }
  parts.push(tarHeader("template.yaml", content.length, "0"), ...padded(content), Buffer.alloc(1024))
  return new Uint8Array(Buffer.concat(parts))
}
