/**
 * Template variables in the dashboard, as a newcomer goes: on one real service with no user yet
 * (the dashboard mounted, its provisioner workers running the `docker` provisioner on the machine's
 * daemon, containers on the host's network, nothing pulled), Debian's Chromium and the real agent
 * executable in the container, through roles and accessible names only:
 *
 * the first user set up → a template from the Docker starter, whose variables step shows `image`
 * with its default, changed to the suite's local image without Node (the version imported again
 * with it) → a workspace of it, built live, its container's agent connected and ready → the
 * template's Variables page: the image changed, saved as a new version, made active, and the
 * workspace then outdated.
 *
 * Skipped, saying so, when Docker or /usr/bin/chromium is missing; under CI that fails instead.
 */
import { workbayProvisioner } from "@workbay/core"
import { dashboardDir } from "@workbay/dashboard"
import { dockerClient, makeDockerProvisioner } from "@workbay/docker"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { cleanUp, testDeployment } from "../../docker/test/support.js"
import { Client, type ServiceTestServer, startServiceTestServer, STRONG_PASSWORD } from "../../http/test/support.js"
import { browserAvailable, expectAccessible, expectNoProblems, launchBrowser, watchedPage } from "./browser.js"

const WHAT = "the template variables' Docker flow in Chromium"

/** The Docker tests' images (packages/docker/test/globalSetup.ts), or null (said SKIPPED) without a daemon. */
const dockerImages = () => {
  const made = inject("workbayDocker")
  if (made !== null && made !== undefined) return made
  const why = made === null ? "no Docker daemon answers" : "the Docker global setup did not run"
  if (process.env.CI) throw new Error(`${WHAT} needs Docker under CI: ${why}.`)
  console.warn(`SKIPPED: ${WHAT} (${why}).`)
  return null
}

const made = dockerImages()
const available = made !== null && browserAvailable(WHAT)

/** How long a step may wait on the machine's daemon and a loaded machine: a condition, not a pace. */
const LONG = 120_000

describe.skipIf(!available)("template variables from the dashboard, on Docker", () => {
  const deployment = testDeployment()
  const docker = dockerClient({ host: process.env.DOCKER_HOST })
  let srv: ServiceTestServer
  let browser: Browser

  beforeAll(async () => {
    srv = await startServiceTestServer({
      dashboard: { dir: dashboardDir },
      agentBinaries: made!.agentBinaries,
      provisioners: [workbayProvisioner, makeDockerProvisioner({ docker, defaultNetwork: "host", pull: false })],
      settings: { deploymentId: deployment },
      lifecycle: false,
      notifier: false
    })
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await cleanUp(docker, deployment)
    await srv?.close()
  })

  const importStatus = (page: Page) => page.getByRole("status", { name: "Import status" })

  it(
    "chooses the image when making a template from the Docker starter, runs a workspace, then changes it",
    async () => {
      const page = await watchedPage(await browser.newContext({ viewport: { width: 1200, height: 900 } }))

      // The first user.
      await page.goto(`${srv.url}/`)
      await page.getByRole("heading", { name: "Create the first user" }).waitFor({ timeout: LONG })
      await page.getByLabel("Email").fill("nina@example.com")
      await page.getByLabel("Username").fill("nina")
      await page.getByLabel("Full name").fill("Nina Newcomer")
      await page.getByLabel("Password").fill(STRONG_PASSWORD)
      await page.getByRole("button", { name: "Create account" }).click()
      await page.getByRole("heading", { name: "Workspaces" }).waitFor({ timeout: LONG })

      // No quota step: no group has an allowance, so the starter's cost refuses nothing (docs/workspaces.md#quotas).
      const api = new Client(`${srv.url}/api/v2`)
      const owner = api.as(
        (await api.post("/users/login", { email: "nina@example.com", password: STRONG_PASSWORD })).body.session_token
      )

      // A template from the Docker starter: its variables step, the image's default filled in.
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Templates" }).click()
      await page.getByRole("link", { name: "Create template" }).click()
      await page.getByRole("button", { name: "Use Docker Containers" }).click()
      await expect.poll(() => importStatus(page).textContent(), { timeout: LONG }).toBe("Succeeded")
      const image = page.getByRole("textbox", { name: "image" })
      await image.waitFor({ timeout: LONG })
      expect(await image.inputValue()).toBe("ubuntu:24.04")
      expect(await page.getByRole("textbox", { name: "Name", exact: true }).count()).toBe(0)
      await expectAccessible(page)
      await image.fill(made!.image)
      await page.getByRole("button", { name: "Use these values" }).click()

      // Imported again with the image; then the template's form, the chosen value listed.
      const chosen = page.getByRole("region", { name: "Template variables" })
      await expect.poll(() => chosen.textContent(), { timeout: LONG }).toContain(made!.image)
      expect(await importStatus(page).textContent()).toBe("Succeeded")
      await page.getByRole("textbox", { name: "Name", exact: true }).fill("docker")
      await page.getByRole("button", { name: "Create template" }).click()
      await page.getByRole("heading", { name: "docker", level: 1 }).waitFor({ timeout: LONG })
      const template = (await owner.get("/organizations/default/templates/docker")).body
      const variablesOf = async (versionId: string) =>
        Object.fromEntries(
          ((await owner.get(`/templateversions/${versionId}/variables`)).body as Array<any>).map((
            v
          ) => [v.name, v.value])
        )
      expect(await variablesOf(template.active_version_id)).toEqual({ image: made!.image })

      // A workspace of it: built live, its container's agent connected and ready.
      await page.getByRole("link", { name: "Create workspace" }).click()
      await page.getByRole("textbox", { name: "Workspace name" }).fill("dev")
      await page.getByRole("button", { name: "Create workspace" }).click()
      await page.getByRole("heading", { name: "dev", level: 1 }).waitFor({ timeout: LONG })
      await expect.poll(() => page.getByRole("status", { name: "Workspace status" }).textContent(), { timeout: LONG })
        .toBe("Running")
      const agentRow = page.getByRole("row", { name: /main/ })
      await expect.poll(() => agentRow.getByRole("cell", { name: "Connected" }).count(), { timeout: LONG }).toBe(1)
      await expect.poll(() => agentRow.getByRole("cell", { name: "Ready" }).count(), { timeout: LONG }).toBe(1)
      const built = (await owner.get("/users/nina/workspace/dev")).body.latest_build
      const container = (built.resources as Array<any>).find((r) => r.type === "docker_container")
      expect(container.metadata).toContainEqual(expect.objectContaining({ key: "image", value: made!.image }))

      // The template's Variables page: the image changed, a new version made active.
      await page.goto(`${srv.url}/templates/docker`)
      await page.getByRole("navigation", { name: "Template" }).getByRole("link", { name: "Variables" }).click()
      await page.getByRole("heading", { name: "Variables", exact: true, level: 2 }).waitFor({ timeout: LONG })
      const field = page.getByRole("textbox", { name: "image" })
      await expect.poll(() => field.inputValue(), { timeout: LONG }).toBe(made!.image)
      await expectAccessible(page)
      await field.fill(made!.perlImage)
      await page.getByRole("button", { name: "Save variables" }).click()
      const saved = page.getByRole("status", { name: "Variables saved" })
      await expect.poll(() => saved.textContent(), { timeout: LONG }).toMatch(/is now the active version\./)
      const after = (await owner.get("/organizations/default/templates/docker")).body
      expect(after.active_version_id).not.toBe(template.active_version_id)
      const newer = (await owner.get(`/templateversions/${after.active_version_id}`)).body
      expect(await saved.textContent()).toBe(`Saved: version ${newer.name} is now the active version.`)
      expect(await variablesOf(after.active_version_id)).toEqual({ image: made!.perlImage })
      // The form now reads the new active version.
      await expect.poll(() => page.getByText(`The values of the active version, ${newer.name}.`).count(), {
        timeout: LONG
      }).toBe(1)
      expect(await field.inputValue()).toBe(made!.perlImage)
      await expectAccessible(page)

      // The workspace runs the older version: outdated.
      await page.goto(`${srv.url}/@nina/dev`)
      await expect.poll(() => page.getByRole("status", { name: "Template version" }).textContent(), { timeout: LONG })
        .toBe("Outdated: a newer version is active")
      expectNoProblems(page)
    }
  )
})
