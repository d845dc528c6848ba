/** Small real archives for tests: a ustar tar and a stored (uncompressed) zip, written byte by byte. */
import { Buffer } from "node:buffer"

export interface ArchiveEntry {
  readonly name: string
  readonly content: string
}

const octal = (n: number, width: number) => n.toString(8).padStart(width - 1, "0") + "\0"

/** A ustar archive of `entries` (regular files, mode 0644), ending with its two zero blocks. */
export const tar = (entries: ReadonlyArray<ArchiveEntry>): Uint8Array => {
  const blocks: Array<Buffer> = []
  for (const entry of entries) {
    const data = Buffer.from(entry.content, "utf8")
    const header = Buffer.alloc(512)
    header.write(entry.name, 0, 100, "utf8")
    header.write(octal(0o644, 8), 100, "ascii")
    header.write(octal(0, 8), 108, "ascii")
    header.write(octal(0, 8), 116, "ascii")
    header.write(octal(data.length, 12), 124, "ascii")
    header.write(octal(1_700_000_000, 12), 136, "ascii")
    header.write("        ", 148, "ascii")
    header.write("0", 156, "ascii")
    header.write("ustar\0", 257, "ascii")
    header.write("00", 263, "ascii")
    let sum = 0
    for (const byte of header) sum += byte
    header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "ascii")
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512))
  }
  blocks.push(Buffer.alloc(1024))
  return new Uint8Array(Buffer.concat(blocks))
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
const crc32 = (data: Uint8Array) => {
  let c = 0xffffffff
  for (const byte of data) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

/** A zip archive of `entries`, stored without compression. */
export const zip = (entries: ReadonlyArray<ArchiveEntry>): Uint8Array => {
  const locals: Array<Buffer> = []
  const centrals: Array<Buffer> = []
  let offset = 0
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8")
    const data = Buffer.from(entry.content, "utf8")
    const crc = crc32(data)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(data.length, 18)
    local.writeUInt32LE(data.length, 22)
    local.writeUInt16LE(name.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(data.length, 20)
    central.writeUInt32LE(data.length, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, data)
    centrals.push(central, name)
    offset += local.length + name.length + data.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return new Uint8Array(Buffer.concat([...locals, directory, end]))
}

/** POSTs `bytes` to `/api/v2/files` with `contentType` (none when null) as the holder of `token`. */
export const upload = async (
  baseUrl: string,
  token: string | undefined,
  bytes: Uint8Array,
  contentType: string | null = "application/x-tar"
) => {
  const headers: Record<string, string> = {}
  if (contentType !== null) headers["content-type"] = contentType
  if (token !== undefined) headers["Service-Session-Token"] = token
  const res = await fetch(`${baseUrl}/api/v2/files`, { method: "POST", headers, body: bytes as BodyInit })
  const text = await res.text()
  let body: any = text
  try {
    body = JSON.parse(text)
  } catch {
    // Not JSON.
  }
  return { status: res.status, body, headers: res.headers }
}

/** GETs `/api/v2/files/{id}` as the holder of `token`: the status, headers and the body's bytes. */
export const download = async (baseUrl: string, token: string | undefined, id: string, method = "GET") => {
  const headers: Record<string, string> = {}
  if (token !== undefined) headers["Service-Session-Token"] = token
  const res = await fetch(`${baseUrl}/api/v2/files/${id}`, { method, headers })
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) }
}
