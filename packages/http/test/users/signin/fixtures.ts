/**
 * Servers with sign-in configured, for the shared tables: a Workbay server wired to a local GitHub
 * or to a real OpenID provider, and the whole sign-in done as a browser would.
 */
import { Client, type Reply, startWithOwner } from "../../support.js"
import { Browser } from "./browser.js"
import { CLIENT_ID, CLIENT_SECRET, startFakeGithub } from "./fakeGithub.js"
import { authorizeAt, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, startProvider } from "./provider.js"

const COOKIE = "service_session_token"

export interface SignInWorld {
  readonly srv: Awaited<ReturnType<typeof startWithOwner>>["srv"]
  readonly owner: Client
  /** Signs `account` in through the provider; the callback's answer and a client with the new session. */
  readonly signIn: (account: string) => Promise<{ readonly answer: Reply; readonly client: Client }>
}

/** Runs `f` with a server whose GitHub sign-in goes to a local GitHub (accounts `octo` and `device`). */
export const withGithubSignIn = async <A>(
  f: (w: SignInWorld) => Promise<A>,
  settings: Record<string, unknown> = {}
): Promise<A> => {
  const github = await startFakeGithub([
    { id: 7001, login: "octo", name: "Octo", email: "octo@corp.example", orgs: ["corp"] }
  ])
  const started = await startWithOwner({
    settings: {
      oauth2GithubClientId: CLIENT_ID,
      oauth2GithubClientSecret: CLIENT_SECRET,
      oauth2GithubEnterpriseBaseUrl: github.url,
      oauth2GithubAllowEveryone: true,
      oauth2GithubAllowSignups: true,
      ...settings
    }
  })
  try {
    return await f({
      srv: started.srv,
      owner: started.owner,
      signIn: async (account) => {
        github.state.signedIn = account
        const browser = new Browser()
        const first = await browser.request(`${started.srv.url}/api/v2/users/oauth2/github/callback`)
        const back = await browser.follow(first.location!, (a) => a.location?.startsWith(started.srv.url) === true)
        const answer = await browser.request(back.location!)
        return { answer, client: new Client(`${started.srv.url}/api/v2`, browser.cookie(started.srv.url, COOKIE)) }
      }
    })
  } finally {
    await started.srv.close()
    await github.close()
  }
}

/** Runs `f` with a server whose OpenID Connect sign-in goes to an oidc-provider (account `olivia`). */
export const withOidcSignIn = async <A>(f: (w: SignInWorld) => Promise<A>): Promise<A> => {
  const provider = await startProvider()
  provider.accounts.set("olivia", {
    email: "olivia@corp.example",
    email_verified: true,
    name: "Olivia",
    preferred_username: "olivia",
    groups: ["devs"]
  })
  const started = await startWithOwner({
    settings: {
      oidcIssuerUrl: provider.issuer,
      oidcClientId: OIDC_CLIENT_ID,
      oidcClientSecret: OIDC_CLIENT_SECRET,
      oidcScopes: ["openid", "profile", "email", "groups"]
    }
  })
  provider.configure([`${started.srv.url}/api/v2/users/oidc/callback`])
  try {
    return await f({
      srv: started.srv,
      owner: started.owner,
      signIn: async (account) => {
        const browser = new Browser()
        const callback = `${started.srv.url}/api/v2/users/oidc/callback`
        const first = await browser.request(callback)
        const back = await authorizeAt(browser, first.location!, account, callback)
        const answer = await browser.request(back.location!)
        return { answer, client: new Client(`${started.srv.url}/api/v2`, browser.cookie(started.srv.url, COOKIE)) }
      }
    })
  } finally {
    await started.srv.close()
    await provider.close()
  }
}
