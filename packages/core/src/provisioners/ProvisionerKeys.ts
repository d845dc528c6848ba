/**
 * The ProvisionerKeys service: create (the secret shown once, its hash stored), list, list with
 * their daemons, delete (by name, as the described system), and the key check of the daemons'
 * serve route. Authorization is on `provisioner_daemon` in the key's organization (create,
 * read, delete), through the one evaluator. A deleted key's live sessions are told on the
 * PubSub channel `pkey_deleted_<id>` and close.
 */
import { Clock, Effect, Option } from "effect"
import { randomBytes } from "node:crypto"
import { authorize } from "../Actor.js"
import { auditResource } from "../Audit.js"
import { NIL_UUID } from "../Audit.js"
import { BadRequest, Conflict, NotFound, Unauthorized } from "../Errors.js"
import { IdGenerator, isUuid } from "../Ids.js"
import { DEFAULT_ORGANIZATION_ALIAS, Organizations } from "../organizations/Organizations.js"
import { OrganizationRepo } from "../organizations/Repositories.js"
import { hashSecret, sameHash } from "../Platform.js"
import { PubSub } from "../PubSub.js"
import { span } from "../Tracing.js"
import { DAEMON_STALE_INTERVAL } from "./ProvisionerDaemon.js"
import { ProvisionerDaemons } from "./ProvisionerDaemons.js"
import {
  CreateProvisionerKeyResponse,
  MAX_PROVISIONER_KEY_NAME,
  PROVISIONER_KEY_HEADER,
  ProvisionerKeyDaemons,
  type ProvisionerKeyRecord,
  ProvisionerKeyRepo,
  RESERVED_PROVISIONER_KEY_NAMES,
  toProvisionerKey
} from "./ProvisionerKey.js"
import type { CreateProvisionerKeyRequest } from "./Requests.js"

/** The channel a key's deletion is published on: its live daemon sessions close. */
export const provisionerKeyDeletedChannel = (keyId: string) => `pkey_deleted_${keyId.replaceAll("-", "").toLowerCase()}`

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
const KEY = "Provisioner key"
const object = (orgId: string, id?: string) =>
  id === undefined ? { type: "provisioner_daemon" as const, orgId } : { type: "provisioner_daemon" as const, orgId, id }
const resource = (k: ProvisionerKeyRecord) => ({
  type: "provisioner_key",
  id: k.id,
  target: k.name,
  organizationId: k.organization_id
})
/** What a diff shows of a key: its hash only as a secret field. */
const auditable = (k: ProvisionerKeyRecord) => ({
  name: k.name,
  tags: k.tags,
  organization_id: k.organization_id,
  hashed_secret: k.hashed_secret
})

/** The length of a key: 32 random bytes in base64url. */
export const PROVISIONER_KEY_LENGTH = 43

/** A new key: 43 characters of base64url (32 random bytes), and its hash. */
export const newProvisionerKey = () => {
  const key = randomBytes(32).toString("base64url")
  return { key, hashed: hashSecret(key) }
}

/** The name rules of the described system; the 400 it answers, or none. */
export const provisionerKeyNameProblem = (name: string): string | undefined => {
  if (name === "") return "Name is required"
  if (name.length > MAX_PROVISIONER_KEY_NAME) return `Name must be at most ${MAX_PROVISIONER_KEY_NAME} characters`
  if (RESERVED_PROVISIONER_KEY_NAMES.some((r) => r.toLowerCase() === name.toLowerCase())) {
    return `Name cannot be reserved name '${name}'`
  }
  return undefined
}

export class ProvisionerKeys extends Effect.Service<ProvisionerKeys>()("@workbay/core/ProvisionerKeys", {
  effect: Effect.gen(function*() {
    const repo = yield* ProvisionerKeyRepo
    const organizations = yield* Organizations
    const daemons = yield* ProvisionerDaemons
    const ids = yield* IdGenerator
    const pubsub = yield* PubSub
    const orgRepo = yield* OrganizationRepo

    const create = (orgRef: string, input: typeof CreateProvisionerKeyRequest.Type) =>
      Effect.gen(function*() {
        const org = yield* organizations.resolve(orgRef)
        yield* authorize("create", object(org.id))
        const problem = provisionerKeyNameProblem(input.name)
        if (problem !== undefined) return yield* BadRequest.field("name", problem, problem)
        const { hashed, key } = newProvisionerKey()
        const record: ProvisionerKeyRecord = {
          id: yield* ids.uuid,
          organization_id: org.id,
          name: input.name,
          hashed_secret: hashed,
          tags: input.tags ?? {},
          created_at: yield* now
        }
        yield* repo.insert(record).pipe(Effect.catchTag("UniqueViolation", () =>
          Effect.fail(
            new Conflict({ message: `Provisioner key with name '${input.name}' already exists in organization` })
          )))
        yield* auditResource(resource(record), undefined, auditable(record))
        return new CreateProvisionerKeyResponse({ key }, true)
      }).pipe(span("ProvisionerKeys.create"))

    const list = (orgRef: string) =>
      Effect.gen(function*() {
        const org = yield* organizations.resolve(orgRef)
        yield* authorize("read", object(org.id))
        return (yield* repo.listByOrganization(org.id)).map(toProvisionerKey)
      }).pipe(span("ProvisionerKeys.list"))

    /** Each key with its daemons seen within the stale interval (the described system's `provisionerkeys/daemons`). */
    const listDaemons = (orgRef: string) =>
      Effect.gen(function*() {
        const org = yield* organizations.resolve(orgRef)
        yield* authorize("read", object(org.id))
        const keys = yield* repo.listByOrganization(org.id)
        const recent = yield* daemons.list({ organizationId: org.id, limit: 1000, statuses: ["idle", "busy"] })
        return keys.map((k) =>
          new ProvisionerKeyDaemons(
            { key: toProvisionerKey(k), daemons: recent.filter((d) => d.key_id === k.id) },
            true
          )
        )
      }).pipe(span("ProvisionerKeys.listDaemons"))

    const remove = (orgRef: string, name: string) =>
      Effect.gen(function*() {
        const org = yield* organizations.resolve(orgRef)
        if (RESERVED_PROVISIONER_KEY_NAMES.some((r) => r.toLowerCase() === name.toLowerCase())) {
          yield* authorize("delete", object(org.id))
          return yield* new BadRequest({ message: `Cannot delete reserved '${name}' provisioner key` })
        }
        const found = yield* repo.findByName(org.id, name)
        if (Option.isNone(found)) {
          yield* authorize("delete", object(org.id))
          return yield* NotFound.resource(KEY)
        }
        yield* authorize("delete", object(org.id, found.value.id))
        if (!(yield* repo.delete(found.value.id))) return yield* NotFound.resource(KEY)
        yield* pubsub.publish(provisionerKeyDeletedChannel(found.value.id), "deleted")
        yield* auditResource(resource(found.value), auditable(found.value), undefined)
      }).pipe(span("ProvisionerKeys.delete"))

    const unauthorized = () =>
      new Unauthorized({
        message: "Invalid provisioner key.",
        detail: `Send a provisioner key of this organization in the ${PROVISIONER_KEY_HEADER} header.`
      })

    /**
     * The key `raw` is, when it is a key of the organization `orgRef` (an id, a name or
     * `default`); 401 otherwise, the same answer for a missing, unknown or other organization's
     * key, and for an unknown organization.
     */
    const authenticate = (orgRef: string, raw: string | undefined) =>
      Effect.gen(function*() {
        if (raw === undefined || raw === "") {
          return yield* new Unauthorized({ message: `Missing required provisioner key (${PROVISIONER_KEY_HEADER}).` })
        }
        if (raw.length > 256) return yield* unauthorized()
        const hashed = hashSecret(raw)
        const found = yield* repo.findByHashedSecret(hashed)
        if (Option.isNone(found) || !sameHash(found.value.hashed_secret, hashed)) return yield* unauthorized()
        const org = orgRef === DEFAULT_ORGANIZATION_ALIAS || orgRef === NIL_UUID
          ? yield* orgRepo.findDefault
          : isUuid(orgRef)
          ? yield* orgRepo.findById(orgRef.toLowerCase())
          : yield* orgRepo.findByName(orgRef)
        if (Option.isNone(org) || org.value.id !== found.value.organization_id) return yield* unauthorized()
        return found.value
      }).pipe(span("ProvisionerKeys.authenticate"))

    /**
     * The key `raw` is, without its secret (`GET /provisionerkeys/{provisionerkey}`, a daemon
     * reading its own key), as the described system's key check answers: 401 when it is missing
     * or unknown, 400 when it cannot be a key (not 43 characters).
     */
    const fetch = (raw: string | undefined) =>
      Effect.gen(function*() {
        if (raw === undefined || raw === "") {
          return yield* new Unauthorized({ message: `Missing required provisioner key (${PROVISIONER_KEY_HEADER}).` })
        }
        if (raw.length !== PROVISIONER_KEY_LENGTH) {
          return yield* BadRequest.field(
            PROVISIONER_KEY_HEADER,
            `A provisioner key is ${PROVISIONER_KEY_LENGTH} characters; this one has ${raw.length}.`,
            "Invalid provisioner key."
          )
        }
        const hashed = hashSecret(raw)
        const found = yield* repo.findByHashedSecret(hashed)
        if (Option.isNone(found) || !sameHash(found.value.hashed_secret, hashed)) {
          return yield* new Unauthorized({
            message: "Invalid provisioner key.",
            detail: `No provisioner key matches the ${PROVISIONER_KEY_HEADER} header.`
          })
        }
        return toProvisionerKey(found.value)
      }).pipe(span("ProvisionerKeys.fetch"))

    /** Whether the key still exists (a session re-checks after subscribing to its deletion). */
    const exists = (id: string) => Effect.map(repo.findById(id), Option.isSome)

    return {
      create,
      list,
      listDaemons,
      delete: remove,
      authenticate,
      fetch,
      exists,
      staleInterval: DAEMON_STALE_INTERVAL
    } as const
  })
}) {}
