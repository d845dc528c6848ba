/**
 * The template version executors without HTTP: an import keeps what the provisioner found with
 * fresh ids and the archive's readme, a failure becomes the job's error (and code), a dry run
 * keeps its resources, and nothing (a missing file, a provisioner that dies) leaves a job running.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import {
  FileRepo,
  newTemplateVersion,
  type Provisioner,
  ProvisionerJobs,
  ProvisionerWorkers,
  readArchive,
  TemplateVersionRepo,
  workbayProvisioner
} from "@workbay/core"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import { zipToTar } from "../../src/templates/Archive.js"
import { services } from "../services.js"
import { bytes, tarOf, zipOf } from "./archives.js"

const ORG = randomUUID()
const USER = randomUUID()

const setup = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    Effect.orDie(sql`INSERT INTO organizations (id, name, display_name, created_at, updated_at)
    VALUES (${ORG}, ${`org-${ORG.slice(0, 8)}`}, 'Org', ${new Date().toISOString()}, ${new Date().toISOString()})`)
)

/** Stores `archive` as a file and a version of it with its pending import job. */
const version = (
  archive: Uint8Array,
  variables: ReadonlyArray<{ name: string; value: string }> = [],
  provisioner = "workbay"
) =>
  Effect.gen(function*() {
    const files = yield* FileRepo
    const versions = yield* TemplateVersionRepo
    const jobs = yield* ProvisionerJobs
    const fileId = randomUUID()
    yield* Effect.orDie(files.insert({
      id: fileId,
      hash: randomUUID(),
      created_by: USER,
      created_at: new Date(),
      mimetype: "application/x-tar",
      data: archive
    }))
    const id = randomUUID()
    const job = yield* jobs.enqueue({
      organization_id: ORG,
      initiator_id: USER,
      provisioner,
      type: "template_version_import",
      file_id: fileId,
      input: { template_version_id: id },
      tags: {}
    })
    const record = newTemplateVersion({
      id,
      at: new Date(),
      organization_id: ORG,
      name: `v${id.slice(0, 6)}`,
      job_id: job.id,
      created_by: USER,
      file_id: fileId,
      provisioner,
      tags: job.tags,
      user_variable_values: variables
    })
    yield* Effect.orDie(versions.insert(record))
    return record
  })

const reread = (id: string) => Effect.flatMap(TemplateVersionRepo, (v) => Effect.map(v.findById(id), Option.getOrThrow))
const jobOf = (id: string) => Effect.flatMap(ProvisionerJobs, (j) => Effect.orDie(j.get(id)))

const TEMPLATE = `variables:
  - name: region
parameters:
  - { name: size, default: small }
presets:
  - { name: p, parameters: { size: small } }
resources:
  - name: box
    type: machine
    transitions: [start, stop]
    agents:
      - name: main
        apps: [{ slug: web, url: "http://localhost" }]
        scripts: [{ display_name: S, script: echo, run_on_start: true }]
`

describe("template version executors", () => {
  it.effect("an import keeps parameters, variables, resources with fresh ids, presets and the readme", () =>
    Effect.gen(function*() {
      yield* setup
      const v = yield* version(
        yield* Effect.promise(() => tarOf({ "template.yaml": TEMPLATE, "README.md": "# Read me" })),
        [
          { name: "region", value: "eu" }
        ]
      )
      const done = yield* Effect.flatMap(ProvisionerWorkers, (w) => w.drain())
      expect(done.map((j) => j.id)).toEqual([v.job_id])
      expect((yield* jobOf(v.job_id)).error).toBe("")
      const after = yield* reread(v.id)
      expect(after.readme).toBe("# Read me")
      const result = after.import_result!
      expect(result.parameters.map((p) => p.name)).toEqual(["size"])
      expect(result.variables).toMatchObject([{ name: "region", value: "eu", required: true }])
      expect(result.resources.map((r) => r.transition).sort()).toEqual(["start", "stop"])
      const ids = result.resources.flatMap((
        r
      ) => [r.id, ...r.agents.flatMap((a) => [a.id, ...a.apps.map((x) => x.id), ...a.scripts.map((x) => x.id)])])
      expect(new Set(ids).size).toBe(ids.length)
      expect(result.resources.every((r) => r.job_id === v.job_id)).toBe(true)
      expect(result.presets).toMatchObject([{ name: "p", id: expect.any(String) }])
    }).pipe(Effect.provide(services())))

  it.effect("a missing required variable fails the job with REQUIRED_TEMPLATE_VARIABLES; a broken archive with its message", () =>
    Effect.gen(function*() {
      yield* setup
      const missing = yield* version(yield* Effect.promise(() => tarOf({ "template.yaml": TEMPLATE })))
      const broken = yield* version(bytes("definitely not an archive"))
      yield* Effect.flatMap(ProvisionerWorkers, (w) => w.drain())
      expect(yield* jobOf(missing.job_id)).toMatchObject({ error_code: "REQUIRED_TEMPLATE_VARIABLES" })
      const b = yield* jobOf(broken.job_id)
      expect(b.completed_at).not.toBeNull()
      expect(b.error).toMatch(/not a readable tar file/)
      expect((yield* reread(broken.id)).import_result).toBeNull()
    }).pipe(Effect.provide(services())))

  it.effect("a provisioner that dies or names an unknown error code still finishes the job", () => {
    const dying: Provisioner = {
      type: "dying",
      import: () => Effect.die(new Error("boom")),
      build: () => Effect.die(new Error("boom"))
    }
    return Effect.gen(function*() {
      yield* setup
      const v = yield* version(bytes("x"), [], "dying")
      yield* Effect.flatMap(ProvisionerWorkers, (w) => w.drain())
      const job = yield* jobOf(v.job_id)
      expect(job.completed_at).not.toBeNull()
      expect(job.error).toBe("The template import failed unexpectedly.")
    }).pipe(Effect.provide(services({}, [workbayProvisioner, dying])))
  })

  it.effect("a dry run builds the start transition with its parameters and the initiator as owner, and keeps its resources", () =>
    Effect.gen(function*() {
      yield* setup
      const v = yield* version(yield* Effect.promise(() => tarOf({ "template.yaml": TEMPLATE })), [{
        name: "region",
        value: "eu"
      }])
      yield* Effect.flatMap(ProvisionerWorkers, (w) => w.drain())
      const jobs = yield* ProvisionerJobs
      const versions = yield* TemplateVersionRepo
      const job = yield* jobs.enqueue({
        organization_id: ORG,
        initiator_id: USER,
        provisioner: "workbay",
        type: "template_version_dry_run",
        file_id: v.file_id,
        input: { template_version_id: v.id },
        tags: {}
      })
      yield* versions.insertDryRun({
        job_id: job.id,
        template_version_id: v.id,
        workspace_name: "ws",
        rich_parameter_values: [{ name: "size", value: "big" }],
        user_variable_values: [],
        resources: null
      })
      yield* Effect.flatMap(ProvisionerWorkers, (w) => w.drain())
      expect((yield* jobOf(job.id)).error).toBe("")
      const dry = Option.getOrThrow(yield* versions.findDryRun(job.id))
      expect(dry.resources).toMatchObject([{ name: "box", transition: "start", job_id: job.id }])
    }).pipe(Effect.provide(services())))

  it.effect("zip archives become tar archives of the same files", () =>
    Effect.gen(function*() {
      const tar = yield* zipToTar(zipOf({ "a/b.txt": "hello", "c.txt": "world" }))
      const files = yield* readArchive(tar, "application/x-tar")
      expect([...files.keys()].sort()).toEqual(["a/b.txt", "c.txt"])
      expect(new TextDecoder().decode(files.get("a/b.txt"))).toBe("hello")
      const refused = yield* Effect.flip(zipToTar(bytes("PK not really")))
      expect(refused._tag).toBe("ArchiveError")
    }))
})
