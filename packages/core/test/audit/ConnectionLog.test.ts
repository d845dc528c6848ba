/**
 * Recording and reading the connection log through the AuditLogs service, on real
 * services over an in-memory SQLite storage with the TestClock. This is the API agents
 * will call: connect, then the disconnect of the same connection id; web requests once.
 */
import { describe, expect, it } from "@effect/vitest"
import { AuditLogs, BadRequest, type ConnectionEvent, CurrentActor, Forbidden, MemberRepo, Users } from "@workbay/core"
import { Duration, Effect } from "effect"
import * as TestClock from "effect/TestClock"
import { randomUUID } from "node:crypto"
import { OWNER_PASSWORD, services as servicesWith, signedInOwner } from "../services.js"

const T0 = Date.UTC(2024, 4, 6, 7, 8, 9, 123)
const PASSWORD = OWNER_PASSWORD
const services = servicesWith()

/** The first user (an owner) signed in, and their default organization. */
const setup = Effect.map(signedInOwner(T0), ({ actor, auth, organizationId, userId }) => ({
  auth,
  owner: actor,
  orgId: organizationId,
  ownerId: userId
}))

const asActor = <A, E, R>(actor: Effect.Effect.Success<typeof setup>["owner"], effect: Effect.Effect<A, E, R>) =>
  Effect.provideService(effect, CurrentActor, actor)

describe("connection log through AuditLogs", () => {
  it.effect("an ssh session: connect opens it, disconnect completes it once", () =>
    Effect.gen(function*() {
      const { owner, orgId, ownerId } = yield* setup
      const logs = yield* AuditLogs
      const connectionId = randomUUID()
      const workspaceId = randomUUID()
      const base: ConnectionEvent & { readonly connectionId: string } = {
        organizationId: orgId,
        workspaceOwnerId: ownerId,
        workspaceId,
        workspaceName: "dev",
        agentName: "main",
        type: "ssh",
        ip: "192.0.2.7",
        connectionId
      }
      const opened = yield* logs.connect(base)
      expect(opened).toMatchObject({
        connect_time: new Date(T0),
        disconnect_time: null,
        code: null,
        connection_id: connectionId
      })

      let page = yield* asActor(owner, logs.listConnections({ limit: 10 }))
      expect(page.count).toBe(1)
      expect(page.count_cap).toBe(2000)
      const [ongoing] = page.connection_logs
      expect(ongoing).toMatchObject({
        agent_name: "main",
        connect_time: new Date(T0),
        ip: "192.0.2.7",
        type: "ssh",
        workspace_id: workspaceId,
        workspace_name: "dev",
        workspace_owner_id: ownerId,
        workspace_owner_username: "admin",
        organization: { id: orgId, name: "coder", display_name: "Coder", icon: "" }
      })
      expect(ongoing!.ssh_info).toEqual({ connection_id: connectionId })
      expect(ongoing!.web_info).toBeUndefined()

      yield* TestClock.adjust(Duration.minutes(5))
      yield* logs.disconnect({ ...base, reason: "client disconnected", exitCode: 0 })
      yield* TestClock.adjust(Duration.minutes(5))
      // A second disconnect of the same connection changes nothing.
      yield* logs.disconnect({ ...base, reason: "again", exitCode: 255 })
      page = yield* asActor(owner, logs.listConnections({ limit: 10 }))
      expect(page.count).toBe(1)
      expect(page.connection_logs[0]!.connect_time).toEqual(new Date(T0))
      expect(page.connection_logs[0]!.ssh_info).toEqual({
        connection_id: connectionId,
        disconnect_time: new Date(T0 + 300_000),
        disconnect_reason: "client disconnected",
        exit_code: 0
      })
      const completed = yield* asActor(owner, logs.listConnections({ limit: 10, q: "status:completed" }))
      expect(completed.count).toBe(1)
      expect((yield* asActor(owner, logs.listConnections({ limit: 10, q: "status:ongoing" }))).count).toBe(0)
    }).pipe(Effect.provide(services)))

  it.effect("a disconnect seen before its connect still makes one entry with both times", () =>
    Effect.gen(function*() {
      const { owner, orgId, ownerId } = yield* setup
      const logs = yield* AuditLogs
      const base: ConnectionEvent & { readonly connectionId: string } = {
        organizationId: orgId,
        workspaceOwnerId: ownerId,
        workspaceId: randomUUID(),
        workspaceName: "dev",
        agentName: "main",
        type: "reconnecting_pty",
        connectionId: randomUUID()
      }
      yield* logs.disconnect({ ...base, time: new Date(T0 + 60_000), reason: "closed" })
      yield* logs.connect({ ...base, time: new Date(T0) })
      const page = yield* asActor(owner, logs.listConnections({ limit: 10 }))
      expect(page.count).toBe(1)
      expect(page.connection_logs[0]!.connect_time).toEqual(new Date(T0))
      expect(page.connection_logs[0]!.ssh_info).toEqual({
        connection_id: base.connectionId,
        disconnect_time: new Date(T0 + 60_000),
        disconnect_reason: "closed"
      })
    }).pipe(Effect.provide(services)))

  it.effect("web connections carry the slug or port, status code, user and user agent; each request is an entry", () =>
    Effect.gen(function*() {
      const { owner, orgId, ownerId } = yield* setup
      const logs = yield* AuditLogs
      const base: ConnectionEvent = {
        organizationId: orgId,
        workspaceOwnerId: ownerId,
        workspaceId: randomUUID(),
        workspaceName: "dev",
        agentName: "main",
        type: "workspace_app",
        slugOrPort: "code-server",
        statusCode: 200,
        userId: ownerId,
        userAgent: "Mozilla/5.0",
        ip: "198.51.100.1"
      }
      yield* logs.connect(base)
      yield* TestClock.adjust(Duration.seconds(1))
      yield* logs.connect({ ...base, type: "port_forwarding", slugOrPort: "8080", statusCode: 502, userId: undefined })
      const page = yield* asActor(owner, logs.listConnections({ limit: 10 }))
      expect(page.count).toBe(2)
      const [anonymous, signedIn] = page.connection_logs
      expect(anonymous!.ssh_info).toBeUndefined()
      expect(anonymous!.web_info).toMatchObject({
        slug_or_port: "8080",
        status_code: 502,
        user: null,
        user_agent: "Mozilla/5.0"
      })
      expect(signedIn!.web_info).toMatchObject({
        slug_or_port: "code-server",
        status_code: 200,
        user_agent: "Mozilla/5.0"
      })
      expect(signedIn!.web_info!.user).toMatchObject({ id: ownerId, username: "admin", organization_ids: [orgId] })
      expect(signedIn!.web_info!.user!.roles.map((r) => r.name)).toEqual(["owner"])
      // Web entries are neither ongoing nor completed.
      expect((yield* asActor(owner, logs.listConnections({ limit: 10, q: "status:ongoing" }))).count).toBe(0)
      expect((yield* asActor(owner, logs.listConnections({ limit: 10, q: "type:port_forwarding" }))).count).toBe(1)
    }).pipe(Effect.provide(services)))

  it.effect("refuses malformed events with validations", () =>
    Effect.gen(function*() {
      const { orgId, ownerId } = yield* setup
      const logs = yield* AuditLogs
      const base: ConnectionEvent = {
        organizationId: orgId,
        workspaceOwnerId: ownerId,
        workspaceId: randomUUID(),
        workspaceName: "dev",
        agentName: "main",
        type: "ssh"
      }
      const noId = yield* Effect.flip(logs.connect(base))
      expect(noId).toBeInstanceOf(BadRequest)
      expect(noId.validations?.map((v) => v.field)).toEqual(["connection_id"])
      const badIds = yield* Effect.flip(logs.connect({ ...base, workspaceId: "nope", connectionId: "x" }))
      expect(badIds.validations?.map((v) => v.field).sort()).toEqual(["connection_id", "workspace_id"])
      const web = yield* Effect.flip(logs.connect({ ...base, type: "workspace_app" }))
      expect(web.validations?.map((v) => v.field)).toEqual(["status_code"])
      const webDisconnect = yield* Effect.flip(
        logs.disconnect({ ...base, type: "workspace_app", statusCode: 200, connectionId: randomUUID() })
      )
      expect(webDisconnect.validations?.map((v) => v.field)).toEqual(["type"])
      const nul = yield* Effect.flip(logs.connect({ ...base, connectionId: randomUUID(), workspaceName: "a\u0000b" }))
      expect(nul.validations?.map((v) => v.field)).toEqual(["workspace_name"])
    }).pipe(Effect.provide(services)))

  it.effect("members may not read it; organization auditors read their organizations' entries only", () =>
    Effect.gen(function*() {
      const { auth, owner, orgId, ownerId } = yield* setup
      const logs = yield* AuditLogs
      const users = yield* Users
      const memberRepo = yield* MemberRepo
      const otherOrg = randomUUID()
      const event = (organizationId: string): ConnectionEvent => ({
        organizationId,
        workspaceOwnerId: ownerId,
        workspaceId: randomUUID(),
        workspaceName: "dev",
        agentName: "main",
        type: "ssh",
        connectionId: randomUUID()
      })
      yield* logs.connect(event(orgId))
      yield* logs.connect(event(otherOrg))
      yield* asActor(owner, users.create({ email: "m@example.com", username: "m", password: PASSWORD }))
      const member = yield* auth.authenticate((yield* auth.login("m@example.com", PASSWORD)).session_token)
      const denied = yield* Effect.flip(asActor(member, logs.listConnections({ limit: 10 })))
      expect(denied).toBeInstanceOf(Forbidden)

      yield* memberRepo.updateRoles(orgId, member.user.id, ["organization-auditor"], new Date(T0))
      const auditor = yield* auth.authenticate((yield* auth.login("m@example.com", PASSWORD)).session_token)
      const page = yield* asActor(auditor, logs.listConnections({ limit: 10 }))
      expect(page.count).toBe(1)
      expect(page.connection_logs[0]!.organization.id).toBe(orgId)
      expect((yield* asActor(owner, logs.listConnections({ limit: 10 }))).count).toBe(2)
    }).pipe(Effect.provide(services)))
})
