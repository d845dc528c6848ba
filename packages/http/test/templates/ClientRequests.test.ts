/**
 * The dashboard client's requests to the files, templates and template versions routes
 * (packages/http/src/templates/); see ../clientRequests.ts.
 */
import { describe, expect, it } from "vitest"
import { dashboardServer, ownerServer } from "../clientRequests.js"
import { makeTemplate, makeVersion } from "./fixtures.js"
import { createVersion, FULL_TEMPLATE, runJobs, seedTemplate, uploadTemplate } from "./versions.js"

describe("requests of the dashboard client", () => {
  const ctx = dashboardServer()

  describe("templates", () => {
    const version = () => makeVersion(ctx.srv, { organizationId: ctx.orgId, createdBy: ctx.ownerId })

    it("createTemplate: the create-template form, as the page sends it (template_version_id added by the mutation)", async () => {
      const v = await version()
      const r = await ctx.owner.post(`/organizations/${ctx.orgId}/templates`, {
        name: "dash-template",
        display_name: "",
        description: "",
        icon: "",
        default_ttl_ms: 86_400_000,
        activity_bump_ms: 3_600_000,
        autostop_requirement: { days_of_week: [], weeks: 1 },
        autostart_requirement: {
          days_of_week: ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        },
        allow_user_autostart: false,
        allow_user_autostop: false,
        allow_user_cancel_workspace_jobs: null,
        failure_ttl_ms: 0,
        dormant_ttl_ms: 0,
        delete_ttl_ms: 0,
        require_active_version: false,
        disable_everyone_group_access: false,
        max_port_share_level: null,
        template_version_id: v.id
      })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      expect(r.body).toMatchObject({
        name: "dash-template",
        allow_user_cancel_workspace_jobs: false,
        max_port_share_level: "owner"
      })
    })

    it("updateTemplateMeta: the settings form and the schedule form; 304 when nothing changed", async () => {
      const t = await makeTemplate(ctx.srv, ctx.owner, {
        organizationId: ctx.orgId,
        createdBy: ctx.ownerId,
        name: "dash-settings"
      })
      const settings = {
        name: "dash-settings",
        display_name: "Dash",
        description: "Settings.",
        icon: "/icon/go.svg",
        allow_user_cancel_workspace_jobs: false,
        update_workspace_last_used_at: false,
        update_workspace_dormant_at: false,
        require_active_version: false,
        deprecation_message: "",
        disable_everyone_group_access: false,
        max_port_share_level: "owner",
        use_classic_parameter_flow: false,
        cors_behavior: "simple"
      }
      const r = await ctx.owner.patch(`/templates/${t.id}`, settings)
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toMatchObject({ display_name: "Dash", description: "Settings.", icon: "/icon/go.svg" })
      expect((await ctx.owner.patch(`/templates/${t.id}`, settings)).status).toBe(304)
      const schedule = await ctx.owner.patch(`/templates/${t.id}`, {
        default_ttl_ms: 7_200_000,
        activity_bump_ms: 3_600_000,
        autostop_requirement: { days_of_week: ["sunday"], weeks: 1 },
        autostart_requirement: { days_of_week: ["monday", "friday"] },
        allow_user_autostart: true,
        allow_user_autostop: true,
        failure_ttl_ms: 0,
        time_til_dormant_ms: 0,
        time_til_dormant_autodelete_ms: 0,
        update_workspace_last_used_at: false,
        update_workspace_dormant_at: false,
        require_active_version: false,
        disable_everyone_group_access: false
      })
      expect(schedule.status, JSON.stringify(schedule.body)).toBe(200)
      expect(schedule.body).toMatchObject({
        name: "dash-settings",
        display_name: "Dash",
        default_ttl_ms: 7_200_000,
        autostop_requirement: { days_of_week: ["sunday"], weeks: 1 },
        autostart_requirement: { days_of_week: ["monday", "friday"] }
      })
    })

    it("updateTemplateACL: one user or group at a time, \"\" to remove; getTemplateACL, getTemplateACLAvailable", async () => {
      const t = await makeTemplate(ctx.srv, ctx.owner, {
        organizationId: ctx.orgId,
        createdBy: ctx.ownerId,
        name: "dash-acl"
      })
      const shared = await ctx.owner.patch(`/templates/${t.id}/acl`, { user_perms: { [ctx.member.user.id]: "use" } })
      expect(shared.status).toBe(200)
      expect((await ctx.owner.patch(`/templates/${t.id}/acl`, { group_perms: { [ctx.orgId]: "admin" } })).status).toBe(
        200
      )
      expect((await ctx.owner.patch(`/templates/${t.id}/acl`, { user_perms: { [ctx.member.user.id]: "" } })).status)
        .toBe(200)
      expect((await ctx.owner.get(`/templates/${t.id}/acl`)).status).toBe(200)
      expect((await ctx.owner.get(`/templates/${t.id}/acl/available?q=dash&limit=25`)).status).toBe(200)
    })

    it("getTemplates, getTemplatesByOrganization, getTemplateByName, deleteTemplate", async () => {
      const t = await makeTemplate(ctx.srv, ctx.owner, {
        organizationId: ctx.orgId,
        createdBy: ctx.ownerId,
        name: "dash-list"
      })
      expect((await ctx.owner.get(`/templates?q=${encodeURIComponent("deprecated:false")}`)).status).toBe(200)
      expect((await ctx.owner.get(`/organizations/${ctx.orgId}/templates`)).status).toBe(200)
      expect((await ctx.owner.get(`/organizations/coder/templates/dash-list`)).status).toBe(200)
      expect((await ctx.owner.delete(`/templates/${t.id}`)).status).toBe(200)
    })
  })
})

describe("files, as the template editor sends them", () => {
  const ctx = ownerServer()

  // uploadFile: axios.post("/api/v2/files", file, { headers: { "Content-Type": "application/x-tar" } }),
  // the File's bytes as the body; getFile: axios.get(`/api/v2/files/${fileId}`, { responseType: "arraybuffer" }).
  it("uploadFile then getFile: the bytes back with their content type", async () => {
    const file = new Blob([new Uint8Array([0x6d, 0x61, 0x69, 0x6e, 0x00, 0xff, 0xfe])], { type: "application/x-tar" })
    const headers = { "Content-Type": "application/x-tar", "Service-Session-Token": ctx.owner.token! }
    const up = await fetch(`${ctx.srv.url}/api/v2/files`, { method: "POST", headers, body: file })
    expect(up.status).toBe(201)
    const { hash } = (await up.json()) as { hash: string }
    const again = await fetch(`${ctx.srv.url}/api/v2/files`, { method: "POST", headers, body: file })
    expect(again.status).toBe(200)
    expect(await again.json()).toEqual({ hash })
    const got = await fetch(`${ctx.srv.url}/api/v2/files/${hash}`, {
      headers: { Accept: "application/json, text/plain, */*", "Service-Session-Token": ctx.owner.token! }
    })
    expect(got.status).toBe(200)
    expect(got.headers.get("content-type")).toBe("application/x-tar")
    expect([...new Uint8Array(await got.arrayBuffer())]).toEqual([0x6d, 0x61, 0x69, 0x6e, 0x00, 0xff, 0xfe])
  })
})

describe("template versions, as the create-template page and the template editor send them", () => {
  const ctx = ownerServer()

  // createTemplateVersion(organizationId, data): axios.post(`/api/v2/organizations/${organizationId}/templateversions`, data),
  // with the create page's body: a `terraform` version from an uploaded file, no tags, the variables' values.
  it("createTemplateVersion from the create page: a terraform version stays pending with no matched provisioner", async () => {
    const fileId = await uploadTemplate(ctx.srv, ctx.owner, FULL_TEMPLATE)
    const r = await ctx.owner.post(`/organizations/${ctx.orgId}/templateversions`, {
      storage_method: "file",
      file_id: fileId,
      provisioner: "terraform",
      tags: {},
      user_variable_values: []
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(r.body.job.status).toBe("pending")
    expect(r.body.matched_provisioners).toEqual({ count: 0, available: 0 })
    // cancelTemplateVersionBuild: axios.patch(`/api/v2/templateversions/${id}/cancel`), no body.
    const cancel = await ctx.owner.patch(`/templateversions/${r.body.id}/cancel`)
    expect(cancel.body).toEqual({ message: "Job has been marked as canceled..." })
  })

  // The starter templates page: getTemplateExamples() (axios.get("/api/v2/templates/examples")), then
  // createTemplateVersion with the example's id, the create page's `terraform`, and no file.
  it("starter templates: getTemplateExamples, then createTemplateVersion with example_id", async () => {
    const examples = await ctx.owner.get("/templates/examples")
    expect(examples.status).toBe(200)
    const example = examples.body.find((e: any) => e.id === "basic")
    expect(example).toBeDefined()
    expect((await ctx.owner.get(`/organizations/${ctx.orgId}/templates/examples`)).body).toEqual(examples.body)
    const r = await ctx.owner.post(`/organizations/${ctx.orgId}/templateversions`, {
      storage_method: "file",
      example_id: example.id,
      provisioner: "terraform",
      tags: {},
      user_variable_values: []
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    await runJobs(ctx.srv)
    expect((await ctx.owner.get(`/templateversions/${r.body.id}`)).body.job.status).toBe("succeeded")
  })

  // The editor: createTemplateVersion with the template's id, then patchTemplateVersion(id, {name, message}),
  // updateActiveTemplateVersion(templateId, {id}), archiveTemplateVersion(id) and unarchive, no body.
  it("the template editor's publish flow", async () => {
    const first = await createVersion(ctx.srv, ctx.owner, ctx.orgId, FULL_TEMPLATE)
    await runJobs(ctx.srv)
    const template = await seedTemplate(ctx.srv, ctx.orgId, first.body.id, ctx.ownerId)
    const fileId = await uploadTemplate(ctx.srv, ctx.owner, `${FULL_TEMPLATE}# edited\n`)
    const created = await ctx.owner.post(`/organizations/${ctx.orgId}/templateversions`, {
      provisioner: "workbay",
      storage_method: "file",
      tags: {},
      template_id: template.id,
      file_id: fileId
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    await runJobs(ctx.srv)
    const logs = await ctx.owner.get(`/templateversions/${created.body.id}/logs?after=0`)
    expect(logs.status).toBe(200)
    const patched = await ctx.owner.patch(`/templateversions/${created.body.id}`, {
      name: "v-2",
      message: "Update the template"
    })
    expect(patched.status, JSON.stringify(patched.body)).toBe(200)
    const promoted = await ctx.owner.patch(`/templates/${template.id}/versions`, { id: created.body.id })
    expect(promoted.body).toEqual({ message: "Updated the active template version!" })
    const archived = await ctx.owner.post(`/templateversions/${first.body.id}/archive`)
    expect(archived.status, JSON.stringify(archived.body)).toBe(200)
    expect((await ctx.owner.post(`/templateversions/${first.body.id}/unarchive`)).status).toBe(200)
    // createTemplateVersionDryRun(id, {workspace_name, rich_parameter_values}).
    const dry = await ctx.owner.post(`/templateversions/${created.body.id}/dry-run`, {
      workspace_name: "",
      rich_parameter_values: []
    })
    expect(dry.status, JSON.stringify(dry.body)).toBe(201)
    // The Go client's TemplateVersionDryRunMatchedProvisioners(version, job): a GET, no query.
    const matched = await ctx.owner.get(
      `/templateversions/${created.body.id}/dry-run/${dry.body.id}/matched-provisioners`
    )
    expect(matched.status, JSON.stringify(matched.body)).toBe(200)
    expect(matched.body).toMatchObject({ count: 2, available: 2 })
    await runJobs(ctx.srv)
    // getTemplateVersionDynamicParameters(versionId, {id, inputs}): the create-workspace form's
    // evaluation, with the owner_id the form is for; templateVersionDynamicParameters opens the
    // WebSocket with `?user_id=`.
    const evaluated = await ctx.owner.post(`/templateversions/${created.body.id}/dynamic-parameters/evaluate`, {
      id: 0,
      inputs: { cpus: "4" },
      owner_id: ctx.ownerId
    })
    expect(evaluated.status, JSON.stringify(evaluated.body)).toBe(200)
    expect(evaluated.body.id).toBe(0)
    // Older clients still ask the removed parameters and schema routes: an empty list.
    expect((await ctx.owner.get(`/templateversions/${created.body.id}/parameters`)).body).toEqual([])
    expect((await ctx.owner.get(`/templateversions/${created.body.id}/schema`)).body).toEqual([])
  })
})
