/**
 * The templates pages against a real service (in-memory SQLite, the dashboard mounted as embedders
 * do, the built-in `workbay` provisioner importing every version) in Debian's Chromium, signed in
 * as the owner, through roles and accessible names only:
 *
 * - the list, empty, then with templates (light and dark);
 * - a template from the `basic` starter template, its import's log seen live, then its page with
 *   the README rendered from Markdown;
 * - a template from an uploaded tar whose import fails for want of a required variable: the
 *   variable asked for, refused empty, supplied, the import again; its README's raw HTML (a
 *   `<script>`, an `<img onerror>`) not rendered and never run;
 * - a second version uploaded, promoted, the first archived;
 * - settings saved, and a bad value refused with its field's message;
 * - a second user given "use", then removed;
 * - insights as a table; the template deleted after confirming;
 * - an uploaded template's variables step (the defaults filled in, the secret masked, the required
 *   one marked and refused empty), imported again with the values chosen; its Variables page (the
 *   values, the secret never shown): a refusal of the form and one of the service on their fields,
 *   then a new version made active, the secret left empty and kept.
 *
 * axe on each page (no serious or critical violation). Skipped, saying so, when /usr/bin/chromium
 * is missing; under CI that fails instead.
 */
import { dashboardDir } from "@workbay/dashboard"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Client, createUser, type ServiceTestServer, startWithOwner } from "../../http/test/support.js"
import { tar } from "../../http/test/templates/archives.js"
import { makeTemplate } from "../../http/test/workspaces/fixtures.js"
import {
  accessibilityViolations,
  browserAvailable,
  expectAccessible,
  expectNoProblems,
  launchBrowser,
  screenshot,
  signIn,
  watchedPage
} from "./browser.js"

const available = browserAvailable("the templates' browser test")

const VARIABLES_TEMPLATE = `variables:
  - name: project
    description: The project's name.
resources:
  - name: box
    type: machine
    metadata:
      - { key: project, value: "\${var.project}" }
build:
  logs: ["Project \${var.project}"]
`

const HOSTILE_README = `# Variables template

Some **bold** words.

<script>window.__templateXss = "script"</script>

<img src="x" onerror="window.__templateXss = 'img'">

[a link](javascript:window.__templateXss='link')
`

const CONFIGURABLE_TEMPLATE = `variables:
  - { name: region, description: Where workspaces run., required: true, default: eu }
  - { name: token, sensitive: true, default: "" }
  - { name: cpus, type: number, default: 2 }
  - { name: debug, type: bool, default: false }
resources:
  - name: box
    type: machine
    metadata:
      - { key: where, value: "\${var.region} \${var.cpus} \${var.debug}" }
      - { key: token, value: "\${var.token}", sensitive: true }
`

const SECOND_VERSION = `resources:
  - name: box
    type: machine
build:
  logs: ["Second version"]
`

describe.skipIf(!available)("the templates pages in Chromium", () => {
  let srv: ServiceTestServer
  let owner: Client
  let member: string
  let browser: Browser
  let context: BrowserContext
  let page: Page
  const directory = mkdtempSync(join(tmpdir(), "workbay-dashboard-templates-"))
  const archive = (name: string, files: Array<{ name: string; content: string }>) => {
    const file = join(directory, name)
    writeFileSync(file, tar(files))
    return file
  }
  const status = () => page.getByRole("status", { name: "Import status" }).textContent()
  const tab = (name: string) => page.getByRole("navigation", { name: "Template" }).getByRole("link", { name })

  beforeAll(async () => {
    const started = await startWithOwner({ dashboard: { dir: dashboardDir } })
    srv = started.srv
    owner = started.owner
    member = (await createUser(owner, { username: "templ-member" })).username
    browser = await launchBrowser()
    context = await browser.newContext({ viewport: { width: 1100, height: 800 } })
    // 400: the settings' bad value, refused on purpose.
    page = await watchedPage(context, /40[014]/)
    await signIn(page, srv.url, "admin@example.com")
  })
  afterAll(async () => {
    await browser?.close()
    await srv?.close()
    rmSync(directory, { recursive: true, force: true })
  })

  it("lists no templates, then makes one from a starter template, its import followed live", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Templates" }).click()
    await page.getByRole("heading", { name: "Templates", level: 1 }).waitFor()
    await page.getByText("No templates yet.").waitFor()
    await expectAccessible(page)

    await page.getByRole("link", { name: "Create template" }).click()
    await page.getByRole("heading", { name: "Create a template", level: 1 }).waitFor()
    await page.getByRole("button", { name: "Use Basic workspace" }).waitFor()
    await expectAccessible(page)
    await page.getByRole("button", { name: "Use Basic workspace" }).click()

    // The starter's import logs two lines half a second apart: the log is seen while the import runs.
    const log = page.getByRole("log", { name: "Import log" })
    await expect.poll(() => log.textContent()).toContain("Preparing")
    expect(await page.getByText(/lines?, following…/).count()).toBe(1)
    expect(["Pending", "Running"]).toContain(await status())
    await expect.poll(status).toBe("Succeeded")
    expect(await log.textContent()).toContain("Workspace ready")
    await expectAccessible(page)
    await screenshot(page, "template-create")

    await page.getByRole("textbox", { name: "Name", exact: true }).fill("basic")
    await page.getByRole("textbox", { name: "Display name" }).fill("Basic")
    await page.getByRole("textbox", { name: "Description" }).fill("A starter.")
    await page.getByRole("button", { name: "Create template" }).click()

    await page.getByRole("heading", { name: "Basic", level: 1 }).waitFor()
    expect(new URL(page.url()).pathname).toBe("/templates/basic")
    // The README, rendered from Markdown (its headings under the page's).
    await page.getByRole("heading", { name: "Basic workspace", level: 3 }).waitFor()
    // (without the starter's front matter)
    expect(await page.getByRole("region", { name: "README" }).textContent()).not.toContain("display_name")
    expect(await page.getByRole("link", { name: "Create workspace" }).getAttribute("href")).toBe(
      "/templates/basic/workspace"
    )
    await expectAccessible(page)
    await screenshot(page, "template")
  })

  it("makes one from an uploaded archive, asking for its required variable; its README's HTML stays inert", async () => {
    await page.goto(`${srv.url}/templates/new`)
    await page.getByLabel("Template archive").setInputFiles(
      archive("variables.tar", [
        { name: "template.yaml", content: VARIABLES_TEMPLATE },
        { name: "README.md", content: HOSTILE_README }
      ])
    )
    await page.getByRole("button", { name: "Upload and import" }).click()
    await expect.poll(status).toBe("Failed")

    const field = page.getByRole("textbox", { name: "project (required)" })
    await field.waitFor()
    await expectAccessible(page)
    // Refused empty, with the field's message announced.
    await page.getByRole("button", { name: "Import with these values" }).click()
    expect(await page.getByRole("alert").filter({ hasText: "Check the variables" }).textContent()).toContain(
      "project: A value is required."
    )
    expect(await field.getAttribute("aria-invalid")).toBe("true")
    await field.fill("apollo")
    await page.getByRole("button", { name: "Import with these values" }).click()
    await expect.poll(status).toBe("Succeeded")
    await expect.poll(() => page.getByRole("log", { name: "Import log" }).textContent()).toContain(
      "Found 0 parameters and 1 variables."
    )

    await page.getByRole("textbox", { name: "Name", exact: true }).fill("vars")
    await page.getByRole("button", { name: "Create template" }).click()
    await page.getByRole("heading", { name: "vars", level: 1 }).waitFor()
    await page.getByRole("heading", { name: "Variables template", level: 3 }).waitFor()
    expect(await page.getByText("bold", { exact: true }).evaluate((e) => e.tagName)).toBe("STRONG")
    // Raw HTML is dropped: no script ran, no element carries an event handler, no javascript: link.
    expect(await page.evaluate(() => (window as unknown as { __templateXss?: string }).__templateXss)).toBeUndefined()
    expect(await page.locator("img[onerror], script:not([src])").count()).toBe(0)
    expect(await page.getByRole("link", { name: "a link" }).getAttribute("href")).toBe("")
    expect(await page.getByRole("region", { name: "README" }).textContent()).not.toContain("onerror")
  })

  it("uploads a second version, promotes it and archives the first", async () => {
    await tab("Versions").click()
    await page.getByRole("heading", { name: "Versions", level: 2 }).waitFor()
    const rows = page.getByRole("table").getByRole("row")
    await expect.poll(() => rows.count()).toBe(2)
    const first = (await rows.nth(1).getByRole("rowheader").textContent())!
    await expectAccessible(page)

    await page.getByLabel("Template archive").setInputFiles(
      archive("second.tar", [
        { name: "template.yaml", content: SECOND_VERSION },
        { name: "README.md", content: "# Second version\n" }
      ])
    )
    await page.getByRole("button", { name: "Upload version" }).click()
    await expect.poll(status).toBe("Succeeded")
    expect(await page.getByRole("log", { name: "Import log" }).textContent()).toContain("Second version")
    const promote = page.getByRole("button", { name: /^Promote version / })
    const second = (await promote.textContent())!.replace("Promote version ", "")
    await expect.poll(() => rows.count()).toBe(3)
    await promote.click()
    await page.getByRole("status").filter({ hasText: `Version ${second} is the active version.` }).waitFor()
    const row = (name: string) => page.getByRole("row", { name: new RegExp(`^${name} `) })
    await expect.poll(() => row(second).getByRole("cell", { name: "Active" }).count()).toBe(1)

    await page.getByRole("button", { name: `Archive ${first}` }).click()
    await expect.poll(() => row(first).getByRole("cell", { name: "Archived" }).count()).toBe(1)
    expect(await page.getByRole("button", { name: `Unarchive ${first}` }).count()).toBe(1)
    await expectAccessible(page)
    await screenshot(page, "template-versions")

    // The second version's own page: its facts, resources and import log; a dry run of it.
    await row(second).getByRole("link", { name: second }).click()
    await expect.poll(() => new URL(page.url()).pathname).toMatch(new RegExp(`/versions/${second}$`))
    await page.getByRole("heading", { name: `Version ${second}`, level: 2 }).waitFor()
    await expect.poll(() => page.getByRole("definition").allTextContents()).toEqual(
      expect.arrayContaining(["Succeeded", "Active"])
    )
    const resources = page.getByRole("table", { name: `Resources of version ${second}` })
    await resources.getByRole("rowheader", { name: "box" }).waitFor()
    expect(await resources.getByRole("cell", { name: "machine" }).count()).toBe(1)
    await expect.poll(() => page.getByRole("log", { name: `Import log of version ${second}` }).textContent())
      .toContain("Second version")
    await page.getByRole("button", { name: "Start a dry run" }).click()
    await expect.poll(() => page.getByRole("status", { name: "Dry run status" }).textContent())
      .toBe("Succeeded")
    await expect.poll(() => page.getByRole("log", { name: `Dry run log of version ${second}` }).textContent())
      .toContain("Second version")
    await page.getByRole("table", { name: `Resources of the dry run of version ${second}` }).getByRole("rowheader", {
      name: "box"
    }).waitFor()
    await expectAccessible(page)
    await screenshot(page, "template-version")
    // The first (archived) version's page offers to unarchive it, not to promote it.
    await page.getByRole("link", { name: "All versions" }).click()
    await row(first).getByRole("link", { name: first }).click()
    await page.getByRole("button", { name: `Unarchive version ${first}` }).waitFor()
    expect(await page.getByRole("button", { name: `Promote version ${first}` }).count()).toBe(0)
    // An unknown version: the service's message and the way back.
    await page.goto(`${new URL(page.url()).origin}${new URL(page.url()).pathname.replace(/[^/]+$/, "no-such-version")}`)
    await page.getByRole("alert").waitFor()
    await page.getByRole("link", { name: "All versions" }).waitFor()

    await tab("Summary").click()
    await page.getByRole("heading", { name: "Second version", level: 3 }).waitFor()
  })

  it("saves settings, and refuses a bad value with its field's message", async () => {
    await tab("Settings").click()
    await page.getByRole("heading", { name: "Settings", level: 2 }).waitFor()
    await expectAccessible(page)
    await page.getByRole("textbox", { name: "Display name" }).fill("Variables")
    await page.getByRole("checkbox", { name: "Allow users to cancel in-progress workspace jobs" }).check()
    await page.getByRole("button", { name: "Save settings" }).click()
    await page.getByRole("status").filter({ hasText: "Settings saved." }).waitFor()
    await page.getByRole("heading", { name: "Variables", level: 1 }).waitFor()
    const saved = (await owner.get("/organizations/default/templates/vars")).body
    expect(saved).toMatchObject({ display_name: "Variables", allow_user_cancel_workspace_jobs: true })

    // The schedule's days and the dormancy settings, in days.
    for (const day of ["Saturday", "Sunday"]) {
      await page.getByRole("group", { name: "Days workspaces may autostart" }).getByRole("checkbox", { name: day })
        .uncheck()
    }
    await page.getByRole("combobox", { name: "Required stop" }).selectOption("sunday")
    await page.getByRole("spinbutton", { name: "Weeks between required stops" }).fill("2")
    await page.getByRole("spinbutton", { name: "Dormancy threshold (days)" }).fill("30")
    await page.getByRole("spinbutton", { name: "Dormancy auto-deletion (days)" }).fill("7")
    await page.getByRole("spinbutton", { name: "Failure clean-up (days)" }).fill("0.5")
    await page.getByRole("button", { name: "Save settings" }).click()
    await expect.poll(async () => (await owner.get("/organizations/default/templates/vars")).body.time_til_dormant_ms)
      .toBe(30 * 86_400_000)
    expect((await owner.get("/organizations/default/templates/vars")).body).toMatchObject({
      autostart_requirement: { days_of_week: ["monday", "tuesday", "wednesday", "thursday", "friday"] },
      autostop_requirement: { days_of_week: ["sunday"], weeks: 2 },
      time_til_dormant_autodelete_ms: 7 * 86_400_000,
      failure_ttl_ms: 43_200_000
    })
    // Kept across a reload (the form reads the template).
    await page.reload()
    await expect.poll(() => page.getByRole("combobox", { name: "Required stop" }).inputValue()).toBe("sunday")
    expect(
      await page.getByRole("group", { name: "Days workspaces may autostart" }).getByRole("checkbox", {
        name: "Sunday"
      }).isChecked()
    ).toBe(false)
    expect(await page.getByRole("spinbutton", { name: "Dormancy threshold (days)" }).inputValue()).toBe("30")
    const weeks = page.getByRole("spinbutton", { name: "Weeks between required stops" })
    await weeks.fill("99")
    await page.getByRole("button", { name: "Save settings" }).click()
    await expect.poll(() => weeks.getAttribute("aria-invalid")).toBe("true")
    expect(
      await weeks.evaluate((e) =>
        (e.getAttribute("aria-describedby") ?? "").split(" ").map((id) => document.getElementById(id)?.textContent)
          .join(" ")
      )
    ).toContain("Must be between 0 and 16.")
    await weeks.fill("2")

    const ttl = page.getByRole("spinbutton", { name: "Default autostop (hours)" })
    await ttl.fill("-1")
    await page.getByRole("button", { name: "Save settings" }).click()
    await expect.poll(() => ttl.getAttribute("aria-invalid")).toBe("true")
    const described = await ttl.evaluate((e) =>
      (e.getAttribute("aria-describedby") ?? "").split(" ").map((id) => document.getElementById(id)?.textContent)
        .join(" ")
    )
    expect(described).toContain("Must be a positive integer.")
    expect(await page.getByRole("alert").textContent()).toContain("default_ttl_ms")
    expect((await owner.get("/organizations/default/templates/vars")).body.default_ttl_ms).toBe(0)
    await expectAccessible(page)
  })

  it("gives a second user the use role, then removes them", async () => {
    await tab("Permissions").click()
    await page.getByRole("heading", { name: "Permissions", level: 2 }).waitFor()
    await page.getByRole("row", { name: /Everyone/ }).waitFor()
    await expectAccessible(page)
    await page.getByRole("searchbox", { name: "Search users and groups" }).fill(member)
    const who = page.getByRole("combobox", { name: "User or group" })
    await expect.poll(() => who.textContent()).toContain(member)
    await who.selectOption({ label: `${member} (${member}@example.com)` })
    await page.getByRole("combobox", { name: "Role", exact: true }).selectOption("use")
    await page.getByRole("button", { name: "Add" }).click()
    const row = page.getByRole("row", { name: new RegExp(member) })
    await row.waitFor()
    expect(await row.getByRole("combobox", { name: `Role of ${member}` }).inputValue()).toBe("use")
    const acl = async () =>
      (await owner.get(`/templates/${(await owner.get("/organizations/default/templates/vars")).body.id}/acl`)).body
    expect((await acl()).users.map((u: { username: string; role: string }) => [u.username, u.role])).toEqual([[
      member,
      "use"
    ]])

    await page.getByRole("button", { name: `Remove ${member}` }).click()
    await expect.poll(() => row.count()).toBe(0)
    expect((await acl()).users).toEqual([])
  })

  it("shows the insights as a table, then deletes the template after confirming", async () => {
    await tab("Insights").click()
    await page.getByRole("table", { name: "Active users per day" }).waitFor()
    expect(await page.getByRole("table", { name: "Active users per day" }).getByRole("row").count()).toBeGreaterThan(1)
    await expectAccessible(page)

    await tab("Settings").click()
    await page.getByRole("button", { name: "Delete template" }).click()
    const dialog = page.getByRole("dialog", { name: "Delete vars?" })
    await dialog.waitFor()
    await dialog.getByRole("button", { name: "Cancel" }).click()
    expect((await owner.get("/organizations/default/templates/vars")).status).toBe(200)
    await page.getByRole("button", { name: "Delete template" }).click()
    await dialog.getByRole("button", { name: "Delete template" }).click()
    await page.getByRole("heading", { name: "Templates", level: 1 }).waitFor()
    expect(new URL(page.url()).pathname).toBe("/templates")
    expect((await owner.get("/organizations/default/templates/vars")).status).toBe(404)

    // The list with the starter's template left; in light, then in dark.
    await page.getByRole("link", { name: "Basic" }).waitFor()
    expect(await page.getByRole("link", { name: "Variables" }).count()).toBe(0)
    await page.getByRole("row", { name: /Basic/ }).getByRole("cell", { name: "0 developers" }).waitFor()
    await screenshot(page, "templates")
    const dark = await browser.newContext({
      colorScheme: "dark",
      viewport: { width: 1100, height: 700 },
      storageState: await context.storageState()
    })
    const darkPage = await watchedPage(dark)
    await darkPage.goto(`${srv.url}/templates`)
    await darkPage.getByRole("link", { name: "Basic" }).waitFor()
    expect(await accessibilityViolations(darkPage)).toEqual([])
    await screenshot(darkPage, "templates-dark")
    await dark.close()
    expectNoProblems(page)
  })
  it("shows a template of another organization at /templates/<organization>/<name>, and creates workspaces from it", async () => {
    const research = await owner.post("/organizations", { name: "research", display_name: "Research" })
    expect(research.status, JSON.stringify(research.body)).toBe(201)
    // The same name as one of the default organization's: each its own page.
    await makeTemplate(srv, owner, research.body.id, "resources:\n  - { name: box, type: machine }\n", {
      name: "basic",
      display_name: "Research basic"
    })
    await page.goto(`${srv.url}/templates`)
    await page.getByRole("link", { name: "Research basic" }).click()
    await page.getByRole("heading", { name: "Research basic", level: 1 }).waitFor()
    expect(new URL(page.url()).pathname).toBe("/templates/research/basic")
    expect(await page.getByRole("link", { name: "Create workspace" }).getAttribute("href")).toBe(
      "/templates/research/basic/workspace"
    )
    // Its tabs stay in its organization; a reload finds it again.
    await page.getByRole("navigation", { name: "Template" }).getByRole("link", { name: "Versions" }).click()
    expect(new URL(page.url()).pathname).toBe("/templates/research/basic/versions")
    await page.reload()
    await page.getByRole("heading", { name: "Research basic", level: 1 }).waitFor()
    // The default organization's template of that name is still at /templates/basic.
    await page.goto(`${srv.url}/templates/basic`)
    await page.getByRole("heading", { name: "Basic", level: 1 }).waitFor()
    // The workspace form of the other organization's template.
    await page.goto(`${srv.url}/templates/research/basic/workspace`)
    await page.getByRole("textbox", { name: "Workspace name" }).waitFor()
    await expectAccessible(page)
    expectNoProblems(page)
  })
  it("asks an upload's variables before making the template, then changes them on its Variables page", async () => {
    await page.goto(`${srv.url}/templates/new`)
    await page.getByLabel("Template archive").setInputFiles(
      archive("configurable.tar", [{ name: "template.yaml", content: CONFIGURABLE_TEMPLATE }])
    )
    await page.getByRole("button", { name: "Upload and import" }).click()
    await expect.poll(status).toBe("Succeeded")

    // The variables step: defaults filled in, the secret a password field, the required one marked.
    const region = page.getByRole("textbox", { name: "region (required)" })
    await region.waitFor()
    expect(await region.inputValue()).toBe("eu")
    const token = page.getByLabel("token", { exact: true })
    expect([await token.getAttribute("type"), await token.inputValue()]).toEqual(["password", ""])
    expect(await page.getByRole("spinbutton", { name: "cpus" }).inputValue()).toBe("2")
    expect(await page.getByRole("checkbox", { name: "debug" }).isChecked()).toBe(false)
    await expectAccessible(page)
    await region.fill("")
    await page.getByRole("button", { name: "Use these values" }).click()
    expect(await page.getByRole("alert").filter({ hasText: "Check the variables" }).textContent()).toContain(
      "region: A value is required."
    )
    expect(await region.getAttribute("aria-invalid")).toBe("true")
    await region.fill("us")
    await token.fill("s3cret")
    await page.getByRole("spinbutton", { name: "cpus" }).fill("4")
    await page.getByRole("checkbox", { name: "debug" }).check()
    await page.getByRole("button", { name: "Use these values" }).click()

    // Imported again with them: listed, the secret hidden; then the template.
    const chosen = page.getByRole("region", { name: "Template variables" })
    await expect.poll(() => chosen.textContent()).toContain("us")
    expect(await chosen.textContent()).toContain("(sensitive, hidden)")
    expect(await chosen.textContent()).not.toContain("s3cret")
    await page.getByRole("textbox", { name: "Name", exact: true }).fill("configurable")
    await page.getByRole("button", { name: "Create template" }).click()
    await page.getByRole("heading", { name: "configurable", level: 1 }).waitFor()
    const activeOf = async () => (await owner.get("/organizations/default/templates/configurable")).body
    const metadata = async (versionId: string) =>
      Object.fromEntries(
        ((await owner.get(`/templateversions/${versionId}/resources`)).body[0].metadata as Array<any>).map((m) => [
          m.key,
          m.value
        ])
      )
    const first = (await activeOf()).active_version_id as string
    expect(await metadata(first)).toEqual({ where: "us 4 true", token: "s3cret" })

    // Its Variables page: the values, the secret never shown.
    await tab("Variables").click()
    await page.getByRole("heading", { name: "Variables", exact: true, level: 2 }).waitFor()
    const field = page.getByRole("textbox", { name: "region (required)" })
    await expect.poll(() => field.inputValue()).toBe("us")
    const secret = page.getByLabel("token", { exact: true })
    expect([await secret.getAttribute("type"), await secret.inputValue()]).toEqual(["password", ""])
    expect(await page.content()).not.toContain("s3cret")
    expect(await page.getByRole("checkbox", { name: "debug" }).isChecked()).toBe(true)
    await expectAccessible(page)
    const versions = async () => ((await owner.get(`/templates/${(await activeOf()).id}/versions`)).body as []).length

    // Refused by the form (nothing sent), then by the service (a value over its limit): each on its field.
    await field.fill("")
    await page.getByRole("button", { name: "Save variables" }).click()
    await expect.poll(() => field.getAttribute("aria-invalid")).toBe("true")
    expect(await versions()).toBe(1)
    await field.fill("x".repeat(65_537))
    await page.getByRole("button", { name: "Save variables" }).click()
    await expect.poll(() =>
      field.evaluate((e) =>
        (e.getAttribute("aria-describedby") ?? "").split(" ").map((id) => document.getElementById(id)?.textContent)
          .join(" ")
      )
    ).toContain("Must be at most 65536 characters.")
    expect(await field.getAttribute("aria-invalid")).toBe("true")
    expect(await versions()).toBe(1)

    // Saved: a new version, active, the secret kept though its field was left empty.
    await field.fill("ap")
    await page.getByRole("button", { name: "Save variables" }).click()
    const saved = page.getByRole("status", { name: "Variables saved" })
    await expect.poll(() => saved.textContent()).toMatch(/is now the active version\./)
    const second = (await activeOf()).active_version_id as string
    expect(second).not.toBe(first)
    expect(await metadata(second)).toEqual({ where: "ap 4 true", token: "s3cret" })
    await expect.poll(() => field.inputValue()).toBe("ap")
    expect(await field.getAttribute("aria-invalid")).toBe("false")
    await expectAccessible(page)
  })
})
