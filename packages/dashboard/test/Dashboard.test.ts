/**
 * The dashboard against a real service (an in-memory SQLite one, with the dashboard mounted the
 * documented way: makeWorkbay's `dashboard: { dir: dashboardDir }`):
 *
 * - the serving, over plain HTTP: the shell on client-side routes (never cached) and hashed
 *   assets (cached for a year), the security headers, and the service's own paths unchanged;
 * - the pages in a real browser (Debian's Chromium driven by playwright-core), through roles and
 *   accessible names only: first-user setup, the empty workspaces page, sign out, sign in, a
 *   workspace created through the API found by the search box, and its status changing live
 *   (the watch) after a stop build. axe-core checks each page: no serious or critical violations.
 *
 * Skipped, saying so, when /usr/bin/chromium is missing (scripts/ensure.mjs installs it); under CI
 * that fails instead. WORKBAY_SCREENSHOTS=1 writes the pages' screenshots (light, and the workspaces in dark) into docs/images.
 */
import { dashboardDir } from "@workbay/dashboard"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  Client,
  type ServiceTestServer,
  startServiceTestServer,
  startWithOwner,
  STRONG_PASSWORD
} from "../../http/test/support.js"
import { CLIENT_ID, CLIENT_SECRET, startFakeGithub } from "../../http/test/users/signin/fakeGithub.js"
import { makeTemplate, SLOW_TEMPLATE } from "../../http/test/workspaces/fixtures.js"
import {
  accessibilityViolations,
  browserAvailable,
  expectNoProblems,
  launchBrowser,
  screenshot,
  watchedPage
} from "./browser.js"

const available = browserAvailable("the dashboard's browser tests")

let srv: ServiceTestServer

beforeAll(async () => {
  srv = await startServiceTestServer({ dashboard: { dir: dashboardDir } })
})
afterAll(() => srv.close())

describe("serving the dashboard", () => {
  const expectSecurityHeaders = (headers: Headers) => {
    const csp = headers.get("content-security-policy") ?? ""
    // No inline script and no eval: script-src is the dashboard's own files only. Inline styles are
    // allowed (the terminal emulator writes its theme and cell sizes as styles).
    expect(csp).toMatch(/(^|; )script-src 'self';/)
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toContain("unsafe-eval")
    expect(headers.get("x-frame-options")).toBe("DENY")
    expect(headers.get("x-content-type-options")).toBe("nosniff")
  }

  it("answers the HTML shell on every client-side route, never cached, with the security headers", async () => {
    for (const path of ["/", "/workspaces", "/login?next=%2F", "/setup", "/some/deep/route"]) {
      const r = await fetch(srv.url + path)
      expect(r.status, path).toBe(200)
      expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8")
      expect(r.headers.get("cache-control")).toBe("no-cache")
      expectSecurityHeaders(r.headers)
      const html = await r.text()
      expect(html).toContain(`<div id="root"></div>`)
      // No inline script: every script tag has a src.
      expect(html.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toBeNull()
    }
    // Revalidated by its ETag.
    const first = await fetch(srv.url + "/workspaces")
    const again = await fetch(srv.url + "/workspaces", { headers: { "if-none-match": first.headers.get("etag")! } })
    expect(again.status).toBe(304)
  })

  it("serves the hashed assets for a year, immutable, with their content types (gzip when accepted)", async () => {
    const assets = readdirSync(join(dashboardDir, "assets"))
    // The entry script (the terminal is a chunk of its own, loaded when opened).
    const script = assets.find((f) => f.startsWith("index-") && f.endsWith(".js"))!
    const style = assets.find((f) => f.endsWith(".css"))!
    for (const [file, type] of [[script, "text/javascript; charset=utf-8"], [style, "text/css; charset=utf-8"]]) {
      const r = await fetch(`${srv.url}/assets/${file}`)
      expect(r.status).toBe(200)
      expect(r.headers.get("content-type")).toBe(type)
      expect(r.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
      expectSecurityHeaders(r.headers)
      expect(Buffer.from(await r.arrayBuffer()).equals(readFileSync(join(dashboardDir, "assets", file!)))).toBe(true)
    }
    // React's production build, within the aim for the first load (under 250 KB compressed).
    const built = readFileSync(join(dashboardDir, "assets", script))
    expect(built.includes("jsxDEV")).toBe(false)
    expect(gzipSync(built).length).toBeLessThan(250 * 1024)
    // fetch asks for gzip and undoes it: the header tells.
    expect((await fetch(`${srv.url}/assets/${script}`)).headers.get("content-encoding")).toBe("gzip")
    // An unknown asset is a 404, not the shell.
    const missing = await fetch(`${srv.url}/assets/index-nothere.js`)
    expect(missing.status).toBe(404)
    expect(missing.headers.get("content-type")).toBe("text/plain; charset=utf-8")
  })

  it("answers HEAD with the headers only, and the same through the Fetch handler (workbay.web)", async () => {
    const head = await fetch(srv.url + "/workspaces", { method: "HEAD" })
    expect(head.status).toBe(200)
    expect(head.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(await head.text()).toBe("")

    const page = await srv.web(new Request("http://dashboard.test/workspaces?q=x"), { remoteAddress: "127.0.0.1" })
    expect(page.status).toBe(200)
    expect(page.headers.get("cache-control")).toBe("no-cache")
    expect(page.headers.get("x-frame-options")).toBe("DENY")
    expect(await page.text()).toContain(`<div id="root"></div>`)
    const script = readdirSync(join(dashboardDir, "assets")).find((f) => f.startsWith("index-") && f.endsWith(".js"))!
    const asset = await srv.web(new Request(`http://dashboard.test/assets/${script}`), { remoteAddress: "127.0.0.1" })
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
    expect(Buffer.from(await asset.arrayBuffer()).equals(readFileSync(join(dashboardDir, "assets", script)))).toBe(true)
    const api = await srv.web(new Request("http://dashboard.test/api/v2/buildinfo"), { remoteAddress: "127.0.0.1" })
    expect(api.headers.get("content-type")).toContain("application/json")
    const unknown = await srv.web(new Request("http://dashboard.test/api/v2/nope"), { remoteAddress: "127.0.0.1" })
    expect(unknown.status).toBe(404)
    expect(unknown.headers.get("content-type")).toContain("application/json")
  })

  it("leaves the service's own paths as they were", async () => {
    // The API answers JSON; an unknown API path is still the API's 404.
    const build = await fetch(`${srv.url}/api/v2/buildinfo`)
    expect(build.status).toBe(200)
    expect(build.headers.get("content-type")).toContain("application/json")
    const unknown = await fetch(`${srv.url}/api/v2/no/such/route`)
    expect(unknown.status).toBe(404)
    expect(unknown.headers.get("content-type")).toContain("application/json")
    expect((await unknown.json()).message).toBe("Route not found.")
    // The probes, the OAuth2 discovery and the agent's executables stay the service's.
    expect((await fetch(`${srv.url}/healthz`)).headers.get("content-type")).not.toContain("text/html")
    const discovery = await fetch(`${srv.url}/.well-known/oauth-authorization-server`)
    expect(discovery.headers.get("content-type")).toContain("application/json")
    expect((await fetch(`${srv.url}/bin/workbay-agent-linux-amd64`)).headers.get("content-type")).not.toContain(
      "text/html"
    )
    // Path-based apps (`/@owner/workspace/apps/...`) are the app proxy's.
    expect((await fetch(`${srv.url}/@nobody/nothing/apps/code/`)).headers.get("content-type")).not.toContain(
      "text/html"
    )
    // A state change on a path the service does not own is not the dashboard's either.
    const post = await fetch(`${srv.url}/workspaces`, { method: "POST" })
    expect(post.status).toBe(404)
    expect(post.headers.get("content-type")).toContain("application/json")
  })
})

describe.skipIf(!available)("the dashboard in Chromium", () => {
  it("sets up the first user, lists workspaces live, signs out and in again", async () => {
    const browser = await launchBrowser()
    try {
      const context = await browser.newContext({ colorScheme: "light", viewport: { width: 1100, height: 700 } })
      const page = await watchedPage(context)

      // No user yet: the setup page.
      await page.goto(srv.url + "/")
      await page.getByRole("heading", { name: "Create the first user" }).waitFor()
      expect(new URL(page.url()).pathname).toBe("/setup")
      expect(await accessibilityViolations(page)).toEqual([])
      await screenshot(page, "setup")
      const email = "owner@example.com"
      await page.getByLabel("Email").fill(email)
      await page.getByLabel("Username").fill("owner")
      await page.getByLabel("Full name").fill("Olivia Owner")
      await page.getByLabel("Password").fill(STRONG_PASSWORD)
      await page.getByRole("button", { name: "Create account" }).click()

      // Signed in: the workspaces page, empty, with the user's name and the navigation.
      await page.getByRole("heading", { name: "Workspaces" }).waitFor()
      expect(new URL(page.url()).pathname).toBe("/workspaces")
      await page.getByText("No workspaces yet").waitFor()
      expect(await page.getByLabel("Signed in as").textContent()).toBe("Olivia Owner")
      expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workspaces" }).count())
        .toBe(1)
      expect(await accessibilityViolations(page)).toEqual([])

      // Sign out: back to the sign-in page; the session is gone.
      await page.getByRole("button", { name: "Sign out" }).click()
      await page.getByRole("heading", { name: "Sign in to Workbay" }).waitFor()
      expect(await accessibilityViolations(page)).toEqual([])
      await screenshot(page, "sign-in")
      expect((await page.context().cookies()).filter((c) => c.value !== "").map((c) => c.name)).not.toContain(
        "service_session_token"
      )

      // A wrong password is refused, saying so; the right one signs in (keyboard only).
      await page.getByLabel("Email").fill(email)
      await page.getByLabel("Password").fill("wrong-password-1")
      await page.getByLabel("Password").press("Enter")
      await page.getByRole("alert").waitFor()
      await page.getByLabel("Password").fill(STRONG_PASSWORD)
      await page.getByLabel("Password").press("Enter")
      await page.getByRole("heading", { name: "Workspaces" }).waitFor()

      // A workspace made through the API: found with the search box, its status live.
      const owner = new Client(`${srv.url}/api/v2`).as(
        (await new Client(`${srv.url}/api/v2`).post("/users/login", { email, password: STRONG_PASSWORD })).body
          .session_token
      )
      const orgId = (await owner.get("/users/me")).body.organization_ids[0] as string
      const template = await makeTemplate(srv, owner, orgId, SLOW_TEMPLATE)
      const created = await owner.post(`/organizations/${orgId}/members/me/workspaces`, {
        name: "watched",
        template_id: template.id
      })
      expect(created.status, JSON.stringify(created.body)).toBe(200)
      await page.getByRole("searchbox", { name: "Search workspaces" }).fill("watched")
      await page.getByRole("button", { name: "Search" }).click()
      await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe("watched")
      const row = page.getByRole("row", { name: /watched/ })
      await expect.poll(() => row.count()).toBe(1)
      await expect.poll(() => row.getByRole("cell", { name: "Running" }).count()).toBe(1)
      expect(await row.getByRole("cell", { name: template.name }).count()).toBe(1)
      expect(await accessibilityViolations(page)).toEqual([])
      await screenshot(page, "workspaces")

      // A stop build: the row follows it without a reload (the watch), through stopping to stopped.
      let reloads = 0
      page.on("request", (r) => {
        if (r.url().includes("/api/v2/workspaces?")) reloads++
      })
      const stop = await owner.post(`/workspaces/${created.body.id}/builds`, { transition: "stop" })
      expect(stop.status, JSON.stringify(stop.body)).toBe(200)
      await expect.poll(() => row.getByRole("cell", { name: "Stopping" }).count()).toBe(1)
      await expect.poll(() => row.getByRole("cell", { name: "Stopped" }).count()).toBe(1)
      expect(reloads).toBe(0)

      // The same page in the dark theme (the system's preference): no serious or critical
      // violation either (contrast included).
      const dark = await browser.newContext({
        colorScheme: "dark",
        viewport: { width: 1100, height: 700 },
        storageState: await context.storageState()
      })
      const darkPage = await watchedPage(dark)
      await darkPage.goto(`${srv.url}/workspaces?q=watched`)
      await darkPage.getByRole("row", { name: /watched/ }).getByRole("cell", { name: "Stopped" }).waitFor()
      expect(await accessibilityViolations(darkPage)).toEqual([])
      await screenshot(darkPage, "workspaces-dark")
      await dark.close()

      // A search that matches nothing says so.
      await page.getByRole("searchbox", { name: "Search workspaces" }).fill("nothing-like-it")
      await page.getByRole("searchbox", { name: "Search workspaces" }).press("Enter")
      await page.getByText("No workspaces match").waitFor()

      expectNoProblems(page)
    } finally {
      await browser.close()
    }
  })

  it("offers GitHub and OpenID Connect sign-in when /users/authmethods says they are on", async () => {
    const sso = await startWithOwner({
      dashboard: { dir: dashboardDir },
      settings: {
        oauth2GithubClientId: "github-client",
        oauth2GithubClientSecret: "github-secret",
        oidcIssuerUrl: "https://issuer.example.com",
        oidcClientId: "oidc-client",
        oidcSignInText: "Acme SSO"
      }
    })
    const browser = await launchBrowser()
    try {
      const page = await browser.newPage()
      await page.goto(`${sso.srv.url}/login`)
      const github = page.getByRole("link", { name: "Sign in with GitHub" })
      await github.waitFor()
      expect(await github.getAttribute("href")).toBe("/api/v2/users/oauth2/github/callback?redirect=%2Fworkspaces")
      const oidc = page.getByRole("link", { name: "Sign in with Acme SSO" })
      expect(await oidc.getAttribute("href")).toBe("/api/v2/users/oidc/callback?redirect=%2Fworkspaces")
      // Password sign-in stays beside them.
      expect(await page.getByRole("button", { name: "Sign in" }).isVisible()).toBe(true)
      expect(await accessibilityViolations(page)).toEqual([])
      await screenshot(page, "sign-in-providers")
    } finally {
      await browser.close()
      await sso.srv.close()
    }
  })

  it("signs in through GitHub's device flow: the code shown, approved at GitHub, then the workspaces", async () => {
    const github = await startFakeGithub([
      { id: 201, login: "deviceuser", name: "Device User", email: "device@corp.example", orgs: ["corp"] }
    ], { interval: 1 })
    const sso = await startWithOwner({
      dashboard: { dir: dashboardDir },
      settings: {
        oauth2GithubClientId: CLIENT_ID,
        oauth2GithubClientSecret: CLIENT_SECRET,
        oauth2GithubEnterpriseBaseUrl: github.url,
        oauth2GithubDeviceFlow: true,
        oauth2GithubAllowEveryone: true,
        oauth2GithubAllowSignups: true
      }
    })
    const browser = await launchBrowser()
    try {
      // The device page's polls answer 400 while GitHub waits for the approval (the browser logs each).
      const page = await watchedPage(browser, /401|404|400/)
      await page.goto(`${sso.srv.url}/login`)
      await page.getByRole("link", { name: "Sign in with GitHub" }).click()
      // The service sends the browser to the device page, which shows GitHub's code for this device.
      await page.getByRole("heading", { name: "Sign in with GitHub" }).waitFor()
      expect(new URL(page.url()).pathname).toBe("/login/device")
      const code = (await page.getByLabel("Device code").textContent())?.trim() ?? ""
      expect(code).toMatch(/^ABCD-\d{4}$/)
      expect(await page.getByRole("link", { name: `${github.url}/login/device` }).isVisible()).toBe(true)
      await page.getByRole("status").filter({ hasText: "Waiting for you to approve" }).waitFor()
      expect(await accessibilityViolations(page)).toEqual([])
      await screenshot(page, "sign-in-device")
      // Still waiting: the page has asked at least once and was told the approval is pending.
      await page.waitForTimeout(1_500)
      expect(new URL(page.url()).pathname).toBe("/login/device")

      expect(github.approveUserCode(code, "deviceuser")).toBe(true)
      await page.waitForURL((u) => u.pathname === "/workspaces")
      await page.getByRole("heading", { name: "Workspaces" }).waitFor()
      const me = await page.evaluate(async () => (await (await fetch("/api/v2/users/me")).json()) as unknown)
      expect(me).toMatchObject({ username: "deviceuser", login_type: "github" })
      expectNoProblems(page)
    } finally {
      await browser.close()
      await sso.srv.close()
      await github.close()
    }
  })

  it("says so when the device page is opened without a sign-in started", async () => {
    const browser = await launchBrowser()
    try {
      const page = await browser.newPage()
      await page.goto(`${srv.url}/login/device`)
      await page.getByRole("alert").filter({ hasText: "start there" }).waitFor()
      expect(await page.getByRole("link", { name: "Back to sign in" }).getAttribute("href")).toBe("/login")
    } finally {
      await browser.close()
    }
  })
})
