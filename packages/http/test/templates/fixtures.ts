/**
 * Template test fixtures: template versions whose import job ran (through the job queue:
 * enqueue, acquire, complete), made in-process until the template version routes exist here.
 */
import {
  IdGenerator,
  type ImportedPreset,
  newTemplateVersion,
  ProvisionerJobs,
  type TemplateVersionImport,
  type TemplateVersionRecord,
  TemplateVersionRepo
} from "@workbay/core"
import { Clock, Effect } from "effect"
import type { Client, ServiceTestServer } from "../support.js"

export interface VersionInit {
  readonly organizationId: string
  readonly createdBy: string
  readonly name?: string
  /** The import job's outcome: succeeded (default), failed, or still pending. */
  readonly outcome?: "succeeded" | "failed" | "pending"
  readonly presets?: ReadonlyArray<Omit<ImportedPreset, "id">>
  readonly hasAiTask?: boolean
}

const emptyImport = (presets: ReadonlyArray<ImportedPreset>, hasAiTask: boolean): TemplateVersionImport => ({
  parameters: [],
  variables: [],
  resources: [],
  external_auth_providers: [],
  presets,
  has_ai_task: hasAiTask,
  ai_task_app_slug: undefined,
  has_external_agent: false
})

let counter = 0

/** A template version of `organizationId` whose import job ended as asked; answers its record. */
export const makeVersion = (srv: ServiceTestServer, init: VersionInit): Promise<TemplateVersionRecord> =>
  srv.run(
    Effect.gen(function*() {
      const ids = yield* IdGenerator
      const jobs = yield* ProvisionerJobs
      const versions = yield* TemplateVersionRepo
      // A tag only this job has, so the fixture's worker claims this job and no other.
      const fixture = `fixture-${++counter}-${Date.now()}`
      const fileId = yield* ids.uuid
      const job = yield* jobs.enqueue({
        organization_id: init.organizationId,
        initiator_id: init.createdBy,
        provisioner: "echo",
        type: "template_version_import",
        file_id: fileId,
        input: {},
        tags: { fixture }
      })
      const at = new Date(yield* Clock.currentTimeMillis)
      const version = newTemplateVersion({
        id: yield* ids.uuid,
        at,
        organization_id: init.organizationId,
        name: init.name ?? fixture,
        job_id: job.id,
        created_by: init.createdBy,
        file_id: fileId,
        provisioner: "echo",
        tags: job.tags
      })
      yield* versions.insert(version)
      const outcome = init.outcome ?? "succeeded"
      if (outcome === "pending") return version
      const worker = { id: yield* ids.uuid, name: fixture, provisioners: ["echo"], tags: job.tags }
      const claimed = yield* jobs.acquire(worker)
      if (claimed._tag === "None" || claimed.value.id !== job.id) {
        return yield* Effect.die(new Error("fixture: the job was not claimed"))
      }
      if (outcome === "failed") {
        yield* jobs.complete(job.id, worker.id, { error: "The import failed." })
        return version
      }
      const presets = (init.presets ?? []).map((p, i) => ({
        ...p,
        id: `${version.id.slice(0, 30)}${String(i).padStart(6, "0")}`
      }))
      const result = emptyImport(presets, init.hasAiTask ?? false)
      yield* versions.setImportResult(version.id, result, at)
      yield* jobs.complete(job.id, worker.id)
      return { ...version, import_result: result }
    }).pipe(Effect.orDie)
  )

/** Creates a template in `organizationId` (through the route) from a fresh succeeded version. */
export const makeTemplate = async (
  srv: ServiceTestServer,
  client: Client,
  init: { organizationId: string; createdBy: string; name: string; body?: Record<string, unknown> }
) => {
  const version = await makeVersion(srv, { organizationId: init.organizationId, createdBy: init.createdBy })
  const r = await client.post(`/organizations/${init.organizationId}/templates`, {
    name: init.name,
    template_version_id: version.id,
    ...init.body
  })
  if (r.status !== 201) throw new Error(`template: ${r.status} ${JSON.stringify(r.body)}`)
  return r.body as { id: string; name: string; active_version_id: string; [k: string]: unknown }
}
