/**
 * The template and template version repository contract, run against every storage: records kept
 * exactly (ACLs, import results with dates), names unique where they must be, listings and
 * keyset pages of versions. Every test gets a fresh, migrated database.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import {
  newTemplate,
  newTemplateVersion,
  newWorkspace,
  newWorkspaceBuild,
  ProvisionerJobRepo,
  type TemplateRecord,
  TemplateRepo,
  type TemplateVersionImport,
  type TemplateVersionRecord,
  TemplateVersionRepo,
  UniqueViolation,
  WorkspaceBuildRepo,
  type WorkspaceRecord,
  WorkspaceRepo
} from "@workbay/core"
import type { StoragePorts } from "@workbay/storage-sql"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import { templateWorkspaceStatements } from "../../src/templates/TemplateRepositories.js"
import { queryPlan } from "../QueryPlan.js"
import type { StorageFactory, SuiteOptions } from "../users/RepositorySuite.js"

type Ports = StoragePorts | SqlClient.SqlClient

const at = (s: number) => new Date(Date.UTC(2024, 6, 1, 10, 0, s, 123))

const organization = (id = randomUUID()) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql`INSERT INTO organizations (id, name, display_name, created_at, updated_at)
      VALUES (${id}, ${`org-${id.slice(0, 8)}`}, 'Org', ${at(0).toISOString()}, ${at(0).toISOString()})`
  ).pipe(Effect.orDie, Effect.as(id))

const job = (organizationId: string) =>
  Effect.flatMap(ProvisionerJobRepo, (jobs) =>
    jobs.enqueue({
      id: randomUUID(),
      created_at: at(0),
      organization_id: organizationId,
      initiator_id: randomUUID(),
      provisioner: "workbay",
      type: "template_version_import",
      file_id: randomUUID(),
      input: {},
      tags: { scope: "organization" }
    }))

/** A user, written directly (their own suite tests them); answers the id. */
const person = () =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => {
    const id = randomUUID()
    const t = at(0).toISOString()
    return sql`INSERT INTO users (id, email, username, login_type, status, created_at, updated_at, last_seen_at)
      VALUES (${id}, ${`${id}@example.com`}, ${`u${id.slice(0, 8)}`}, 'password', 'active', ${t}, ${t}, ${t})`.pipe(
      Effect.as(id)
    )
  }).pipe(Effect.orDie)

let workspaceNames = 0
const workspaceOf = (organizationId: string, templateId: string, ownerId: string): WorkspaceRecord =>
  newWorkspace({
    id: randomUUID(),
    at: at(1),
    owner_id: ownerId,
    organization_id: organizationId,
    template_id: templateId,
    name: `ws-${++workspaceNames}`
  })

const template = (
  organizationId: string,
  versionId: string,
  overrides: Partial<TemplateRecord> = {}
): TemplateRecord =>
  newTemplate({
    id: randomUUID(),
    at: at(1),
    organization_id: organizationId,
    name: "docker",
    display_name: "Docker",
    description: "d",
    icon: "/icon.svg",
    provisioner: "workbay",
    active_version_id: versionId,
    created_by: randomUUID(),
    default_ttl_ms: 3_600_000,
    allow_user_cancel_workspace_jobs: true,
    allow_user_autostop: false,
    user_acl: { [randomUUID()]: "admin" },
    ...overrides
  })

const version = (
  organizationId: string,
  jobId: string,
  overrides: Partial<TemplateVersionRecord> = {}
): TemplateVersionRecord =>
  newTemplateVersion({
    id: randomUUID(),
    at: at(2),
    organization_id: organizationId,
    name: "v1",
    job_id: jobId,
    created_by: randomUUID(),
    file_id: randomUUID(),
    provisioner: "workbay",
    // Away from their defaults, given explicitly, so a column the repository loses shows.
    message: "first",
    user_variable_values: [{ name: "region", value: "eu" }],
    ...overrides
  })

const imported = (jobId: string): TemplateVersionImport => ({
  parameters: [],
  variables: [],
  external_auth_providers: [{ id: "github", optional: true }],
  presets: [],
  has_ai_task: false,
  ai_task_app_slug: undefined,
  has_external_agent: false,
  resources: [{
    id: randomUUID(),
    job_id: jobId,
    created_at: at(3),
    transition: "start",
    name: "box",
    type: "container",
    hide: false,
    icon: "",
    daily_cost: 2,
    metadata: [],
    agents: []
  }]
})

export const templateRepositorySuite = (name: string, makeStorage: StorageFactory, options: SuiteOptions = {}) => {
  const test = (title: string, body: Effect.Effect<void, unknown, Ports>) =>
    it.live(title, () => body.pipe(Effect.provide(makeStorage()), Effect.orDie))

  describe.skipIf(options.skip === true)(`template repositories on ${name}`, () => {
    test(
      "keeps templates and versions exactly; names unique per organization and per template",
      Effect.gen(function*() {
        const templates = yield* TemplateRepo
        const versions = yield* TemplateVersionRepo
        const org = yield* organization()
        const j = yield* job(org)
        const v = version(org, j.id)
        yield* versions.insert(v)
        expect(Option.getOrThrow(yield* versions.findById(v.id))).toEqual(v)
        expect(yield* versions.findByIds([v.id, randomUUID()])).toEqual([v])
        expect(yield* versions.findByIds([])).toEqual([])
        const t = template(org, v.id)
        yield* templates.insert(t)
        expect(Option.getOrThrow(yield* templates.findById(t.id))).toEqual(t)
        expect(yield* templates.findByIds([t.id, randomUUID()])).toEqual([t])
        expect(yield* templates.findByIds([])).toEqual([])
        expect(Option.getOrThrow(yield* templates.findByName(org, "DOCKER")).id).toBe(t.id)
        const clash = yield* Effect.flip(templates.insert(template(org, v.id, { name: "Docker" })))
        expect(clash).toBeInstanceOf(UniqueViolation)

        const withTemplate = Option.getOrThrow(yield* versions.update(v.id, { template_id: t.id }, at(4)))
        expect(withTemplate.template_id).toBe(t.id)
        const j2 = yield* job(org)
        const dup = yield* Effect.flip(versions.insert(version(org, j2.id, { template_id: t.id, name: "V1" })))
        expect(dup).toBeInstanceOf(UniqueViolation)

        const result = imported(j.id)
        yield* versions.setImportResult(v.id, result, at(5))
        expect(Option.getOrThrow(yield* versions.findByJobId(j.id)).import_result).toEqual(result)
        expect((yield* versions.listByFileId(v.file_id)).map((x) => x.id)).toEqual([v.id])
        expect(yield* versions.listByFileId(randomUUID())).toEqual([])

        const updated = Option.getOrThrow(
          yield* templates.update(t.id, { description: "new", allow_user_autostop: true, user_acl: {} })
        )
        expect(updated.description).toBe("new")
        expect(updated.allow_user_autostop).toBe(true)
        expect(updated.user_acl).toEqual({})
        yield* templates.update(t.id, { deleted: true })
        expect(Option.isNone(yield* templates.findByName(org, "docker"))).toBe(true)
        expect(Option.isNone(yield* templates.update(t.id, { description: "x" }))).toBe(true)
        // The name is free again once the template is deleted.
        yield* templates.insert(template(org, v.id))
      })
    )

    test(
      "lists templates by filters and pages a template's versions oldest first",
      Effect.gen(function*() {
        const templates = yield* TemplateRepo
        const versions = yield* TemplateVersionRepo
        const org = yield* organization()
        const other = yield* organization()
        const first = version(org, (yield* job(org)).id)
        yield* versions.insert(first)
        const t = template(org, first.id, { name: "alpha", display_name: "Go 100%" })
        yield* templates.insert(t)
        yield* templates.insert(template(org, first.id, { name: "beta", deprecated: "old" }))
        yield* templates.insert(template(other, first.id, { name: "gamma" }))
        expect((yield* templates.list({ organizationId: org })).map((x) => x.name)).toEqual(["alpha", "beta"])
        expect((yield* templates.list({ fuzzyName: "100%" })).map((x) => x.name)).toEqual(["alpha"])
        expect((yield* templates.list({ fuzzyName: "_" })).length).toBe(0)
        expect((yield* templates.list({ exactName: "GAMMA" })).map((x) => x.name)).toEqual(["gamma"])
        expect((yield* templates.list({ deprecated: true })).map((x) => x.name)).toEqual(["beta"])
        expect((yield* templates.list({ ids: [] })).length).toBe(0)

        yield* versions.update(first.id, { template_id: t.id }, at(2))
        const more: Array<TemplateVersionRecord> = [first]
        for (let i = 0; i < 4; i++) {
          const v = version(org, (yield* job(org)).id, { template_id: t.id, name: `v${i + 2}`, created_at: at(10 + i) })
          yield* versions.insert(v)
          more.push(v)
        }
        const page1 = yield* versions.listByTemplate({ templateId: t.id, limit: 2, includeArchived: false })
        expect(page1.map((v) => v.name)).toEqual(["v1", "v2"])
        const page2 = yield* versions.listByTemplate({
          templateId: t.id,
          limit: 2,
          afterId: page1[1]!.id,
          includeArchived: false
        })
        expect(page2.map((v) => v.name)).toEqual(["v3", "v4"])
        expect(Option.getOrThrow(yield* versions.previous(t.id, more[2]!.id)).name).toBe("v2")
        expect(Option.isNone(yield* versions.previous(t.id, first.id))).toBe(true)
        expect(yield* versions.setArchived(t.id, [more[1]!.id, more[2]!.id], true, at(30))).toHaveLength(2)
        expect(yield* versions.setArchived(t.id, [more[1]!.id], true, at(30))).toHaveLength(0)
        expect(
          (yield* versions.listByTemplate({ templateId: t.id, limit: 10, includeArchived: false })).map((v) => v.name)
        )
          .toEqual(["v1", "v4", "v5"])
        expect((yield* versions.listByTemplate({ templateId: t.id, limit: 10, includeArchived: true })).length).toBe(5)
        expect(Option.getOrThrow(yield* versions.findByTemplateAndName(t.id, "V3")).id).toBe(more[2]!.id)
      })
    )

    test(
      "keeps dry runs and their resources",
      Effect.gen(function*() {
        const versions = yield* TemplateVersionRepo
        const org = yield* organization()
        const v = version(org, (yield* job(org)).id)
        yield* versions.insert(v)
        const dj = yield* job(org)
        const dry = {
          job_id: dj.id,
          template_version_id: v.id,
          workspace_name: "ws",
          rich_parameter_values: [{ name: "a", value: "1" }],
          user_variable_values: [],
          resources: null
        }
        yield* versions.insertDryRun(dry)
        expect(Option.getOrThrow(yield* versions.findDryRun(dj.id))).toEqual(dry)
        const resources = imported(dj.id).resources
        yield* versions.setDryRunResources(dj.id, resources)
        expect(Option.getOrThrow(yield* versions.findDryRun(dj.id)).resources).toEqual(resources)
      })
    )

    test(
      "knows whether a template has undeleted workspaces, and counts their distinct owners per template",
      Effect.gen(function*() {
        const templates = yield* TemplateRepo
        const workspaces = yield* WorkspaceRepo
        const org = yield* organization()
        const v = version(org, (yield* job(org)).id)
        yield* (yield* TemplateVersionRepo).insert(v)
        const used = template(org, v.id, { name: "used" })
        const other = template(org, v.id, { name: "other" })
        const unused = template(org, v.id, { name: "unused" })
        for (const t of [used, other, unused]) yield* templates.insert(t)
        const [ann, ben] = [yield* person(), yield* person()]
        expect(yield* templates.hasWorkspaces(used.id)).toBe(false)
        const first = workspaceOf(org, used.id, ann)
        yield* workspaces.insert(first)
        const second = workspaceOf(org, used.id, ann)
        yield* workspaces.insert(second)
        const bens = workspaceOf(org, used.id, ben)
        yield* workspaces.insert(bens)
        yield* workspaces.insert(workspaceOf(org, other.id, ben))
        expect(yield* templates.hasWorkspaces(used.id)).toBe(true)
        expect(yield* templates.hasWorkspaces(unused.id)).toBe(false)
        expect(yield* templates.workspaceOwnerCounts([used.id, other.id, unused.id])).toEqual(
          new Map([[used.id, 2], [other.id, 1]])
        )
        expect(yield* templates.workspaceOwnerCounts([])).toEqual(new Map())

        // Deleted workspaces count for neither.
        yield* workspaces.update(bens.id, { deleted: true })
        expect((yield* templates.workspaceOwnerCounts([used.id])).get(used.id)).toBe(1)
        yield* workspaces.update(first.id, { deleted: true })
        expect(yield* templates.hasWorkspaces(used.id)).toBe(true)
        yield* workspaces.update(second.id, { deleted: true })
        expect(yield* templates.hasWorkspaces(used.id)).toBe(false)
        expect(yield* templates.workspaceOwnerCounts([used.id])).toEqual(new Map())
        expect(yield* templates.hasWorkspaces(other.id)).toBe(true)

        // The counts are kept: a deletion counts once, an undeletion counts again.
        yield* workspaces.update(second.id, { deleted: true })
        expect(yield* templates.workspaceOwnerCounts([used.id])).toEqual(new Map())
        yield* workspaces.update(second.id, { deleted: false })
        yield* workspaces.update(bens.id, { deleted: false })
        expect(yield* templates.workspaceOwnerCounts([used.id, other.id])).toEqual(
          new Map([[used.id, 2], [other.id, 1]])
        )
        yield* workspaces.insert({ ...workspaceOf(org, other.id, ann), deleted: true })
        expect(yield* templates.workspaceOwnerCounts([other.id])).toEqual(new Map([[other.id, 1]]))
      })
    )

    test(
      "archiving leaves out the versions the latest builds of the template's workspaces use, but deletes",
      Effect.gen(function*() {
        const templates = yield* TemplateRepo
        const versions = yield* TemplateVersionRepo
        const workspaces = yield* WorkspaceRepo
        const builds = yield* WorkspaceBuildRepo
        const org = yield* organization()
        const [v1, v2, v3, v4] = [
          version(org, (yield* job(org)).id, { name: "v1" }),
          version(org, (yield* job(org)).id, { name: "v2" }),
          version(org, (yield* job(org)).id, { name: "v3" }),
          version(org, (yield* job(org)).id, { name: "v4" })
        ]
        for (const v of [v1, v2, v3, v4]) yield* versions.insert(v)
        const t = template(org, v4.id)
        yield* templates.insert(t)
        for (const v of [v1, v2, v3, v4]) yield* versions.update(v.id, { template_id: t.id }, at(3))
        const owner = yield* person()
        /** A workspace of `t` whose builds used `used`, in order, the last as `last`. */
        const workspaceWith = (
          used: ReadonlyArray<TemplateVersionRecord>,
          last: "start" | "stop" | "delete",
          deleted = false
        ) =>
          Effect.gen(function*() {
            const w = workspaceOf(org, t.id, owner)
            yield* workspaces.insert({ ...w, deleted })
            for (const [i, v] of used.entries()) {
              yield* builds.insert(newWorkspaceBuild({
                id: randomUUID(),
                at: at(10 + i),
                workspace_id: w.id,
                template_version_id: v.id,
                build_number: i + 1,
                transition: i === used.length - 1 ? last : "start",
                initiator_id: owner,
                job_id: (yield* job(org)).id
              }))
            }
          })
        // v1 was, v2 is used (stopped); v3's workspace has a failed delete as latest build; v4's was deleted.
        yield* workspaceWith([v1, v2], "stop")
        yield* workspaceWith([v3], "delete")
        yield* workspaceWith([v4], "start", true)
        const archived = yield* versions.setArchived(t.id, [v1.id, v2.id, v3.id, v4.id], true, at(30))
        expect([...archived].sort()).toEqual([v1.id, v3.id, v4.id].sort())
        expect(Option.getOrThrow(yield* versions.findById(v2.id)).archived).toBe(false)
        // Unarchiving is never refused.
        expect(yield* versions.setArchived(t.id, [v1.id], false, at(31))).toEqual([v1.id])
      })
    )

    test(
      "reads a template's workspaces through workspaces_template",
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const statements = templateWorkspaceStatements(sql)
        const id = randomUUID()
        for (const statement of [statements.any(id)]) {
          const [text, params] = statement.compile()
          // An empty table is cheaper to scan: price the scan out, as ListPlanSuite prices sorting.
          const plan = (yield* queryPlan(text, params, "seqscan")).join("\n")
          expect(plan).toContain("workspaces_template")
        }
      })
    )
  })
}
