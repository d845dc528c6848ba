/**
 * A workspace's parameters and settings after it was made, in Chromium against a real service,
 * through roles and accessible names:
 * - the workspace page lists the latest build's values; "Change parameters" opens the version's
 *   form with the immutable parameter locked and the monotonic one checked against its value
 *   (a smaller number is refused before anything is sent), and saving starts a build with the
 *   new value;
 * - "Update" onto a version with a new required parameter: the service refuses the build, the
 *   dialog asks with the new version's form (the refusal under the field), then builds the new
 *   version with it; an update the workspace's values already suit builds at once;
 * - dynamic parameters in both dialogs, evaluated for the workspace's owner (a member's workspace
 *   opened by the administrator): options following another parameter and the owner, the kept
 *   value refused under its field when the options change, immutable locked, ephemeral at its
 *   default; the build and the update get the chosen values;
 * - the settings: a bad name refused before anything is sent, a rename moving the page to the new
 *   address, automatic updates saved, a dormant workspace said so and activated.
 * axe-core on the page and the dialog. Skipped, saying so, when /usr/bin/chromium is missing;
 * under CI that fails instead.
 */
import { dashboardDir } from "@workbay/dashboard"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Client, createUser, type ServiceTestServer, startWithOwner } from "../../http/test/support.js"
import { createVersion, runJobs } from "../../http/test/templates/versions.js"
import { makeTemplate, makeWorkspace } from "../../http/test/workspaces/fixtures.js"
import {
  browserAvailable,
  expectAccessible,
  expectedProblems,
  expectNoProblems,
  launchBrowser,
  screenshot,
  signIn,
  watchedPage
} from "./browser.js"

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

/**
 * Parameters that follow others and the owner (`dynamic:` expressions): Size's options and default
 * follow Region, Team's options name the workspace's owner; Zone is immutable, Fresh ephemeral.
 */
const DYNAMIC = `parameters:
  - name: region
    display_name: Region
    default: eu
    mutable: true
    options:
      - { name: Europe, value: eu }
      - { name: America, value: us }
  - name: size
    display_name: Size
    form_type: dropdown
    mutable: true
    dynamic:
      options: 'param.region == "eu" ? [{"name": "Small", "value": "small"}, {"name": "Medium", "value": "medium"}] : [{"name": "Large", "value": "large"}]'
      default: 'param.region == "eu" ? "small" : "large"'
  - name: team
    display_name: Team
    mutable: true
    default: shared
    dynamic:
      options: '[owner.name, "shared"]'
  - name: zone
    display_name: Zone
    default: a
  - name: fresh
    display_name: Fresh
    type: bool
    default: false
    mutable: true
    ephemeral: true
resources:
  - name: dev
    type: machine
build:
  logs: ["Region \${param.region}", "Size \${param.size}", "Team \${param.team}"]
  delay_ms: 0
  import_delay_ms: 0
`

/** The next version: a required parameter whose options follow Region. */
const DYNAMIC_V2 = DYNAMIC.replace(
  "resources:",
  `  - name: project
    display_name: Project
    mutable: true
    dynamic:
      options: 'param.region == "us" ? [{"name": "Apollo", "value": "apollo"}, {"name": "Gemini", "value": "gemini"}] : [{"name": "Ariane", "value": "ariane"}]'
resources:`
).replace(`"Team \${param.team}"]`, `"Team \${param.team}", "Project \${param.project}"]`)

const status = (page: Page) => page.getByRole("status", { name: "Workspace status" })
const expectStatus = (page: Page, value: string) => expect.poll(() => status(page).textContent()).toBe(value)
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
    await section.getByRole("definition").filter({ hasText: "3" }).waitFor()
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
    await expect.poll(() => log(page).textContent()).toContain("CPUs 5")
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
    await page.getByRole("status", { name: "Template version" }).waitFor()
    await page.getByRole("group", { name: "Workspace actions" }).getByRole("button", { name: "Update" }).click()
    const asking = page.getByRole("dialog", { name: `Update ${w.name}` })
    await asking.waitFor()
    // The service refused the workspace's values (nothing built): the new version's parameters,
    // the workspace's values in place, the region locked, the refusal under Project.
    expect(expectedProblems(page, /400/)).toBe(1)
    expect((await owner.get(`/workspaces/${w.id}/builds`)).body.length).toBe(2)
    await asking.getByRole("alert").filter({ hasText: "Parameter \"project\" is required" }).waitFor()
    expect(await asking.getByRole("spinbutton", { name: "CPUs" }).inputValue()).toBe("5")
    expect(await asking.getByRole("radio", { name: "Europe" }).isDisabled()).toBe(true)
    await asking.getByRole("textbox", { name: "Project" }).fill("x")
    await asking.getByRole("textbox", { name: "Project" }).fill("")
    await asking.getByRole("button", { name: "Update" }).click()
    await asking.getByRole("alert").filter({ hasText: "Project is required." }).waitFor()
    await expectAccessible(page)
    await asking.getByRole("textbox", { name: "Project" }).fill("apollo")
    await asking.getByRole("button", { name: "Update" }).click()
    await asking.waitFor({ state: "hidden" })
    await expect.poll(() => log(page).textContent()).toContain("Project apollo")
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
    await page.getByRole("status", { name: "Template version" }).waitFor()
    await page.getByRole("group", { name: "Workspace actions" }).getByRole("button", { name: "Update" }).click()
    await expect.poll(() => page.getByRole("status", { name: "Template version" }).count())
      .toBe(0)
    expect(await page.getByRole("dialog").count()).toBe(0)
    await expectStatus(page, "Running")
    expect((await owner.get(`/workspaces/${w.id}`)).body.latest_build.template_version_id).toBe(v3.body.id)
    expectNoProblems(page)
  })
  it(
    "follows the dynamic parameters in Change parameters and Update, evaluated for the workspace's owner",
    async () => {
      const member = await createUser(owner)
      const template = await makeTemplate(srv, owner, orgId, DYNAMIC)
      // The member's workspace, made by the administrator.
      const w = await makeWorkspace(srv, owner, orgId, template.id, {
        rich_parameter_values: [
          { name: "size", value: "medium" },
          { name: "team", value: member.username },
          { name: "fresh", value: "true" }
        ]
      }, member.user.id)
      const page = await watchedPage(await browser.newContext({ viewport: { width: 1100, height: 1000 } }))
      const sockets: Array<string> = []
      page.on("websocket", (ws) => sockets.push(ws.url()))
      await signIn(page, srv.url, "admin@example.com")
      await page.goto(`${srv.url}/@${member.username}/${w.name}`)
      await expectStatus(page, "Running")

      const section = page.getByRole("region", { name: "Parameters" })
      await section.getByRole("button", { name: "Change parameters" }).click()
      const dialog = page.getByRole("dialog", { name: `Parameters of ${w.name}` })
      const size = dialog.getByRole("combobox", { name: "Size" })
      await size.waitFor()
      // Evaluated for the workspace's owner, not the administrator who opens it.
      const socket = new URL(sockets.find((u) => u.includes("/dynamic-parameters")) ?? "http://none/")
      expect(socket.pathname).toBe(`/api/v2/templateversions/${template.active_version_id}/dynamic-parameters`)
      expect(socket.searchParams.get("user_id")).toBe(member.user.id)
      const team = dialog.getByRole("group", { name: "Team" }).getByRole("radio")
      expect(await team.evaluateAll((rs) => rs.map((r) => (r as HTMLInputElement).value))).toEqual([
        member.username,
        "shared"
      ])
      expect(await dialog.getByRole("radio", { name: member.username }).isChecked()).toBe(true)
      // The latest build's values; the immutable zone locked; the ephemeral one at its default.
      const optionsOf = () => size.getByRole("option").allTextContents()
      expect(await optionsOf()).toEqual(["Small", "Medium"])
      expect(await size.inputValue()).toBe("medium")
      const zone = dialog.getByRole("textbox", { name: "Zone" })
      expect(await zone.inputValue()).toBe("a")
      expect(await zone.isDisabled()).toBe(true)
      expect(await dialog.getByRole("checkbox", { name: "Fresh" }).isChecked()).toBe(false)

      // America: Size's options follow, and the kept size is refused under its field; nothing is built.
      await dialog.getByRole("radio", { name: "America" }).check()
      await expect.poll(optionsOf).toContain("Large")
      expect(await optionsOf()).not.toContain("Small")
      const problem = dialog.getByRole("alert").filter({ hasText: "is not one of the options" })
      await problem.waitFor()
      expect(await size.getAttribute("aria-invalid")).toBe("true")
      await expectAccessible(page)
      await screenshot(page, "workspace-parameters-dynamic")
      await dialog.getByRole("button", { name: "Save and start" }).click()
      expect((await owner.get(`/workspaces/${w.id}/builds`)).body.length).toBe(1)
      await size.selectOption({ label: "Large" })
      await expect.poll(() => problem.count()).toBe(0)
      await dialog.getByRole("button", { name: "Save and start" }).click()
      await dialog.waitFor({ state: "hidden" })
      await expect.poll(() => log(page).textContent()).toContain("Size large")
      await expectStatus(page, "Running")
      const rebuilt = (await owner.get(`/workspaces/${w.id}`)).body
      expect(rebuilt.latest_build.build_number).toBe(2)
      const values = (await owner.get(`/workspacebuilds/${rebuilt.latest_build.id}/parameters`)).body
      expect(values).toEqual(expect.arrayContaining([
        { name: "region", value: "us" },
        { name: "size", value: "large" },
        { name: "team", value: member.username },
        { name: "zone", value: "a" }
      ]))

      // A new version with a required parameter whose options follow Region: Update asks for it.
      const v2 = await createVersion(srv, owner, orgId, DYNAMIC_V2, { template_id: template.id })
      expect(v2.status, JSON.stringify(v2.body)).toBe(201)
      await runJobs(srv)
      expect((await owner.patch(`/templates/${template.id}/versions`, { id: v2.body.id })).status).toBe(200)
      await page.getByRole("status", { name: "Template version" }).waitFor()
      await page.getByRole("group", { name: "Workspace actions" }).getByRole("button", { name: "Update" }).click()
      const asking = page.getByRole("dialog", { name: `Update ${w.name}` })
      const project = asking.getByRole("group", { name: "Project" })
      await project.waitFor()
      expect(expectedProblems(page, /400/)).toBe(1)
      expect((await owner.get(`/workspaces/${w.id}/builds`)).body.length).toBe(2)
      // America's projects, evaluated from the workspace's values; the refusal under the field.
      expect(await project.getByRole("radio").evaluateAll((rs) => rs.map((r) => (r as HTMLInputElement).value)))
        .toEqual(["apollo", "gemini"])
      await project.getByRole("alert").filter({ hasText: "required" }).waitFor()
      expect(await asking.getByRole("combobox", { name: "Size" }).inputValue()).toBe("large")
      await expectAccessible(page)
      await asking.getByRole("radio", { name: "Gemini" }).check()
      await asking.getByRole("button", { name: "Update" }).click()
      await asking.waitFor({ state: "hidden" })
      await expect.poll(() => log(page).textContent()).toContain("Project gemini")
      expect(await log(page).textContent()).toContain("Size large")
      await expectStatus(page, "Running")
      const updated = (await owner.get(`/workspaces/${w.id}`)).body
      expect(updated.latest_build.template_version_id).toBe(v2.body.id)
      expect((await owner.get(`/workspacebuilds/${updated.latest_build.id}/parameters`)).body).toEqual(
        expect.arrayContaining([{ name: "project", value: "gemini" }, { name: "region", value: "us" }])
      )
      expectNoProblems(page)
    },
    60_000
  )
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
    await page.getByRole("heading", { name: "after", level: 1 }).waitFor()
    expect(new URL(page.url()).pathname).toBe("/@admin/after")
    expect((await owner.get(`/workspaces/${w.id}`)).body.name).toBe("after")

    // Automatic updates.
    await page.getByRole("region", { name: "Settings" }).getByLabel("Automatic updates").selectOption("always")
    await expect.poll(async () => (await owner.get(`/workspaces/${w.id}`)).body.automatic_updates)
      .toBe("always")

    // Dormant (as the dormancy rules make it): said so, and activated.
    const stopped = await owner.post(`/workspaces/${w.id}/builds`, { transition: "stop" })
    expect(stopped.status).toBe(200)
    await runJobs(srv)
    const dormant = await owner.put(`/workspaces/${w.id}/dormant`, { dormant: true })
    expect(dormant.status, JSON.stringify(dormant.body)).toBe(200)
    await page.reload()
    const notice = page.getByRole("status", { name: "Dormancy" })
    await notice.waitFor()
    expect(await notice.textContent()).toContain("Dormant since")
    await expectAccessible(page)
    await notice.getByRole("button", { name: "Activate" }).click()
    await expect.poll(() => page.getByRole("status", { name: "Dormancy" }).count()).toBe(0)
    expect((await owner.get(`/workspaces/${w.id}`)).body.dormant_at).toBeNull()
    expectNoProblems(page)
  })
})
