/**
 * The role table's machinery: for every site and organization role, each resource kind and action is
 * tried through the real route that performs it, and POST /authcheck must answer the same. Each area
 * keeps the rows of its routes in `<area>/accessRows.ts` and runs them with `describeAccessTable` in
 * `<area>/AccessTable.test.ts`; `AccessTable.test.ts` at the root checks what the rows cover together.
 *
 * One server per area file; one user per role, made through the API (organization roles through the
 * member-roles route) and a member of the organization `org` when the role is an organization role;
 * every case runs in sequence on fresh fixtures where it changes state.
 *
 * Expected statuses follow the rule of docs/authorization.md: a refused action answers 403,
 * or 404 when the caller may not even see the thing (an organization they are not in).
 * WebSocket routes are tried with a real handshake (101 when it opens). An agent's own route
 * (authenticated by the agent's token, never by a user's session) answers 401 to every role, and
 * authcheck is not asked there: no role's permission decides it.
 */
import { ProvisionerJobs } from "@workbay/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  addMemberWithRoles,
  type Client,
  createOrganization,
  createUser,
  type ServiceTestServer,
  SESSION_HEADER,
  startWithOwner,
  STRONG_PASSWORD
} from "./support.js"
import { connect, refusal } from "./websocket.js"

/** The status of a streaming GET (server-sent events); the stream is dropped once the status is in. */
const streamStatus = async (client: Client, path: string) => {
  const controller = new AbortController()
  const r = await fetch(`${client.baseUrl}${path}`, {
    headers: { [SESSION_HEADER]: client.token! },
    signal: controller.signal
  })
  const body = r.status === 200 ? undefined : await r.json()
  controller.abort()
  return { status: r.status, body }
}

/** The status of a WebSocket handshake (101 when it opened; the socket is closed at once). */
const upgradeStatus = async (wsUrl: string, client: Client, path: string) => {
  try {
    const ws = await connect(`${wsUrl}/api/v2${path}`, { [SESSION_HEADER]: client.token! })
    ws.socket.close(1000)
    await ws.closed
    return { status: 101, body: undefined }
  } catch (e) {
    const r = await refusal(Promise.reject(e))
    return { status: r.status, body: r.body }
  }
}

export const ROLES = [
  "owner",
  "member",
  "auditor",
  "template-admin",
  "user-admin",
  "organization-admin",
  "organization-member",
  "organization-auditor",
  "organization-user-admin",
  "organization-template-admin"
] as const
export type Role = (typeof ROLES)[number]
export const isOrgRole = (role: Role) => role.startsWith("organization-")

export interface RoleUser {
  readonly role: Role
  readonly client: Client
  readonly id: string
}

/** What one case sends, and the authorization check that must agree with it. */
export interface Attempt {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"
  readonly path: string
  readonly body?: unknown
  /** A raw body (an uploaded file) instead of JSON. */
  readonly raw?: { readonly text: string; readonly contentType: string }
  /** The answer is a stream (server-sent events): only its status is read. */
  readonly stream?: true
  /** A WebSocket route: the handshake's status is read (101 when opened), and the socket closed. */
  readonly websocket?: true
  /** What POST /authcheck must answer alike; absent for a route no user's role decides (an agent's own). */
  readonly check?: { readonly action: string; readonly object: Record<string, unknown> }
}

export interface Row {
  readonly kind: string
  readonly action: string
  readonly route: string
  /** Expected status per role, in the order of ROLES. */
  readonly expected: readonly [number, number, number, number, number, number, number, number, number, number]
  readonly attempt: (who: RoleUser) => Promise<Attempt>
}

/** An area's rows, made at collection time over a table whose data `setUp` fills before any row runs. */
export type AreaRows = (tbl: AccessTable) => ReadonlyArray<Row>

/** What the rows share: the server, the setup owner, one user per role and the data made before the rows run. */
export class AccessTable {
  srv!: ServiceTestServer
  admin!: Client
  adminId!: string
  /** The organization the organization roles are held in. */
  org!: { id: string; name: string }
  /** The default organization, which every user is a member of. */
  defaultOrg!: string
  /** A plain member of `org`. */
  someone!: string
  /** A group of `org`. */
  group!: string
  groupName!: string
  /** A file the setup owner uploaded. */
  file!: string
  /** A provisioner job of `org` (of a type no worker serves, so it stays pending). */
  job!: string
  /** A template version (of no template) in `org`, made by the setup owner from a file of theirs. */
  version!: string
  readonly users = new Map<Role, RoleUser>()
  private counter = 0
  private customRoles = 0
  private readonly closers: Array<() => void> = []
  private readonly made = new Map<(tbl: AccessTable) => unknown, unknown>()

  readonly unique = (prefix: string) => `${prefix}-${++this.counter}`

  /** The name of the next custom role of `org` (made by a row or by `customRole`). */
  readonly customRoleName = () => `tbl-role-${++this.customRoles}`

  /** A plain user made by the setup owner (no session needed). */
  readonly plainUser = async () => {
    const name = this.unique("tbl-user")
    const r = await this.admin.post("/users", {
      email: `${name}@example.com`,
      username: name,
      password: STRONG_PASSWORD
    })
    if (r.status !== 201) throw new Error(`user: ${r.status} ${JSON.stringify(r.body)}`)
    return r.body.id as string
  }

  /** A plain member of `org`. */
  readonly orgMember = async () => {
    const id = await this.plainUser()
    await addMemberWithRoles(this.admin, this.org.id, id)
    return id
  }

  /** A custom role of `org`, made by the setup owner; answers its name. */
  readonly customRole = async () => {
    const name = this.customRoleName()
    const r = await this.admin.post(`/organizations/${this.org.id}/members/roles`, { name })
    if (r.status !== 200) throw new Error(`custom role: ${r.status} ${JSON.stringify(r.body)}`)
    return name
  }

  readonly newGroup = async () => {
    const r = await this.admin.post(`/organizations/${this.org.id}/groups`, { name: this.unique("tbl-group") })
    if (r.status !== 201) throw new Error(`group: ${r.status} ${JSON.stringify(r.body)}`)
    return r.body.id as string
  }

  /** Helpers made once per table (their fixtures are made on first use), whichever area's rows ask first. */
  readonly once = <A>(make: (tbl: AccessTable) => A): A => {
    if (!this.made.has(make)) this.made.set(make, make(this))
    return this.made.get(make) as A
  }

  /** Runs `close` when the table's server closes. */
  readonly onClose = (close: () => void) => {
    this.closers.push(close)
  }

  /** Starts the server and makes the users and data every row may use. */
  readonly setUp = async () => {
    ;({ srv: this.srv, owner: this.admin, ownerId: this.adminId, orgId: this.defaultOrg } = await startWithOwner({
      settings: { allowWorkspaceRenames: true }
    }))
    const admin = this.admin
    this.org = await createOrganization(admin, "table-org")
    for (const role of ROLES) {
      const siteRoles = role === "member" || isOrgRole(role) ? [] : [role]
      const made = await createUser(admin, { username: `tbl-${role}`, roles: siteRoles })
      if (isOrgRole(role)) {
        await addMemberWithRoles(admin, this.org.id, made.user.id, role === "organization-member" ? [] : [role])
      }
      this.users.set(role, { role, client: made.client, id: made.user.id })
    }
    this.someone = await this.orgMember()
    this.group = await this.newGroup()
    this.groupName = (await admin.get(`/groups/${this.group}`)).body.name
    const up = await admin.request("POST", "/files", undefined, {
      raw: "the owner's archive",
      headers: { "content-type": "application/x-tar" }
    })
    if (up.status !== 201) throw new Error(`file: ${up.status} ${JSON.stringify(up.body)}`)
    this.file = up.body.hash
    this.job = await this.srv.run(Effect.flatMap(ProvisionerJobs, (jobs) =>
      jobs.enqueue({
        organization_id: this.org.id,
        initiator_id: this.adminId,
        provisioner: "terraform",
        type: "template_version_import",
        file_id: this.file,
        input: {},
        tags: {}
      }))).then((j) => j.id)
    const source = await admin.request("POST", "/files", undefined, {
      raw: "the version's archive",
      headers: { "content-type": "application/x-tar" }
    })
    const v = await admin.post(`/organizations/${this.org.id}/templateversions`, {
      storage_method: "file",
      file_id: source.body.hash,
      provisioner: "workbay"
    })
    if (v.status !== 201) throw new Error(`version: ${v.status} ${JSON.stringify(v.body)}`)
    this.version = v.body.id
  }

  readonly close = async () => {
    for (const close of this.closers) close()
    await this.srv?.close()
  }
}

/** One role's case of a row: the route answers the row's status, and authcheck agrees. */
const tryRow = async (tbl: AccessTable, row: Row, role: Role, status: number) => {
  const who = tbl.users.get(role)!
  const attempt = await row.attempt(who)
  const answer = attempt.check === undefined
    ? undefined
    : await who.client.post("/authcheck", { checks: { case: attempt.check } })
  if (answer !== undefined) expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  const r = attempt.websocket === true
    ? await upgradeStatus(tbl.srv.wsUrl, who.client, attempt.path)
    : attempt.stream === true
    ? await streamStatus(who.client, attempt.path)
    : attempt.raw === undefined
    ? await who.client.request(attempt.method, attempt.path, attempt.body)
    : await who.client.request(attempt.method, attempt.path, undefined, {
      raw: attempt.raw.text,
      headers: { "content-type": attempt.raw.contentType }
    })
  expect(r.status, `${attempt.method} ${attempt.path} -> ${JSON.stringify(r.body)}`).toBe(status)
  if (answer !== undefined) {
    expect(answer.body.case, `authcheck ${JSON.stringify(attempt.check)}`).toBe(status < 300)
  }
}

/**
 * The access table of one area: a table set up before its rows, each row tried by every role in
 * turn. `more` adds the area's own tests over the same table.
 */
export const describeAccessTable = (rows: AreaRows, more?: (tbl: AccessTable) => void) =>
  describe("access table", () => {
    const tbl = new AccessTable()
    beforeAll(tbl.setUp)
    afterAll(tbl.close)
    more?.(tbl)
    for (const row of rows(tbl)) {
      describe(`${row.kind} ${row.action} (${row.route})`, () => {
        ROLES.forEach((role, index) => {
          const status = row.expected[index]!
          it(`${role}: ${status < 300 ? "allowed" : "refused"} (${status})`, () => tryRow(tbl, row, role, status))
        })
      })
    }
  })
