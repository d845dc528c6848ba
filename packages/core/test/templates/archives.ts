/** Builds template archives in tests: tar with tar-stream's pack, zip with fflate. */
import { zipSync } from "fflate"
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
