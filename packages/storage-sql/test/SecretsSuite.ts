/**
 * Secrets at rest, run against every storage (docs/operations.md, "Encryption keys"): external
 * auth links' tokens and external agents' kept tokens sealed with the first key and read back,
 * the refresh's guarded replace on sealed tokens, a value sealed with a key no longer configured
 * (a link reads as none, a kept token fails), the start-up check of `dbcrypt_keys`, and the
 * rotate, decrypt and delete passes (in batches, idempotent). Every test gets a fresh database.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import {
  AgentRepo,
  type ExternalAuthLinkRecord,
  ExternalAuthLinkRepo,
  keyDigest,
  makeSecretBox,
  SecretBox,
  WorkspaceBuildRepo,
  WorkspaceRepo,
  WorkspaceResourceRepo
} from "@workbay/core"
import { decryptSecrets, deleteSecrets, rotateSecrets, type StoragePorts } from "@workbay/storage-sql"
import { Effect, Either, Layer, Option } from "effect"
import { randomBytes, randomUUID } from "node:crypto"
import { ensureKeys } from "../src/Secrets.js"
import type { StorageFactory, SuiteOptions } from "./users/RepositorySuite.js"
import { agent, build, job, workspace, world } from "./workspaces/BuildRepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const K1 = randomBytes(32).toString("base64")
const K2 = randomBytes(32).toString("base64")
const K3 = randomBytes(32).toString("base64")
const digest = (k: string) => keyDigest(Buffer.from(k, "base64"))

const at = (s: number) => new Date(Date.UTC(2024, 6, 1, 12, 0, s))

const link = (
  userId: string,
  providerId: string,
  extra: Partial<ExternalAuthLinkRecord> = {}
): ExternalAuthLinkRecord => ({
  provider_id: providerId,
  user_id: userId,
  created_at: at(0),
  updated_at: at(0),
  oauth_access_token: `access-${providerId}-${userId.slice(0, 4)}`,
  oauth_refresh_token: `refresh-${providerId}-${userId.slice(0, 4)}`,
  oauth_expiry: at(3600),
  oauth_extra: null,
  oauth_refresh_failure_reason: "",
  ...extra
})

/** The world's owner (a user row for the links' foreign key). */
const someone = Effect.map(world, (w) => w.user)

/** An external agent of a fresh workspace's build, kept token `token`; answers its id. */
const externalAgent = (token: string | undefined) =>
  Effect.gen(function*() {
    const w = yield* world
    const ws = workspace(w)
    yield* (yield* WorkspaceRepo).insert(ws)
    const jobId = yield* job(w)
    yield* (yield* WorkspaceBuildRepo).insert(build(w, ws.id, jobId, { build_number: 1 }))
    const resourceId = randomUUID()
    const made = {
      ...agent(resourceId, "outside", { external: true, auth_token_hash: randomUUID() }),
      auth_token: token
    }
    yield* (yield* WorkspaceResourceRepo).insert([{
      resource: {
        id: resourceId,
        created_at: at(1),
        job_id: jobId,
        transition: "start",
        type: "machine",
        name: "box",
        hide: false,
        icon: "",
        daily_cost: 0,
        metadata: []
      },
      agents: [made]
    }])
    return made.id
  })

const rawLinks = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql<Record<string, unknown>>`SELECT * FROM external_auth_links ORDER BY user_id, provider_id`
)
const rawAgent = (id: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      Effect.map(
        sql<Record<string, unknown>>`SELECT auth_token, auth_token_key_id FROM workspace_agents WHERE id = ${id}`,
        (rows) => rows[0]!
      )
  )
const recorded = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql<
      { active_key_digest: string | null; revoked_key_digest: string | null }
    >`SELECT active_key_digest, revoked_key_digest FROM dbcrypt_keys ORDER BY number`
)

/** Writes a link's tokens as `box` seals them, past the repository (values sealed by another deployment's keys). */
const writeSealed = (l: ExternalAuthLinkRecord, keys: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const box = makeSecretBox(keys)
    const a = box.seal(l.oauth_access_token)
    const r = box.seal(l.oauth_refresh_token)
    yield* sql`INSERT INTO external_auth_links (provider_id, user_id, created_at, updated_at, oauth_access_token, oauth_access_token_key_id,
      oauth_refresh_token, oauth_refresh_token_key_id) VALUES (${l.provider_id}, ${l.user_id}, ${l.created_at.toISOString()},
      ${l.updated_at.toISOString()}, ${a.value}, ${a.keyId}, ${r.value}, ${r.keyId})`
  })

export const secretsSuite = (name: string, makeStorage: StorageFactory, options: SuiteOptions = {}) => {
  /** A test on a fresh storage whose repositories seal with `keys` (none: stored as given). */
  const test = (title: string, keys: ReadonlyArray<string>, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () =>
      body.pipe(
        Effect.provide(keys.length === 0 ? makeStorage() : makeStorage().pipe(Layer.provide(SecretBox.layer(keys)))),
        Effect.orDie
      ))

  describe.skipIf(options.skip === true)(`secrets at rest on ${name}`, () => {
    test(
      "external auth links' tokens are sealed with the first key, and read back as issued",
      [K1, K2],
      Effect.gen(function*() {
        const repo = yield* ExternalAuthLinkRepo
        const u = yield* someone
        const l = link(u, "github")
        expect(yield* repo.upsert(l)).toEqual(l)
        yield* repo.upsert(link(u, "corp", { oauth_refresh_token: "" }))
        const [corp, github] = yield* rawLinks
        expect(github!.oauth_access_token).not.toContain(l.oauth_access_token)
        expect(github!.oauth_refresh_token).not.toContain(l.oauth_refresh_token)
        expect(github!.oauth_access_token_key_id).toBe(digest(K1))
        expect(github!.oauth_refresh_token_key_id).toBe(digest(K1))
        // No refresh token: nothing to seal.
        expect(corp!.oauth_refresh_token).toBe("")
        expect(corp!.oauth_refresh_token_key_id).toBeNull()
        expect(Option.getOrThrow(yield* repo.find("github", u))).toEqual(l)
        expect((yield* repo.listByUser(u)).map((x) => x.oauth_access_token)).toEqual([
          link(u, "corp").oauth_access_token,
          l.oauth_access_token
        ])
        // A value sealed with the second key (the first before a rotation) opens too.
        yield* writeSealed(link(u, "older"), [K2])
        expect(Option.getOrThrow(yield* repo.find("older", u)).oauth_refresh_token).toBe(
          link(u, "older").oauth_refresh_token
        )
      })
    )

    test(
      "the refresh's guarded replace compares the opened refresh token",
      [K1],
      Effect.gen(function*() {
        const repo = yield* ExternalAuthLinkRepo
        const u = yield* someone
        const l = link(u, "github")
        yield* repo.upsert(l)
        const next = { ...l, updated_at: at(10), oauth_access_token: "a2", oauth_refresh_token: "r2" }
        expect(Option.isNone(yield* repo.updateTokens(next, "not-the-refresh-token"))).toBe(true)
        expect(Option.getOrThrow(yield* repo.updateTokens(next, l.oauth_refresh_token)).oauth_access_token).toBe("a2")
        // The loser of a race (it used the old refresh token) stores nothing.
        expect(Option.isNone(yield* repo.updateTokens({ ...l, oauth_access_token: "a3" }, l.oauth_refresh_token))).toBe(
          true
        )
        const stored = Option.getOrThrow(yield* repo.find("github", u))
        expect([stored.oauth_access_token, stored.oauth_refresh_token]).toEqual(["a2", "r2"])
        const [raw] = yield* rawLinks
        expect(raw!.oauth_refresh_token).not.toBe("r2")
      })
    )

    test(
      "a link sealed with a key no longer configured reads as no link, until its user links again",
      [K1],
      Effect.gen(function*() {
        const repo = yield* ExternalAuthLinkRepo
        const u = yield* someone
        yield* writeSealed(link(u, "lost"), [K3])
        yield* repo.upsert(link(u, "kept"))
        expect(Option.isNone(yield* repo.find("lost", u))).toBe(true)
        expect((yield* repo.listByUser(u)).map((x) => x.provider_id)).toEqual(["kept"])
        const again = link(u, "lost", { oauth_access_token: "fresh" })
        yield* repo.upsert(again)
        expect(Option.getOrThrow(yield* repo.find("lost", u)).oauth_access_token).toBe("fresh")
        expect(yield* repo.delete("lost", u)).toBe(true)
      })
    )

    test(
      "an external agent's kept token is sealed and read back; a replaced hash drops it; one sealed with a removed key fails",
      [K1],
      Effect.gen(function*() {
        const agents = yield* AgentRepo
        const token = randomUUID()
        const id = yield* externalAgent(token)
        const raw = yield* rawAgent(id)
        expect(raw.auth_token).not.toContain(token)
        expect(raw.auth_token_key_id).toBe(digest(K1))
        expect(yield* agents.keptToken(id)).toEqual(Option.some(token))
        const next = randomUUID()
        yield* agents.setKeptToken(id, next, at(5))
        expect(yield* agents.keptToken(id)).toEqual(Option.some(next))
        expect(Option.getOrThrow(yield* agents.findById(id)).agent.auth_token_hash).not.toBe(raw.auth_token)
        yield* agents.setTokenHash(id, "elsewhere", at(6))
        expect(yield* agents.keptToken(id)).toEqual(Option.none())
        // An agent that keeps none (not external) has NULL.
        expect((yield* rawAgent(yield* externalAgent(undefined))).auth_token).toBeNull()
        const sealed = makeSecretBox([K3]).seal(next)
        yield* Effect.flatMap(
          SqlClient.SqlClient,
          (sql) =>
            sql`UPDATE workspace_agents SET auth_token = ${sealed.value}, auth_token_key_id = ${sealed.keyId} WHERE id = ${id}`
        )
        const failed = yield* Effect.either(agents.keptToken(id))
        expect(Either.isLeft(failed) && failed.left._tag === "SecretDecryptFailed" && failed.left.keyId === digest(K3))
          .toBe(true)
      })
    )

    test(
      "without keys values are stored as given, key ids NULL",
      [],
      Effect.gen(function*() {
        const repo = yield* ExternalAuthLinkRepo
        const u = yield* someone
        yield* repo.upsert(link(u, "github"))
        const [raw] = yield* rawLinks
        expect(raw!.oauth_access_token).toBe(link(u, "github").oauth_access_token)
        expect(raw!.oauth_access_token_key_id).toBeNull()
        expect((yield* recorded).length).toBe(0)
      })
    )

    test(
      "rotate re-seals every value with the new key in batches, revokes the old key, and is idempotent; the start-up check follows the keys",
      [],
      Effect.gen(function*() {
        const repo = yield* ExternalAuthLinkRepo
        const agents = yield* AgentRepo
        // A deployment on K1 (recorded), with a value stored before any key (as given).
        yield* ensureKeys(makeSecretBox([K1]))
        const users = [yield* someone, yield* someone, yield* someone]
        for (const u of users) yield* writeSealed(link(u, "github"), [K1])
        yield* writeSealed(link(users[0]!, "plain"), [])
        const token = randomUUID()
        const agentId = yield* externalAgent(token)
        const sealedByK1 = makeSecretBox([K1]).seal(token)
        yield* Effect.flatMap(
          SqlClient.SqlClient,
          (sql) =>
            sql`UPDATE workspace_agents SET auth_token = ${sealedByK1.value}, auth_token_key_id = ${sealedByK1.keyId} WHERE id = ${agentId}`
        )

        const both = makeSecretBox([K2, K1])
        expect(yield* rotateSecrets(both, { batchSize: 2 })).toEqual({ externalAuthLinks: 4, agentTokens: 1 })
        const raws = yield* rawLinks
        expect(
          raws.every((r) => r.oauth_access_token_key_id === digest(K2) && r.oauth_refresh_token_key_id === digest(K2))
        ).toBe(true)
        expect((yield* rawAgent(agentId)).auth_token_key_id).toBe(digest(K2))
        expect(yield* recorded).toEqual([
          { active_key_digest: null, revoked_key_digest: digest(K1) },
          { active_key_digest: digest(K2), revoked_key_digest: null }
        ])
        // Idempotent: nothing left to do.
        expect(yield* rotateSecrets(both, { batchSize: 2 })).toEqual({ externalAuthLinks: 0, agentTokens: 0 })

        // K2 alone opens everything (the repositories here have no keys: open with a K2 box).
        const k2 = makeSecretBox([K2])
        for (const r of raws) {
          const opened = k2.open(r.oauth_access_token as string, r.oauth_access_token_key_id as string)
          expect(Either.getOrThrow(opened)).toBe(link(r.user_id as string, r.provider_id as string).oauth_access_token)
        }
        expect(Either.getOrThrow(k2.open((yield* rawAgent(agentId)).auth_token as string, digest(K2)))).toBe(token)

        // The start-up check: the revoked K1 may not seal again; K2 must be configured; K2 alone starts.
        const refused = (keys: ReadonlyArray<string>) =>
          Effect.map(
            Effect.either(ensureKeys(makeSecretBox(keys))),
            (r) => (Either.isLeft(r) ? r.left.message : "started")
          )
        expect(yield* refused([K1])).toContain("revoked")
        expect(yield* refused([])).toContain("no key is configured")
        expect(yield* refused([K3])).toContain(`digest ${digest(K2)}, which is not configured`)
        expect(yield* refused([K2])).toBe("started")
        expect(yield* refused([K3, K2])).toBe("started")
        // The repositories keep working (here without keys, past the check: they read sealed text).
        expect((yield* agents.findById(agentId)).pipe(Option.isSome)).toBe(true)
        expect(repo).toBeDefined()
      })
    )

    test(
      "decrypt stores every value as given and revokes the keys; delete drops sealed values and revokes the keys",
      [],
      Effect.gen(function*() {
        const repo = yield* ExternalAuthLinkRepo
        const agents = yield* AgentRepo
        yield* ensureKeys(makeSecretBox([K1]))
        const u = yield* someone
        yield* writeSealed(link(u, "github"), [K1])
        const token = randomUUID()
        const agentId = yield* externalAgent(token)
        const sealed = makeSecretBox([K1]).seal(token)
        yield* Effect.flatMap(
          SqlClient.SqlClient,
          (sql) =>
            sql`UPDATE workspace_agents SET auth_token = ${sealed.value}, auth_token_key_id = ${sealed.keyId} WHERE id = ${agentId}`
        )
        expect(yield* decryptSecrets(makeSecretBox([K1]), { batchSize: 1 })).toEqual({
          externalAuthLinks: 1,
          agentTokens: 1
        })
        const plain = Option.getOrThrow(yield* repo.find("github", u))
        expect([plain.oauth_access_token, plain.oauth_refresh_token]).toEqual([
          link(u, "github").oauth_access_token,
          link(u, "github").oauth_refresh_token
        ])
        const [raw] = yield* rawLinks
        expect([raw!.oauth_access_token, raw!.oauth_access_token_key_id]).toEqual([plain.oauth_access_token, null])
        expect(yield* agents.keptToken(agentId)).toEqual(Option.some(token))
        expect(yield* recorded).toEqual([{ active_key_digest: null, revoked_key_digest: digest(K1) }])
        yield* ensureKeys(makeSecretBox([]))

        // Lost keys: delete.
        yield* ensureKeys(makeSecretBox([K2]))
        const v = yield* someone
        yield* writeSealed(link(v, "github"), [K2])
        yield* Effect.flatMap(
          SqlClient.SqlClient,
          (sql) =>
            sql`UPDATE workspace_agents SET auth_token = ${
              makeSecretBox([K2]).seal(token).value
            }, auth_token_key_id = ${digest(K2)} WHERE id = ${agentId}`
        )
        expect(yield* deleteSecrets).toEqual({ externalAuthLinks: 1, agentTokens: 1 })
        expect(Option.isNone(yield* repo.find("github", v))).toBe(true)
        // The link stored as given (decrypted above) stays.
        expect(Option.isSome(yield* repo.find("github", u))).toBe(true)
        expect(yield* agents.keptToken(agentId)).toEqual(Option.none())
        expect((yield* recorded).every((r) => r.active_key_digest === null)).toBe(true)
      })
    )
  })
}
