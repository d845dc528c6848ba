/**
 * External auth across replicas on one Postgres schema: an agent waiting with `listen` on replica
 * B gets its owner's token once the owner linked through replica A (the owner's PubSub channel
 * over LISTEN/NOTIFY, or the re-read), and an expired link refreshed on A is read refreshed on B.
 */
import { ExternalAuthLinkRepo } from "@workbay/core"
import * as Postgres from "@workbay/storage-postgres"
import { Effect, Option } from "effect"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { recordingProvisioner } from "../../http/test/agents/fixtures.js"
import {
  linkThroughBrowser,
  type ProviderServer,
  providerSettings,
  startProvider
} from "../../http/test/externalauth/provider.js"
import { bootstrapOwner, createUser, type ServiceTestServer, startServiceTestServer } from "../../http/test/support.js"
import { makeTemplate, makeWorkspace } from "../../http/test/workspaces/fixtures.js"

const url = inject("workbayPgUrl")

describe.skipIf(url === null)("external auth across replicas on Postgres", () => {
  let provider: ProviderServer
  let a: ServiceTestServer
  let b: ServiceTestServer
  const handed = new Map<string, Map<string, string>>()
  beforeAll(async () => {
    provider = await startProvider()
    const schema = `x_${randomBytes(6).toString("hex")}`
    const options = {
      hangDetector: false,
      retention: false,
      lifecycle: false,
      provisioners: [recordingProvisioner(["main"], handed)],
      settings: { externalAuth: providerSettings(provider.url) }
    } as const
    a = await startServiceTestServer({ storage: Postgres.layer({ url: url!, schema, maxConnections: 3 }), ...options })
    b = await startServiceTestServer({ storage: Postgres.layer({ url: url!, schema, maxConnections: 3 }), ...options })
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
    await provider?.close()
  })

  it("an agent listening on B gets the token the owner linked through A; a refresh on A is seen on B", async () => {
    const { client: owner, organizationId } = await bootstrapOwner(a)
    const dev = await createUser(owner, { username: "pg-ext-dev" })
    const template = await makeTemplate(
      a,
      owner,
      organizationId,
      "resources:\n  - name: box\n    type: machine\n    agents:\n      - name: main\n"
    )
    const w = await makeWorkspace(a, dev.client, organizationId, template.id)
    const token = handed.get(w.id)!.get("main")!
    const ask = (path: string) =>
      fetch(`${b.url}/api/v2${path}`, { headers: { "Service-Session-Token": token } }).then(async (r) => ({
        status: r.status,
        body: await r.json() as any
      }))

    const waiting = ask(
      `/workspaceagents/me/external-auth?listen=true&match=${encodeURIComponent("https://github.example/org/repo")}`
    )
    const linked = await linkThroughBrowser(provider, a.url, dev.client, "github")
    expect(linked.done.status).toBe(307)
    const answer = await waiting
    expect(answer.status).toBe(200)
    const stored = await a.run(Effect.flatMap(ExternalAuthLinkRepo, (r) => r.find("github", dev.user.id))).then(
      Option.getOrThrow
    )
    expect(answer.body.access_token).toBe(stored.oauth_access_token)

    // Expired: the first use (on A) refreshes; B then answers the new token.
    await a.run(
      Effect.flatMap(
        ExternalAuthLinkRepo,
        (r) => r.updateTokens({ ...stored, oauth_expiry: new Date(Date.now() - 60_000) }, stored.oauth_refresh_token)
      )
    )
    expect((await dev.client.get("/external-auth")).body.links[0].authenticated).toBe(true)
    const refreshed = await b.run(Effect.flatMap(ExternalAuthLinkRepo, (r) => r.find("github", dev.user.id))).then(
      Option.getOrThrow
    )
    expect(refreshed.oauth_access_token).not.toBe(stored.oauth_access_token)
    expect((await ask("/workspaceagents/me/external-auth?id=github")).body.access_token).toBe(
      refreshed.oauth_access_token
    )
  })
})
