/**
 * `workbay-server dbcrypt rotate|decrypt|delete` (the described system's `coder server dbcrypt`):
 * maintenance of the values encrypted at rest with `--external-token-encryption-keys`, on the
 * database the server would use (`--database-url`, else the SQLite file in `--data-dir`). See
 * docs/operations.md, "Encryption keys". Keys are never printed.
 */
import type { SqlClient } from "@effect/sql"
import { makeSecretBox, type SecretBoxShape } from "@workbay/core"
import {
  decryptSecrets,
  deleteSecrets,
  rotateSecrets,
  type SecretPassResult,
  type StoragePorts
} from "@workbay/storage-sql"
import { Effect, type Layer } from "effect"
import { join, resolve } from "node:path"
import { parseArgs } from "node:util"
import { encryptionKeys } from "./Config.js"

export const dbcryptHelp = [
  "Usage: npm start -- dbcrypt <rotate|decrypt|delete> [flags]",
  "",
  "Maintains the values encrypted at rest (external auth tokens, external agents' tokens). On SQLite, stop the server first.",
  "",
  "  rotate   --new-key KEY --old-keys KEY,...   Re-encrypts every value with the new key and revokes the old keys.",
  "           (WORKBAY_EXTERNAL_TOKEN_ENCRYPTION_ENCRYPT_NEW_KEY, WORKBAY_EXTERNAL_TOKEN_ENCRYPTION_ENCRYPT_OLD_KEYS)",
  "  decrypt  --keys KEY,...                      Stores every value unencrypted and revokes the keys.",
  "           (WORKBAY_EXTERNAL_TOKEN_ENCRYPTION_DECRYPT_KEYS)",
  "  delete   --yes                               For lost keys: deletes every encrypted value (users link their",
  "                                               external auth again; external agents get new tokens) and revokes the keys.",
  "",
  "  --database-url URL   DATABASE_URL       The Postgres database; else the SQLite file in --data-dir.",
  "  --data-dir DIR       WORKBAY_DATA_DIR   Folder of the SQLite database (workbay.db). Default: .workbay.",
  "  --batch-size N                          Rows per transaction. Default: 500."
].join("\n")

/** The command a `dbcrypt` argument list names, with what it needs; throws on a bad one (the message names no key). */
export const parseDbcrypt = (argv: ReadonlyArray<string>, env: NodeJS.ProcessEnv) => {
  const [command, ...rest] = argv
  const { values } = parseArgs({
    args: rest,
    options: {
      "new-key": { type: "string" },
      "old-keys": { type: "string" },
      keys: { type: "string" },
      yes: { type: "boolean" },
      "database-url": { type: "string" },
      "data-dir": { type: "string" },
      "batch-size": { type: "string" },
      help: { type: "boolean" }
    },
    strict: true,
    allowPositionals: false
  })
  const batchSize = Number(values["batch-size"] ?? "500")
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new Error(`Invalid --batch-size "${values["batch-size"]}" (a whole number of at least 1).`)
  }
  const databaseUrl = values["database-url"] ?? env.DATABASE_URL ?? ""
  const database = databaseUrl !== ""
    ? { kind: "postgres" as const, url: databaseUrl }
    : {
      kind: "sqlite" as const,
      filename: join(resolve(values["data-dir"] ?? env.WORKBAY_DATA_DIR ?? ".workbay"), "workbay.db")
    }
  const common = { database, batchSize, help: values.help === true }
  switch (command) {
    case "rotate": {
      const newKey = values["new-key"] ?? env.WORKBAY_EXTERNAL_TOKEN_ENCRYPTION_ENCRYPT_NEW_KEY ?? ""
      if (newKey.trim() === "") throw new Error("dbcrypt rotate needs --new-key.")
      const old = values["old-keys"] ?? env.WORKBAY_EXTERNAL_TOKEN_ENCRYPTION_ENCRYPT_OLD_KEYS ?? ""
      const keys = [...encryptionKeys("new-key", newKey), ...(old.trim() === "" ? [] : encryptionKeys("old-keys", old))]
      return { ...common, command, box: makeSecretBox(keys) }
    }
    case "decrypt": {
      const keys = values.keys ?? env.WORKBAY_EXTERNAL_TOKEN_ENCRYPTION_DECRYPT_KEYS ?? ""
      if (keys.trim() === "") throw new Error("dbcrypt decrypt needs --keys.")
      return { ...common, command, box: makeSecretBox(encryptionKeys("keys", keys)) }
    }
    case "delete":
      if (values.yes !== true) {
        throw new Error("dbcrypt delete deletes every encrypted value for good: confirm with --yes.")
      }
      return { ...common, command, box: undefined }
    default:
      throw new Error(
        command === undefined
          ? "dbcrypt needs a command: rotate, decrypt or delete."
          : `Unknown dbcrypt command "${command}".`
      )
  }
}

const pass = (command: "rotate" | "decrypt" | "delete", box: SecretBoxShape | undefined, batchSize: number) =>
  command === "rotate"
    ? rotateSecrets(box!, { batchSize })
    : command === "decrypt"
    ? decryptSecrets(box!, { batchSize })
    : deleteSecrets

/**
 * Runs `dbcrypt` with `argv` (after the word `dbcrypt`); answers the exit code. What it did (row
 * counts, key digests) goes to `out`, problems to `err`.
 */
export const runDbcrypt = async (
  argv: ReadonlyArray<string>,
  env: NodeJS.ProcessEnv,
  out: (line: string) => void = console.log,
  err: (line: string) => void = console.error
): Promise<number> => {
  if (argv[0] === "--help" || argv[0] === "help") {
    out(dbcryptHelp)
    return 0
  }
  let parsed
  try {
    parsed = parseDbcrypt(argv, env)
  } catch (e) {
    err(`${e instanceof Error ? e.message : String(e)}\n\n${dbcryptHelp}`)
    return 2
  }
  if (parsed.help) {
    out(dbcryptHelp)
    return 0
  }
  // The storage's layer runs the migrations (a database of an older version gets the key columns) and gives the client.
  const storage: Layer.Layer<StoragePorts | SqlClient.SqlClient, unknown> = parsed.database.kind === "postgres"
    ? (await import("@workbay/storage-postgres")).layer({ url: parsed.database.url })
    : (await import("@workbay/storage-sqlite")).layer({ filename: parsed.database.filename, locking: "normal" })
  const command = parsed.command as "rotate" | "decrypt" | "delete"
  try {
    const result: SecretPassResult = await Effect.runPromise(
      pass(command, parsed.box, parsed.batchSize).pipe(Effect.provide(storage), Effect.scoped) as Effect.Effect<
        SecretPassResult,
        unknown
      >
    )
    const verb = command === "rotate" ? "re-encrypted" : command === "decrypt" ? "decrypted" : "deleted"
    out(
      `dbcrypt ${command}: ${verb} ${result.externalAuthLinks} external auth link(s) and ${result.agentTokens} agent token(s)` +
        (command === "rotate"
          ? ` with the key of digest ${parsed.box!.primary}; revoked ${
            parsed.box!.digests.slice(1).join(", ") || "no key"
          }.`
          : "; revoked every key.")
    )
    return 0
  } catch (e) {
    err(`dbcrypt ${command} failed: ${e instanceof Error ? e.message : String(e)}`)
    return 1
  }
}
