/**
 * The workspaces area in Chromium against a real service (in-memory SQLite, its own provisioner
 * workers building `workbay` templates, the dashboard mounted), through roles and accessible
 * names only:
 *
 * - creating a workspace from a template with parameters and a preset: the template chosen from
 *   "New workspace", the quota shown, the fields' errors shown as they are left (a number above
 *   its maximum, a value failing the template's regex, an empty name) and fixed, the preset filling
 *   its values, then the new workspace's page with its build log arriving live;
 * - the workspace page: the build history (each build's log on demand), the timings, stop, start,
 *   restart (a stop build, then a start build), update when outdated, cancel of the slow update
 *   build, delete after the confirmation dialog;
 * - the schedule saved and shown, sharing with a group (its role changed) and a second user who
 *   then lists the workspace in a browser context of their own, a port shared and unshared, a favorite toggled and listed first,
 *   and the page in the dark theme.
 *
 * axe-core on every page (light, and the workspace page in dark). Skipped, saying so, when
 * /usr/bin/chromium is missing; under CI that fails instead.
 */
import { dashboardDir } from "@workbay/dashboard"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createUser,
  type ServiceTestServer,
  startWithOwner,
  type TestUser
} from "../../http/test/support.js"
import { createVersion, runJobs } from "../../http/test/templates/versions.js"
import { makeTemplate, makeWorkspace } from "../../http/test/workspaces/fixtures.js"
import {
  browserAvailable,
  expectAccessible,
  expectNoProblems,
  launchBrowser,
  screenshot,
  signIn,
  watchedPage
} from "./browser.js"

const available = browserAvailable("the workspaces' browser tests")

/** Parameters of every kind of rule, a preset, two resources (one with an agent and an app), a build log over half a second. */
const TEMPLATE = `parameters:
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
  - name: repo
    display_name: Repository
    description: The repository to clone.
    mutable: true
    default: https://example.com/a.git
    validation: { regex: "^https://", error: "Must be an https address." }
  - name: token
    display_name: Token
    mutable: true
    ephemeral: true
    default: ""
presets:
  - name: big
    parameters: { cpus: 4, region: us }
resources:
  - name: home
    type: volume
    daily_cost: 1
    transitions: [start, stop]
  - name: dev
    type: machine
    daily_cost: 2
    agents:
      - name: main
        apps:
          - slug: code
            display_name: VS Code
            url: http://localhost:8080
build:
  logs: ["Building \${workspace.name} for \${workspace.owner}", "Region \${param.region}", "CPUs \${param.cpus}"]
  delay_ms: 150
  import_delay_ms: 0
`

/** The next version: builds slow enough to cancel (one line, after a second and a half). */
const SLOW_VERSION = TEMPLATE.replace(
  /build:[^]*$/,
  `build:\n  logs: ["Slowly"]\n  delay_ms: 1500\n  import_delay_ms: 0\n`
)

/** Parameters whose options, default and visibility depend on the region (`dynamic:` expressions). */
const DYNAMIC = `parameters:
  - name: region
    display_name: Region
    default: eu
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
  - name: gpu
    display_name: GPU
    type: bool
    default: false
    dynamic:
      visible: 'param.region == "us"'
resources:
  - name: dev
    type: machine
build:
  logs: ["Size \${param.size}"]
  import_delay_ms: 0
`

const status = (page: Page) => page.getByRole("status", { name: "Workspace status" })
const expectStatus = (page: Page, value: string) => expect.poll(() => status(page).textContent()).toBe(value)

describe.skipIf(!available)("the workspaces in Chromium", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let template: { id: string; name: string }
  /** The same template again, whose versions stay quick (the first one gets a slow version). */
  let quick: { id: string; name: string }
  let browser: Browser
  let friend: TestUser
  let created: string

  beforeAll(async () => {
    const started = await startWithOwner({ dashboard: { dir: dashboardDir } })
    srv = started.srv
    owner = started.owner
    orgId = started.orgId
    template = await makeTemplate(srv, owner, orgId, TEMPLATE, {
      display_name: "Dev machine",
      max_port_share_level: "public"
    })
    quick = await makeTemplate(srv, owner, orgId, TEMPLATE, { max_port_share_level: "public" })
    // A quota: a group of the owner with an allowance.
    const group = await owner.post(`/organizations/${orgId}/groups`, { name: "quota", quota_allowance: 20 })
    expect(group.status, JSON.stringify(group.body)).toBe(201)
    await owner.patch(`/groups/${group.body.id}`, { add_users: [started.ownerId] })
    friend = await createUser(owner, { username: "friend" })
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await srv?.close()
  })

  it("creates a workspace from the template's form, errors shown then fixed, its build log live", async () => {
    const page = await watchedPage(await browser.newContext({ viewport: { width: 1100, height: 900 } }))
    await signIn(page, srv.url, "admin@example.com")

    await page.getByRole("link", { name: "New workspace" }).click()
    await page.getByRole("heading", { name: "New workspace" }).waitFor()
    await expectAccessible(page)
    await page.getByRole("link", { name: "Dev machine" }).click()
    expect(new URL(page.url()).pathname).toBe(`/templates/${template.name}/workspace`)
    await page.getByRole("heading", { name: "Parameters" }).waitFor()
    expect(await page.getByRole("status", { name: "Quota" }).textContent()).toBe("Quota: 0 of 20 credits used")

    // The defaults, and the notes of each parameter.
    const cpus = page.getByRole("spinbutton", { name: "CPUs" })
    expect(await cpus.inputValue()).toBe("2")
    expect(await page.getByRole("radio", { name: "Europe" }).isChecked()).toBe(true)
    expect(await page.getByRole("textbox", { name: "Token" }).getAttribute("aria-describedby")).toBeTruthy()
    await page.getByText("Ephemeral: used for this build only.").waitFor()

    // Errors shown as fields are left, before any submit.
    await cpus.fill("9")
    await cpus.press("Tab")
    await page.getByRole("alert").filter({ hasText: "CPUs must be at most 8." }).waitFor()
    expect(await cpus.getAttribute("aria-invalid")).toBe("true")
    const repo = page.getByRole("textbox", { name: "Repository" })
    await repo.fill("ftp://example.com/a.git")
    await repo.press("Tab")
    await page.getByRole("alert").filter({ hasText: "Must be an https address." }).waitFor()
    // A submit with errors: nothing sent, the name's error shown too, the first bad field focused.
    await page.getByRole("button", { name: "Create workspace" }).click()
    await page.getByRole("alert").filter({ hasText: "Name is required." }).waitFor()
    expect(await page.getByRole("textbox", { name: "Workspace name" }).evaluate((e) => e === document.activeElement))
      .toBe(true)
    await expectAccessible(page)
    // Fixed: the messages go.
    await cpus.fill("3")
    await repo.fill("https://example.com/b.git")
    await expect.poll(() => page.getByRole("alert").filter({ hasText: /CPUs|https/ }).count()).toBe(0)

    // The preset fills its values, which it then holds.
    await page.getByLabel("Preset").selectOption({ label: "big" })
    expect(await cpus.inputValue()).toBe("4")
    expect(await cpus.isDisabled()).toBe(true)
    expect(await page.getByRole("radio", { name: "America" }).isChecked()).toBe(true)

    const name = "dev-one"
    await page.getByRole("textbox", { name: "Workspace name" }).fill(name)
    await screenshot(page, "create-workspace")
    await page.getByRole("button", { name: "Create workspace" }).click()

    // The new workspace's page, its first build's log arriving as the build runs.
    await page.getByRole("heading", { name, level: 1 }).waitFor()
    expect(new URL(page.url()).pathname).toBe(`/@admin/${name}`)
    const log = page.getByRole("log", { name: "Latest build's logs" })
    await expect.poll(() => log.textContent()).toContain(`Building ${name} for admin`)
    await expect.poll(() => log.textContent()).toContain("CPUs 4")
    expect(await log.textContent()).toContain("Region us")
    await expectStatus(page, "Running")
    // Resources, the agent and its app through the app proxy.
    const app = page.getByRole("link", { name: "VS Code" })
    expect(await app.getAttribute("href")).toBe(`/@admin/${name}.main/apps/code/`)
    await page.getByRole("row", { name: /main/ }).waitFor()
    await page.getByRole("heading", { name: "dev machine", level: 3 }).waitFor()
    await expectAccessible(page)
    await screenshot(page, "workspace-builds")
    created = name
    const ws = (await owner.get(`/users/admin/workspace/${name}`)).body
    expect(ws.latest_build.template_version_preset_id).not.toBeNull()
    expectNoProblems(page)
  })

  it(
    "follows the dynamic parameters: options, defaults, visibility and diagnostics live; the values created",
    async () => {
      const dynamic = await makeTemplate(srv, owner, orgId, DYNAMIC, { display_name: "Dynamic machine" })
      const page = await watchedPage(await browser.newContext({ viewport: { width: 1100, height: 900 } }))
      const sockets: Array<string> = []
      page.on("websocket", (ws) => sockets.push(new URL(ws.url()).pathname))
      await signIn(page, srv.url, "admin@example.com")
      await page.goto(`${srv.url}/templates/${dynamic.name}/workspace`)
      await page.getByRole("heading", { name: "Parameters" }).waitFor()
      expect(sockets).toContain(`/api/v2/templateversions/${dynamic.active_version_id}/dynamic-parameters`)

      // The evaluated options and default for Europe; the GPU hidden.
      const size = page.getByRole("combobox", { name: "Size" })
      const optionsOf = () => size.getByRole("option").allTextContents()
      expect(await optionsOf()).toEqual(["Small", "Medium"])
      expect(await size.inputValue()).toBe("small")
      expect(await page.getByRole("checkbox", { name: "GPU" }).count()).toBe(0)
      // Size untouched: its evaluated default follows the region (only the region is sent).
      await page.getByRole("radio", { name: "America" }).check()
      await expect.poll(() => size.inputValue()).toBe("large")
      await page.getByRole("radio", { name: "Europe" }).check()
      await expect.poll(() => size.inputValue()).toBe("small")
      expect(await page.getByRole("alert").count()).toBe(0)
      await size.selectOption({ label: "Medium" })

      // America: the sizes change live, the GPU appears, and the chosen size is refused under its field.
      await page.getByRole("radio", { name: "America" }).check()
      await expect.poll(optionsOf).toContain("Large")
      expect(await optionsOf()).not.toContain("Small")
      await page.getByRole("checkbox", { name: "GPU" }).waitFor()
      const problem = page.getByRole("alert").filter({ hasText: "is not one of the options" })
      await problem.waitFor()
      expect(await size.getAttribute("aria-invalid")).toBe("true")
      const problemId = await problem.getAttribute("id")
      expect((await size.getAttribute("aria-describedby"))?.split(" ")).toContain(problemId)
      await expectAccessible(page)
      await screenshot(page, "create-workspace-dynamic")

      // A size of the new options: the diagnostic goes.
      await size.selectOption({ label: "Large" })
      await expect.poll(() => problem.count()).toBe(0)
      expect(await size.getAttribute("aria-invalid")).toBeNull()
      await page.getByRole("checkbox", { name: "GPU" }).check()
      await page.getByRole("textbox", { name: "Workspace name" }).fill("dyn-one")
      await page.getByRole("button", { name: "Create workspace" }).click()
      await page.getByRole("heading", { name: "dyn-one", level: 1 }).waitFor()
      const ws = (await owner.get("/users/admin/workspace/dyn-one")).body
      const values = (await owner.get(`/workspacebuilds/${ws.latest_build.id}/parameters`)).body
      expect(values).toEqual(
        expect.arrayContaining([{ name: "region", value: "us" }, { name: "size", value: "large" }, {
          name: "gpu",
          value: "true"
        }])
      )
      expect(values).toHaveLength(3)
      expectNoProblems(page)

      // A template that asks for the classic form: the parameters as written, no socket.
      const classic = await makeTemplate(srv, owner, orgId, DYNAMIC, { template_use_classic_parameter_flow: true })
      sockets.length = 0
      await page.goto(`${srv.url}/templates/${classic.name}/workspace`)
      await page.getByRole("heading", { name: "Parameters" }).waitFor()
      expect(await page.getByRole("textbox", { name: "Size" }).count()).toBe(1)
      expect(sockets.filter((s) => s.endsWith("/dynamic-parameters"))).toEqual([])
      expectNoProblems(page)

      // The socket refused: the classic form instead.
      await page.routeWebSocket(/dynamic-parameters/, (ws) => ws.close({ code: 1011, reason: "gone" }))
      await page.goto(`${srv.url}/templates/${dynamic.name}/workspace`)
      await page.getByRole("heading", { name: "Parameters" }).waitFor()
      await page.getByRole("textbox", { name: "Size" }).waitFor()
      expect(await page.getByRole("checkbox", { name: "GPU" }).count()).toBe(1)
      expectNoProblems(page)
    },
    45_000
  )

  it("lists the builds with their logs, stops, starts, restarts, updates, cancels and deletes", async () => {
    const page = await watchedPage(await browser.newContext({ viewport: { width: 1100, height: 900 } }))
    await signIn(page, srv.url, "admin@example.com")
    await page.goto(`${srv.url}/@admin/${created}`)
    await expectStatus(page, "Running")
    const builds = page.getByRole("list", { name: "Builds" }).getByRole("listitem")
    await expect.poll(() => builds.count()).toBe(1)
    await page.getByRole("heading", { name: "Timings of build #1" }).waitFor()

    await page.getByRole("button", { name: "Stop", exact: true }).click()
    await expectStatus(page, "Stopped")
    await expect.poll(() => builds.count()).toBe(2)
    await page.getByRole("button", { name: "Start", exact: true }).click()
    await expectStatus(page, "Running")

    // Restart: a stop build, then a start build.
    await page.getByRole("button", { name: "Restart" }).click()
    await expect.poll(() => builds.count()).toBe(5)
    await expectStatus(page, "Running")
    expect(await builds.first().textContent()).toMatch(/#5\s*Start/)
    expect(await builds.nth(1).textContent()).toMatch(/#4\s*Stop/)

    // A past build's log, on demand.
    const show = page.getByRole("button", { name: "Show logs of build #2" })
    await show.click()
    expect(await page.getByRole("button", { name: "Hide logs of build #2" }).getAttribute("aria-expanded")).toBe("true")
    await expect.poll(() => page.getByRole("log", { name: "Logs of build #2" }).textContent())
      .toContain(`Building ${created} for admin`)

    // A new active version: the workspace is outdated; Update builds it, slowly enough to cancel.
    const version = await createVersion(srv, owner, orgId, SLOW_VERSION, { template_id: template.id })
    await runJobs(srv)
    expect((await owner.patch(`/templates/${template.id}/versions`, { id: version.body.id })).status).toBe(200)
    await page.reload()
    await page.getByRole("status", { name: "Template version" }).waitFor()
    await page.getByRole("button", { name: "Update" }).click()
    await page.getByRole("button", { name: "Cancel build" }).click()
    await expectStatus(page, "Canceled")
    await expect.poll(() => builds.count()).toBe(6)
    expect(await page.getByRole("status", { name: "Template version" }).count()).toBe(0)
    await expectAccessible(page)

    // Delete, after the confirmation.
    await page.getByRole("button", { name: "Delete", exact: true }).click()
    const dialog = page.getByRole("dialog", { name: `Delete ${created}?` })
    await dialog.waitFor()
    // The workspace's name must be typed first.
    const confirmDelete = dialog.getByRole("button", { name: "Delete workspace" })
    expect(await confirmDelete.isDisabled()).toBe(true)
    await dialog.getByRole("textbox", { name: `Type “${created}” to confirm` }).fill(`${created}-not`)
    expect(await confirmDelete.isDisabled()).toBe(true)
    await dialog.getByRole("textbox", { name: `Type “${created}” to confirm` }).fill(created)
    await confirmDelete.click()
    await expect.poll(() => status(page).textContent()).toBe("Deleted")
    expect(await page.getByRole("button", { name: "Start", exact: true }).count()).toBe(0)
    expectNoProblems(page)
  })

  it("saves the schedule, shares with a user, shares a port, and lists a favorite first", async () => {
    const shared = await makeWorkspace(srv, owner, orgId, quick.id, { name: "zz-shared" })
    await makeWorkspace(srv, owner, orgId, quick.id, { name: "aa-other" })
    const page = await watchedPage(await browser.newContext({ viewport: { width: 1100, height: 900 } }))
    await signIn(page, srv.url, "admin@example.com")
    await page.goto(`${srv.url}/@admin/${shared.name}`)
    await expectStatus(page, "Running")

    // The schedule: Monday to Thursday at 08:30 UTC, stopping after 4 hours.
    await page.getByRole("button", { name: "Edit schedule" }).click()
    await page.getByRole("checkbox", { name: "Start automatically" }).check()
    await page.getByRole("checkbox", { name: "Friday" }).uncheck()
    await page.getByLabel("Start time").fill("08:30")
    await page.getByLabel("Time zone").selectOption("UTC")
    await page.getByLabel("Stop after (hours)").fill("4")
    await page.getByRole("button", { name: "Save schedule" }).click()
    await expect.poll(() => page.getByRole("status", { name: "Autostart" }).textContent())
      .toBe("Monday, Tuesday, Wednesday, Thursday at 08:30 (UTC)")
    await expect.poll(() => page.getByRole("status", { name: "Autostop" }).textContent())
      .toBe("After 4 hours")
    expect((await owner.get(`/workspaces/${shared.id}`)).body.autostart_schedule).toBe("CRON_TZ=UTC 30 8 * * 1,2,3,4")

    // Sharing with the friend, by username.
    await page.getByRole("textbox", { name: "Username" }).fill(friend.username)
    await page.getByRole("button", { name: "Share", exact: true }).click()
    await page.getByRole("row", { name: new RegExp(friend.username) }).waitFor()
    expect(await page.getByRole("combobox", { name: `Role of ${friend.username}` }).inputValue()).toBe("use")
    // And with a group, by name, as admins; then its role changed to use.
    const crew = await owner.post(`/organizations/${orgId}/groups`, { name: "crew", display_name: "The crew" })
    expect(crew.status).toBe(201)
    await page.getByLabel("Share with").selectOption("group")
    await page.getByRole("textbox", { name: "Username or group name" }).fill("crew")
    await page.getByLabel("Role", { exact: true }).selectOption("admin")
    await page.getByRole("button", { name: "Share", exact: true }).click()
    const groupRole = page.getByRole("combobox", { name: "Role of The crew (group)" })
    await expect.poll(() => groupRole.count()).toBe(1)
    expect(await groupRole.inputValue()).toBe("admin")
    await groupRole.selectOption("use")
    await expect.poll(async () => (await owner.get(`/workspaces/${shared.id}/acl`)).body.group)
      .toMatchObject([{ id: crew.body.id, role: "use" }])

    // A port shared, then no longer.
    await page.getByRole("spinbutton", { name: "Port" }).fill("8080")
    await page.getByLabel("Shared with").selectOption("authenticated")
    await page.getByRole("button", { name: "Share port" }).click()
    const portRow = page.getByRole("row", { name: /8080/ })
    await portRow.waitFor()
    expect(await portRow.textContent()).toContain("Authenticated")
    await expectAccessible(page)
    await screenshot(page, "workspace")
    await page.getByRole("button", { name: "Stop sharing port 8080" }).click()
    await page.getByRole("dialog", { name: "Stop sharing port 8080?" }).getByRole("button", { name: "Stop sharing" })
      .click()
    await page.getByText("No shared ports.").waitFor()

    // The friend, signed in elsewhere, lists the shared workspace.
    const other = await watchedPage(await browser.newContext())
    await signIn(other, srv.url, friend.email)
    await other.getByRole("link", { name: shared.name }).waitFor()
    expect(await other.getByRole("link", { name: "aa-other" }).count()).toBe(0)
    expectNoProblems(other)

    // A favorite: its toggle pressed, and the workspace listed first.
    await page.getByRole("link", { name: "All workspaces" }).click()
    const rows = page.getByRole("table").getByRole("row")
    await expect.poll(() => rows.nth(1).textContent()).toContain("aa-other")
    const toggle = page.getByRole("button", { name: `Favorite ${shared.name}` })
    expect(await toggle.getAttribute("aria-pressed")).toBe("false")
    await toggle.click()
    await expect.poll(() => toggle.getAttribute("aria-pressed")).toBe("true")
    await expect.poll(() => rows.nth(1).textContent()).toContain(shared.name)
    expect((await owner.get(`/workspaces/${shared.id}`)).body.favorite).toBe(true)
    await expectAccessible(page)
    expectNoProblems(page)

    // The workspace page in the dark theme.
    const dark = await watchedPage(
      await browser.newContext({ colorScheme: "dark", viewport: { width: 1100, height: 900 } })
    )
    await signIn(dark, srv.url, "admin@example.com")
    await dark.goto(`${srv.url}/@admin/${shared.name}`)
    await expectStatus(dark, "Running")
    await dark.getByRole("row", { name: new RegExp(friend.username) }).waitFor()
    await expectAccessible(dark)
    await screenshot(dark, "workspace-dark")
    expectNoProblems(dark)
  })
})
