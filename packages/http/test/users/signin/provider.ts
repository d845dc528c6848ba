/**
 * A real OpenID provider in the test process: `oidc-provider` (panva) with a static client, test
 * accounts carrying email, groups and roles claims, and its development login and consent pages,
 * which the tests drive over plain HTTP like a browser.
 */
import Provider from "oidc-provider"
import { type Answer, type Browser, listen } from "./browser.js"

export const OIDC_CLIENT_ID = "workbay"
export const OIDC_CLIENT_SECRET = "workbay-secret-value"

export type AccountClaims = Record<string, unknown> & { email?: string }

export const startProvider = async () => {
  let handler: ((req: any, res: any) => void) | undefined
  const accounts = new Map<string, AccountClaims>()
  const srv = await listen(() => undefined)
  // The provider is made once the relying parties' callback URLs are known; until then 503.
  srv.server.removeAllListeners("request")
  srv.server.on("request", (req, res) => {
    if (handler === undefined) {
      res.writeHead(503)
      return res.end()
    }
    handler(req, res)
  })
  return {
    issuer: srv.url,
    accounts,
    /** Creates the provider for these callback URLs. */
    configure: (redirectUris: ReadonlyArray<string>) => {
      const provider = new Provider(srv.url, {
        clients: [{
          client_id: OIDC_CLIENT_ID,
          client_secret: OIDC_CLIENT_SECRET,
          redirect_uris: [...redirectUris],
          grant_types: ["authorization_code"],
          response_types: ["code"],
          token_endpoint_auth_method: "client_secret_post"
        }],
        claims: {
          openid: ["sub"],
          email: ["email", "email_verified"],
          profile: ["name", "preferred_username", "picture"],
          groups: ["groups", "roles", "departments", "titles"]
        },
        findAccount: (_ctx: unknown, id: string) => {
          const claims = accounts.get(id)
          return claims === undefined ? undefined : { accountId: id, claims: () => ({ sub: id, ...accounts.get(id) }) }
        },
        ttl: { AccessToken: 3600, AuthorizationCode: 60, Grant: 3600, IdToken: 3600, Interaction: 3600, Session: 3600 },
        cookies: { keys: ["test-cookie-key-one", "test-cookie-key-two"] },
        features: { devInteractions: { enabled: true } }
      })
      handler = provider.callback()
    },
    close: srv.close
  }
}

/** Signs in at the provider as `accountId` (the development login page, then consent), up to the redirect back to `until`. */
export const authorizeAt = async (
  browser: Browser,
  start: string,
  accountId: string,
  until: string
): Promise<Answer> => {
  let answer = await browser.request(start)
  for (let i = 0; i < 20; i++) {
    if (answer.status >= 300 && answer.status < 400 && answer.location !== undefined) {
      if (answer.location.startsWith(until)) return answer
      answer = await browser.request(answer.location)
      continue
    }
    if (answer.status === 200 && typeof answer.text === "string" && answer.text.includes("<form")) {
      const action = /<form[^>]*action="([^"]+)"/.exec(answer.text)![1]!
      const prompt = /name="prompt" value="([^"]+)"/.exec(answer.text)![1]!
      const target = new URL(action.replace(/&amp;/g, "&"), answer.url).href
      answer = await browser.request(target, {
        form: prompt === "login" ? { prompt, login: accountId, password: "any" } : { prompt }
      })
      continue
    }
    throw new Error(`Unexpected answer from the provider: ${answer.status} ${answer.text.slice(0, 300)}`)
  }
  throw new Error("Too many steps at the provider.")
}
