/** Workspace proxy rules without HTTP: tokens, the access URL rule, and the routes' service on an in-memory storage. */
import { describe, expect, it } from "@effect/vitest"
import { hashSecret, WorkspaceProxies, WorkspaceProxyRepo } from "@workbay/core"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import { newProxyToken, proxyUrlProblem } from "../../src/proxies/WorkspaceProxies.js"
import { services, signedInOwner } from "../services.js"

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0)

describe("proxy tokens", () => {
  it("are `<id>:<64 hex>`, and only the secret's hash is kept", () => {
    const id = randomUUID()
    const a = newProxyToken(id)
    const b = newProxyToken(id)
    expect(a.token).toMatch(new RegExp(`^${id}:[0-9a-f]{64}$`))
    expect(a.hashed).toBe(hashSecret(a.token.split(":")[1]!))
    expect(a.hashed).not.toContain(a.token.split(":")[1])
    expect(a.token).not.toBe(b.token)
  })
})

describe("proxyUrlProblem", () => {
  it("accepts http and https URLs with an empty path", () => {
    for (const ok of ["https://fra.example.com", "http://127.0.0.1:3001/", "https://fra.example.com:8443"]) {
      expect(proxyUrlProblem(ok), ok).toBeUndefined()
    }
  })
  it("refuses other schemes, paths, queries, credentials and non-URLs", () => {
    for (
      const bad of [
        "ftp://x.example.com",
        "https://x.example.com/sub",
        "https://x.example.com/?a=1",
        "https://u:p@x.example.com",
        "x.example.com",
        ""
      ]
    ) {
      expect(proxyUrlProblem(bad), bad).toBeDefined()
    }
  })
})

describe("WorkspaceProxies", () => {
  it.effect("creates a proxy unregistered, registers it with its token, and refuses the token once regenerated", () =>
    Effect.gen(function*() {
      const { as } = yield* signedInOwner(T0)
      const proxies = yield* WorkspaceProxies
      const made = yield* as(proxies.create({ name: "fra", display_name: "Frankfurt" }))
      expect(made.proxy.status?.status).toBe("unregistered")
      const stored = Option.getOrThrow(yield* Effect.flatMap(WorkspaceProxyRepo, (r) => r.findById(made.proxy.id)))
      expect(stored.token_hashed_secret).toBe(hashSecret(made.proxy_token.split(":")[1]!))
      const replica = randomUUID()
      yield* proxies.register(made.proxy_token, {
        access_url: "http://127.0.0.1:1/",
        replica_id: replica,
        derp_enabled: true
      })
      expect((yield* as(proxies.get("fra"))).path_app_url).toBe("http://127.0.0.1:1")
      const again = yield* as(proxies.update("fra", { regenerate_token: true }))
      const refused = yield* Effect.flip(
        proxies.register(made.proxy_token, { access_url: "http://127.0.0.1:1", replica_id: replica })
      )
      expect(refused._tag).toBe("Unauthorized")
      yield* proxies.register(again.proxy_token, { access_url: "http://127.0.0.1:1", replica_id: replica })
    }).pipe(Effect.provide(services())))

  it.effect("keeps the primary first, named primary, with the deployment's id and access URL", () =>
    Effect.gen(function*() {
      const { as } = yield* signedInOwner(T0)
      const proxies = yield* WorkspaceProxies
      yield* as(proxies.create({ name: "ams" }))
      const list = yield* as(proxies.list)
      expect(list.regions[0]).toMatchObject({
        name: "primary",
        id: "00000000-0000-4000-8000-000000000000",
        path_app_url: "https://dev.example.com",
        healthy: true
      })
      expect(list.regions.map((r) => r.name)).toEqual(["primary", "ams"])
      const failed = yield* Effect.flip(as(proxies.delete("primary")))
      expect(failed._tag).toBe("BadRequest")
    }).pipe(Effect.provide(services({ accessUrl: "https://dev.example.com/" }))))
})
