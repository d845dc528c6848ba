/**
 * The encryption keys of the standalone server, as a real process (docs/operations.md,
 * "Encryption keys"): the loud start-up warning without keys; an external agent's token kept
 * encrypted and answered again after a restart; `dbcrypt rotate` (through `main.ts`) re-encrypting
 * with the new key; the start-up check refusing a revoked key, a missing key, or no key; and the
 * rotation on Postgres.
 */
import { keyDigest } from "@workbay/core"
import Database from "better-sqlite3"
import { execFile } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, inject, it } from "vitest"
import { runDbcrypt } from "../src/Dbcrypt.js"
import { firstOwnerSession } from "./owner.js"
import { freshDatabase, SERVER, startServerProcess } from "./process.js"
import { call, makeTemplate, until } from "./workload.js"

const pgUrl = inject("workbayPgUrl")
const key = () => randomBytes(32).toString("base64")
const digest = (k: string) => keyDigest(Buffer.from(k, "base64"))
const KEYS = "--external-token-encryption-keys"

const EXTERNAL =
  "resources:\n  - name: box\n    type: machine\n    agents:\n      - name: main\n        external: true\n"

/** A workspace with an external agent on the server at `url`: the session, the credentials' path, and the token they answer. */
const externalAgent = async (url: string) => {
  const session = await firstOwnerSession(url)
  const { orgId, templateId } = await makeTemplate(url, session, EXTERNAL)
  const ws = await call(url, session, "POST", `/organizations/${orgId}/members/me/workspaces`, {
    name: "kept",
    template_id: templateId
  })
  expect(ws.status, JSON.stringify(ws.body)).toBeLessThan(300)
  await until(
    () => call(url, session, "GET", `/workspaces/${ws.body.id}`),
    (r) => r.body.latest_build.job.status === "succeeded"
  )
  const path = `/workspaces/${ws.body.id}/external-agent/main/credentials`
  const token = (await call(url, session, "GET", path)).body.agent_token as string
  return { session, path, token }
}

/** `npm start -- dbcrypt ...`, as an operator runs it (src/main.ts, bundled): exit code and output. */
const dbcrypt = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  new Promise<{ code: number; out: string }>((resolve) =>
    execFile(process.execPath, [...SERVER, "dbcrypt", ...args], {
      env: { ...process.env, ...env }
    }, (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code ?? 1), out: stdout + stderr }))
  )

/** Starting with `args` fails: the output of the failed start. */
const refusedStart = async (args: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  const error = await startServerProcess(args, env).then(async (s) => {
    await s.stop()
    return undefined
  }, (e: Error) => e.message)
  expect(error).toBeDefined()
  return error!
}

// The tests wait on server processes of their own (separate data folders and databases): run side by side.
describe.concurrent("encryption keys of the server", () => {
  it(
    "keeps the external agent's token encrypted across restarts; dbcrypt rotate re-encrypts it; the start-up check follows the keys",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "workbay-dbcrypt-"))
      const [k1, k2] = [key(), key()]
      const first = await startServerProcess(["--data-dir", dir, KEYS, k1])
      let agent
      try {
        expect(first.stderr()).not.toContain("unencrypted")
        agent = await externalAgent(first.url)
      } finally {
        expect(await first.stop()).toBe(0)
      }
      const stored = () => {
        const db = new Database(join(dir, "workbay.db"), { readonly: true })
        try {
          return db.prepare("SELECT auth_token, auth_token_key_id FROM workspace_agents WHERE auth_token IS NOT NULL")
            .all() as Array<{ auth_token: string; auth_token_key_id: string }>
        } finally {
          db.close()
        }
      }
      expect(stored()).toEqual([{
        auth_token: expect.not.stringContaining(agent.token),
        auth_token_key_id: digest(k1)
      }])

      // Rotation: the new key first, then the old; the old is revoked.
      const rotated = await dbcrypt(["rotate", "--data-dir", dir], {
        WORKBAY_EXTERNAL_TOKEN_ENCRYPTION_ENCRYPT_NEW_KEY: k2,
        WORKBAY_EXTERNAL_TOKEN_ENCRYPTION_ENCRYPT_OLD_KEYS: k1
      })
      expect(rotated.code, rotated.out).toBe(0)
      expect(rotated.out).toContain(
        `re-encrypted 0 external auth link(s) and 1 agent token(s) with the key of digest ${digest(k2)}; revoked ${
          digest(k1)
        }`
      )
      expect(rotated.out).not.toContain(k1)
      expect(rotated.out).not.toContain(k2)
      expect(stored()[0]!.auth_token_key_id).toBe(digest(k2))
      // Idempotent (in-process this time: the operator's path was shown above).
      const again: Array<string> = []
      expect(
        await runDbcrypt(
          ["rotate", "--data-dir", dir, "--new-key", k2, "--old-keys", k1],
          {},
          (l) => again.push(l),
          (l) => again.push(l)
        )
      ).toBe(0)
      expect(again.join("\n")).toContain("re-encrypted 0 external auth link(s) and 0 agent token(s)")

      expect(await refusedStart(["--data-dir", dir, KEYS, k1])).toContain(`(digest ${digest(k1)}) has been revoked`)
      expect(await refusedStart(["--data-dir", dir])).toContain("no key is configured")
      expect(await refusedStart(["--data-dir", dir, KEYS, key()])).toContain(
        `digest ${digest(k2)}, which is not configured`
      )

      const second = await startServerProcess(["--data-dir", dir, KEYS, k2])
      try {
        const again = await call(second.url, agent.session, "GET", agent.path)
        expect(again.body.agent_token).toBe(agent.token)
        expect((await call(second.url, agent.token, "GET", "/workspaceagents/me/gitsshkey")).status).toBe(200)
        expect(second.stderr()).not.toContain(k2)
      } finally {
        await second.stop()
      }
    },
    120_000
  )

  it(
    "warns loudly at start-up while no key is configured, and refuses a key that is not a base64 32-byte key",
    async () => {
      const server = await startServerProcess(["--data-dir", mkdtempSync(join(tmpdir(), "workbay-dbcrypt-"))])
      try {
        expect(server.stderr()).toMatch(
          /WARNING Secrets are stored unencrypted: no encryption keys are configured, so external auth tokens and external agents' tokens are kept in the database as issued\. Set --external-token-encryption-keys/
        )
      } finally {
        await server.stop()
      }
      const bad = await refusedStart([KEYS, "c2hvcnQ="])
      expect(bad).toContain(
        "Invalid --external-token-encryption-keys: External token encryption key 1 is not a base64-encoded 32-byte key."
      )
      expect(bad).not.toContain("c2hvcnQ=")
    },
    60_000
  )

  it("dbcrypt refuses a bad command or a delete without --yes", async () => {
    const lines: Array<string> = []
    expect(await runDbcrypt(["spin"], {}, (l) => lines.push(l), (l) => lines.push(l))).toBe(2)
    expect(await runDbcrypt(["delete"], {}, (l) => lines.push(l), (l) => lines.push(l))).toBe(2)
    expect(await runDbcrypt(["rotate", "--new-key", "nope"], {}, (l) => lines.push(l), (l) => lines.push(l))).toBe(2)
    expect(lines.join("\n")).toContain("Unknown dbcrypt command \"spin\"")
    expect(lines.join("\n")).toContain("confirm with --yes")
    expect(lines.join("\n")).toContain("Invalid --new-key")
  })

  it.skipIf(pgUrl === null)("rotates on Postgres too", async () => {
    const db = await freshDatabase(pgUrl!)
    const [k1, k2] = [key(), key()]
    try {
      const server = await startServerProcess([KEYS, k1], { DATABASE_URL: db.url })
      let agent
      try {
        agent = await externalAgent(server.url)
      } finally {
        await server.stop()
      }
      const lines: Array<string> = []
      const code = await runDbcrypt(
        ["rotate", "--new-key", k2, "--old-keys", k1, "--batch-size", "1"],
        { DATABASE_URL: db.url },
        (l) => lines.push(l),
        (l) => lines.push(l)
      )
      expect(code, lines.join("\n")).toBe(0)
      expect(lines.join("\n")).toContain("1 agent token(s)")
      const next = await startServerProcess([KEYS, k2], { DATABASE_URL: db.url })
      try {
        expect((await call(next.url, agent.session, "GET", agent.path)).body.agent_token).toBe(agent.token)
      } finally {
        await next.stop()
      }
    } finally {
      await db.drop()
    }
  })
})
