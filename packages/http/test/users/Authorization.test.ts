/**
 * Black-box tests of the `authorization` and `session` groups: scopes, login,
 * one-time passcodes, first user, auth methods, password validation, login
 * conversion, logout, and how a token is presented.
 */
import { Duration } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  addMemberWithRoles,
  captureMail,
  type Client,
  createOrganization,
  createUser,
  expectNoServerErrors,
  expectResponse,
  expectValidations,
  ISO_DATE_PATTERN,
  login,
  SESSION_HEADER,
  sessionClient,
  startTestServer,
  startWithOwner,
  STRONG_PASSWORD,
  type TestServer,
  type TestUser,
  tokenClient,
  UUID_PATTERN
} from "../support.js"

const TOKEN_PATTERN = /^[A-Za-z0-9]{10}-[A-Za-z0-9]{22}$/
const NEW_PASSWORD = "Another-Strong-Passw0rd!"

describe("auth scopes", () => {
  let srv: TestServer
  beforeAll(async () => {
    srv = await startTestServer()
  })
  afterAll(() => srv.close())

  it("lists the external scopes without a token", async () => {
    const r = await srv.anonymous.get("/auth/scopes")
    expect(r.status).toBe(200)
    expect(r.body.external.slice(0, 2)).toEqual(["all", "application_connect"])
    expect(r.body.external).toEqual(
      expect.arrayContaining(["workspace:read", "workspace:*", "user:read", "api_key:delete"])
    )
    expect(new Set(r.body.external).size).toBe(r.body.external.length)
  })
})

describe("first user", () => {
  let srv: TestServer
  beforeAll(async () => {
    srv = await startTestServer()
  })
  afterAll(() => srv.close())

  it("reports 404 before the first user exists", async () => {
    const r = await srv.anonymous.get("/users/first")
    expectResponse(r, 404)
    expect(r.body.message).toBe("The initial user has not been created!")
  })

  it("rejects an empty body with one validation per missing field", async () => {
    const r = await srv.anonymous.post("/users/first", {})
    expectValidations(r, ["email", "username", "password"])
  })

  it("rejects a weak password on the password field", async () => {
    const r = await srv.anonymous.post("/users/first", {
      email: "a@example.com",
      username: "alice",
      password: "password"
    })
    expectValidations(r, ["password"])
  })

  it("rejects a malformed email and username", async () => {
    const r = await srv.anonymous.post("/users/first", { email: "nope", username: "-bad-", password: STRONG_PASSWORD })
    expectValidations(r, ["email", "username"])
  })

  it("rejects a reserved username", async () => {
    const r = await srv.anonymous.post("/users/first", {
      email: "me@example.com",
      username: "me",
      password: STRONG_PASSWORD
    })
    expectValidations(r, ["username"])
  })

  it("creates the first user as owner of a new default organization", async () => {
    const r = await srv.anonymous.post("/users/first", {
      email: "root@example.com",
      username: "root",
      name: "Root User",
      password: STRONG_PASSWORD,
      trial: false,
      onboarding_info: { newsletter_marketing: false, newsletter_releases: true }
    })
    expect(r.status).toBe(201)
    expect(Object.keys(r.body).sort()).toEqual(["organization_id", "user_id"])
    expect(r.body.user_id).toMatch(UUID_PATTERN)
    expect(r.body.organization_id).toMatch(UUID_PATTERN)

    const session = await login(srv, "root@example.com")
    expect(session.status).toBe(201)
    const me = await srv.anonymous.as(session.body.session_token).get("/users/me")
    expect(me.status).toBe(200)
    expect(me.body.id).toBe(r.body.user_id)
    expect(me.body.username).toBe("root")
    expect(me.body.name).toBe("Root User")
    expect(me.body.login_type).toBe("password")
    expect(me.body.roles).toEqual([{ name: "owner", display_name: "Owner" }])
    expect(me.body.organization_ids).toEqual([r.body.organization_id])
  })

  it("reports the first user once it exists", async () => {
    const r = await srv.anonymous.get("/users/first")
    expectResponse(r, 200)
    expect(r.body.message).toBe("The initial user has already been created!")
  })

  it("refuses a second first user with 409", async () => {
    const r = await srv.anonymous.post("/users/first", {
      email: "two@example.com",
      username: "two",
      password: STRONG_PASSWORD
    })
    expectResponse(r, 409)
  })
})

describe("login", () => {
  let srv: TestServer
  let owner: Client
  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner())
  })
  afterAll(() => srv.close())

  it("answers 201 with a session token and sets the session cookie", async () => {
    const r = await login(srv, "admin@example.com")
    expect(r.status).toBe(201)
    expect(Object.keys(r.body)).toEqual(["session_token"])
    expect(r.body.session_token).toMatch(TOKEN_PATTERN)
    const cookie = r.headers.getSetCookie().find((c) => c.startsWith("service_session_token="))
    expect(cookie).toBeDefined()
    expect(cookie).toContain(`service_session_token=${r.body.session_token}`)
    expect(cookie).toContain("Path=/")
    expect(cookie).toContain("HttpOnly")
    expect(cookie).toMatch(/Expires=/)
    const me = await srv.anonymous.as(r.body.session_token).get("/users/me")
    expect(me.status).toBe(200)
    expect(me.body.username).toBe("admin")
  })

  it("matches the email case-insensitively", async () => {
    const r = await login(srv, "ADMIN@Example.com")
    expect(r.status).toBe(201)
  })

  it("answers 401 for a wrong password", async () => {
    const r = await login(srv, "admin@example.com", "Wrong-Password-123")
    expectResponse(r, 401)
    expect(r.body.message).toBe("Incorrect email or password.")
    expect(r.headers.get("set-cookie")).toBeNull()
  })

  it("answers 401 with the same message for an unknown email", async () => {
    const r = await login(srv, "nobody@example.com")
    expectResponse(r, 401)
    expect(r.body.message).toBe("Incorrect email or password.")
  })

  it("answers 400 naming each missing field", async () => {
    expectValidations(await srv.anonymous.post("/users/login", {}), ["email", "password"])
    expectValidations(await srv.anonymous.post("/users/login", { email: "admin@example.com" }), ["password"])
  })

  it("answers 400 for a malformed email", async () => {
    expectValidations(await srv.anonymous.post("/users/login", { email: "admin", password: "x" }), ["email"])
  })

  it("answers 400 for a body that is not JSON", async () => {
    const r = await srv.anonymous.request("POST", "/users/login", undefined, { raw: "{not json" })
    expectResponse(r, 400)
  })

  it("refuses a suspended user with 403", async () => {
    const created = await owner.post("/users", {
      email: "sleepy@example.com",
      username: "sleepy",
      password: STRONG_PASSWORD,
      user_status: "suspended"
    })
    expect(created.status).toBe(201)
    expect(created.body.status).toBe("suspended")
    const r = await login(srv, "sleepy@example.com")
    expectResponse(r, 403)
    expect(r.body.message).toMatch(/suspended/)
  })

  it("refuses a user without a password with 401", async () => {
    const created = await owner.post("/users", { email: "robot@example.com", username: "robot", login_type: "none" })
    expect(created.status).toBe(201)
    expectResponse(await login(srv, "robot@example.com"), 401)
  })
})

describe("auth methods", () => {
  let srv: TestServer
  beforeAll(async () => {
    srv = await startTestServer()
  })
  afterAll(() => srv.close())

  it("lists the login methods without a token", async () => {
    const r = await srv.anonymous.get("/users/authmethods")
    expect(r.status).toBe(200)
    // No terms of service configured: the field is absent, not "".
    expect(r.body).toEqual({
      github: { default_provider_configured: false, enabled: false },
      oidc: { enabled: false, iconUrl: "", signInText: "" },
      password: { enabled: true }
    })
  })

  it("reports the terms of service URL when one is configured", async () => {
    const tos = await startTestServer({ settings: { termsOfServiceUrl: "https://example.com/terms" } })
    try {
      const r = await tos.anonymous.get("/users/authmethods")
      expect(r.status).toBe(200)
      expect(r.body.terms_of_service_url).toBe("https://example.com/terms")
    } finally {
      await tos.close()
    }
  })
})

describe("with password authentication disabled", () => {
  let srv: TestServer
  beforeAll(async () => {
    srv = await startTestServer({ settings: { disablePasswordAuth: true } })
    const first = await srv.anonymous.post("/users/first", {
      email: "admin@example.com",
      username: "admin",
      password: STRONG_PASSWORD
    })
    expect(first.status).toBe(201)
  })
  afterAll(() => srv.close())

  it("advertises password login as disabled", async () => {
    const r = await srv.anonymous.get("/users/authmethods")
    expect(r.status).toBe(200)
    expect(r.body.password).toEqual({ enabled: false })
  })

  it("refuses a correct password login with 403", async () => {
    expectResponse(await login(srv, "admin@example.com"), 403)
  })

  it("still answers a wrong password with 401", async () => {
    expectResponse(await login(srv, "admin@example.com", "Wrong-Password-123"), 401)
  })

  it("refuses one-time passcode requests with 403", async () => {
    expectResponse(await srv.anonymous.post("/users/otp/request", { email: "admin@example.com" }), 403)
    expectResponse(
      await srv.anonymous.post("/users/otp/change-password", {
        email: "admin@example.com",
        one_time_passcode: "x",
        password: NEW_PASSWORD
      }),
      403
    )
  })
})

describe("one-time passcodes", () => {
  const mail = captureMail()
  let srv: TestServer
  let owner: Client
  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner({ mail: mail.layer }))
  })
  afterAll(() => srv.close())

  it("answers 204 and mails a passcode to a known user", async () => {
    const { email } = await createUser(owner, { username: "otpmail" })
    const before = mail.sent.length
    const r = await srv.anonymous.post("/users/otp/request", { email })
    expect(r.status).toBe(204)
    expect(r.body).toBeUndefined()
    expect(mail.sent.length).toBe(before + 1)
    expect(mail.sent.at(-1)!.to).toBe(email)
    expect(mail.passcodeFor(email)).toMatch(UUID_PATTERN)
  })

  it("answers 204 for an unknown email without sending mail", async () => {
    const before = mail.sent.length
    const r = await srv.anonymous.post("/users/otp/request", { email: "ghost@example.com" })
    expect(r.status).toBe(204)
    expect(mail.sent.length).toBe(before)
  })

  it("answers 400 for a missing or malformed email", async () => {
    expectValidations(await srv.anonymous.post("/users/otp/request", {}), ["email"])
    expectValidations(await srv.anonymous.post("/users/otp/request", { email: "not-an-email" }), ["email"])
  })

  it("changes the password once, revoking old sessions", async () => {
    const { client: oldSession, email } = await createUser(owner, { username: "otpchange" })
    expect((await oldSession.get("/users/me")).status).toBe(200)
    expect((await srv.anonymous.post("/users/otp/request", { email })).status).toBe(204)
    const passcode = mail.passcodeFor(email)!

    const changed = await srv.anonymous.post("/users/otp/change-password", {
      email,
      one_time_passcode: passcode,
      password: NEW_PASSWORD
    })
    expect(changed.status).toBe(204)
    expect(changed.body).toBeUndefined()

    expect((await login(srv, email, NEW_PASSWORD)).status).toBe(201)
    expectResponse(await login(srv, email, STRONG_PASSWORD), 401)
    expectResponse(await oldSession.get("/users/me"), 401)

    // Single use: the same passcode fails the second time.
    const again = await srv.anonymous.post("/users/otp/change-password", {
      email,
      one_time_passcode: passcode,
      password: "Yet-Another-Passw0rd!"
    })
    expectResponse(again, 401)
    expect((await login(srv, email, NEW_PASSWORD)).status).toBe(201)
  })

  it("answers 401 for a wrong passcode or an unknown email", async () => {
    const { email } = await createUser(owner, { username: "otpwrong" })
    expect((await srv.anonymous.post("/users/otp/request", { email })).status).toBe(204)
    const wrong = await srv.anonymous.post("/users/otp/change-password", {
      email,
      one_time_passcode: "00000000-0000-4000-8000-000000000000",
      password: NEW_PASSWORD
    })
    expectResponse(wrong, 401)
    expect(wrong.body.message).toBe("Incorrect email or one-time passcode.")
    const unknown = await srv.anonymous.post("/users/otp/change-password", {
      email: "ghost@example.com",
      one_time_passcode: mail.passcodeFor(email)!,
      password: NEW_PASSWORD
    })
    expectResponse(unknown, 401)
    // The right passcode still works afterwards.
    const ok = await srv.anonymous.post("/users/otp/change-password", {
      email,
      one_time_passcode: mail.passcodeFor(email)!,
      password: NEW_PASSWORD
    })
    expect(ok.status).toBe(204)
  })

  it("answers 400 for a weak new password or missing fields", async () => {
    expectValidations(
      await srv.anonymous.post("/users/otp/change-password", {
        email: "a@example.com",
        one_time_passcode: "x",
        password: "short"
      }),
      ["password"]
    )
    expectValidations(await srv.anonymous.post("/users/otp/change-password", {}), [
      "email",
      "one_time_passcode",
      "password"
    ])
  })

  it("answers 400 when the new password equals the old one", async () => {
    const { email } = await createUser(owner, { username: "otpsame" })
    expect((await srv.anonymous.post("/users/otp/request", { email })).status).toBe(204)
    const r = await srv.anonymous.post("/users/otp/change-password", {
      email,
      one_time_passcode: mail.passcodeFor(email)!,
      password: STRONG_PASSWORD
    })
    expectValidations(r, ["password"])
  })
})

describe("expired one-time passcodes", () => {
  const mail = captureMail()
  let srv: TestServer
  let owner: Client
  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner({
      mail: mail.layer,
      settings: { oneTimePasscodeLifetime: Duration.millis(300) }
    }))
  })
  afterAll(() => srv.close())

  it("rejects a passcode after it expires with 401", async () => {
    const { email } = await createUser(owner, { username: "otpexpired" })
    expect((await srv.anonymous.post("/users/otp/request", { email })).status).toBe(204)
    await new Promise((resolve) => setTimeout(resolve, 500))
    const r = await srv.anonymous.post("/users/otp/change-password", {
      email,
      one_time_passcode: mail.passcodeFor(email)!,
      password: NEW_PASSWORD
    })
    expectResponse(r, 401)
    expect((await login(srv, email)).status).toBe(201)
  })
})

describe("validate password", () => {
  let srv: TestServer
  let owner: Client
  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner())
  })
  afterAll(() => srv.close())

  it("accepts a strong password", async () => {
    const r = await owner.post("/users/validate-password", { password: STRONG_PASSWORD })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ valid: true, details: "" })
  })

  it("explains why a weak password fails", async () => {
    for (const password of ["short", "aaaaaaaaaaaaaaaa", "x".repeat(65)]) {
      const r = await owner.post("/users/validate-password", { password })
      expect(r.status).toBe(200)
      expect(r.body.valid).toBe(false)
      expect(r.body.details).toMatch(/\.$/)
    }
  })

  it("requires a token", async () => {
    expectResponse(await srv.anonymous.post("/users/validate-password", { password: STRONG_PASSWORD }), 401)
  })

  it("answers 400 when the password is missing or not a string", async () => {
    expectValidations(await owner.post("/users/validate-password", {}), ["password"])
    expectValidations(await owner.post("/users/validate-password", { password: 12 }), ["password"])
  })
})

describe("convert login", () => {
  let srv: TestServer
  let owner: Client
  let member: TestUser
  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner())
    member = await createUser(owner, { username: "convertme" })
  })
  afterAll(() => srv.close())

  it("answers 201 with a state string for the caller's own account", async () => {
    const started = Date.now()
    const r = await member.client.post("/users/me/convert-login", { password: STRONG_PASSWORD, to_type: "oidc" })
    expect(r.status).toBe(201)
    expect(Object.keys(r.body).sort()).toEqual(["expires_at", "state_string", "to_type", "user_id"])
    expect(r.body.user_id).toBe(member.user.id)
    expect(r.body.to_type).toBe("oidc")
    expect(typeof r.body.state_string).toBe("string")
    expect(r.body.state_string.length).toBeGreaterThanOrEqual(16)
    expect(r.body.expires_at).toMatch(ISO_DATE_PATTERN)
    const expires = Date.parse(r.body.expires_at)
    expect(expires).toBeGreaterThan(started)
    expect(expires).toBeLessThanOrEqual(Date.now() + 10 * 60_000)
  })

  it("accepts the user by username and id", async () => {
    const byName = await member.client.post(`/users/${member.username}/convert-login`, {
      password: STRONG_PASSWORD,
      to_type: "github"
    })
    expect(byName.status).toBe(201)
    expect(byName.body.to_type).toBe("github")
    const byId = await member.client.post(`/users/${member.user.id}/convert-login`, {
      password: STRONG_PASSWORD,
      to_type: "github"
    })
    expect(byId.status).toBe(201)
  })

  it("requires a token", async () => {
    expectResponse(
      await srv.anonymous.post("/users/me/convert-login", { password: STRONG_PASSWORD, to_type: "oidc" }),
      401
    )
  })

  it("refuses to convert another user's account with 403", async () => {
    const r = await owner.post(`/users/${member.username}/convert-login`, {
      password: STRONG_PASSWORD,
      to_type: "oidc"
    })
    expectResponse(r, 403)
  })

  it("answers 404 for an unknown user", async () => {
    expectResponse(await owner.post("/users/nobody/convert-login", { password: STRONG_PASSWORD, to_type: "oidc" }), 404)
  })

  it("answers 400 for a login type that cannot be converted to", async () => {
    for (const to_type of ["password", "none", "token", "saml"]) {
      expectValidations(await member.client.post("/users/me/convert-login", { password: STRONG_PASSWORD, to_type }), [
        "to_type"
      ])
    }
  })

  it("answers 400 naming each missing field", async () => {
    expectValidations(await member.client.post("/users/me/convert-login", {}), ["password", "to_type"])
  })

  it("answers 401 for a wrong password, like a failed login", async () => {
    const r = await member.client.post("/users/me/convert-login", { password: "Wrong-Password-123", to_type: "oidc" })
    expectResponse(r, 401)
    // The caller's session survives a mistyped password.
    expect((await member.client.get("/users/me")).status).toBe(200)
  })
})

describe("logout", () => {
  let srv: TestServer
  let owner: Client
  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner())
  })
  afterAll(() => srv.close())

  it("ends the session and clears the cookie", async () => {
    const { client } = await createUser(owner, { username: "leaver" })
    const r = await client.post("/users/logout")
    expectResponse(r, 200)
    expect(r.body.message).toBe("Logged out!")
    const cookie = r.headers.getSetCookie().find((c) => c.startsWith("service_session_token="))
    expect(cookie).toBeDefined()
    expect(cookie).toMatch(/^service_session_token=;/)
    expect(cookie).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/)
    expectResponse(await client.get("/users/me"), 401)
    expectResponse(await client.post("/users/logout"), 401)
  })

  it("leaves the user's other sessions alone", async () => {
    const { client, email } = await createUser(owner, { username: "twosessions" })
    const second = await sessionClient(srv.anonymous, email)
    expect((await client.post("/users/logout")).status).toBe(200)
    expect((await second.get("/users/me")).status).toBe(200)
  })

  it("requires a token", async () => {
    expectResponse(await srv.anonymous.post("/users/logout"), 401)
  })
})

describe("authentication", () => {
  let srv: TestServer
  let token: string
  beforeAll(async () => {
    ;({ srv } = await startWithOwner())
    token = (await login(srv, "admin@example.com")).body.session_token
  })
  afterAll(() => srv.close())

  it("accepts the token in the session header", async () => {
    const r = await srv.anonymous.request("GET", "/users/me", undefined, { headers: { [SESSION_HEADER]: token } })
    expect(r.status).toBe(200)
    expect(r.body.username).toBe("admin")
  })

  it("accepts the token in the session cookie", async () => {
    const r = await srv.anonymous.request("GET", "/users/me", undefined, {
      headers: { cookie: `other=1; service_session_token=${token}` }
    })
    expect(r.status).toBe(200)
    expect(r.body.username).toBe("admin")
  })

  it("accepts the token as a bearer token", async () => {
    const r = await srv.anonymous.request("GET", "/users/me", undefined, {
      headers: { authorization: `Bearer ${token}` }
    })
    expect(r.status).toBe(200)
    expect(r.body.username).toBe("admin")
  })

  it("answers 401 without a token", async () => {
    const r = await srv.anonymous.get("/users/me")
    expectResponse(r, 401)
    expect(r.body.message).toBe("You must be logged in to access this resource.")
  })

  it("answers 401 for a malformed token", async () => {
    for (const bad of ["garbage", "short-token", `${token}x`, "a".repeat(600)]) {
      const r = await srv.anonymous.as(bad).get("/users/me")
      expectResponse(r, 401)
    }
  })

  it("answers 401 for a well-formed but unknown token", async () => {
    const r = await srv.anonymous.as("AAAAAAAAAA-BBBBBBBBBBBBBBBBBBBBBB").get("/users/me")
    expectResponse(r, 401)
    expect(r.body.message).toBe("Invalid API key.")
  })

  it("answers 401 when the secret does not match the key id", async () => {
    const forged = `${token.slice(0, 10)}-${"Z".repeat(22)}`
    expectResponse(await srv.anonymous.as(forged).get("/users/me"), 401)
  })

  it("answers 401 for an unknown bearer token", async () => {
    const r = await srv.anonymous.request("GET", "/users/me", undefined, { headers: { authorization: "Bearer nope" } })
    expectResponse(r, 401)
  })
})

describe("POST /authcheck", () => {
  let srv: TestServer
  let owner: Client
  let ownerId: string
  let defaultOrgId: string
  let member: TestUser
  let other: TestUser
  let org: { id: string; name: string }
  beforeAll(async () => {
    ;({ srv, owner, ownerId, orgId: defaultOrgId } = await startWithOwner())
    member = await createUser(owner, { username: "checker" })
    other = await createUser(owner, { username: "checked" })
    org = await createOrganization(owner)
  })
  afterAll(() => srv.close())

  const checks = () => ({
    readUser: { action: "read", object: { resource_type: "user", resource_id: other.user.id } },
    createUser: { action: "create", object: { resource_type: "user" } },
    deleteUser: { action: "delete", object: { resource_type: "user", resource_id: other.user.id } },
    ownPersonal: { action: "update_personal", object: { resource_type: "user", resource_id: member.user.id } },
    readDefaultOrg: { action: "read", object: { resource_type: "organization", resource_id: defaultOrgId } },
    readOtherOrg: { action: "read", object: { resource_type: "organization", resource_id: org.id } },
    ownKey: { action: "create", object: { resource_type: "api_key", owner_id: "me" } },
    othersKey: { action: "create", object: { resource_type: "api_key", owner_id: other.user.id } },
    auditLog: { action: "read", object: { resource_type: "audit_log" } },
    connect: { action: "application_connect", object: { resource_type: "workspace", owner_id: "me" } },
    everything: { action: "delete", object: { resource_type: "*" } }
  })

  it("answers every key with whether the caller may, for a member", async () => {
    const r = await member.client.post("/authcheck", { checks: checks() })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({
      readUser: true,
      createUser: false,
      deleteUser: false,
      ownPersonal: true,
      readDefaultOrg: true,
      readOtherOrg: false,
      ownKey: true,
      othersKey: false,
      auditLog: false,
      connect: true,
      everything: false
    })
  })

  it("answers true to everything for an owner", async () => {
    const r = await owner.post("/authcheck", { checks: checks() })
    expect(r.status).toBe(200)
    expect(Object.keys(r.body).sort()).toEqual(Object.keys(checks()).sort())
    // ownPersonal names the member: an owner may update anyone's personal settings.
    expect(Object.values(r.body).every((v) => v === true)).toBe(true)
  })

  it("uses organization roles: in that organization, or in any with any_org", async () => {
    const admin = await createUser(owner)
    await addMemberWithRoles(owner, org.id, admin.user.id, ["organization-admin"])
    const r = await admin.client.post("/authcheck", {
      checks: {
        inOrg: { action: "update", object: { resource_type: "organization", organization_id: org.id } },
        byId: { action: "delete", object: { resource_type: "organization", resource_id: org.id.toUpperCase() } },
        elsewhere: { action: "update", object: { resource_type: "organization", organization_id: defaultOrgId } },
        noOrg: { action: "update", object: { resource_type: "organization" } },
        anyOrg: { action: "update", object: { resource_type: "organization", any_org: true } },
        groups: { action: "create", object: { resource_type: "group", organization_id: org.id } },
        memberRead: { action: "read", object: { resource_type: "organization_member", organization_id: defaultOrgId } }
      }
    })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({
      inOrg: true,
      byId: true,
      elsewhere: false,
      noOrg: false,
      anyOrg: true,
      groups: true,
      memberRead: true
    })
    const plain = await member.client.post("/authcheck", {
      checks: { anyOrg: { action: "update", object: { resource_type: "organization", any_org: true } } }
    })
    expect(plain.body).toEqual({ anyOrg: false })
  })

  it("applies the token's scopes and allow-list", async () => {
    const token = await tokenClient(owner, { scopes: ["user:read"], allow_list: [{ type: "user", id: other.user.id }] })
    const r = await token.post("/authcheck", {
      checks: {
        allowed: { action: "read", object: { resource_type: "user", resource_id: other.user.id } },
        otherUser: { action: "read", object: { resource_type: "user", resource_id: ownerId } },
        otherAction: { action: "delete", object: { resource_type: "user", resource_id: other.user.id } },
        otherKind: { action: "read", object: { resource_type: "organization", resource_id: defaultOrgId } },
        listing: { action: "read", object: { resource_type: "user" } }
      }
    })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ allowed: true, otherUser: false, otherAction: false, otherKind: false, listing: false })
  })

  it("answers an empty map for no checks, and odd keys as given", async () => {
    expect((await member.client.post("/authcheck", { checks: {} })).body).toEqual({})
    const r = await member.client.post("/authcheck", {
      checks: {
        "": { action: "read", object: { resource_type: "user" } },
        "a.b c/é": { action: "create", object: { resource_type: "user" } },
        constructor: { action: "read", object: { resource_type: "user" } }
      }
    })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ "": true, "a.b c/é": false, constructor: true })
  })

  it("answers 400 naming the check key of each bad field", async () => {
    const r = await member.client.post("/authcheck", {
      checks: {
        good: { action: "read", object: { resource_type: "user" } },
        badAction: { action: "fly", object: { resource_type: "user" } },
        badType: { action: "read", object: { resource_type: "planet" } },
        emptyType: { action: "read", object: { resource_type: "" } },
        noObject: { action: "read" },
        badAnyOrg: { action: "read", object: { resource_type: "user", any_org: "yes" } },
        badOwner: { action: "read", object: { resource_type: "user", owner_id: 7 } }
      }
    })
    expectValidations(r, [
      "checks.badAction.action",
      "checks.badType.object.resource_type",
      "checks.emptyType.object.resource_type",
      "checks.noObject.object",
      "checks.badAnyOrg.object.any_org",
      "checks.badOwner.object.owner_id"
    ])
  })

  it("answers 400 on checks when it is missing or not an object", async () => {
    expectValidations(await member.client.post("/authcheck", {}), ["checks"])
    expectValidations(await member.client.post("/authcheck", { checks: [] }), ["checks"])
    expectValidations(await member.client.post("/authcheck", { checks: { k: "read" } }), ["checks.k"])
  })

  it("requires a token", async () => {
    expectResponse(await srv.anonymous.post("/authcheck", { checks: {} }), 401)
  })

  it("never answers with a server error", async () => {
    await expectNoServerErrors(member.client, [["POST", "/authcheck"]])
    await expectNoServerErrors(srv.anonymous, [["POST", "/authcheck"]])
    const deep = {
      checks: {
        k: {
          action: "read",
          object: { resource_type: "user", resource_id: "x".repeat(10_000), organization_id: "%", owner_id: "me" }
        }
      }
    }
    expect((await member.client.post("/authcheck", deep)).status).toBe(200)
  })
})

describe("malformed input to authorization routes", () => {
  let srv: TestServer
  let owner: Client
  beforeAll(async () => {
    ;({ srv, owner } = await startWithOwner())
  })
  afterAll(() => srv.close())

  it("never answers with a server error", async () => {
    const routes = [
      ["GET", "/auth/scopes"],
      ["POST", "/users/login"],
      ["POST", "/users/otp/request"],
      ["POST", "/users/otp/change-password"],
      ["GET", "/users/first"],
      ["POST", "/users/first"],
      ["GET", "/users/authmethods"],
      ["POST", "/users/validate-password"],
      ["POST", "/users/me/convert-login"],
      ["POST", "/users/nobody/convert-login"]
    ] as const
    await expectNoServerErrors(owner, routes)
    await expectNoServerErrors(srv.anonymous, routes)
    await expectNoServerErrors(srv.anonymous.as("junk-token"), [["POST", "/users/logout"]])
    expect((await owner.get("/users/me")).status).toBe(200)
  })
})
