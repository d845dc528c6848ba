/**
 * Test support for template versions: template archives, uploads, running pending jobs in the
 * server's own process (until real workers exist), and templates seeded in storage (until the
 * templates routes exist on this branch).
 */
import { SqlClient } from "@effect/sql"
import { newTemplate, TemplateRepo, TemplateVersionRepo } from "@workbay/core"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import type { Client, ServiceTestServer } from "../support.js"
import { tar, upload } from "./archives.js"

/** A template that exercises every part of an import. */
export const FULL_TEMPLATE = `variables:
  - name: region
    description: Where to run.
    default: eu
  - name: api_key
    sensitive: true
    default: s3cret
parameters:
  - name: repo
    display_name: Repository
    description: A **Git** repository.
    default: https://example.com/repo.git
    mutable: true
    order: 2
  - name: cpus
    type: number
    default: 2
    order: 1
    options:
      - { name: 2 CPUs, value: 2 }
      - { name: 4 CPUs, value: 4 }
    validation: { min: 1, max: 8 }
presets:
  - name: small
    default: true
    parameters: { cpus: 2 }
external_auth:
  - { id: github, optional: true }
resources:
  - name: home
    type: volume
    daily_cost: 1
    transitions: [start, stop]
    metadata:
      - { key: path, value: /home }
      - { key: token, value: hidden, sensitive: true }
  - name: dev
    type: machine
    daily_cost: 4
    agents:
      - name: main
        directory: /home/project
        env: { REGION: "\${var.region}" }
        apps:
          - slug: code
            url: http://localhost:8080
            healthcheck: { url: "http://localhost:8080/healthz", interval: 5, threshold: 6 }
        scripts:
          - display_name: Clone
            script: git clone \${param.repo}
            run_on_start: true
            timeout: 30
build:
  logs: ["Preparing \${workspace.name} for \${workspace.owner}"]
`

/** A template with one required variable. */
export const REQUIRED_VARIABLE_TEMPLATE = `variables:
  - name: project
resources:
  - { name: box, type: machine }
`

/** Uploads a tar holding `template.yaml` (and a README) as `client`; answers the file id. */
export const uploadTemplate = async (srv: ServiceTestServer, client: Client, yaml: string, readme = "# Docs\n") => {
  const r = await upload(
    srv.url,
    client.token,
    tar([{ name: "template.yaml", content: yaml }, { name: "README.md", content: readme }])
  )
  if (r.status !== 201 && r.status !== 200) throw new Error(`upload: ${r.status} ${JSON.stringify(r.body)}`)
  return r.body.hash as string
}

/** Creates a version of `yaml` as `client` in `orgId`; answers the reply. */
export const createVersion = async (
  srv: ServiceTestServer,
  client: Client,
  orgId: string,
  yaml: string,
  extra: Record<string, unknown> = {}
) => {
  const fileId = await uploadTemplate(srv, client, yaml)
  return client.post(`/organizations/${orgId}/templateversions`, {
    storage_method: "file",
    file_id: fileId,
    provisioner: "workbay",
    tags: {},
    ...extra
  })
}

/** Runs every pending job the built-in provisioners serve, in the server's process; answers how many. */
/**
 * Waits until the service's own provisioner workers have finished every queued job of the built-in
 * `workbay` type (jobs of types nobody serves stay pending; canceling jobs finish on their own).
 */
export const runJobs = async (srv: ServiceTestServer) => {
  const unfinished = () =>
    // The storage layer provides its SqlClient too (not part of the services' declared type).
    srv.run(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql<{ n: number | string }>`SELECT count(*) AS n FROM provisioner_jobs
        WHERE completed_at IS NULL AND canceled_at IS NULL AND provisioner = 'workbay'`.pipe(
        Effect.orDie
      )) as Effect.Effect<
        ReadonlyArray<{ n: number | string }>
      >)
  for (let i = 0; i < 1000; i++) {
    if (Number((await unfinished())[0]!.n) === 0) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error("The provisioner workers did not finish the queued jobs within 10 s.")
}

/** Stores a template whose active version is `versionId` (and gives it that version). */
export const seedTemplate = (
  srv: ServiceTestServer,
  orgId: string,
  versionId: string,
  createdBy: string,
  name = `t${randomUUID().slice(0, 8)}`
) =>
  srv.run(Effect.gen(function*() {
    const templates = yield* TemplateRepo
    const versions = yield* TemplateVersionRepo
    const at = new Date()
    const t = newTemplate({
      id: randomUUID(),
      at: new Date(),
      organization_id: orgId,
      name,
      provisioner: "workbay",
      active_version_id: versionId,
      created_by: createdBy,
      allow_user_cancel_workspace_jobs: true
    })
    yield* Effect.orDie(templates.insert(t))
    yield* Effect.orDie(versions.update(versionId, { template_id: t.id }, at))
    return t
  }))

/** Whether version `id` exists in storage (for checks the API cannot make). */
export const versionExists = (srv: ServiceTestServer, id: string) =>
  srv.run(Effect.map(Effect.flatMap(TemplateVersionRepo, (v) => v.findById(id)), Option.isSome))
