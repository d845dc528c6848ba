/**
 * Black-box tests of the provisioner job and daemon routes over real HTTP and a fresh SQLite
 * database, with the built-in workers running (two, as by default) and an import executor
 * that runs the workbay provisioner on a small template.
 */
import {
  type JobExecutor,
  JobExecutors,
  newTemplate,
  newTemplateVersion,
  ProvisionerJobs,
  TemplateRepo,
  TemplateVersionRepo
} from "@workbay/core"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createOrganization,
  createUser,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  startWithOwner,
  UNKNOWN_ID
} from "../support.js"

describe("provisioner jobs and daemons", () => {
  let srv: ServiceTestServer
  let owner: Client
  let ownerId: string
  let orgId: string
  let member: Client
  let templateAdmin: Client
  let other: { id: string; name: string }

  /** The template version id that makes the test executor fail the job. */
  const FAILING = randomUUID()
  const enqueue = (
    provisioner: string,
    organization = orgId,
    tags: Record<string, string> = {},
    version = randomUUID()
  ) =>
    srv.run(Effect.flatMap(ProvisionerJobs, (jobs) =>
      jobs.enqueue({
        organization_id: organization,
        initiator_id: ownerId,
        provisioner,
        type: "template_version_import",
        file_id: randomUUID(),
        input: { template_version_id: version },
        tags
      })))
  const finished = async (id: string) => {
    for (let i = 0; i < 300; i++) {
      const job = await srv.run(Effect.flatMap(ProvisionerJobs, (jobs) => jobs.get(id)))
      if (job.completed_at !== null) return job
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    throw new Error(`job ${id} did not finish`)
  }

  beforeAll(async () => {
    ;({ srv, owner, ownerId, orgId } = await startWithOwner())
    const ok: JobExecutor = (job) =>
      Effect.succeed(job.input.template_version_id === FAILING ? { error: "It failed." } : {})
    await srv.run(Effect.flatMap(JobExecutors, (e) => e.register("template_version_import", ok)))
    member = (await createUser(owner)).client
    templateAdmin = (await createUser(owner, { roles: ["template-admin"] })).client
    other = await createOrganization(owner)
  })
  afterAll(() => srv.close())

  describe("GET /organizations/{organization}/provisionerjobs", () => {
    it("lists the organization's jobs newest first, with queue standing and available workers for pending ones", async () => {
      const done = await enqueue("workbay")
      await finished(done.id)
      const failing = await enqueue("workbay", orgId, {}, FAILING)
      await finished(failing.id)
      const waiting = await enqueue("terraform", orgId, { region: "eu" })
      await enqueue("workbay", other.id)
      const r = await owner.get(`/organizations/${orgId}/provisionerjobs`)
      expect(r.status).toBe(200)
      const ids = r.body.map((j: { id: string }) => j.id)
      expect(ids.slice(0, 3)).toEqual([waiting.id, failing.id, done.id])
      expect(r.body[0]).toMatchObject({
        status: "pending",
        queue_position: 0,
        queue_size: 0,
        organization_id: orgId,
        initiator_id: ownerId
      })
      expect(r.body[0].available_workers).toBeUndefined()
      expect(r.body[1]).toMatchObject({
        status: "failed",
        error: "It failed.",
        worker_name: expect.stringMatching(/^built-in-\d$/)
      })
      expect(r.body[2]).toMatchObject({ status: "succeeded", metadata: { template_name: "" } })
      // Filters: status, ids, tags, initiator, limit.
      expect(
        (await owner.get(`/organizations/${orgId}/provisionerjobs?status=pending`)).body.map((j: { id: string }) =>
          j.id
        )
      ).toEqual([waiting.id])
      expect((await owner.get(`/organizations/${orgId}/provisionerjobs?ids=${done.id},${waiting.id}`)).body)
        .toHaveLength(2)
      const tagged = await owner.get(
        `/organizations/${orgId}/provisionerjobs?tags=${encodeURIComponent(JSON.stringify({ region: "eu" }))}`
      )
      expect(tagged.body.map((j: { id: string }) => j.id)).toEqual([waiting.id])
      expect((await owner.get(`/organizations/${orgId}/provisionerjobs?initiator=admin&limit=1`)).body).toHaveLength(1)
      expect((await owner.get(`/organizations/${orgId}/provisionerjobs?initiator=${ownerId}`)).body.length)
        .toBeGreaterThanOrEqual(3)
      expect((await owner.get(`/organizations/${orgId}/provisionerjobs?initiator=nobody-here`)).body).toEqual([])
      // A template admin reads them too, by organization name.
      expect((await templateAdmin.get(`/organizations/default/provisionerjobs`)).status).toBe(200)
    })

    it("answers 401 without a session, 403 to a member, 404 for an unknown organization", async () => {
      expect((await srv.anonymous.get(`/organizations/${orgId}/provisionerjobs`)).status).toBe(401)
      expectResponse(await member.get(`/organizations/${orgId}/provisionerjobs`), 403)
      expectResponse(await owner.get(`/organizations/${UNKNOWN_ID}/provisionerjobs`), 404)
    })

    it("answers 400 with one validation per bad parameter", async () => {
      expectValidations(
        await owner.get(`/organizations/${orgId}/provisionerjobs?limit=-1&ids=nope&status=done&tags=notjson`),
        ["limit", "ids", "status", "tags"]
      )
      expectValidations(await owner.get(`/organizations/${orgId}/provisionerjobs?tags=${encodeURIComponent("[1]")}`), [
        "tags"
      ])
    })
  })

  describe("GET /organizations/{organization}/provisionerjobs/{job}", () => {
    it("answers the job", async () => {
      const job = await enqueue("workbay")
      await finished(job.id)
      const r = await owner.get(`/organizations/${orgId}/provisionerjobs/${job.id}`)
      expect(r.status).toBe(200)
      expect(r.body).toMatchObject({
        id: job.id,
        status: "succeeded",
        type: "template_version_import",
        logs_overflowed: false
      })
      expect(r.body.started_at).toBeDefined()
      expect(r.body.completed_at).toBeDefined()
    })

    it("names the job's template version and template in its metadata", async () => {
      const versionId = randomUUID()
      const templateId = randomUUID()
      const job = await enqueue("terraform", orgId, {}, versionId)
      const at = new Date()
      await srv.run(
        Effect.gen(function*() {
          yield* (yield* TemplateVersionRepo).insert(newTemplateVersion({
            id: versionId,
            at,
            organization_id: orgId,
            name: "brave-fox",
            job_id: job.id,
            created_by: ownerId,
            file_id: job.file_id,
            provisioner: "terraform",
            tags: {}
          }))
          yield* (yield* TemplateRepo).insert(newTemplate({
            id: templateId,
            at,
            organization_id: orgId,
            name: "docker",
            display_name: "Docker",
            icon: "/icon/docker.svg",
            provisioner: "terraform",
            active_version_id: versionId,
            created_by: ownerId,
            allow_user_cancel_workspace_jobs: true,
            group_acl: {}
          }))
        }).pipe(Effect.orDie)
      )
      const before = await owner.get(`/organizations/${orgId}/provisionerjobs/${job.id}`)
      expect(before.body.metadata).toEqual({
        template_version_name: "brave-fox",
        template_id: "00000000-0000-0000-0000-000000000000",
        template_name: "",
        template_display_name: "",
        template_icon: ""
      })
      await srv.run(
        Effect.flatMap(TemplateVersionRepo, (v) => v.update(versionId, { template_id: templateId }, new Date())).pipe(
          Effect.orDie
        )
      )
      const after = await owner.get(`/organizations/${orgId}/provisionerjobs/${job.id}`)
      expect(after.body.metadata).toEqual({
        template_version_name: "brave-fox",
        template_id: templateId,
        template_name: "docker",
        template_display_name: "Docker",
        template_icon: "/icon/docker.svg"
      })
    })

    it("answers 401, 404 to a member (as if missing), 404 for another organization's or an unknown job", async () => {
      const job = await enqueue("terraform")
      expect((await srv.anonymous.get(`/organizations/${orgId}/provisionerjobs/${job.id}`)).status).toBe(401)
      expect(await member.get(`/organizations/${orgId}/provisionerjobs/${job.id}`)).toMatchObject({
        status: 404,
        body: { message: "Provisioner job not found." }
      })
      expectResponse(await owner.get(`/organizations/${other.id}/provisionerjobs/${job.id}`), 404)
      expectResponse(await owner.get(`/organizations/${orgId}/provisionerjobs/${UNKNOWN_ID}`), 404)
    })

    it("answers 400 for a job id that is not a UUID", async () => {
      expectValidations(await owner.get(`/organizations/${orgId}/provisionerjobs/nope`), ["job"])
    })
  })

  describe("GET /organizations/{organization}/provisionerdaemons", () => {
    it("shows the built-in workers in every organization, idle, with their previous job", async () => {
      const job = await enqueue("workbay")
      await finished(job.id)
      const r = await member.get(`/organizations/${orgId}/provisionerdaemons`)
      expect(r.status).toBe(200)
      expect(r.body).toHaveLength(2)
      for (const d of r.body) {
        expect(d).toMatchObject({
          organization_id: orgId,
          key_name: "built-in",
          status: "idle",
          provisioners: ["workbay"],
          tags: { scope: "organization" },
          current_job: null
        })
      }
      expect(r.body.some((d: { previous_job: { id: string } | null }) => d.previous_job?.id === job.id)).toBe(true)
      const elsewhere = await owner.get(`/organizations/${other.id}/provisionerdaemons`)
      expect(elsewhere.body.map((d: { organization_id: string }) => d.organization_id)).toEqual([other.id, other.id])
      // Filters.
      expect((await owner.get(`/organizations/${orgId}/provisionerdaemons?status=offline`)).body).toEqual([])
      expect((await owner.get(`/organizations/${orgId}/provisionerdaemons?status=idle,busy&limit=1`)).body)
        .toHaveLength(1)
      const id = r.body[0].id
      expect(
        (await owner.get(`/organizations/${orgId}/provisionerdaemons?ids=${id}`)).body.map((d: { id: string }) => d.id)
      ).toEqual([id])
      expect(
        (await owner.get(
          `/organizations/${orgId}/provisionerdaemons?tags=${encodeURIComponent("{\"scope\":\"user\"}")}`
        )).body
      ).toEqual([])
    })

    it("answers 401 without a session, 404 for an organization the caller is not in", async () => {
      expect((await srv.anonymous.get(`/organizations/${orgId}/provisionerdaemons`)).status).toBe(401)
      expectResponse(await member.get(`/organizations/${other.id}/provisionerdaemons`), 404)
      const outsider = (await createUser(owner)).client
      const org = await createOrganization(owner)
      expectResponse(await outsider.get(`/organizations/${org.id}/provisionerdaemons`), 404)
    })

    it("answers 400 with one validation per bad parameter", async () => {
      expectValidations(await owner.get(`/organizations/${orgId}/provisionerdaemons?status=running&ids=x&limit=z`), [
        "status",
        "ids",
        "limit"
      ])
    })
  })
})
