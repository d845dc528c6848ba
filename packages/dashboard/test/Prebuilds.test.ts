/**
 * Prebuilt workspaces in the dashboard (docs/prebuilds.md, docs/dashboard.md) in Chromium against a
 * real service (in-memory SQLite, its provisioner workers, the dashboard mounted), the reconciler's
 * loop off and its ticks run by hand (`PrebuildsReconciler.tick`), through roles and accessible
 * names only:
 *
 * - the template page, as the owner: the preset keeping one instance, its prebuilt workspace ready;
 *   "Invalidate prebuilt workspaces" confirmed, its answer shown, the workspace gone once its delete
 *   build ran (the list asked again meanwhile), then a fresh one after the next tick;
 * - the workspaces list: the "Prebuilt workspaces" filter (`owner:prebuilds`) and the "Prebuilt"
 *   badge;
 * - the create form: the preset keeping instances says a prebuilt workspace may be ready, the other
 *   says nothing;
 * - a preset whose prebuilt workspace's build failed: counted Failed;
 * - a member: the preset and how many it keeps, but neither the counts, the action nor the filter.
 *
 * axe-core on each page. Skipped, saying so, when /usr/bin/chromium is missing; under CI that fails
 * instead.
 */
import { PrebuildsReconciler } from "@workbay/core"
import { dashboardDir } from "@workbay/dashboard"
import { Effect } from "effect"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createUser,
  type ServiceTestServer,
  startWithOwner,
  type TestUser
} from "../../http/test/support.js"
import { runJobs } from "../../http/test/templates/versions.js"
import { makeTemplate } from "../../http/test/workspaces/fixtures.js"
import {
  browserAvailable,
  expectAccessible,
  expectNoProblems,
  launchBrowser,
  screenshot,
  signIn,
  watchedPage
} from "./browser.js"

const available = browserAvailable("the prebuilt workspaces' browser test")

const TEMPLATE = `parameters:
  - name: size
    display_name: Size
    default: small
    mutable: true
presets:
  - name: big
    parameters: { size: large }
    prebuilds: { instances: 1 }
  - name: plain
    parameters: { size: small }
resources:
  - name: box
    type: machine
build:
  import_delay_ms: 0
`

describe.skipIf(!available)("prebuilt workspaces in Chromium", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let template: { id: string; name: string }
  let member: TestUser
  let browser: Browser
  let page: Page

  const tick = async () => {
    const done = await srv.run(Effect.flatMap(PrebuildsReconciler, (r) => r.tick()))
    await runJobs(srv)
    return done
  }
  const prebuilt = async () => {
    const r = await owner.get(`/workspaces?q=${encodeURIComponent(`owner:prebuilds template:${template.name}`)}`)
    expect(r.status).toBe(200)
    return r.body.workspaces as Array<{ id: string; name: string }>
  }
  const section = () => page.getByRole("region", { name: "Prebuilt workspaces" })
  const presetRow = (name: string) =>
    section().getByRole("table", { name: "Presets keeping prebuilt workspaces" }).getByRole("row", { name })
  const cells = async (name: string) => (await presetRow(name).getByRole("cell").allTextContents()).map((s) => s.trim())

  beforeAll(async () => {
    const started = await startWithOwner({ dashboard: { dir: dashboardDir }, prebuilds: false })
    srv = started.srv
    owner = started.owner
    orgId = started.orgId
    template = await makeTemplate(srv, owner, orgId, TEMPLATE, { display_name: "Prebuilt box" })
    member = await createUser(owner, { username: "pb-member" })
    browser = await launchBrowser()
    page = await watchedPage(await browser.newContext({ viewport: { width: 1100, height: 900 } }))
    await signIn(page, srv.url, "admin@example.com")
  })
  afterAll(async () => {
    await browser?.close()
    await srv?.close()
  })

  it("shows the preset with its prebuilt workspace ready on the template page", async () => {
    const done = await tick()
    expect(done.created).toHaveLength(1)
    const [ws] = await prebuilt()
    expect(ws).toBeDefined()

    await page.goto(`${srv.url}/templates/${template.name}`)
    await page.getByRole("heading", { name: "Prebuilt box", level: 1 }).waitFor()
    await section().waitFor()
    // Desired, ready, building, failed, deleting.
    await expect.poll(() => cells("big")).toEqual(["1", "1", "0", "0", "0"])
    // The preset without instances is not listed.
    expect(await presetRow("plain").count()).toBe(0)
    const now = section().getByRole("table", { name: "Prebuilt workspaces now" })
    const row = now.getByRole("row", { name: ws!.name })
    expect((await row.getByRole("cell").allTextContents()).map((s) => s.trim())).toEqual(["big", "Ready"])
    expect(await row.getByRole("link", { name: ws!.name }).getAttribute("href")).toBe(`/@prebuilds/${ws!.name}`)
    await section().getByRole("button", { name: "Invalidate prebuilt workspaces" }).waitFor()
    await expectAccessible(page)
    await screenshot(page, "template-prebuilds")
  })

  it("lists the prebuilt workspaces under their filter, with their badge", async () => {
    const [ws] = await prebuilt()
    await page.goto(`${srv.url}/workspaces`)
    const filters = page.getByRole("navigation", { name: "Workspace filters" })
    await filters.getByRole("link", { name: "Prebuilt workspaces" }).click()
    await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe("owner:prebuilds")
    // The link is marked current once the page has rendered the new search (after the URL changed).
    await expect.poll(() => filters.getByRole("link", { name: "Prebuilt workspaces" }).getAttribute("aria-current"))
      .toBe("page")
    const row = page.getByRole("row", { name: new RegExp(ws!.name) })
    await row.waitFor()
    expect(await row.getByText("Prebuilt", { exact: true }).count()).toBe(1)
    expect(await row.getByRole("rowheader").textContent()).toContain("prebuilds")
    await expectAccessible(page)
    // The owner's own list has none of them.
    await filters.getByRole("link", { name: "My workspaces" }).click()
    await page.getByText("No workspaces match “owner:me”.").waitFor()
  })

  it("says on the create form that the preset keeping instances may have one ready", async () => {
    await page.goto(`${srv.url}/templates/${template.name}/workspace`)
    const preset = page.getByRole("combobox", { name: "Preset" })
    await preset.waitFor()
    const note = page.getByRole("status", { name: "Prebuilt workspaces" })
    expect(await note.textContent()).toBe("")
    await preset.selectOption({ label: "big" })
    await expect.poll(() => note.textContent()).toContain("A prebuilt workspace may be ready for this preset")
    await expectAccessible(page)
    await preset.selectOption({ label: "plain" })
    await expect.poll(() => note.textContent()).toBe("")
  })

  it("invalidates the prebuilt workspaces, shows the answer, then the fresh one after a tick", async () => {
    const [old] = await prebuilt()
    await page.goto(`${srv.url}/templates/${template.name}`)
    await expect.poll(() => cells("big")).toEqual(["1", "1", "0", "0", "0"])
    await section().getByRole("button", { name: "Invalidate prebuilt workspaces" }).click()
    const dialog = page.getByRole("dialog", { name: "Invalidate the prebuilt workspaces?" })
    await dialog.waitFor()
    await expectAccessible(page)
    await dialog.getByRole("button", { name: "Invalidate" }).click()
    const answer = section().getByRole("status", { name: "Invalidation" })
    await expect.poll(() => answer.textContent()).toMatch(
      /^Invalidated the prebuilt workspaces of big \(version .+\)\.$/
    )
    // Its delete build runs; the list is asked again while it does, until it is gone.
    await section().getByText("No prebuilt workspaces at the moment", { exact: false }).waitFor()
    await expect.poll(() => cells("big")).toEqual(["1", "0", "0", "0", "0"])
    await expectAccessible(page)

    // The next tick builds a fresh one, which the page shows.
    expect((await tick()).created).toHaveLength(1)
    const [fresh] = await prebuilt()
    expect(fresh!.id).not.toBe(old!.id)
    await page.reload()
    await section().getByRole("table", { name: "Prebuilt workspaces now" }).getByRole("row", { name: fresh!.name })
      .waitFor()
    await expect.poll(() => cells("big")).toEqual(["1", "1", "0", "0", "0"])
    expectNoProblems(page)
  })

  it("counts a prebuilt workspace whose build failed as Failed", async () => {
    const failing = await makeTemplate(
      srv,
      owner,
      orgId,
      TEMPLATE.replace("build:\n", `build:\n  fail: { transition: start, message: "no capacity" }\n`)
    )
    expect((await tick()).created).toHaveLength(1)
    await page.goto(`${srv.url}/templates/${failing.name}`)
    await section().waitFor()
    await expect.poll(() => cells("big")).toEqual(["1", "0", "0", "1", "0"])
    const now = section().getByRole("table", { name: "Prebuilt workspaces now" })
    expect((await now.getByRole("row").nth(1).getByRole("cell").allTextContents()).map((s) => s.trim()))
      .toEqual(["big", "Failed"])
    await expectAccessible(page)
    expectNoProblems(page)
  })

  it("shows a member the presets but neither the prebuilt workspaces, the action nor the filter", async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } })
    const mine = await watchedPage(context)
    const asked = mine.waitForResponse((r) => new URL(r.url()).pathname === "/api/v2/authcheck")
    await signIn(mine, srv.url, member.email)
    await asked
    expect(await mine.getByRole("navigation", { name: "Workspace filters" }).getByRole("link").allTextContents())
      .toEqual(["My workspaces", "All workspaces", "Running", "Failed"])
    await mine.goto(`${srv.url}/templates/${template.name}`)
    const region = mine.getByRole("region", { name: "Prebuilt workspaces" })
    await region.waitFor()
    const row = region.getByRole("row", { name: "big" })
    await row.waitFor()
    expect((await row.getByRole("cell").allTextContents()).map((s) => s.trim())).toEqual(["1"])
    expect(await region.getByRole("table", { name: "Prebuilt workspaces now" }).count()).toBe(0)
    // The permissions answered (so the action's absence is their answer, not a page still loading).
    await region.getByText("The prebuilt workspaces themselves are shown to those who may read them.").waitFor()
    expect(await region.getByRole("button", { name: "Invalidate prebuilt workspaces" }).count()).toBe(0)
    await expectAccessible(mine)
    // The route refuses them too.
    expect((await member.client.post(`/templates/${template.id}/prebuilds/invalidate`)).status).toBe(403)
    expectNoProblems(mine)
    await context.close()
  })
})
