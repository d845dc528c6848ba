/**
 * The per-account sign-in throttle over HTTP (docs/authentication.md, "Failed sign-ins"): guesses
 * at one account from many addresses end in 429s with `Retry-After`, the right secret during the
 * back-off is refused like a wrong one, and after the back-off it works. The per-address rate
 * limits are on (and not what refuses: 30 attempts per address stay under the sign-in limit).
 */
import { loginThrottleKey, LoginThrottleRepo } from "@workbay/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  captureMail,
  type Client,
  createUser,
  expectResponse,
  type ServiceTestServer,
  startWithOwner,
  STRONG_PASSWORD
} from "../support.js"

const ADDRESSES = Array.from({ length: 10 }, (_, i) => `192.0.2.${i + 10}`)

describe("the per-account sign-in throttle over HTTP", () => {
  const mail = captureMail()
  let srv: ServiceTestServer
  let owner: Client

  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner({
      mail: mail.layer,
      http: { rateLimits: true },
      settings: {
        rateLimitDisableAll: false,
        // The test's requests come from 127.0.0.1: a trusted proxy that names its clients.
        proxyTrustedHeaders: ["X-Forwarded-For"],
        proxyTrustedOrigins: ["127.0.0.0/8", "::1/128"]
      }
    }))
  })
  afterAll(() => srv.close())

  const post = (path: string, body: unknown, ip: string) =>
    fetch(`${srv.url}/api/v2${path}`, {
      method: "POST",
      headers: { "x-forwarded-for": ip, "content-type": "application/json" },
      body: JSON.stringify(body)
    }).then(async (r) => ({
      status: r.status,
      headers: r.headers,
      body: await r.text().then((t) => (t === "" ? undefined : JSON.parse(t))) as any
    }))

  /** Ends the account's back-off now, as if its delay had passed (the server runs on the real clock). */
  const endBackOff = (key: string) =>
    srv.run(Effect.flatMap(LoginThrottleRepo, (repo) =>
      repo.attempt(key, (current) => ({
        _tag: "Allowed",
        next: { ...current!, last_attempt_at: new Date(Date.now() - 1000), blocked_until: new Date(Date.now() - 1000) }
      }))))

  it("300 wrong passwords from 10 addresses: 10 answered 401, the rest 429; the right one is refused in the back-off and works after it", async () => {
    const { email } = await createUser(owner)
    const statuses: Array<number> = []
    // Ten addresses at a time, as a distributed guesser would send them.
    for (let round = 0; round < 30; round++) {
      const replies = await Promise.all(
        ADDRESSES.map((ip, i) => post("/users/login", { email, password: `guess-${round}-${i}` }, ip))
      )
      statuses.push(...replies.map((r) => r.status))
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(10)
    expect(statuses.filter((s) => s === 429)).toHaveLength(290)

    const refused = await post("/users/login", { email, password: STRONG_PASSWORD }, "198.51.100.1")
    expectResponse(refused, 429)
    expect(refused.body).toEqual({
      message: "Too many failed sign-in attempts for this account. Try again later.",
      detail: expect.stringMatching(/^Try again in \d+ seconds?\.$/)
    })
    const retryAfter = Number(refused.headers.get("retry-after"))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
    // The right password in the back-off is answered like a wrong one: it is not checked.
    const wrong = await post("/users/login", { email, password: "another-guess" }, "198.51.100.1")
    expect({ status: wrong.status, message: wrong.body.message }).toEqual({
      status: 429,
      message: refused.body.message
    })

    await endBackOff(loginThrottleKey("password", email))
    const signedIn = await post("/users/login", { email, password: STRONG_PASSWORD }, "198.51.100.1")
    expect(signedIn.status).toBe(201)
    expect(typeof signedIn.body.session_token).toBe("string")
    // The success reset the count: a wrong password is a plain 401 again.
    expect((await post("/users/login", { email, password: "wrong-again" }, "198.51.100.1")).status).toBe(401)
  })

  it("an unknown account is throttled alike (no enumeration), and accounts are counted apart", async () => {
    const { email } = await createUser(owner)
    const statuses: Array<number> = []
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (await post("/users/login", { email: "ghost@example.com", password: `g-${i}` }, ADDRESSES[i % 10]!)).status
      )
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429])
    expect((await post("/users/login", { email, password: STRONG_PASSWORD }, ADDRESSES[0]!)).status).toBe(201)
  })

  it("one-time passcode guesses are throttled the same way", async () => {
    const { email } = await createUser(owner)
    expect((await post("/users/otp/request", { email }, ADDRESSES[0]!)).status).toBe(204)
    const passcode = mail.passcodeFor(email)!
    const change = (code: string, ip: string) =>
      post("/users/otp/change-password", { email, one_time_passcode: code, password: "Another-Battery-Staple-7" }, ip)
    const statuses: Array<number> = []
    for (let i = 0; i < 20; i++) {
      statuses.push((await change(`00000000-0000-4000-8000-${String(i).padStart(12, "0")}`, ADDRESSES[i % 10]!)).status)
    }
    expect(statuses).toEqual([...Array(10).fill(401), ...Array(10).fill(429)])
    const refused = await change(passcode, ADDRESSES[3]!)
    expectResponse(refused, 429)
    expect(refused.body.message).toBe("Too many failed one-time passcode attempts for this account. Try again later.")
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)

    await endBackOff(loginThrottleKey("otp", email))
    expect((await change(passcode, ADDRESSES[3]!)).status).toBe(204)
    expect((await post("/users/login", { email, password: "Another-Battery-Staple-7" }, ADDRESSES[4]!)).status).toBe(
      201
    )
  })
})
