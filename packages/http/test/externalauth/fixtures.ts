/**
 * A server with external auth providers (on a local provider), a wildcard app host, a member
 * linked to GitHub and an agent of theirs: made once, for the shared tables' rows.
 */
import { recordingProvisioner } from "../agents/fixtures.js"
import { type Client, createUser, type ServiceTestServer, startWithOwner, type TestUser } from "../support.js"
import { makeTemplate, makeWorkspace } from "../workspaces/fixtures.js"
import { linkThroughBrowser, type ProviderServer, providerSettings, startProvider } from "./provider.js"

export interface ExternalAuthWorld {
  readonly provider: ProviderServer
  readonly srv: ServiceTestServer
  readonly owner: Client
  /** A member linked to `github` (web flow). */
  readonly member: TestUser
  /** The agent of a workspace of `member`. */
  readonly agent: Client
  /** Runs the web flow for `client` and provider `id`. */
  readonly link: (client: Client, id: string) => ReturnType<typeof linkThroughBrowser>
}

let world: Promise<ExternalAuthWorld> | undefined

const TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
      - name: main
`

export const externalAuthWorld = (): Promise<ExternalAuthWorld> =>
  world ??= (async () => {
    const provider = await startProvider()
    const handed = new Map<string, Map<string, string>>()
    const { srv, owner, orgId } = await startWithOwner({
      provisioners: [recordingProvisioner(["main"], handed)],
      lifecycle: false,
      settings: { externalAuth: providerSettings(provider.url), wildcardAccessUrl: "*.apps.example.test" }
    })
    const member = await createUser(owner, { username: "linked-member" })
    const link = (client: Client, id: string) => linkThroughBrowser(provider, srv.url, client, id)
    await link(member.client, "github")
    const template = await makeTemplate(srv, owner, orgId, TEMPLATE)
    const w = await makeWorkspace(srv, member.client, orgId, template.id)
    const agent = member.client.as(handed.get(w.id)!.get("main")!)
    return { provider, srv, owner, member, agent, link }
  })()

/** Closes the world if it was made. */
export const closeExternalAuthWorld = async () => {
  if (world === undefined) return
  const w = await world
  world = undefined
  await w.srv.close()
  await w.provider.close()
}
