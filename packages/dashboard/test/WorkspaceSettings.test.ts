/**
 * A workspace's parameters and settings after it was made, in Chromium against a real service,
 * through roles and accessible names:
 * - the workspace page lists the latest build's values; "Change parameters" opens the version's
 *   form with the immutable parameter locked and the monotonic one checked against its value
 *   (a smaller number is refused before anything is sent), and saving starts a build with the
 *   new value;
 * - "Update" onto a version with a new required parameter asks for it first (the dialog names
 *   only what the workspace cannot answer), then builds the new version with it; an update the
 *   workspace's values already suit builds at once;
 * - the settings: a bad name refused before anything is sent, a rename moving the page to the new
 *   address, automatic updates saved, a dormant workspace said so and activated.
 * axe-core on the page and the dialog. Skipped, saying so, when /usr/bin/chromium is missing;
 * under CI that fails instead.
 */
import { dashboardDir } from "@workbay/dashboard"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Client, type ServiceTestServer, startWithOwner } from "../../http/test/support.js"
import { createVersion, runJobs } from "../../http/test/templates/versions.js"
import { makeTemplate, makeWorkspace } from "../../http/test/workspaces/fixtures.js"
import { browserAvailable, expectAccessible, expectNoProblems, launchBrowser, signIn, watchedPage } from "./browser.js"

const available = browserAvailable("the workspace parameters' browser test")

const V1 = `parameters:
  - name: region
    display_name: Region
    default: eu
    options:
      - { name: Europe, value: eu }
      - { name: America, value: us }
  - name: cpus
    display_name: CPUs
    type: number
    default: 2
    mutable: true
    validation: { min: 1, max: 8, monotonic: increasing }
resources:
  - name: dev
    type: machine
build:
  logs: ["Region \${param.region}", "CPUs \${param.cpus}"]
  delay_ms: 0
  import_delay_ms: 0
`

/** The next version: a new parameter without a default (so required), which no build of the workspace has a value for. */
const V2 = V1.replace(
  "resources:",
  `  - name: project
    display_name: Project
    mutable: true
resources:`
).replace(`"CPUs \${param.cpus}"]`, `"CPUs \${param.cpus}", "Project \${param.project}"]`)

const status = (page: Page) => page.getByRole("status", { name: "Workspace status" })
const expectStatus = (page: Page, value: string) =>
  expect.poll(() => status(page).textContent(), { timeout: 15_000 }).toBe(value)
const log = (page: Page) => page.getByRole("log", { name: "Latest build's logs" })

describe.skipIf(!available)("a workspace's parameters and settings in Chromium", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let browser: Browser

  beforeAll(async () => {
    // Renames allowed (the deployment's `--allow-workspace-renames`; off, the service's refusal is what the form shows).
    const started = await startWithOwner({
      dashboard: { dir: dashboardDir },
      settings: { allowWorkspaceRenames: true }
    })
    srv = started.srv
    owner = started.owner
    orgId = started.orgId
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await srv?.close()
  })

  it("changes a mutable parameter with a new build; an update asks for the new version's required parameter", async () => {
    const template = await makeTemplate(srv, owner, orgId, V1)
    const w = await makeWorkspace(srv, owner, orgId, template.id, {
      rich_parameter_values: [{ name: "cpus", value: "3" }]
    })
    await runJobs(srv)
    const page = await watchedPage(await browser.newContext({ viewport: { width: 1100, height: 900 } }))
    await signIn(page, srv.url, "admin@example.com")
    await page.goto(`${srv.url}/@admin/${w.name}`)
    await expectStatus(page, "Running")

    // The latest build's values.
    const section = page.getByRole("region", { name: "Parameters" })
    await section.getByRole("definition").filter({ hasText: "3" }).waitFor({ timeout: 15_000 })
    expect(await section.getByRole("definition").allTextContents()).toEqual(["eu", "3"])

    // Change parameters: region is locked, cpus may only grow.
    await section.getByRole("button", { name: "Change parameters" }).click()
    const dialog = page.getByRole("dialog", { name: `Parameters of ${w.name}` })
    await dialog.waitFor()
    expect(await dialog.getByRole("radio", { name: "Europe" }).isDisabled()).toBe(true)
    await dialog.getByText("Cannot be changed after the workspace is created.").waitFor()
    const cpus = dialog.getByRole("spinbutton", { name: "CPUs" })
    expect(await cpus.inputValue()).toBe("3")
    await cpus.fill("2")
    await dialog.getByRole("button", { name: "Save and start" }).click()
    await dialog.getByRole("alert").filter({ hasText: "CPUs must be equal or greater than the previous value, 3." })
      .waitFor()
    expect((await owner.get(`/workspaces/${w.id}/builds`)).body.length).toBe(1)
    await expectAccessible(page)
    await cpus.fill("5")
    await dialog.getByRole("button", { name: "Save and start" }).click()
    await dialog.waitFor({ state: "hidden" })
    await expect.poll(() => log(page).textContent(), { timeout: 15_000 }).toContain("CPUs 5")
    await expectStatus(page, "Running")
    const rebuilt = await owner.get(`/workspaces/${w.id}`)
    expect(rebuilt.body.latest_build.build_number).toBe(2)
    expect((await owner.get(`/workspacebuilds/${rebuilt.body.latest_build.id}/parameters`)).body).toEqual([
      { name: "cpus", value: "5" },
      { name: "region", value: "eu" }
    ])

    // A new active version with a required parameter: Update asks for it.
    const v2 = await createVersion(srv, owner, orgId, V2, { template_id: template.id })
    expect(v2.status, JSON.stringify(v2.body)).toBe(201)
    await runJobs(srv)
    const imported = await owner.get(`/templateversions/${v2.body.id}`)
    expect(imported.body.job.status, JSON.stringify(imported.body.job)).toBe("succeeded")
    const promoted = await owner.patch(`/templates/${template.id}/versions`, { id: v2.body.id })
    expect(promoted.status, JSON.stringify(promoted.body)).toBe(200)
    await page.getByRole("status", { name: "Template version" }).waitFor({ timeout: 15_000 })
    await page.getByRole("group", { name: "Workspace actions" }).getByRole("button", { name: "Update" }).click()
    const asking = page.getByRole("dialog", { name: `Update ${w.name}` })
    await asking.waitFor()
    // Only what the workspace cannot answer.
    expect(await asking.getByRole("textbox").count()).toBe(1)
    expect(await asking.getByRole("spinbutton").count()).toBe(0)
    await asking.getByRole("button", { name: "Update" }).click()
    await asking.getByRole("alert").filter({ hasText: "Project is required." }).waitFor()
    await expectAccessible(page)
    await asking.getByRole("textbox", { name: "Project" }).fill("apollo")
    await asking.getByRole("button", { name: "Update" }).click()
    await asking.waitFor({ state: "hidden" })
    await expect.poll(() => log(page).textContent(), { timeout: 15_000 }).toContain("Project apollo")
    expect(await log(page).textContent()).toContain("CPUs 5")
    await expectStatus(page, "Running")
    await expect.poll(() => page.getByRole("status", { name: "Template version" }).count()).toBe(0)
    const updated = (await owner.get(`/workspaces/${w.id}`)).body
    expect(updated.latest_build.template_version_id).toBe(v2.body.id)

    // A version the workspace's values suit: Update builds at once, no dialog.
    const v3 = await createVersion(srv, owner, orgId, V2.replace("delay_ms: 0", "delay_ms: 1"), {
      template_id: template.id
    })
    await runJobs(srv)
    expect((await owner.patch(`/templates/${template.id}/versions`, { id: v3.body.id })).status).toBe(200)
    await page.getByRole("status", { name: "Template version" }).waitFor({ timeout: 15_000 })
    await page.getByRole("group", { name: "Workspace actions" }).getByRole("button", { name: "Update" }).click()
    await expect.poll(() => page.getByRole("status", { name: "Template version" }).count(), { timeout: 15_000 })
      .toBe(0)
    expect(await page.getByRole("dialog").count()).toBe(0)
    await expectStatus(page, "Running")
    expect((await owner.get(`/workspaces/${w.id}`)).body.latest_build.template_version_id).toBe(v3.body.id)
    expectNoProblems(page)
  })
  it("renames the workspace, saves automatic updates, and activates it when dormant", async () => {
    const template = await makeTemplate(srv, owner, orgId, V1)
    const w = await makeWorkspace(srv, owner, orgId, template.id, { name: "before" })
    await runJobs(srv)
    const page = await watchedPage(await browser.newContext({ viewport: { width: 1100, height: 900 } }))
    await signIn(page, srv.url, "admin@example.com")
    await page.goto(`${srv.url}/@admin/before`)
    await expectStatus(page, "Running")
    const settings = page.getByRole("region", { name: "Settings" })

    // A bad name: said at once, nothing sent.
    const name = settings.getByRole("textbox", { name: "Workspace name" })
    await name.fill("not ok!")
    await settings.getByRole("alert").filter({ hasText: "Name must be letters and digits" }).waitFor()
    expect(await settings.getByRole("button", { name: "Rename" }).isEnabled()).toBe(true)
    await settings.getByRole("button", { name: "Rename" }).click()
    expect((await owner.get(`/workspaces/${w.id}`)).body.name).toBe("before")
    await name.fill("after")
    await settings.getByRole("button", { name: "Rename" }).click()
    await page.getByRole("heading", { name: "after", level: 1 }).waitFor({ timeout: 15_000 })
    expect(new URL(page.url()).pathname).toBe("/@admin/after")
    expect((await owner.get(`/workspaces/${w.id}`)).body.name).toBe("after")

    // Automatic updates.
    await page.getByRole("region", { name: "Settings" }).getByLabel("Automatic updates").selectOption("always")
    await expect.poll(async () => (await owner.get(`/workspaces/${w.id}`)).body.automatic_updates, { timeout: 15_000 })
      .toBe("always")

    // Dormant (as the dormancy rules make it): said so, and activated.
    const stopped = await owner.post(`/workspaces/${w.id}/builds`, { transition: "stop" })
    expect(stopped.status).toBe(200)
    await runJobs(srv)
    const dormant = await owner.put(`/workspaces/${w.id}/dormant`, { dormant: true })
    expect(dormant.status, JSON.stringify(dormant.body)).toBe(200)
    await page.reload()
    const notice = page.getByRole("status", { name: "Dormancy" })
    await notice.waitFor({ timeout: 15_000 })
    expect(await notice.textContent()).toContain("Dormant since")
    await expectAccessible(page)
    await notice.getByRole("button", { name: "Activate" }).click()
    await expect.poll(() => page.getByRole("status", { name: "Dormancy" }).count(), { timeout: 15_000 }).toBe(0)
    expect((await owner.get(`/workspaces/${w.id}`)).body.dormant_at).toBeNull()
    expectNoProblems(page)
  })
})
