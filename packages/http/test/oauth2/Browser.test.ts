/**
 * The authorization pages in a real browser (Debian's Chromium driven by playwright-core): sign
 * in, see the consent page naming the app and the redirect target, allow, and land on the
 * client's redirect URI with the code and the state. The client's redirect URI is a second local
 * server. Skipped, saying so, only when /usr/bin/chromium is missing (scripts/ensure.mjs installs it).
 */
import { existsSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { chromium } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createUser, type ServiceTestServer, startWithOwner, STRONG_PASSWORD } from "../support.js"
import { register } from "./fixtures.js"

const CHROMIUM = "/usr/bin/chromium"
const available = existsSync(CHROMIUM)
if (!available) {
  console.warn(`Browser test skipped: ${CHROMIUM} is missing (run "node scripts/ensure.mjs" with apt available).`)
}

let srv: ServiceTestServer
let callback: Server
let callbackUrl: string
let email: string

beforeAll(async () => {
  const started = await startWithOwner()
  srv = started.srv
  email = (await createUser(started.owner, { username: "browser" })).email
  callback = createServer((_req, res) => res.end("<html><body>client callback</body></html>"))
  await new Promise<void>((resolve) => callback.listen(0, "127.0.0.1", () => resolve()))
  callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`
})
afterAll(async () => {
  await new Promise<void>((resolve) => callback.close(() => resolve()))
  await srv.close()
})

describe.skipIf(!available)("the authorization pages in Chromium", () => {
  it("signs in, shows the consent page, and lands on the redirect URI with code and state", async () => {
    const reg = await register(srv.url, {
      client_name: "Browser Client <b>",
      redirect_uris: ["http://127.0.0.1/callback"],
      token_endpoint_auth_method: "none",
      logo_uri: "https://client.example.com/logo.png"
    })
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu"]
    })
    try {
      const page = await browser.newPage()
      const query = new URLSearchParams({
        client_id: reg.client_id,
        response_type: "code",
        state: "browser-state",
        redirect_uri: callbackUrl,
        code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
        code_challenge_method: "S256"
      })
      await page.goto(`${srv.url}/oauth2/authorize?${query}`)
      expect(await page.textContent("h1")).toContain("Sign in")
      await page.fill("#email", email)
      await page.fill("#password", "wrong password")
      await page.click("button[type=submit]")
      expect(await page.textContent("[role=alert]")).toContain("Incorrect")
      await page.fill("#email", email)
      await page.fill("#password", STRONG_PASSWORD)
      await page.click("button[type=submit]")
      await page.waitForSelector("#app-name")
      expect(await page.textContent("#app-name")).toBe("Browser Client <b>")
      expect(await page.textContent("#redirect-target")).toBe(callbackUrl)
      expect(await page.getAttribute("img.icon", "src")).toBe("https://client.example.com/logo.png")
      await Promise.all([page.waitForURL((url) => url.href.startsWith(callbackUrl)), page.click("#allow")])
      const landed = new URL(page.url())
      expect(landed.searchParams.get("state")).toBe("browser-state")
      expect(landed.searchParams.get("code")).toMatch(/^wbc_/)
      expect(await page.textContent("body")).toContain("client callback")
    } finally {
      await browser.close()
    }
  })
})
