/**
 * The account's settings and the one-time-passcode reset in Chromium, against a real service
 * (in-memory SQLite, the dashboard mounted as embedders do) that mails through a real SMTP
 * server in the test's process (smtp-server and mailparser, as the http package's notifier
 * tests; the notifier's periodic fiber is off and the test runs its dispatch, so nothing waits
 * on a timer). Through roles and accessible names only, as a member: the profile renamed; the
 * theme set to dark (the page's computed background changes, and stays after a reload), then
 * back; a token created (its secret shown once, working, listed, then deleted with
 * confirmation); the git SSH key regenerated (the public key changes); quiet hours saved as a
 * time and time zone; no external auth configured; the password changed, then a sign-in with it;
 * "Forgot password?" → the mailed passcode → a new password → a sign-in with it. axe on every
 * settings page (and in dark for one).
 */
import { Notifier } from "@workbay/core"
import { dashboardDir } from "@workbay/dashboard"
import { Effect } from "effect"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startSmtp } from "../../http/test/notifications/fixtures.js"
import {
  Client,
  createUser,
  type ServiceTestServer,
  startWithOwner,
  STRONG_PASSWORD,
  type TestUser
} from "../../http/test/support.js"
import {
  browserAvailable,
  expectAccessible,
  expectNoProblems,
  launchBrowser,
  screenshot,
  signIn,
  watchedPage
} from "./browser.js"

const available = browserAvailable("the account settings' browser test")

const CHANGED_PASSWORD = "Changed-Horse-Battery-8"
const RESET_PASSWORD = "Reset-Horse-Battery-9"
const DARK_BG = "rgb(13, 17, 23)"
const LIGHT_BG = "rgb(255, 255, 255)"

describe.skipIf(!available)("the account settings in Chromium", () => {
  let srv: ServiceTestServer
  let owner: Client
  let member: TestUser
  let smtp: Awaited<ReturnType<typeof startSmtp>>

  beforeAll(async () => {
    smtp = await startSmtp()
    ;({ srv, owner } = await startWithOwner({
      dashboard: { dir: dashboardDir },
      notifier: false,
      settings: { emailSmarthost: smtp.smarthost, emailFrom: "workbay@example.com", emailHello: "workbay.test" }
    }))
    member = await createUser(owner, { username: "ada" })
  })
  afterAll(async () => {
    await srv?.close()
    await smtp?.close()
  })

  /** Sends every queued notification (the notifier's fetch, run now). */
  const dispatch = async () => {
    for (;;) {
      const r = await srv.run(Effect.flatMap(Notifier, (n) => n.dispatchOnce))
      if (r.leased === 0) return
    }
  }
  const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)
  const settingsLink = (page: Page, name: string) =>
    page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name, exact: true })
  const openSettings = async (page: Page, name: string, heading = name) => {
    await settingsLink(page, name).click()
    await page.getByRole("heading", { name: heading, level: 1 }).waitFor()
  }

  it(
    "renames, themes, makes and deletes a token, regenerates the SSH key, sets quiet hours, changes and resets the password",
    async () => {
      const browser = await launchBrowser()
      try {
        const context = await browser.newContext({ viewport: { width: 1100, height: 800 } })
        // The refused rename answers 403: expected, like the 401s of signing out.
        const page = await watchedPage(context, /401|403|404/)
        await signIn(page, srv.url, member.email)

        // Profile.
        await page.getByRole("link", { name: "Account", exact: true }).click()
        await page.getByRole("heading", { name: "Account", level: 1 }).waitFor()
        expect(new URL(page.url()).pathname).toBe("/settings/account")
        expect(await page.getByRole("textbox", { name: "Email" }).inputValue()).toBe(member.email)
        await expectAccessible(page)
        await screenshot(page, "settings-account")
        // A member's new username takes a user admin: refused, saying so; a new full name is theirs.
        await page.getByRole("textbox", { name: "Username" }).fill("ada-l")
        await page.getByRole("button", { name: "Update account" }).click()
        await page.getByRole("alert").filter({ hasText: "Forbidden." }).waitFor()
        await page.getByRole("textbox", { name: "Username" }).fill("ada")
        await page.getByRole("textbox", { name: "Full name" }).fill("Ada Lovelace")
        await page.getByRole("button", { name: "Update account" }).click()
        await page.getByRole("status").filter({ hasText: "Account updated." }).waitFor()
        await expect.poll(() => page.getByLabel("Signed in as").textContent()).toBe("Ada Lovelace")
        expect((await member.client.get("/users/me")).body).toMatchObject({ username: "ada", name: "Ada Lovelace" })
        // The owner may rename the member: the page follows after a reload.
        expect(
          (await owner.put(`/users/${member.user.id}/profile`, { username: "ada-l", name: "Ada Lovelace" })).status
        )
          .toBe(200)
        await page.reload()
        await expect.poll(() => page.getByRole("textbox", { name: "Username" }).inputValue()).toBe(
          "ada-l"
        )

        // Appearance: dark by choice (the page's background changes), kept after a reload.
        expect(await background(page)).toBe(LIGHT_BG)
        await openSettings(page, "Appearance")
        await page.getByRole("radio", { name: "Dark" }).check()
        await expect.poll(() => background(page)).toBe(DARK_BG)
        await expect.poll(async () => (await member.client.get("/users/me/appearance")).body.theme_preference).toBe(
          "dark"
        )
        await page.reload()
        await page.getByRole("heading", { name: "Appearance", level: 1 }).waitFor()
        await expect.poll(() => background(page)).toBe(DARK_BG)
        expect(await page.getByRole("radio", { name: "Dark" }).isChecked()).toBe(true)
        await expectAccessible(page)
        await screenshot(page, "settings-appearance-dark")
        // Signed out, the sign-in page is the system's theme again; signed in, the user's.
        await page.getByRole("button", { name: "Sign out" }).click()
        await page.getByRole("heading", { name: "Sign in to Workbay" }).waitFor()
        await expect.poll(() => background(page)).toBe(LIGHT_BG)
        await signIn(page, srv.url, member.email)
        await expect.poll(() => background(page)).toBe(DARK_BG)
        await page.goto(`${srv.url}/settings/appearance`)
        await page.getByRole("radio", { name: /^Auto/ }).check()
        await expect.poll(() => background(page)).toBe(LIGHT_BG)
        await expectAccessible(page)

        // Tokens: the secret shown once, working; listed; deleted after confirming.
        await openSettings(page, "Tokens")
        await page.getByRole("textbox", { name: "Name" }).fill("ci-token")
        await page.getByRole("combobox", { name: "Expires in" }).selectOption({ label: "7 days" })
        await page.getByRole("button", { name: "Create token" }).click()
        const secretBox = page.getByRole("region", { name: "Your new token" }).getByRole("textbox", {
          name: "Token secret"
        })
        await secretBox.waitFor()
        const secret = await secretBox.inputValue()
        expect(secret).toMatch(/^\S{20,}$/)
        const withToken = new Client(`${srv.url}/api/v2`).as(secret)
        expect((await withToken.get("/users/me")).body.username).toBe("ada-l")
        const row = page.getByRole("row", { name: /ci-token/ })
        await row.waitFor()
        await expectAccessible(page)
        await screenshot(page, "settings-tokens")
        await openSettings(page, "SSH keys")
        await openSettings(page, "Tokens")
        await row.waitFor()
        expect(await page.getByRole("textbox", { name: "Token secret" }).count()).toBe(0)
        await row.getByRole("button", { name: "Delete ci-token" }).click()
        const confirm = page.getByRole("dialog", { name: "Delete the token ci-token?" })
        await confirm.getByRole("button", { name: "Delete" }).click()
        await expect.poll(() => row.count()).toBe(0)
        expect((await member.client.get("/users/me/keys/tokens")).body).toEqual([])
        expect((await withToken.get("/users/me")).status).toBe(401)

        // The git SSH key: a new one after confirming.
        await openSettings(page, "SSH keys")
        const publicKey = page.getByRole("textbox", { name: "Public key" })
        await expect.poll(() => publicKey.inputValue()).toMatch(/^ssh-/)
        const before = await publicKey.inputValue()
        await expectAccessible(page)
        await screenshot(page, "settings-ssh-keys")
        await page.getByRole("button", { name: "Regenerate" }).click()
        await page.getByRole("dialog", { name: "Regenerate the SSH key?" }).getByRole("button", { name: "Regenerate" })
          .click()
        await expect.poll(() => publicKey.inputValue()).not.toBe(before)
        expect((await member.client.get("/users/me/gitsshkey")).body.public_key).toBe(await publicKey.inputValue())

        // Quiet hours: a time and a time zone, saved as the daily schedule.
        await openSettings(page, "Quiet hours")
        await page.getByLabel("Start time").fill("02:30")
        await page.getByRole("combobox", { name: "Time zone" }).selectOption("Europe/Berlin")
        await page.getByRole("button", { name: "Save quiet hours" }).click()
        await page.getByRole("status").filter({ hasText: "Quiet hours saved." }).waitFor()
        expect((await member.client.get("/users/me/quiet-hours")).body[0]).toMatchObject({
          raw_schedule: "CRON_TZ=Europe/Berlin 30 2 * * *",
          user_set: true
        })
        await expectAccessible(page)
        await screenshot(page, "settings-schedule")

        // External auth: none on this deployment.
        await openSettings(page, "External authentication")
        await page.getByText("No external authentication providers are configured").waitFor()
        await expectAccessible(page)

        // The password: changed, then a sign-in with the new one.
        await openSettings(page, "Security")
        await page.getByLabel("Old password").fill(STRONG_PASSWORD)
        await page.getByLabel("New password", { exact: true }).fill(CHANGED_PASSWORD)
        await page.getByLabel("Confirm new password").fill(CHANGED_PASSWORD + "x")
        await page.getByRole("button", { name: "Update password" }).click()
        await page.getByRole("alert").filter({ hasText: "do not match" }).waitFor()
        await expectAccessible(page)
        await page.getByLabel("Confirm new password").fill(CHANGED_PASSWORD)
        await page.getByRole("button", { name: "Update password" }).click()
        // The service ends every session of the user: the sign-in page says why.
        await page.getByRole("status").filter({ hasText: "Your password was changed" }).waitFor()
        expect((await member.client.get("/users/me")).status).toBe(401)
        await signIn(page, srv.url, member.email, CHANGED_PASSWORD)
        await page.getByRole("button", { name: "Sign out" }).click()

        // Forgot password: the passcode mailed (real SMTP), a new password, a sign-in with it.
        await page.getByRole("link", { name: "Forgot password?" }).click()
        await page.getByRole("heading", { name: "Reset your password" }).waitFor()
        await expectAccessible(page)
        await page.getByLabel("Email").fill(member.email)
        await page.getByRole("button", { name: "Send passcode" }).click()
        await page.getByRole("heading", { name: "Choose a new password" }).waitFor()
        expect(await page.getByLabel("Email").inputValue()).toBe(member.email)
        await dispatch()
        const mail = smtp.mails.find((m) => m.to.includes(member.email) && m.subject === "Your One-Time Passcode")
        expect(mail, JSON.stringify(smtp.mails.map((m) => m.subject))).toBeDefined()
        const passcode = mail!.text.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/)![0]
        await expectAccessible(page)
        await screenshot(page, "reset-password")
        // A wrong passcode is refused, saying so.
        await page.getByLabel("One-time passcode").fill("00000000-0000-4000-8000-000000000000")
        await page.getByLabel("New password").fill(RESET_PASSWORD)
        await page.getByRole("button", { name: "Change password" }).click()
        await page.getByRole("alert").filter({ hasText: "Incorrect email or one-time passcode." }).waitFor()
        await page.getByLabel("One-time passcode").fill(passcode)
        await page.getByRole("button", { name: "Change password" }).click()
        await page.getByRole("status").filter({ hasText: "Your password was changed" }).waitFor()
        await signIn(page, srv.url, member.email, RESET_PASSWORD)

        expectNoProblems(page)
      } finally {
        await browser.close()
      }
    },
    60_000
  )
})
