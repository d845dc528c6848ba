/** Helpers of the OAuth2 tests: registering clients and walking the consent page as a browser would. */
import * as oauth from "oauth4webapi"
import { expect } from "vitest"

export const REDIRECT = "https://client.example.com/callback"

/** oauth4webapi options for a test server on http://127.0.0.1. */
export const insecure = { [oauth.allowInsecureRequests]: true } as const

/** RFC 7591 registration (oauth4webapi has no registration helper): the 201 body. */
export const register = async (baseUrl: string, metadata: Record<string, unknown>) => {
  const res = await fetch(`${baseUrl}/oauth2/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(metadata)
  })
  const body = await res.json() as Record<string, any>
  if (res.status !== 201) throw new Error(`register: ${res.status} ${JSON.stringify(body)}`)
  return body
}

/** Discovery through oauth4webapi (RFC 8414), checking the issuer is the server's URL. */
export const discover = async (baseUrl: string) => {
  const issuer = new URL(baseUrl)
  return oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure })
  )
}

/** The hidden CSRF token of a consent page. */
export const csrfOf = (html: string) => {
  const m = /name="csrf_token" value="([^"]+)"/.exec(html)
  if (m === null) throw new Error(`no consent form in: ${html.slice(0, 300)}`)
  return m[1]!
}

/**
 * Signs in with the session cookie `session`, loads the consent page of `params` and allows
 * (or denies): the 302 answer of the consent form.
 */
export const consent = async (
  baseUrl: string,
  session: string,
  params: Record<string, string>,
  options: { readonly decision?: string; readonly prefix?: string } = {}
) => {
  const query = new URLSearchParams(params).toString()
  const url = `${baseUrl}${options.prefix ?? ""}/oauth2/authorize?${query}`
  const cookie = `service_session_token=${session}`
  const page = await fetch(url, { headers: { cookie }, redirect: "manual" })
  const html = await page.text()
  expect(page.status, html).toBe(200)
  const res = await fetch(url, {
    method: "POST",
    headers: {
      cookie,
      "content-type": "application/x-www-form-urlencoded",
      origin: baseUrl,
      "sec-fetch-site": "same-origin"
    },
    body: new URLSearchParams({ csrf_token: csrfOf(html), decision: options.decision ?? "allow" }).toString(),
    redirect: "manual"
  })
  return res
}

/** The code and state of a consent redirect. */
export const codeFrom = async (res: Response) => {
  expect(res.status, await res.clone().text()).toBe(302)
  return new URL(res.headers.get("location")!)
}

/** A form post to the token endpoint with fetch (for requests no well-behaved client library makes). */
export const tokenPost = (baseUrl: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${baseUrl}/oauth2/tokens`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form).toString()
  })

/**
 * A registered confidential client and a code for the user of `sessionToken` (with PKCE): for
 * the shared tables, which need a code to exchange.
 */
export const seedCode = async (baseUrl: string, sessionToken: string, metadata: Record<string, unknown> = {}) => {
  const reg = await register(baseUrl, { client_name: "Table Client", redirect_uris: [REDIRECT], ...metadata })
  const verifier = oauth.generateRandomCodeVerifier()
  const res = await consent(baseUrl, sessionToken, {
    client_id: reg.client_id,
    response_type: "code",
    redirect_uri: REDIRECT,
    state: "table",
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256"
  })
  const code = new URL(res.headers.get("location")!).searchParams.get("code")!
  return { reg, code, verifier }
}

/** The form body and headers of a request as `Client.request` sends raw bodies. */
export const formInit = (form: Record<string, string>, headers: Record<string, string> = {}) => ({
  raw: new URLSearchParams(form).toString(),
  headers: { "content-type": "application/x-www-form-urlencoded", ...headers }
})

/** HTTP Basic client authentication (RFC 6749 2.3.1): the `authorization` header of a confidential client. */
export const basic = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}`

/** A token pair for the user of `sessionToken`, and the client it was issued to. */
export const seedTokens = async (baseUrl: string, sessionToken: string) => {
  const { reg, code, verifier } = await seedCode(baseUrl, sessionToken)
  const res = await tokenPost(baseUrl, {
    grant_type: "authorization_code",
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT
  }, {
    authorization: basic(reg.client_id, reg.client_secret)
  })
  return { reg, tokens: await res.json() as { access_token: string; refresh_token: string } }
}
