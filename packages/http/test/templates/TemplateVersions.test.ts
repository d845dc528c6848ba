/**
 * Black-box tests of template versions over real HTTP and a fresh SQLite database: create from an
 * uploaded archive, run the import (in-process, see versions.ts), read what it found, dry runs,
 * rename, cancel, archive, promote, and the template's version listings.
 */
import { ProvisionerJobs } from "@workbay/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import {
  type Client,
  createOrganization,
  createUser,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  startWithOwner,
  UNKNOWN_ID,
  UUID_PATTERN
} from "../support.js"
import { connect, eventually, refusal } from "../websocket.js"
import { download, tar, upload } from "./archives.js"
import {
  createVersion,
  FULL_TEMPLATE,
  REQUIRED_VARIABLE_TEMPLATE,
  runJobs,
  seedTemplate,
  uploadTemplate
} from "./versions.js"

describe("template versions", () => {
  let srv: ServiceTestServer
  let owner: Client
  let ownerId: string
  let orgId: string
  let member: Client
  let templateAdmin: Client
  let templateAdminId: string

  beforeAll(async () => {
    ;({ srv, owner, ownerId, orgId } = await startWithOwner())
    member = (await createUser(owner)).client
    const admin = await createUser(owner, { roles: ["template-admin"] })
    templateAdmin = admin.client
    templateAdminId = admin.user.id
  })
  afterAll(() => srv.close())

  /** Creates a version of `yaml` as the owner, runs its import, answers the version as it ends. */
  const imported = async (yaml = FULL_TEMPLATE, extra: Record<string, unknown> = {}, client = owner) => {
    const created = await createVersion(srv, client, orgId, yaml, extra)
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    await runJobs(srv)
    const r = await client.get(`/templateversions/${created.body.id}`)
    expect(r.status).toBe(200)
    return r.body
  }

  it("creates a version with its pending import job, a random name and matched provisioners", async () => {
    // The built-in workers serve `workbay` (two of them by default) and claim at once.
    const served = await createVersion(srv, owner, orgId, FULL_TEMPLATE)
    expect(served.body.matched_provisioners).toMatchObject({ count: 2, available: 2 })
    expect(["pending", "running", "succeeded"]).toContain(served.body.job.status)
    // A type nobody serves stays pending, matched by nobody, outside any worker's queue.
    const r = await createVersion(srv, owner, orgId, FULL_TEMPLATE, { message: "first", provisioner: "terraform" })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(r.body).toMatchObject({
      id: expect.stringMatching(UUID_PATTERN),
      template_id: "00000000-0000-0000-0000-000000000000",
      organization_id: orgId,
      name: expect.stringMatching(/^[a-z]+_[a-z]+$/),
      message: "first",
      readme: "",
      archived: false,
      has_external_agent: false,
      created_by: { id: ownerId, username: "admin" },
      matched_provisioners: { count: 0, available: 0 }
    })
    expect(r.body.job).toMatchObject({
      status: "pending",
      type: "template_version_import",
      input: { template_version_id: r.body.id },
      tags: { scope: "organization" },
      organization_id: orgId,
      initiator_id: ownerId,
      queue_position: 0,
      metadata: { template_version_name: r.body.name, template_id: "00000000-0000-0000-0000-000000000000" }
    })
    expect(r.body.job.available_workers).toBeUndefined()
    await owner.patch(`/templateversions/${r.body.id}/cancel`)
    await runJobs(srv)
  })

  it("runs the import to success: parameters, variables (sensitive redacted), resources, logs, presets, external auth, readme", async () => {
    const v = await imported()
    expect(v.job.status).toBe("succeeded")
    expect(v.job.queue_position).toBe(0)
    expect(v.readme).toBe("# Docs\n")

    const params = await owner.get(`/templateversions/${v.id}/rich-parameters`)
    expect(params.status).toBe(200)
    expect(params.body.map((p: any) => p.name)).toEqual(["cpus", "repo"])
    expect(params.body[0]).toMatchObject({
      type: "number",
      form_type: "radio",
      default_value: "2",
      validation_min: 1,
      validation_max: 8,
      required: false,
      options: [{ name: "2 CPUs", value: "2" }, { name: "4 CPUs", value: "4" }]
    })
    expect(params.body[1]).toMatchObject({
      display_name: "Repository",
      description: "A **Git** repository.",
      description_plaintext: "A Git repository.",
      form_type: "input",
      mutable: true
    })

    const vars = await owner.get(`/templateversions/${v.id}/variables`)
    expect(vars.status).toBe(200)
    expect(vars.body).toEqual([
      {
        name: "region",
        description: "Where to run.",
        type: "string",
        value: "eu",
        default_value: "eu",
        required: false,
        sensitive: false
      },
      {
        name: "api_key",
        description: "",
        type: "string",
        value: "*redacted*",
        default_value: "*redacted*",
        required: false,
        sensitive: true
      }
    ])

    const resources = await owner.get(`/templateversions/${v.id}/resources`)
    expect(resources.status).toBe(200)
    expect(resources.body.map((r: any) => `${r.workspace_transition}:${r.name}`).sort()).toEqual([
      "start:dev",
      "start:home",
      "stop:home"
    ])
    const dev = resources.body.find((r: any) => r.name === "dev")
    expect(dev).toMatchObject({ type: "machine", daily_cost: 4, job_id: v.job.id })
    expect(dev.metadata).toBeUndefined()
    const agent = dev.agents[0]
    expect(agent).toMatchObject({
      name: "main",
      status: "connecting",
      lifecycle_state: "created",
      resource_id: dev.id,
      parent_id: null,
      environment_variables: { REGION: "eu" },
      directory: "/home/project",
      health: { healthy: false }
    })
    expect(agent.apps[0]).toMatchObject({
      slug: "code",
      health: "initializing",
      sharing_level: "owner",
      open_in: "slim-window"
    })
    expect(agent.scripts[0]).toMatchObject({ display_name: "Clone", run_on_start: true, timeout: 30_000_000_000 })
    expect(agent.log_sources[0]).toMatchObject({ id: agent.scripts[0].log_source_id, workspace_agent_id: agent.id })
    const home = resources.body.find((r: any) => r.name === "home")
    expect(home.metadata).toEqual([
      { key: "path", value: "/home", sensitive: false },
      { key: "token", value: "hidden", sensitive: true }
    ])
    expect(home.agents).toBeUndefined()

    const logs = await owner.get(`/templateversions/${v.id}/logs`)
    expect(logs.status).toBe(200)
    expect(logs.body.length).toBeGreaterThan(0)
    expect(logs.body[0]).toMatchObject({
      id: expect.any(Number),
      log_source: "provisioner",
      log_level: expect.any(String)
    })
    const after = await owner.get(`/templateversions/${v.id}/logs?after=${logs.body[0].id}`)
    expect(after.body.length).toBe(logs.body.length - 1)
    const before = await owner.get(`/templateversions/${v.id}/logs?before=${logs.body[1]?.id ?? 0}`)
    expect(before.body.length).toBe(logs.body.length > 1 ? 1 : 0)

    const presets = await owner.get(`/templateversions/${v.id}/presets`)
    expect(presets.body).toEqual([{
      ID: expect.stringMatching(UUID_PATTERN),
      Name: "small",
      Parameters: [{ Name: "cpus", Value: "2" }],
      Default: true,
      DesiredPrebuildInstances: null,
      Description: "",
      Icon: ""
    }])

    const auth = await owner.get(`/templateversions/${v.id}/external-auth`)
    expect(auth.body).toEqual([{
      id: "github",
      type: "github",
      display_name: "github",
      display_icon: "",
      authenticated: false,
      optional: true,
      authenticate_url: expect.stringMatching(/\/external-auth\/github$/)
    }])
  })

  it("answers the described system's errors for reads before the import ended", async () => {
    const r = await createVersion(srv, owner, orgId, FULL_TEMPLATE, { provisioner: "terraform" })
    const id = r.body.id
    const resources = await owner.get(`/templateversions/${id}/resources`)
    expectResponse(resources, 400)
    expect(resources.body.message).toBe("Job hasn't completed!")
    for (const what of ["rich-parameters", "variables"]) {
      const x = await owner.get(`/templateversions/${id}/${what}`)
      expectResponse(x, 403)
      expect(x.body.message).toBe("Job hasn't completed!")
    }
    expect((await owner.get(`/templateversions/${id}/presets`)).body).toEqual([])
    expect((await owner.get(`/templateversions/${id}/external-auth`)).body).toEqual([])
    expect((await owner.get(`/templateversions/${id}/logs`)).body).toEqual([])
    await runJobs(srv)
  })

  it("fails a broken template's import with a message naming file, line and key, never a running job", async () => {
    const v = await imported("resources:\n  - name: box\n    colour: red\n")
    expect(v.job.status).toBe("failed")
    expect(v.job.error).toMatch(/^template\.yaml:\d+: key resources\[0\]\.(colour|type)/m)
    expect(v.job.completed_at).toBeDefined()
    const logs = await owner.get(`/templateversions/${v.id}/logs`)
    expect(logs.body.some((l: any) => l.log_level === "error")).toBe(true)
    // A failed import has nothing to show, and says so without an error.
    expect((await owner.get(`/templateversions/${v.id}/rich-parameters`)).body).toEqual([])
    expect((await owner.get(`/templateversions/${v.id}/resources`)).body).toEqual([])
  })

  it("fails the import of an archive that is not one, or has no template file", async () => {
    const junk = await upload(srv.url, owner.token, new TextEncoder().encode("not a tar archive at all".repeat(40)))
    const r = await owner.post(`/organizations/${orgId}/templateversions`, {
      storage_method: "file",
      file_id: junk.body.hash,
      provisioner: "workbay",
      tags: {}
    })
    expect(r.status).toBe(201)
    const empty = await upload(srv.url, owner.token, tar([{ name: "main.tf", content: "terraform {}\n" }]))
    const r2 = await owner.post(`/organizations/${orgId}/templateversions`, {
      storage_method: "file",
      file_id: empty.body.hash,
      provisioner: "workbay",
      tags: {}
    })
    await runJobs(srv)
    const a = await owner.get(`/templateversions/${r.body.id}`)
    expect(a.body.job).toMatchObject({ status: "failed", error: expect.stringMatching(/not a readable tar file/) })
    const b = await owner.get(`/templateversions/${r2.body.id}`)
    expect(b.body.job).toMatchObject({ status: "failed", error: expect.stringMatching(/has no template\.yaml/) })
  })

  it("fails an import that lacks a required variable with REQUIRED_TEMPLATE_VARIABLES; with the value it succeeds", async () => {
    const v = await imported(REQUIRED_VARIABLE_TEMPLATE)
    expect(v.job).toMatchObject({ status: "failed", error_code: "REQUIRED_TEMPLATE_VARIABLES" })
    expect(v.job.error).toMatch(/project/)
    // The failed version lists the template's variables, so a client can ask for the missing ones.
    const listed = await owner.get(`/templateversions/${v.id}/variables`)
    expect(listed.status).toBe(200)
    expect(listed.body).toEqual([
      expect.objectContaining({ name: "project", required: true, type: "string", value: "", default_value: "" })
    ])
    expect((await owner.get(`/templateversions/${v.id}/rich-parameters`)).body).toEqual([])
    const ok = await imported(REQUIRED_VARIABLE_TEMPLATE, { user_variable_values: [{ name: "project", value: "x" }] })
    expect(ok.job.status).toBe("succeeded")
    expect(ok.job.error_code).toBeUndefined()
  })

  it("a new version of a template keeps the values its active version was given for the variables it leaves out", async () => {
    const yaml = `variables:
  - { name: region }
  - { name: token, sensitive: true, default: "" }
  - { name: size, default: small }
resources:
  - name: box
    type: machine
    metadata:
      - { key: where, value: "\${var.region} \${var.size}" }
      - { key: token, value: "\${var.token}", sensitive: true }
`
    const v1 = await imported(yaml, {
      user_variable_values: [{ name: "region", value: "eu" }, { name: "token", value: "s3cret" }]
    })
    expect(v1.job.status, v1.job.error).toBe("succeeded")
    const t = await seedTemplate(srv, orgId, v1.id, ownerId)
    const metadataOf = async (id: string) =>
      Object.fromEntries(
        ((await owner.get(`/templateversions/${id}/resources`)).body[0].metadata as Array<any>).map((m) => [
          m.key,
          m.value
        ])
      )

    // Only the region given: the token is the active version's (never sent again), the size its default.
    const v2 = await imported(yaml, { template_id: t.id, user_variable_values: [{ name: "region", value: "us" }] })
    expect(v2.job.status, v2.job.error).toBe("succeeded")
    expect(await metadataOf(v2.id)).toEqual({ where: "us small", token: "s3cret" })
    const listed = (await owner.get(`/templateversions/${v2.id}/variables`)).body
    expect(listed.map((v: any) => [v.name, v.value])).toEqual([["region", "us"], ["token", "*redacted*"], [
      "size",
      "small"
    ]])

    // Nothing given: every value the active version (still the first) was given is kept; without a
    // template, nothing is: the required region is missing.
    const v3 = await imported(yaml, { template_id: t.id })
    expect(await metadataOf(v3.id)).toEqual({ where: "eu small", token: "s3cret" })
    const alone = await imported(yaml)
    expect(alone.job).toMatchObject({ status: "failed", error_code: "REQUIRED_TEMPLATE_VARIABLES" })
  })

  it("draws a generated name again when the template already has a version by that name", async () => {
    const v1 = await imported()
    const t = await seedTemplate(srv, orgId, v1.id, ownerId)
    // The name generator draws the same first pair every time: the second draw must not collide.
    const random = vi.spyOn(Math, "random").mockReturnValue(0)
    try {
      const a = await createVersion(srv, owner, orgId, FULL_TEMPLATE, { template_id: t.id })
      const b = await createVersion(srv, owner, orgId, FULL_TEMPLATE, { template_id: t.id })
      expect([a.status, b.status]).toEqual([201, 201])
      expect(b.body.name).toBe(`${a.body.name}1`)
    } finally {
      random.mockRestore()
    }
    await runJobs(srv)
  })

  it("keeps a job for an unknown provisioner type pending with no matched provisioner", async () => {
    const r = await createVersion(srv, owner, orgId, FULL_TEMPLATE, { provisioner: "terraform" })
    expect(r.status).toBe(201)
    expect(r.body.matched_provisioners).toEqual({ count: 0, available: 0 })
    expect(r.body.job.queue_position).toBe(0)
    await runJobs(srv)
    expect((await owner.get(`/templateversions/${r.body.id}`)).body.job.status).toBe("pending")
    const cancel = await owner.patch(`/templateversions/${r.body.id}/cancel`)
    expect(cancel.status).toBe(200)
  })

  it("refuses bad input with one validation per field, and examples", async () => {
    const fileId = await uploadTemplate(srv, owner, FULL_TEMPLATE)
    const bad = await owner.post(`/organizations/${orgId}/templateversions`, {
      storage_method: "s3",
      file_id: "nope",
      provisioner: "",
      name: "bad name!",
      template_id: 7
    })
    expectValidations(bad, ["storage_method", "file_id", "provisioner", "name", "template_id"])
    const example = await owner.post(`/organizations/${orgId}/templateversions`, {
      storage_method: "file",
      example_id: "kubernetes",
      provisioner: "workbay",
      tags: {}
    })
    expectValidations(example, ["example_id"])
    expect(example.body.message).toBe("Example \"kubernetes\" not found.")
    const both = await owner.post(`/organizations/${orgId}/templateversions`, {
      storage_method: "file",
      example_id: "basic",
      file_id: fileId,
      provisioner: "workbay",
      tags: {}
    })
    expectValidations(both, ["example_id"])
    expect(both.body.message).toBe("You cannot specify both an example_id and a file_id.")
    const none = await owner.post(`/organizations/${orgId}/templateversions`, {
      storage_method: "file",
      provisioner: "workbay"
    })
    expectValidations(none, ["file_id"])
    const missingFile = await owner.post(`/organizations/${orgId}/templateversions`, {
      storage_method: "file",
      file_id: UNKNOWN_ID,
      provisioner: "workbay",
      tags: {}
    })
    expectResponse(missingFile, 404)
    expect(missingFile.body.message).toBe("File not found.")
    const missingTemplate = await owner.post(`/organizations/${orgId}/templateversions`, {
      storage_method: "file",
      file_id: fileId,
      template_id: UNKNOWN_ID,
      provisioner: "workbay",
      tags: {}
    })
    expectResponse(missingTemplate, 404)
    expect(missingTemplate.body.message).toBe("Template does not exist.")
    expectResponse(
      await owner.post(`/organizations/nope-org/templateversions`, {
        storage_method: "file",
        file_id: fileId,
        provisioner: "workbay"
      }),
      404
    )
  })

  it("answers 401 without a session, 404 for an unknown or hidden version, 400 for a bad id", async () => {
    const other = await createOrganization(owner)
    const created = await createVersion(srv, owner, other.id, FULL_TEMPLATE)
    expect(created.status).toBe(201)
    const v = created.body
    expectResponse(await srv.anonymous.get(`/templateversions/${v.id}`), 401)
    expectResponse(await srv.anonymous.post(`/organizations/${orgId}/templateversions`, {}), 401)
    expectResponse(await owner.get(`/templateversions/${UNKNOWN_ID}`), 404)
    expectValidations(await owner.get(`/templateversions/not-a-uuid`), ["templateversion"])
    expectResponse(await owner.get(`/templateversions/${UNKNOWN_ID}/resources`), 404)
    // A member of another organization sees nothing of it.
    expectResponse(await member.get(`/templateversions/${v.id}`), 404)
    expectResponse(await member.patch(`/templateversions/${v.id}`, { name: "x" }), 404)
    expectResponse(await member.get(`/templateversions/${v.id}/variables`), 404)
    await owner.patch(`/templateversions/${v.id}/cancel`)
  })

  it("lets a template admin create versions; a member may read but not create or change them (403)", async () => {
    const fileId = await uploadTemplate(srv, member, FULL_TEMPLATE)
    expectResponse(
      await member.post(`/organizations/${orgId}/templateversions`, {
        storage_method: "file",
        file_id: fileId,
        provisioner: "workbay",
        tags: {}
      }),
      403
    )
    const v = await imported(FULL_TEMPLATE, {}, templateAdmin)
    expect(v.created_by.id).toBe(templateAdminId)
    // A version of no template is read as the organization's templates: not by a plain member.
    expect((await member.get(`/templateversions/${v.id}`)).status).toBe(404)
    // Once a template the Everyone group may use holds it, members read it.
    await seedTemplate(srv, orgId, v.id, templateAdminId)
    expect((await member.get(`/templateversions/${v.id}`)).status).toBe(200)
    expectResponse(await member.patch(`/templateversions/${v.id}`, { name: "mine" }), 403)
    expectResponse(await member.patch(`/templateversions/${v.id}/cancel`), 403)
  })

  it("lets whoever may read a version read its file", async () => {
    const fileId = await uploadTemplate(srv, templateAdmin, `${FULL_TEMPLATE}# file read\n`)
    expect((await download(srv.url, member.token, fileId)).status).toBe(404)
    const r = await templateAdmin.post(`/organizations/${orgId}/templateversions`, {
      storage_method: "file",
      file_id: fileId,
      provisioner: "workbay",
      tags: {}
    })
    expect(r.status).toBe(201)
    expect((await download(srv.url, member.token, fileId)).status).toBe(404)
    await seedTemplate(srv, orgId, r.body.id, templateAdminId)
    expect((await download(srv.url, member.token, fileId)).status).toBe(200)
    const elsewhere = await createOrganization(owner)
    const outsider = (await createUser(owner, { organization_ids: [elsewhere.id] })).client
    expect((await download(srv.url, outsider.token, fileId)).status).toBe(404)
    await runJobs(srv)
  })

  it("renames a version and changes its message; a clash within its template answers 409", async () => {
    const v1 = await imported()
    const t = await seedTemplate(srv, orgId, v1.id, ownerId)
    const v2 = await imported(FULL_TEMPLATE, { template_id: t.id, name: "second" })
    expect(v2.template_id).toBe(t.id)
    expect(v2.job.metadata).toMatchObject({ template_id: t.id, template_name: t.name })
    const renamed = await owner.patch(`/templateversions/${v2.id}`, { name: "v2.0", message: "better" })
    expect(renamed.status).toBe(200)
    expect(renamed.body).toMatchObject({ name: "v2.0", message: "better" })
    const kept = await owner.patch(`/templateversions/${v2.id}`, { name: "" })
    expect(kept.body.name).toBe("v2.0")
    const clash = await owner.patch(`/templateversions/${v2.id}`, { name: v1.name.toUpperCase() })
    expectValidations(clash, ["name"], 409)
    const dup = await createVersion(srv, owner, orgId, FULL_TEMPLATE, { template_id: t.id, name: "v2.0" })
    expectValidations(dup, ["name"], 409)
    expectValidations(await owner.patch(`/templateversions/${v2.id}`, { name: "no spaces" }), ["name"])
    const audit = await owner.get(`/audit?q=${encodeURIComponent("resource_type:template_version")}&limit=50`)
    expect(
      audit.body.audit_logs.some((e: any) =>
        e.action === "write" && e.resource_id === v2.id && e.diff.name?.new === "v2.0"
      )
    ).toBe(true)
    expect(audit.body.audit_logs.some((e: any) => e.action === "create" && e.resource_id === v2.id)).toBe(true)
  })

  it(
    "an import honours build.delay_ms: its job runs (logs as they come) and a cancel during the delay cancels it",
    async () => {
      const slow = `resources:
  - name: box
    type: machine
    agents:
      - name: main
build:
  delay_ms: 400
  logs: ["Reading the template", "Checking the agents"]
`
      const started = Date.now()
      const finished = await createVersion(srv, owner, orgId, slow)
      expect(finished.status, JSON.stringify(finished.body)).toBe(201)
      await runJobs(srv)
      // Two lines and one wait more: three delays before the import answers.
      expect(Date.now() - started).toBeGreaterThanOrEqual(1100)
      expect((await owner.get(`/templateversions/${finished.body.id}`)).body.job.status).toBe("succeeded")

      const r = await createVersion(srv, owner, orgId, slow)
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      const job = async () => (await owner.get(`/templateversions/${r.body.id}`)).body.job
      const until = async (status: string) => {
        for (let i = 0; i < 250 && (await job()).status !== status; i++) await new Promise((res) => setTimeout(res, 20))
        expect((await job()).status).toBe(status)
      }
      await until("running")
      const cancel = await owner.patch(`/templateversions/${r.body.id}/cancel`)
      expect(cancel.status, JSON.stringify(cancel.body)).toBe(200)
      await runJobs(srv)
      await until("canceled")
      expect((await job()).canceled_at).toBeTypeOf("string")
      expect((await owner.get(`/templateversions/${r.body.id}/resources`)).body).toEqual([])
    },
    20_000
  )

  it("cancels a pending import once, with the described system's messages", async () => {
    const r = await createVersion(srv, owner, orgId, FULL_TEMPLATE, { provisioner: "terraform" })
    const first = await owner.patch(`/templateversions/${r.body.id}/cancel`)
    expect(first.status).toBe(200)
    expect(first.body).toEqual({ message: "Job has been marked as canceled..." })
    expect((await owner.get(`/templateversions/${r.body.id}`)).body.job.status).toBe("canceled")
    const again = await owner.patch(`/templateversions/${r.body.id}/cancel`)
    expectResponse(again, 400)
    expect(again.body.message).toBe("Job has already completed!")
    const done = await imported()
    const late = await owner.patch(`/templateversions/${done.id}/cancel`)
    expect(late.body.message).toBe("Job has already completed!")
  })

  it("follows the import's logs over a WebSocket: stored lines, new ones, the close when the job ends", async () => {
    const auth = { "Service-Session-Token": owner.token! }
    // Finished: every line, then 1000.
    const v = await imported()
    const listed = (await owner.get(`/templateversions/${v.id}/logs`)).body as Array<{ id: number; output: string }>
    expect(listed.length).toBeGreaterThan(0)
    const done = await connect(`${srv.wsUrl}/api/v2/templateversions/${v.id}/logs?follow=true`, auth)
    expect((await done.closed).code).toBe(1000)
    expect(done.messages.map((m) => JSON.parse(m).output)).toEqual(listed.map((l) => l.output))
    const after = await connect(
      `${srv.wsUrl}/api/v2/templateversions/${v.id}/logs?follow=true&after=${listed[0]!.id}`,
      auth
    )
    expect((await after.closed).code).toBe(1000)
    expect(after.messages.length).toBe(listed.length - 1)

    // Pending (a provisioner type nobody serves): lines appended while following arrive; the cancel ends it.
    const pending = await createVersion(srv, owner, orgId, FULL_TEMPLATE, { provisioner: "terraform" })
    const live = await connect(`${srv.wsUrl}/api/v2/templateversions/${pending.body.id}/logs?follow=true`, auth)
    await srv.run(Effect.flatMap(ProvisionerJobs, (jobs) =>
      jobs.appendLogs(pending.body.job.id, [{
        created_at: new Date(),
        log_source: "provisioner_daemon",
        log_level: "info",
        stage: "Queued",
        output: "waiting"
      }])))
    await eventually(() => live.messages.length === 1)
    expect((await owner.patch(`/templateversions/${pending.body.id}/cancel`)).status).toBe(200)
    expect((await live.closed).code).toBe(1000)
    expect(JSON.parse(live.messages[0]!)).toMatchObject({ output: "waiting", stage: "Queued", log_level: "info" })

    // Refusals before the upgrade.
    expect((await refusal(connect(`${srv.wsUrl}/api/v2/templateversions/${v.id}/logs?follow=true`))).status).toBe(401)
    expect((await refusal(connect(`${srv.wsUrl}/api/v2/templateversions/${UNKNOWN_ID}/logs?follow=true`, auth))).status)
      .toBe(404)
    expect((await owner.get(`/templateversions/${v.id}/logs?follow=true`)).status).toBe(426)
    expectValidations(await owner.get(`/templateversions/${v.id}/logs?after=x`), ["after"])
  })

  it("runs a dry run: its job, resources and logs; cancel once finished answers 400", async () => {
    const pending = await createVersion(srv, owner, orgId, FULL_TEMPLATE, { provisioner: "terraform" })
    const early = await owner.post(`/templateversions/${pending.body.id}/dry-run`, {
      workspace_name: "ws",
      rich_parameter_values: []
    })
    expectResponse(early, 400)
    expect(early.body.message).toBe("Template version import job hasn't completed!")
    await runJobs(srv)

    const v = await imported()
    // Members reach a version through its template (the Everyone group may use it).
    await seedTemplate(srv, orgId, v.id, ownerId)
    const dry = await member.post(`/templateversions/${v.id}/dry-run`, {
      workspace_name: "trial",
      rich_parameter_values: [{ name: "cpus", value: "4" }]
    })
    expect(dry.status, JSON.stringify(dry.body)).toBe(201)
    // The built-in workers may have claimed it already.
    expect(dry.body).toMatchObject({ type: "template_version_dry_run", input: { template_version_id: v.id } })
    expect(["pending", "running", "succeeded"]).toContain(dry.body.status)
    await runJobs(srv)
    const job = await member.get(`/templateversions/${v.id}/dry-run/${dry.body.id}`)
    expect(job.body.status, JSON.stringify(job.body)).toBe("succeeded")
    const resources = await member.get(`/templateversions/${v.id}/dry-run/${dry.body.id}/resources`)
    expect(resources.body.map((r: any) => r.name).sort()).toEqual(["dev", "home"])
    expect(resources.body.every((r: any) => r.workspace_transition === "start" && r.job_id === dry.body.id)).toBe(true)
    const logs = await member.get(`/templateversions/${v.id}/dry-run/${dry.body.id}/logs`)
    expect(logs.body.some((l: any) => /Preparing trial for user/.test(l.output))).toBe(true)
    const cancel = await member.patch(`/templateversions/${v.id}/dry-run/${dry.body.id}/cancel`)
    expectResponse(cancel, 400)
    expect(cancel.body.message).toBe("Job has already completed.")

    // Another member's dry run is not theirs to read; the import job is not a dry run; unknown jobs 404.
    const other = (await createUser(owner)).client
    expectResponse(await other.get(`/templateversions/${v.id}/dry-run/${dry.body.id}`), 403)
    expectResponse(await owner.get(`/templateversions/${v.id}/dry-run/${v.job.id}`), 403)
    const unknown = await owner.get(`/templateversions/${v.id}/dry-run/${UNKNOWN_ID}`)
    expectResponse(unknown, 404)
    expectValidations(await owner.get(`/templateversions/${v.id}/dry-run/nope`), ["jobID"])
    expectValidations(
      await owner.post(`/templateversions/${v.id}/dry-run`, { rich_parameter_values: [{ value: 1 }] }),
      [
        "rich_parameter_values.0.name",
        "rich_parameter_values.0.value"
      ]
    )

    // The built-in workers may finish it before the cancel arrives: either answer is the described system's.
    const pendingDry = await owner.post(`/templateversions/${v.id}/dry-run`, { workspace_name: "c" })
    const canceled = await owner.patch(`/templateversions/${v.id}/dry-run/${pendingDry.body.id}/cancel`)
    expect(["Job has been marked as canceled.", "Job has already completed."]).toContain(canceled.body.message)
    await runJobs(srv)
    const twice = await owner.patch(`/templateversions/${v.id}/dry-run/${pendingDry.body.id}/cancel`)
    expectResponse(twice, 400)
  })

  it("answers a dry run's matched provisioners: the workers whose type and tags fit its job", async () => {
    const v = await imported()
    await seedTemplate(srv, orgId, v.id, ownerId)
    const dry = await member.post(`/templateversions/${v.id}/dry-run`, { workspace_name: "matched" })
    expect(dry.status, JSON.stringify(dry.body)).toBe(201)
    const path = `/templateversions/${v.id}/dry-run/${dry.body.id}/matched-provisioners`
    const r = await member.get(path)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    // The two built-in workers serve `workbay` with the organization scope: the version's own standing.
    expect(r.body).toEqual({ count: 2, available: 2, most_recently_seen: expect.any(String) })
    expect(Number.isNaN(Date.parse(r.body.most_recently_seen))).toBe(false)
    expect(r.body).toMatchObject({ count: v.matched_provisioners.count })
    await runJobs(srv)
    expect((await member.get(path)).body).toMatchObject({ count: 2, available: 2 })

    // A provisioner type nobody serves: matched by none, and no time seen.
    const unserved = await createVersion(srv, owner, orgId, FULL_TEMPLATE, { provisioner: "terraform" })
    await owner.patch(`/templateversions/${unserved.body.id}/cancel`)
    const unservedDry = await owner.post(`/templateversions/${unserved.body.id}/dry-run`, { workspace_name: "none" })
    expect(unservedDry.status, JSON.stringify(unservedDry.body)).toBe(201)
    const none = await owner.get(
      `/templateversions/${unserved.body.id}/dry-run/${unservedDry.body.id}/matched-provisioners`
    )
    expect(none.body).toEqual({ count: 0, available: 0 })
    await owner.patch(`/templateversions/${unserved.body.id}/dry-run/${unservedDry.body.id}/cancel`)

    // As the dry run's other routes: another member 403, the import job 403, unknown jobs and versions 404, bad ids 400, 401.
    const other = (await createUser(owner)).client
    expectResponse(await other.get(path), 403)
    expectResponse(await owner.get(`/templateversions/${v.id}/dry-run/${v.job.id}/matched-provisioners`), 403)
    expectResponse(await owner.get(`/templateversions/${v.id}/dry-run/${UNKNOWN_ID}/matched-provisioners`), 404)
    expectResponse(await owner.get(`/templateversions/${UNKNOWN_ID}/dry-run/${dry.body.id}/matched-provisioners`), 404)
    expectValidations(await owner.get(`/templateversions/nope/dry-run/nope/matched-provisioners`), [
      "templateversion",
      "jobID"
    ])
    expectResponse(await srv.anonymous.get(path), 401)
  })

  it("answers [] on the removed parameters and schema routes of a version the caller may read", async () => {
    const v = await imported()
    for (const route of ["parameters", "schema"]) {
      const r = await owner.get(`/templateversions/${v.id}/${route}`)
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toEqual([])
      // A version of no template is its organization's template admins': a plain member does not see it.
      expectResponse(await member.get(`/templateversions/${v.id}/${route}`), 404)
      expect((await templateAdmin.get(`/templateversions/${v.id}/${route}`)).body).toEqual([])
      expectResponse(await owner.get(`/templateversions/${UNKNOWN_ID}/${route}`), 404)
      expectValidations(await owner.get(`/templateversions/nope/${route}`), ["templateversion"])
      expectResponse(await srv.anonymous.get(`/templateversions/${v.id}/${route}`), 401)
    }
  })

  it("lists a template's versions, finds them by name and the previous one", async () => {
    const v1 = await imported(FULL_TEMPLATE, { name: "one" })
    const t = await seedTemplate(srv, orgId, v1.id, ownerId)
    const v2 = await imported(FULL_TEMPLATE, { template_id: t.id, name: "two" })
    const v3 = await imported(FULL_TEMPLATE, { template_id: t.id, name: "three" })
    const list = await owner.get(`/templates/${t.id}/versions`)
    expect(list.status).toBe(200)
    expect(list.body.map((v: any) => v.name)).toEqual(["one", "two", "three"])
    expect((await owner.get(`/templates/${t.id}/versions?limit=1&offset=1`)).body.map((v: any) => v.name)).toEqual([
      "two"
    ])
    expect((await owner.get(`/templates/${t.id}/versions?after_id=${v1.id}`)).body.map((v: any) => v.name)).toEqual([
      "two",
      "three"
    ])
    const badAfter = await owner.get(`/templates/${t.id}/versions?after_id=${UNKNOWN_ID}`)
    expectResponse(badAfter, 400)
    expectValidations(await owner.get(`/templates/${t.id}/versions?limit=-1`), ["limit"])
    expectResponse(await owner.get(`/templates/${UNKNOWN_ID}/versions`), 404)

    const byName = await owner.get(`/templates/${t.id}/versions/TWO`)
    expect(byName.body.id).toBe(v2.id)
    const missing = await owner.get(`/templates/${t.id}/versions/nine`)
    expectResponse(missing, 404)
    expect(missing.body.message).toBe("No template version found by name \"nine\".")
    const org = await owner.get(`/organizations/${orgId}/templates/${t.name}/versions/three`)
    expect(org.body.id).toBe(v3.id)
    const prev = await owner.get(`/organizations/default/templates/${t.name}/versions/three/previous`)
    expect(prev.body.id).toBe(v2.id)
    const none = await owner.get(`/organizations/${orgId}/templates/${t.name}/versions/one/previous`)
    expectResponse(none, 404)
    expect(none.body.message).toBe("No previous template version found for \"one\".")
    expectResponse(await owner.get(`/organizations/${orgId}/templates/nope/versions/one`), 404)
  })

  it("promotes a succeeded version of the template; refuses others", async () => {
    const v1 = await imported()
    const t = await seedTemplate(srv, orgId, v1.id, ownerId)
    const v2 = await imported(FULL_TEMPLATE, { template_id: t.id })
    const failed = await imported(REQUIRED_VARIABLE_TEMPLATE, { template_id: t.id })
    const stranger = await imported()
    const r = await owner.patch(`/templates/${t.id}/versions`, { id: v2.id })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ message: "Updated the active template version!" })
    const bad = await owner.patch(`/templates/${t.id}/versions`, { id: failed.id })
    expectResponse(bad, 403)
    expect(bad.body).toMatchObject({
      message: "Only versions that have been built successfully can be promoted.",
      detail: "Attempted to promote a version with a failed build"
    })
    const foreign = await owner.patch(`/templates/${t.id}/versions`, { id: stranger.id })
    expect(foreign.body.message).toBe("The provided template version doesn't belong to the specified template.")
    expectResponse(await owner.patch(`/templates/${t.id}/versions`, { id: UNKNOWN_ID }), 404)
    expectValidations(await owner.patch(`/templates/${t.id}/versions`, { id: "x" }), ["id"])
    expectResponse(await member.patch(`/templates/${t.id}/versions`, { id: v1.id }), 403)
    const audit = await owner.get(`/audit?q=${encodeURIComponent("resource_type:template")}&limit=50`)
    expect(
      audit.body.audit_logs.some((e: any) =>
        e.resource_id === t.id && e.diff.active_version_id?.new === v2.id && e.status_code === 200
      )
    ).toBe(true)
  })

  it("archives and unarchives versions: never the active one, nor an unfinished import", async () => {
    const v1 = await imported()
    const t = await seedTemplate(srv, orgId, v1.id, ownerId)
    const v2 = await imported(FULL_TEMPLATE, { template_id: t.id })
    const active = await owner.post(`/templateversions/${v1.id}/archive`)
    expectResponse(active, 400)
    expect(active.body.message).toBe("The active template version cannot be archived.")
    const pending = await createVersion(srv, owner, orgId, FULL_TEMPLATE, {
      template_id: t.id,
      provisioner: "terraform"
    })
    const running = await owner.post(`/templateversions/${pending.body.id}/archive`)
    expectResponse(running, 400)
    expect(running.body.message).toMatch(/import job is pending/)
    const ok = await owner.post(`/templateversions/${v2.id}/archive`)
    expect(ok.body).toEqual({ message: `template version "${v2.id}" archived` })
    expect((await owner.get(`/templateversions/${v2.id}`)).body.archived).toBe(true)
    expect((await owner.post(`/templateversions/${v2.id}/archive`)).body.message).toBe(
      "Template version already archived."
    )
    expect((await owner.get(`/templates/${t.id}/versions`)).body.map((v: any) => v.id)).not.toContain(v2.id)
    expect((await owner.get(`/templates/${t.id}/versions?include_archived=true`)).body.map((v: any) => v.id)).toContain(
      v2.id
    )
    const promote = await owner.patch(`/templates/${t.id}/versions`, { id: v2.id })
    expect(promote.body.message).toBe("The provided template version is archived.")
    expect((await owner.post(`/templateversions/${v2.id}/unarchive`)).body.message).toBe(
      `template version "${v2.id}" unarchived`
    )
    expect((await owner.post(`/templateversions/${v2.id}/unarchive`)).body.message).toBe(
      "Template version already unarchived."
    )
    const loose = await imported()
    expect((await owner.post(`/templateversions/${loose.id}/archive`)).body.message).toBe(
      "Cannot archive template versions not associated with a template."
    )
    expectResponse(await member.post(`/templateversions/${v2.id}/archive`), 403)
    await runJobs(srv)
  })

  it("archives a template's unused failed versions, or all unused ones", async () => {
    const v1 = await imported()
    const t = await seedTemplate(srv, orgId, v1.id, ownerId)
    const good = await imported(FULL_TEMPLATE, { template_id: t.id })
    const bad = await imported(REQUIRED_VARIABLE_TEMPLATE, { template_id: t.id })
    const failedOnly = await owner.post(`/templates/${t.id}/versions/archive`, {})
    expect(failedOnly.status).toBe(200)
    expect(failedOnly.body).toEqual({ template_id: t.id, archived_ids: [bad.id] })
    const all = await owner.post(`/templates/${t.id}/versions/archive`, { all: true })
    expect(all.body).toEqual({ template_id: t.id, archived_ids: [good.id] })
    expectValidations(await owner.post(`/templates/${t.id}/versions/archive`, { all: "yes" }), ["all"])
    expectResponse(await member.post(`/templates/${t.id}/versions/archive`, {}), 403)
    expectResponse(await owner.post(`/templates/${UNKNOWN_ID}/versions/archive`, {}), 404)
  })
})
