/**
 * External auth rules without HTTP: the providers made from the setting (each type's defaults,
 * the problems of a bad setting), the numbered environment variables, the agent's answer per
 * type, and `listen` on the real service over in-memory SQLite with the TestClock: woken by the
 * owner's link (signal or re-read), and answering the sign-in URL once its time is up.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  CurrentAgent,
  ExternalAuth,
  externalAuthFromEnv,
  type ExternalAuthLinkRecord,
  ExternalAuthLinkRepo,
  PubSub,
  resolveProviders,
  UserRepo
} from "@workbay/core"
import { Duration, Effect, Either, Fiber, Option } from "effect"
import * as TestClock from "effect/TestClock"
import {
  agentTokenResponse,
  externalAuthChannel,
  LISTEN_REREAD,
  LISTEN_TIMEOUT
} from "../../src/externalauth/ExternalAuth.js"
import { services, signedInOwner } from "../services.js"

const resolve = (configs: Parameters<typeof resolveProviders>[0]) =>
  resolveProviders(configs, "https://dev.example.com/")

describe("providers from the external_auth setting", () => {
  it("github takes GitHub's endpoints, regex and scopes; its id defaults to the type", () => {
    const [p] = Either.getOrThrow(resolve([{ type: "github", client_id: "abc", client_secret: "s" }]))
    expect(p).toMatchObject({
      id: "github",
      authUrl: "https://github.com/login/oauth/authorize",
      tokenUrl: "https://github.com/login/oauth/access_token",
      validateUrl: "https://api.github.com/user",
      revokeUrl: "https://api.github.com/applications/abc/grant",
      scopes: ["repo", "workflow"],
      displayName: "GitHub",
      deviceCodeUrl: undefined,
      redirectUrl: "https://dev.example.com/api/v2/external-auth/github/callback"
    })
    expect(p!.regex!.test("https://github.com/coder/coder.git")).toBe(true)
    expect(p!.regex!.test("https://gitlab.com/x")).toBe(false)
  })

  it("gitlab on a self-hosted auth URL takes that host for every endpoint and the regex", () => {
    const [p] = Either.getOrThrow(
      resolve([{ type: "gitlab", client_id: "c", auth_url: "https://git.corp.example/oauth/authorize" }])
    )
    expect(p).toMatchObject({
      tokenUrl: "https://git.corp.example/oauth/token",
      validateUrl: "https://git.corp.example/oauth/token/info",
      revokeUrl: "https://git.corp.example/oauth/revoke",
      displayName: "GitLab"
    })
    expect(p!.regex!.test("https://git.corp.example/group/repo.git")).toBe(true)
  })

  it("a generic provider needs its URLs; the problems name each provider", () => {
    const bad = resolve([
      { type: "jfrog", client_id: "c" },
      { type: "github", client_id: "" },
      { type: "github", id: "Bad id!", client_id: "c" },
      {
        type: "generic",
        id: "x",
        client_id: "c",
        auth_url: "https://a.example/",
        token_url: "https://a.example/t",
        regex: "("
      },
      { type: "github", id: "dev", client_id: "c", device_flow: true, device_code_url: "" },
      { type: "github", id: "dup", client_id: "c" },
      { type: "gitlab", id: "dup", client_id: "c" }
    ])
    expect(Either.isLeft(bad)).toBe(true)
    const problems = Either.getLeft(bad).pipe(Option.getOrThrow)
    expect(problems).toHaveLength(5)
    expect(problems.join("\n")).toMatch(/"jfrog" needs a token_url/)
    expect(problems.join("\n")).toMatch(/"github" needs a client_id/)
    expect(problems.join("\n")).toMatch(/"Bad id!"/)
    expect(problems.join("\n")).toMatch(/regex of external auth provider "x"/)
    expect(problems.join("\n")).toMatch(/Two external auth providers have the id "dup"/)
    // GitHub's device code URL is its default: the device flow needs nothing more.
    expect(Either.isRight(resolve([{ type: "github", client_id: "c", device_flow: true }]))).toBe(true)
  })

  it("the numbered environment variables, in order; lists and switches parsed; unknown fields refused", () => {
    expect(externalAuthFromEnv({
      WORKBAY_EXTERNAL_AUTH_1_TYPE: "gitlab",
      WORKBAY_EXTERNAL_AUTH_1_CLIENT_ID: "gl",
      WORKBAY_EXTERNAL_AUTH_0_TYPE: "github",
      WORKBAY_EXTERNAL_AUTH_0_ID: "primary-github",
      WORKBAY_EXTERNAL_AUTH_0_CLIENT_ID: "gh",
      WORKBAY_EXTERNAL_AUTH_0_CLIENT_SECRET: "s3cret",
      WORKBAY_EXTERNAL_AUTH_0_SCOPES: "repo, workflow",
      WORKBAY_EXTERNAL_AUTH_0_DEVICE_FLOW: "true",
      OTHER: "x"
    })).toEqual([
      {
        type: "github",
        id: "primary-github",
        client_id: "gh",
        client_secret: "s3cret",
        scopes: ["repo", "workflow"],
        device_flow: true
      },
      { type: "gitlab", client_id: "gl" }
    ])
    expect(() => externalAuthFromEnv({ WORKBAY_EXTERNAL_AUTH_0_COLOR: "red" })).toThrow(/WORKBAY_EXTERNAL_AUTH_0_COLOR/)
    expect(() => externalAuthFromEnv({ WORKBAY_EXTERNAL_AUTH_0_NO_REFRESH: "maybe" })).toThrow(/true or false/)
  })
})

describe("the agent's answer", () => {
  const link = (token: string): ExternalAuthLinkRecord => ({
    provider_id: "p",
    user_id: "u",
    created_at: new Date(0),
    updated_at: new Date(0),
    oauth_access_token: token,
    oauth_refresh_token: "",
    oauth_expiry: null,
    oauth_extra: { a: 1 },
    oauth_refresh_failure_reason: ""
  })
  it("each type's Git username and password", () => {
    expect(agentTokenResponse("github", link("t"))).toMatchObject({
      username: "t",
      password: "",
      access_token: "t",
      type: "github",
      token_extra: { a: 1 }
    })
    expect(agentTokenResponse("gitlab", link("t"))).toMatchObject({ username: "oauth2", password: "t" })
    expect(agentTokenResponse("bitbucket-cloud", link("t"))).toMatchObject({ username: "x-token-auth", password: "t" })
    expect(agentTokenResponse("generic", link("t"))).toMatchObject({ username: "t", password: "" })
  })
})

describe("listen", () => {
  const T0 = Date.parse("2024-03-01T09:00:00Z")
  // No validate URL: a stored token is taken as valid, so nothing reaches a provider.
  const settings = {
    externalAuth: [{
      type: "generic",
      id: "corp",
      client_id: "c",
      auth_url: "http://127.0.0.1:9/a",
      token_url: "http://127.0.0.1:9/t"
    }]
  }
  const asAgentOf = (ownerId: string) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.flatMap(
      Effect.flatMap(UserRepo, (u) => u.findById(ownerId)),
      (owner) => Effect.provideService(effect, CurrentAgent, { owner: Option.getOrThrow(owner) } as never)
    )
  const storeLink = (userId: string) =>
    Effect.flatMap(ExternalAuthLinkRepo, (r) =>
      r.upsert({
        provider_id: "corp",
        user_id: userId,
        created_at: new Date(T0),
        updated_at: new Date(T0),
        oauth_access_token: "tok-1",
        oauth_refresh_token: "",
        oauth_expiry: null,
        oauth_extra: null,
        oauth_refresh_failure_reason: ""
      }))

  it.scoped("answers the sign-in URL when the owner has not linked before the time is up", () =>
    Effect.gen(function*() {
      const { userId } = yield* signedInOwner(T0)
      const asAgent = asAgentOf(userId)
      const waiting = yield* Effect.fork(
        asAgent(
          Effect.flatMap(
            CurrentAgent,
            ({ owner }) => Effect.flatMap(ExternalAuth, (x) => x.forAgent(owner, { id: "corp", listen: true }))
          )
        )
      )
      expect(LISTEN_TIMEOUT).toEqual(Duration.minutes(5))
      yield* TestClock.adjust("4 minutes")
      expect(Option.isNone(yield* Fiber.poll(waiting))).toBe(true)
      yield* TestClock.adjust("1 minute")
      const answer = yield* Fiber.join(waiting)
      expect(answer).toMatchObject({ access_token: "", url: "http://localhost:3000/external-auth/corp" })
    }).pipe(Effect.provide(services(settings))))

  it.scoped("wakes on the owner's link signal", () =>
    Effect.gen(function*() {
      const { userId } = yield* signedInOwner(T0)
      const waiting = yield* Effect.fork(
        asAgentOf(userId)(Effect.flatMap(CurrentAgent, ({ owner }) =>
          Effect.flatMap(ExternalAuth, (x) =>
            x.forAgent(owner, { id: "corp", listen: true }))))
      )
      yield* TestClock.adjust("1 second")
      expect(Option.isNone(yield* Fiber.poll(waiting))).toBe(true)
      yield* storeLink(userId)
      yield* Effect.flatMap(PubSub, (p) =>
        p.publish(externalAuthChannel(userId), "corp"))
      const answer = yield* Fiber.join(waiting)
      expect(answer).toMatchObject({ access_token: "tok-1", username: "tok-1", url: "" })
    }).pipe(Effect.provide(services(settings))))

  it.scoped("finds a link whose signal was lost at the next re-read", () =>
    Effect.gen(function*() {
      const { userId } = yield* signedInOwner(T0)
      const waiting = yield* Effect.fork(
        asAgentOf(userId)(
          Effect.flatMap(CurrentAgent, ({ owner }) =>
            Effect.flatMap(ExternalAuth, (x) =>
              x.forAgent(owner, { match: "http://nothing", listen: true })))
            .pipe(Effect.either)
        )
      )
      // No provider matches: the answer is at once, listen or not.
      expect(Either.isLeft(yield* Fiber.join(waiting))).toBe(true)
      const again = yield* Effect.fork(
        asAgentOf(userId)(Effect.flatMap(CurrentAgent, ({ owner }) =>
          Effect.flatMap(ExternalAuth, (x) =>
            x.forAgent(owner, { id: "corp", listen: true }))))
      )
      yield* TestClock.adjust("1 second")
      yield* storeLink(userId)
      expect(Option.isNone(yield* Fiber.poll(again))).toBe(true)
      yield* TestClock.adjust(LISTEN_REREAD)
      expect((yield* Fiber.join(again)).access_token).toBe("tok-1")
    }).pipe(Effect.provide(services(settings))))
})
