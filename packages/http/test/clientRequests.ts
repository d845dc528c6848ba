/**
 * The requests of the described system's own dashboard client (coder/coder `site/src/api/api.ts`
 * and the pages calling it), written out as data with their `null`s, empty strings and query
 * strings: each gets the success answer. Then what those values mean: `null`, absent and (in a
 * query) empty all mean "not given" (docs/api.md, Requests).
 *
 * Each area sends its routes' requests in `<area>/ClientRequests.test.ts`; this module holds the
 * server most of them share.
 */
import { afterAll, beforeAll, expect } from "vitest"
import {
  captureMail,
  type Client,
  createUser,
  type ServiceTestServer,
  startWithOwner,
  type TestUser
} from "./support.js"

/** A server and its first user (the owner), started before the calling file's (or describe's) tests and closed after them. */
export interface OwnerServer {
  readonly srv: ServiceTestServer
  readonly owner: Client
  readonly ownerId: string
  readonly orgId: string
}

type Filled<A> = { -readonly [K in keyof A]: A[K] }

export const ownerServer = (options?: Parameters<typeof startWithOwner>[0]): OwnerServer => {
  const server = {} as Filled<OwnerServer>
  beforeAll(async () => {
    const { srv, owner, ownerId, orgId } = await startWithOwner(options)
    Object.assign(server, { srv, owner, ownerId, orgId })
  })
  afterAll(() => server.srv?.close())
  return server
}

/** The server the dashboard's requests go to: its owner, a member (`dash-member`) and the mail it sends. */
export interface DashboardServer extends OwnerServer {
  readonly mail: ReturnType<typeof captureMail>
  readonly member: TestUser
}

/** An owner's server with a member and the mail it sends, for the calling file's (or describe's) tests. */
export const dashboardServer = (): DashboardServer => {
  const mail = captureMail()
  const server = ownerServer({ mail: mail.layer }) as Filled<DashboardServer>
  server.mail = mail
  beforeAll(async () => {
    server.member = await createUser(server.owner, { username: "dash-member" })
  })
  return server
}

/** Each GET answers 200: an empty query value is not given. */
export const expectAnswered = async (client: Client, paths: ReadonlyArray<string>) => {
  for (const path of paths) {
    const r = await client.get(path)
    expect(r.status, `${path} ${JSON.stringify(r.body)}`).toBe(200)
  }
}
