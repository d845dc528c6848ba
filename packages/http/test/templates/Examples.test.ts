/**
 * The starter templates over real HTTP: the two listings (who may read them, their shape) and a
 * template version made from one with `example_id`, imported by the built-in provisioner, then a
 * template of it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  addMemberWithRoles,
  type Client,
  createOrganization,
  createUser,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  startWithOwner,
  tokenClient,
  uniqueName,
  UNKNOWN_ID
} from "../support.js"
import { runJobs } from "./versions.js"

const EXAMPLE_FIELDS = ["description", "icon", "id", "markdown", "name", "tags", "url"]

describe("template examples", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let member: Client
  let templateAdmin: Client
  let otherOrg: { id: string; name: string }

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner())
    member = (await createUser(owner)).client
    templateAdmin = (await createUser(owner, { roles: ["template-admin"] })).client
    otherOrg = await createOrganization(owner, uniqueName("ex-org"))
  })
  afterAll(() => srv.close())

  describe("GET /templates/examples and GET /organizations/{organization}/templates/examples", () => {
    it("lists the shipped starter templates as TemplateExample", async () => {
      const r = await owner.get("/templates/examples")
      expect(r.status).toBe(200)
      expect(Array.isArray(r.body)).toBe(true)
      for (const e of r.body) {
        expect(Object.keys(e).sort()).toEqual(EXAMPLE_FIELDS)
        for (const k of ["id", "url", "name", "description", "icon", "markdown"]) expect(typeof e[k]).toBe("string")
        expect(e.tags.every((t: unknown) => typeof t === "string")).toBe(true)
      }
      const basic = r.body.find((e: any) => e.id === "basic")
      expect(basic).toMatchObject({
        name: "Basic workspace",
        icon: "/icon/code.svg",
        tags: ["workbay", "external", "code-server"],
        url: ""
      })
      expect(basic.description.length).toBeGreaterThan(0)
      // The Markdown without its front matter.
      expect(basic.markdown.startsWith("# Basic workspace")).toBe(true)
      const byOrg = await owner.get(`/organizations/${orgId}/templates/examples`)
      expect(byOrg.status).toBe(200)
      expect(byOrg.body).toEqual(r.body)
      expect((await owner.get("/organizations/coder/templates/examples")).body).toEqual(r.body)
    })

    it("answers those who may read templates there; members without template access get 404", async () => {
      expect((await templateAdmin.get("/templates/examples")).status).toBe(200)
      expect((await templateAdmin.get(`/organizations/${orgId}/templates/examples`)).status).toBe(200)
      // Organization members reach templates through access lists only: no template read in the organization.
      expectResponse(await member.get("/templates/examples"), 404)
      expectResponse(await member.get(`/organizations/${orgId}/templates/examples`), 404)
      const orgAdmin = await createUser(owner)
      await addMemberWithRoles(owner, otherOrg.id, orgAdmin.user.id, ["organization-template-admin"])
      expect((await orgAdmin.client.get(`/organizations/${otherOrg.id}/templates/examples`)).status).toBe(200)
      expect((await orgAdmin.client.get("/templates/examples")).status).toBe(200)
      expectResponse(await orgAdmin.client.get(`/organizations/${orgId}/templates/examples`), 404)
      // A token whose scopes leave templates out.
      const scoped = await tokenClient(owner, { token_name: uniqueName("tok"), scopes: ["user:read"] })
      expectResponse(await scoped.get("/templates/examples"), 403)
    })

    it("answers 404 for unknown organizations, 401 without a token", async () => {
      expectResponse(await owner.get(`/organizations/${UNKNOWN_ID}/templates/examples`), 404)
      expectResponse(await owner.get("/organizations/no-such-org/templates/examples"), 404)
      expectResponse(await srv.anonymous.get("/templates/examples"), 401)
      expectResponse(await srv.anonymous.get(`/organizations/${orgId}/templates/examples`), 401)
    })
  })

  describe("POST /organizations/{organization}/templateversions with example_id", () => {
    it("imports the example with the built-in provisioner, whatever provisioner the request names", async () => {
      // As the dashboard's starter template page sends it.
      const r = await templateAdmin.post(`/organizations/${orgId}/templateversions`, {
        storage_method: "file",
        example_id: "basic",
        provisioner: "terraform",
        tags: {}
      })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      expect(r.body.job).toMatchObject({ type: "template_version_import" })
      // Matched by the built-in workers: the `workbay` provisioner's queue, not `terraform`'s.
      expect(r.body.matched_provisioners.count).toBeGreaterThan(0)
      await runJobs(srv)
      const v = (await templateAdmin.get(`/templateversions/${r.body.id}`)).body
      expect(v.job.status, JSON.stringify(v.job)).toBe("succeeded")
      expect(v.readme).toContain("# Basic workspace")
      const params = (await templateAdmin.get(`/templateversions/${r.body.id}/rich-parameters`)).body
      expect(params.map((p: any) => p.name)).toEqual(["repo", "cpus"])
      const resources = (await templateAdmin.get(`/templateversions/${r.body.id}/resources`)).body
      // Of the start and the stop transition (the home volume stays when stopped).
      expect(resources.map((x: any) => x.name).sort()).toEqual(["dev", "home", "home"])
      // The archive is the caller's file, the same one for the same example.
      const again = await templateAdmin.post(`/organizations/${orgId}/templateversions`, {
        storage_method: "file",
        example_id: "basic",
        provisioner: "workbay"
      })
      expect(again.status).toBe(201)
      expect(again.body.job.file_id).toBe(r.body.job.file_id)
      const file = await templateAdmin.request("GET", `/files/${r.body.job.file_id}`)
      expect(file.status).toBe(200)
      // A template of it.
      const t = await templateAdmin.post(`/organizations/${orgId}/templates`, {
        name: uniqueName("from-example"),
        template_version_id: r.body.id
      })
      expect(t.status, JSON.stringify(t.body)).toBe(201)
      expect(t.body).toMatchObject({ active_version_id: r.body.id, provisioner: "workbay" })
      await runJobs(srv)
    })

    it("answers 400 for an unknown example or one given with a file, 403 and 404 as for files", async () => {
      expectValidations(
        await owner.post(`/organizations/${orgId}/templateversions`, {
          storage_method: "file",
          example_id: "nope",
          provisioner: "workbay"
        }),
        ["example_id"]
      )
      expectValidations(
        await owner.post(`/organizations/${orgId}/templateversions`, {
          storage_method: "file",
          example_id: "basic",
          file_id: UNKNOWN_ID,
          provisioner: "workbay"
        }),
        ["example_id"]
      )
      // Who may not make templates there gets 403 before the example is looked at; outsiders 404.
      expectResponse(
        await member.post(`/organizations/${orgId}/templateversions`, {
          storage_method: "file",
          example_id: "basic",
          provisioner: "workbay"
        }),
        403
      )
      expectResponse(
        await member.post(`/organizations/${otherOrg.id}/templateversions`, {
          storage_method: "file",
          example_id: "basic",
          provisioner: "workbay"
        }),
        404
      )
      expectResponse(
        await srv.anonymous.post(`/organizations/${orgId}/templateversions`, {
          storage_method: "file",
          example_id: "basic",
          provisioner: "workbay"
        }),
        401
      )
    })
  })
})
