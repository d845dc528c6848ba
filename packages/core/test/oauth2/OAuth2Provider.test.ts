/**
 * The authorization server's time rules on the real services over in-memory SQLite with the
 * TestClock: a code expires after ten minutes, an access token with its lifetime (it does not
 * slide like a session), a refresh token after thirty days. And the pure rules: which redirect
 * URIs may be registered and how requested ones match, PKCE S256.
 */
import { describe, expect, it } from "@effect/vitest"
import { OAuth2Apps, OAuth2Provider } from "@workbay/core"
import { Duration, Effect, Either, FastCheck as fc } from "effect"
import * as TestClock from "effect/TestClock"
import { CODE_LIFETIME_MS, REFRESH_TOKEN_LIFETIME_MS } from "../../src/oauth2/OAuth2Provider.js"
import { redirectUriMatches, redirectUriProblem, s256 } from "../../src/oauth2/Rules.js"
import { services, signedInOwner } from "../services.js"

const T0 = Date.parse("2024-03-01T09:00:00Z")
const REDIRECT = "https://client.example.com/cb"
const VERIFIER = "v".repeat(50)

/** A registered confidential client and a code for the owner (PKCE S256). */
const setup = Effect.gen(function*() {
  const { as, auth } = yield* signedInOwner(T0)
  const apps = yield* OAuth2Apps
  const provider = yield* OAuth2Provider
  const reg = yield* apps.register({ redirect_uris: [REDIRECT] })
  const newCode = Effect.gen(function*() {
    const location = yield* as(provider.authorize(
      {
        client_id: reg.client_id,
        response_type: "code",
        state: "s",
        redirect_uri: REDIRECT,
        code_challenge: s256(VERIFIER),
        code_challenge_method: "S256"
      },
      {},
      { viaCookie: false }
    ))
    return new URL(location).searchParams.get("code")!
  })
  const exchange = (code: string) =>
    provider.token({
      grant_type: "authorization_code",
      code,
      code_verifier: VERIFIER,
      redirect_uri: REDIRECT,
      client_id: reg.client_id,
      client_secret: reg.client_secret!
    }, undefined)
  const refresh = (token: string) =>
    provider.token({
      grant_type: "refresh_token",
      refresh_token: token,
      client_id: reg.client_id,
      client_secret: reg.client_secret!
    }, undefined)
  return { auth, newCode, exchange, refresh }
})

const errorOf = <A>(result: Either.Either<A, { readonly error?: string }>) =>
  Either.isLeft(result) ? result.left.error : "none"

describe("OAuth2 provider times", () => {
  it.scoped("a code expires after its lifetime", () =>
    Effect.gen(function*() {
      const { newCode, exchange } = yield* setup
      const fresh = yield* newCode
      yield* TestClock.adjust(Duration.millis(CODE_LIFETIME_MS - 1000))
      expect(Either.isRight(yield* Effect.either(exchange(fresh)))).toBe(true)
      const stale = yield* newCode
      yield* TestClock.adjust(Duration.millis(CODE_LIFETIME_MS + 1))
      expect(errorOf(yield* Effect.either(exchange(stale)))).toBe("invalid_grant")
    }).pipe(Effect.provide(services())))

  it.scoped("an access token expires with its lifetime, used or not; the refresh token outlives it", () =>
    Effect.gen(function*() {
      const { auth, newCode, exchange, refresh } = yield* setup
      const tokens = yield* exchange(yield* newCode)
      expect(tokens.expires_in).toBe(24 * 3600)
      yield* TestClock.adjust(Duration.hours(23))
      expect(Either.isRight(yield* Effect.either(auth.authenticate(tokens.access_token)))).toBe(true)
      yield* TestClock.adjust(Duration.hours(2))
      // Used an hour before its end, it did not slide as a session would.
      expect(Either.isLeft(yield* Effect.either(auth.authenticate(tokens.access_token)))).toBe(true)
      const next = yield* refresh(tokens.refresh_token)
      expect(Either.isRight(yield* Effect.either(auth.authenticate(next.access_token)))).toBe(true)
      yield* TestClock.adjust(Duration.millis(REFRESH_TOKEN_LIFETIME_MS + 1))
      expect(errorOf(yield* Effect.either(refresh(next.refresh_token)))).toBe("invalid_grant")
    }).pipe(Effect.provide(services())))

  it.scoped("a code is refused to another client", () =>
    Effect.gen(function*() {
      const { newCode } = yield* setup
      const other = yield* Effect.flatMap(OAuth2Apps, (a) => a.register({ redirect_uris: [REDIRECT] }))
      const code = yield* newCode
      const r = yield* Effect.either(Effect.flatMap(OAuth2Provider, (p) =>
        p.token({
          grant_type: "authorization_code",
          code,
          code_verifier: VERIFIER,
          redirect_uri: REDIRECT,
          client_id: other.client_id,
          client_secret: other.client_secret!
        }, undefined)))
      expect(errorOf(r)).toBe("invalid_grant")
    }).pipe(Effect.provide(services())))
})

describe("redirect URI rules", () => {
  it("registers https and loopback http only, without fragments or user info", () => {
    expect(redirectUriProblem("https://a.example.com/cb")).toBeUndefined()
    expect(redirectUriProblem("http://127.0.0.1:8080/cb")).toBeUndefined()
    expect(redirectUriProblem("http://[::1]/cb")).toBeUndefined()
    expect(redirectUriProblem("http://localhost/cb")).toBeUndefined()
    expect(redirectUriProblem("http://a.example.com/cb")).toBeDefined()
    expect(redirectUriProblem("https://a.example.com/cb#x")).toBeDefined()
    expect(redirectUriProblem("https://u:p@a.example.com/cb")).toBeDefined()
    expect(redirectUriProblem("javascript:alert(1)")).toBeDefined()
    expect(redirectUriProblem("/relative")).toBeDefined()
  })

  it("registers only URIs a URL parser keeps as written: no control characters, canonical scheme and host", () => {
    for (
      const uri of [
        "https://a.example.com/cb\r\nSet-Cookie: x=1",
        "https://a.example.com/c b",
        "http://0x7f.1:8080/cb",
        "http://2130706433/cb",
        "http://127.1/cb",
        "http://[0:0::1]/cb",
        "https://A.example.com/cb",
        "HTTPS://a.example.com/cb",
        "https://a.example.com:443/cb",
        "http://127.0.0.1:08080/cb",
        "https://a.example.com\\cb",
        "https://@a.example.com/cb",
        "https://bücher.example/cb"
      ]
    ) {
      expect(redirectUriProblem(uri), uri).toBeDefined()
    }
    expect(redirectUriProblem("https://xn--bcher-kva.example/cb")).toBeUndefined()
    expect(redirectUriProblem("https://a.example.com")).toBeUndefined()
    expect(redirectUriProblem("https://a.example.com?x=1")).toBeUndefined()
  })

  it("accepts a URI only when the parser writes its scheme and host as given (property)", () => {
    const part = fc.constantFrom("https://", "http://", "HTTP://", "https:/", "http://u@", "")
    const host = fc.constantFrom(
      "a.example.com",
      "A.example.com",
      "127.0.0.1",
      "0x7f.1",
      "127.1",
      "2130706433",
      "[::1]",
      "[0:0::1]",
      "localhost",
      "LOCALHOST",
      "bücher.example",
      "xn--bcher-kva.example",
      "a.example.com."
    )
    const port = fc.constantFrom("", ":443", ":80", ":8080", ":08080", ":0")
    const rest = fc.string({
      unit: fc.constantFrom("/", "c", "b", "?", "=", " ", "\t", "\n", "\u0000", "\u007f", "\\", "%", ".", "#"),
      maxLength: 6
    })
    fc.assert(
      fc.property(part, host, port, rest, (p, h, o, r) => {
        const uri = `${p}${h}${o}${r}`
        if (redirectUriProblem(uri) !== undefined) return
        const url = new URL(uri)
        expect(uri.startsWith(`${url.protocol}//${url.host}`), uri).toBe(true)
        expect(/[\u0000-\u0020\u007f-\u009f#@]/.test(uri), uri).toBe(false)
      }),
      { numRuns: 2000 }
    )
  })

  it("matches exactly, but for the port of a loopback URI", () => {
    const registered = ["https://a.example.com/cb", "http://127.0.0.1/cb"]
    expect(redirectUriMatches(registered, "https://a.example.com/cb")).toBe(true)
    expect(redirectUriMatches(registered, "https://a.example.com/cb/")).toBe(false)
    expect(redirectUriMatches(registered, "https://a.example.com:444/cb")).toBe(false)
    expect(redirectUriMatches(registered, "https://A.example.com/cb")).toBe(false)
    expect(redirectUriMatches(registered, "http://127.0.0.1:5000/cb")).toBe(true)
    expect(redirectUriMatches(registered, "http://127.0.0.1:5000/cb?x=1")).toBe(false)
    expect(redirectUriMatches(registered, "http://localhost:5000/cb")).toBe(false)
    expect(redirectUriMatches(registered, "http://127.0.0.1:5000/cb#f")).toBe(false)
    // Only a canonical loopback URI may vary its port.
    expect(redirectUriMatches(registered, "http://0x7f.1:5000/cb")).toBe(false)
    expect(redirectUriMatches(registered, "http://127.0.0.1:5000/c\nb")).toBe(false)
  })

  it("computes the S256 challenge of RFC 7636 appendix B", () => {
    expect(s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
  })
})
