/**
 * The response schema table's machinery: every success response of every endpoint, checked against
 * the JSON Schema of its type as the public reference describes it (schemas/ResponseSchemas.ts):
 * fields, types, required fields, enums, formats (uuid, uri, email, date-time) and the fields that are
 * left out when empty. Real HTTP on a real port, over data that has every shape: users with and
 * without names and avatars, a service account, deleted users, organizations, groups (the Everyone
 * group too), tokens, audit entries of anonymous and failed logins, and connection log entries of
 * every kind.
 *
 * Each area keeps the rows of its endpoints in `<area>/responseRows.ts` and runs them with
 * `describeResponseSchemas` in `<area>/ResponseSchemas.test.ts`, on a world of its own;
 * `ResponseSchemas.test.ts` at the root fails when an endpoint of the WorkbayApi definition has no
 * row, so new endpoints join the table.
 */
import { AuditLogs, type ConnectionEvent, type DisconnectEvent, UserRepo } from "@workbay/core"
import { Effect } from "effect"
import { createHash, randomUUID } from "node:crypto"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeValidator, type SchemaName } from "./schemas/ResponseSchemas.js"
import {
  addMemberWithRoles,
  captureMail,
  type Client,
  createOrganization,
  createUser,
  type Reply,
  type ServiceTestServer,
  sessionClient,
  startWithOwner,
  STRONG_PASSWORD,
  type TestUser,
  tokenClient
} from "./support.js"
import { makeTemplate } from "./templates/fixtures.js"
import { makeWorkspace } from "./workspaces/sharingFixtures.js"

/** What the rows share: the server, callers, and the data made before the rows run. */
export interface World {
  readonly srv: ServiceTestServer
  readonly owner: Client
  readonly ownerId: string
  readonly orgId: string
  /** A member with a display name, an avatar and a theme, admin of `org`. */
  readonly alice: TestUser
  /** A member with none of those. */
  readonly bob: TestUser
  /** A service account (login type none). */
  readonly robotId: string
  /** A second organization, with display name, description and icon. */
  readonly org: { readonly id: string; readonly name: string }
  /** Groups of the default organization: one with an avatar and members, one bare. */
  readonly devs: { readonly id: string }
  readonly bare: { readonly id: string }
  readonly tokenName: string
  /** A template of the default organization with a user and a group in its access list. */
  readonly template: { readonly id: string; readonly name: string }
  /** A workspace of bob's on `template`, shared with alice (admin) and the group `devs` (use). */
  readonly workspace: { readonly id: string }
  readonly mail: ReturnType<typeof captureMail>
}

export interface Row {
  /** The HttpApi group and endpoint names. */
  readonly endpoint: `${string}.${string}`
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"
  /** As the HttpApi definition declares it (`:param`). */
  readonly path: string
  readonly status: number
  /**
   * The reference type of the body, `[Type]` for a list, `none` for no body, or `binary <content type>`
   * for bytes (the content type is checked, the bytes against the upload in the row).
   */
  readonly schema: SchemaName | "none" | `binary ${string}`
  /** Sends the request (as many as make the shapes worth checking); every reply is checked. */
  readonly call: (w: World) => Promise<Reply | ReadonlyArray<Reply>>
}

export const row = (
  endpoint: Row["endpoint"],
  route: `${Row["method"]} ${string}`,
  status: number,
  schema: Row["schema"],
  call: Row["call"]
): Row => {
  const [method, path] = route.split(" ") as [Row["method"], string]
  return { endpoint, method, path, status, schema, call }
}

export const AVATAR = "https://example.com/avatars/alice.png"
/** The bytes of the agent executable the rows' server serves. */
const sha256Hex = (text: string) => createHash("sha256").update(text).digest("hex")

export const FAKE_AGENT = "a fake agent"
/** The `workbay` executable the rows' server serves (`cliBinaries`). */
export const FAKE_CLI = "a fake workbay command"
export const GROUP_AVATAR = "https://example.com/groups/devs.png"

/** A fixture made once per world (per test file), on its first use by a row. */
export const perWorld = <A>(make: (w: World) => Promise<A>) => {
  const made = new WeakMap<World, Promise<A>>()
  return (w: World): Promise<A> => {
    let fixture = made.get(w)
    if (fixture === undefined) {
      fixture = make(w)
      made.set(w, fixture)
    }
    return fixture
  }
}

/** Makes the users, organizations, groups, tokens and log entries the rows read. */
const seed = async (): Promise<World> => {
  const mail = captureMail()
  const binaries = mkdtempSync(join(tmpdir(), "workbay-bin-rows-"))
  writeFileSync(join(binaries, "workbay-agent-linux-amd64"), FAKE_AGENT)
  writeFileSync(join(binaries, "workbay-linux-amd64"), FAKE_CLI)
  const { srv, owner, ownerId, orgId } = await startWithOwner({
    mail: mail.layer,
    agentBinaries: binaries,
    cliBinaries: binaries
  })
  const named = async (username: string, name: string) => {
    const email = `${username}@example.com`
    const r = await owner.post("/users", { email, username, name, password: STRONG_PASSWORD })
    if (r.status !== 201) throw new Error(`create user: ${r.status} ${JSON.stringify(r.body)}`)
    return { client: await sessionClient(owner, email), user: r.body, username, email } as TestUser
  }
  const alice = await named("alice", "Alice Liddell")
  await srv.run(Effect.flatMap(UserRepo, (users) => users.update(alice.user.id, { avatar_url: AVATAR })))
  await alice.client.put("/users/me/appearance", { theme_preference: "dark" })
  const bob = await createUser(owner, { username: "bob" })
  const robot = await owner.post("/users", {
    email: "robot@example.com",
    username: "robot",
    login_type: "none",
    service_account: true
  })
  if (robot.status !== 201) throw new Error(`service account: ${robot.status} ${JSON.stringify(robot.body)}`)

  const org = await owner.post("/organizations", {
    name: "acme",
    display_name: "Acme Inc.",
    description: "Makers of everything.",
    icon: "https://example.com/acme.svg"
  })
  await addMemberWithRoles(owner, org.body.id, alice.user.id, ["organization-admin"])

  const devs = await owner.post(`/organizations/${orgId}/groups`, {
    name: "devs",
    display_name: "Developers",
    avatar_url: GROUP_AVATAR,
    quota_allowance: 5
  })
  await owner.patch(`/groups/${devs.body.id}`, { add_users: [alice.user.id, bob.user.id, "me"] })
  await owner.put(`/groups/${devs.body.id}/ai/budget`, { spend_limit_micros: 5_000_000 })
  const bare = await owner.post(`/organizations/${orgId}/groups`, { name: "bare" })

  const tokenName = "ci-token"
  await tokenClient(owner, { token_name: tokenName, lifetime: 24 * 3600 * 1e9 })

  // Audit entries of every kind: anonymous and failed logins, a user who later leaves.
  await srv.anonymous.post("/users/login", { email: "nobody@example.com", password: "Wrong-Password-1" })
  await srv.anonymous.post("/users/login", { email: bob.email, password: "Wrong-Password-1" })
  const leaver = await createUser(owner, { username: "leaver" })
  await leaver.client.put("/users/me/appearance", { theme_preference: "light" })
  await tokenClient(leaver.client, { token_name: "leaver-token" })
  await owner.delete(`/users/${leaver.user.id}`)
  const gone = await createOrganization(owner, "gone-org")
  await owner.delete(`/organizations/${gone.id}`)

  // Connection log entries: open and closed sessions, an app with and without a user,
  // an entry of an organization that no longer exists.
  const ws = randomUUID()
  const session = (extra: Partial<DisconnectEvent> = {}): DisconnectEvent => ({
    organizationId: orgId,
    workspaceOwnerId: alice.user.id,
    workspaceId: ws,
    workspaceName: "alice-ws",
    agentName: "main",
    type: "ssh",
    ip: "192.0.2.10",
    connectionId: randomUUID(),
    ...extra
  })
  const web = (extra: Partial<ConnectionEvent>): ConnectionEvent => ({
    organizationId: orgId,
    workspaceOwnerId: alice.user.id,
    workspaceId: ws,
    workspaceName: "alice-ws",
    agentName: "main",
    type: "workspace_app",
    ip: "198.51.100.3",
    slugOrPort: "code-server",
    statusCode: 200,
    userAgent: "Mozilla/5.0",
    ...extra
  })
  const closed = session({ type: "vscode" })
  await srv.run(
    Effect.flatMap(AuditLogs, (logs) =>
      Effect.all(
        [
          logs.connect(session()),
          logs.connect(closed),
          logs.disconnect({ ...closed, reason: "exited", exitCode: 0 }),
          logs.disconnect(session({ type: "jetbrains", reason: "" })),
          logs.connect(web({ userId: bob.user.id })),
          logs.connect(web({ type: "port_forwarding", slugOrPort: "8080", statusCode: 502 })),
          logs.connect(session({ organizationId: gone.id, workspaceOwnerId: leaver.user.id, type: "reconnecting_pty" }))
        ],
        { concurrency: 1 }
      ))
  )

  // A template with a user, a group and the Everyone group in its access list; one deprecated.
  const template = await makeTemplate(srv, owner, { organizationId: orgId, createdBy: ownerId, name: "shared" })
  await owner.patch(`/templates/${template.id}/acl`, {
    user_perms: { [alice.user.id]: "admin" },
    group_perms: { [devs.body.id]: "use" }
  })
  // A workspace of bob's shared with alice and the group devs.
  const workspace = await makeWorkspace(srv, {
    organizationId: orgId,
    ownerId: bob.user.id,
    templateId: template.id,
    userAcl: { [alice.user.id]: "admin" },
    groupAcl: { [devs.body.id]: "use" }
  })
  const old = await makeTemplate(srv, owner, {
    organizationId: orgId,
    createdBy: ownerId,
    name: "old",
    body: { display_name: "Old" }
  })
  await owner.patch(`/templates/${old.id}`, { deprecation_message: "Use shared." })

  return {
    srv,
    owner,
    ownerId,
    orgId,
    template,
    workspace,
    alice,
    bob,
    robotId: robot.body.id,
    org: org.body,
    devs: devs.body,
    bare: bare.body,
    tokenName,
    mail
  }
}

const describeErrors = (validate: ReturnType<ReturnType<typeof makeValidator>>, body: unknown) =>
  (validate.errors ?? [])
    .map(
      (e) =>
        `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)} (value: ${
          JSON.stringify(
            e.instancePath
              .split("/")
              .slice(1)
              .reduce<any>((v, k) => v?.[k], body)
          )
        })`
    )
    .join("\n")

/** The response schemas of one area's rows, each row on a world seeded before them. */
export const describeResponseSchemas = (rows: ReadonlyArray<Row>) =>
  describe("response schemas", () => {
    const validator = makeValidator()
    let world: World

    beforeAll(async () => {
      world = await seed()
    })
    afterAll(() => world?.srv.close())

    for (const row of rows) {
      it(`${row.method} ${row.path} answers ${row.schema}`, async () => {
        const replies = await row.call(world)
        for (const reply of Array.isArray(replies) ? replies : [replies as Reply]) {
          expect(reply.status, JSON.stringify(reply.body)).toBe(row.status)
          if (row.schema === "none") {
            expect(reply.body).toBeUndefined()
            continue
          }
          if (row.schema.startsWith("binary ")) {
            expect(reply.headers.get("content-type")).toBe(row.schema.slice("binary ".length))
            // The file row downloads the text it uploaded; the build state is the provisioner's JSON.
            if (row.endpoint === "files.get") expect(reply.body).toBe("a download")
            // The authorization pages are HTML.
            else if (row.schema.includes("text/html")) expect(reply.body).toMatch(/^<!doctype html>/)
            else if (row.endpoint === "agentBinaries.initScript") expect(reply.body).toMatch(/^#!\/usr\/bin\/env sh\n/)
            else if (row.endpoint === "agentBinaries.binary") expect(reply.body).toBe(FAKE_AGENT)
            else if (row.endpoint === "agentBinaries.cliBinary") expect(reply.body).toBe(FAKE_CLI)
            else if (row.endpoint === "agentBinaries.binaryChecksum") {
              expect(reply.body).toBe(`${sha256Hex(FAKE_AGENT)}  workbay-agent-linux-amd64\n`)
            } else if (row.endpoint === "agentBinaries.cliBinaryChecksum") {
              expect(reply.body).toBe(`${sha256Hex(FAKE_CLI)}  workbay-linux-amd64\n`)
            } else expect(typeof reply.body).toBe("object")
            continue
          }
          const validate = validator(row.schema as SchemaName)
          const ok = validate(reply.body)
          expect(ok, `${row.endpoint} does not match ${row.schema}:\n${describeErrors(validate, reply.body)}`).toBe(
            true
          )
        }
      })
    }

    it("checks replies that carry the shapes worth checking", async () => {
      // The data above must reach the shapes the schemas constrain, or the rows prove little.
      const users = (await world.owner.get("/users")).body.users as Array<Record<string, unknown>>
      const alice = users.find((u) => u.username === "alice")!
      const bob = users.find((u) => u.username === "bob")!
      expect(alice).toMatchObject({ name: "Alice Liddell", avatar_url: AVATAR, theme_preference: "dark" })
      expect(bob).not.toHaveProperty("avatar_url")
      expect(bob).not.toHaveProperty("name")
      expect(users.find((u) => u.username === "robot")).toMatchObject({ is_service_account: true })
      const entries = (await world.owner.get("/audit?limit=1000")).body.audit_logs as Array<Record<string, any>>
      expect(entries.some((e) => e.user === null)).toBe(true)
      expect(entries.some((e) => e.is_deleted === true)).toBe(true)
      expect(entries.some((e) => e.action === "login" && e.status_code >= 400)).toBe(true)
      expect(entries.some((e) => e.resource_type === "api_key")).toBe(true)
      const connections = (await world.owner.get("/connectionlog?limit=100")).body.connection_logs as Array<
        Record<string, any>
      >
      expect(new Set(connections.map((c) => c.type)).size).toBe(6)
      expect(connections.some((c) => c.web_info?.user === null)).toBe(true)
    })
  })
