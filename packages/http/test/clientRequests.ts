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

/** The server the dashboard's requests go to: its owner, a member (`dash-member`) and the mail it sends. */
export interface DashboardServer {
  readonly mail: ReturnType<typeof captureMail>
  readonly srv: ServiceTestServer
  readonly owner: Client
  readonly ownerId: string
  readonly orgId: string
  readonly member: TestUser
}

/** A server started before the calling file's (or describe's) tests and closed after them. */
export const dashboardServer = (): DashboardServer => {
  const mail = captureMail()
  const server = { mail } as { -readonly [K in keyof DashboardServer]: DashboardServer[K] }
  beforeAll(async () => {
    const { srv, owner, ownerId, orgId } = await startWithOwner({ mail: mail.layer })
    Object.assign(server, { srv, owner, ownerId, orgId, member: await createUser(owner, { username: "dash-member" }) })
  })
  afterAll(() => server.srv?.close())
  return server
}

/** Each GET answers 200: an empty query value is not given. */
export const expectAnswered = async (client: Client, paths: ReadonlyArray<string>) => {
  for (const path of paths) {
    const r = await client.get(path)
    expect(r.status, `${path} ${JSON.stringify(r.body)}`).toBe(200)
  }
}
