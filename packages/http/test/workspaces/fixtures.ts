/**
 * Workspace test support: templates made through the routes from `workbay` archives (the
 * built-in workers import them), and workspaces created and built on those workers.
 */
import { newWorkspace, WorkspaceRepo } from "@workbay/core"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expect } from "vitest"
import type { Client, ServiceTestServer } from "../support.js"
import { uniqueName } from "../support.js"
import { createVersion, runJobs } from "../templates/versions.js"

/** A template with parameters of every rule, a preset, a costly resource with an agent, and build logs. */
export const WORKSPACE_TEMPLATE = `parameters:
  - name: region
    default: eu
    options:
      - { name: Europe, value: eu }
      - { name: America, value: us }
  - name: cpus
    type: number
    default: 2
    mutable: true
    validation: { min: 1, max: 8, monotonic: increasing }
  - name: repo
    mutable: true
    default: https://example.com/a.git
    validation: { regex: "^https://", error: "Must be an https address." }
  - name: token
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
        directory: /home/coder
        apps:
          - slug: code
            url: http://localhost:8080
build:
  logs: ["Building \${workspace.name} for \${workspace.owner}"]
`

/** A template without costs, for quick workspaces. */
export const FREE_TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
      - name: main
build:
  logs: ["Hello"]
`

/** A template whose builds take a while (to cancel them, or race them). */
export const SLOW_TEMPLATE = `resources:
  - name: box
    type: machine
build:
  delay_ms: 2000
  import_delay_ms: 0
  logs: ["Slow start"]
`

/** Imports `yaml` as a new template of `orgId` (as `client`), answering the template. */
export const makeTemplate = async (
  srv: ServiceTestServer,
  client: Client,
  orgId: string,
  yaml: string,
  body: Record<string, unknown> = {}
) => {
  const version = await createVersion(srv, client, orgId, yaml)
  expect(version.status, JSON.stringify(version.body)).toBe(201)
  await runJobs(srv)
  const r = await client.post(`/organizations/${orgId}/templates`, {
    name: uniqueName("tpl"),
    template_version_id: version.body.id,
    ...body
  })
  expect(r.status, JSON.stringify(r.body)).toBe(201)
  return r.body as { id: string; name: string; active_version_id: string; [k: string]: unknown }
}

/** Creates a workspace of `templateId` for `user` (default `me`) as `client` and waits for its first build. */
export const makeWorkspace = async (
  srv: ServiceTestServer,
  client: Client,
  orgId: string,
  templateId: string,
  body: Record<string, unknown> = {},
  user = "me"
) => {
  const r = await client.post(`/organizations/${orgId}/members/${user}/workspaces`, {
    name: uniqueName("ws"),
    template_id: templateId,
    ...body
  })
  expect(r.status, JSON.stringify(r.body)).toBe(200)
  await runJobs(srv)
  const got = await client.get(`/workspaces/${r.body.id}`)
  expect(got.status).toBe(200)
  return got.body as { id: string; name: string; latest_build: any; [k: string]: unknown }
}

/**
 * Writes a workspace row with no build straight through the repository: what the API never
 * writes (create writes the workspace and its first build in one transaction), for the tests of
 * how reads and lists treat such a row.
 */
export const insertUnbuiltWorkspace = async (
  srv: ServiceTestServer,
  init: {
    readonly ownerId: string
    readonly organizationId: string
    readonly templateId: string
    readonly name?: string
  }
) => {
  const record = newWorkspace({
    id: randomUUID(),
    at: new Date(),
    owner_id: init.ownerId,
    organization_id: init.organizationId,
    template_id: init.templateId,
    name: init.name ?? uniqueName("unbuilt")
  })
  await srv.run(Effect.flatMap(WorkspaceRepo, (repo) => repo.insert(record)).pipe(Effect.orDie))
  return record
}
