/**
 * Secrets at rest: every kind of secret the service issues (secrets.ts), then the storage read
 * as bytes (the SQLite database file and its write-ahead log; a pg_dump of the Postgres
 * database): none of the secrets is there in plain text. The server runs with an encryption key:
 * the secrets it must hand out again (an external agent's token) are encrypted with it, the
 * others hashed.
 */
import { execFileSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { existsSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, inject, it } from "vitest"
import { freshDatabase, startServerProcess } from "./process.js"
import { mailFlags, type PlantedSecret, plantSecrets, startSmtp } from "./secrets.js"

const pgUrl = inject("workbayPgUrl")
const KEY = ["--external-token-encryption-keys", randomBytes(32).toString("base64")]

/** The kinds of the secrets found in `bytes`, as text or URL-encoded. */
const found = (bytes: string, secrets: ReadonlyArray<PlantedSecret>) =>
  secrets.filter((s) => bytes.includes(s.value) || bytes.includes(encodeURIComponent(s.value))).map((s) => s.kind)

describe("secrets at rest", () => {
  it("are not in the SQLite database file or its write-ahead log", async () => {
    const dir = mkdtempSync(join(tmpdir(), "workbay-rest-"))
    const smtp = await startSmtp()
    const server = await startServerProcess(["--data-dir", dir, ...KEY, ...mailFlags(smtp)])
    try {
      const { secrets } = await plantSecrets(server.url, smtp)
      const read = () =>
        ["workbay.db", "workbay.db-wal"].map((f) => join(dir, f)).filter(existsSync).map((f) =>
          readFileSync(f).toString("latin1")
        ).join("")
      // Stopped cleanly: the write-ahead log is checkpointed (its frames hold earlier versions of pages until then).
      expect(await server.stop()).toBe(0)
      expect(readFileSync(join(dir, "workbay.db")).toString("latin1")).toContain("planted@example.com")
      expect(found(read(), secrets)).toEqual([])
    } finally {
      await server.stop()
      await smtp.close()
    }
  })

  it.skipIf(pgUrl === null)("are not in a dump of the Postgres database", async () => {
    const db = await freshDatabase(pgUrl!)
    const smtp = await startSmtp()
    const server = await startServerProcess([...KEY, ...mailFlags(smtp)], { DATABASE_URL: db.url })
    try {
      const { secrets } = await plantSecrets(server.url, smtp)
      const dump = execFileSync("pg_dump", ["--data-only", "--no-owner", db.url], { maxBuffer: 256 * 1024 * 1024 })
        .toString("utf8")
      expect(dump).toContain("planted@example.com")
      expect(found(dump, secrets)).toEqual([])
    } finally {
      await server.stop()
      await smtp.close()
      await db.drop()
    }
  })
})
