/**
 * `GET /workspaces/{workspace}/resolve-autostart` over real HTTP (docs/workspaces.md, "Routes" of
 * Schedules): whether an autostart onto the template's active version would fail on parameters.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createUser,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  startWithOwner,
  type TestUser,
  UNKNOWN_ID
} from "../support.js"
import { createVersion, runJobs } from "../templates/versions.js"
import { makeTemplate, makeWorkspace } from "./fixtures.js"

const V1 = `parameters:
  - name: size
    default: small
    mutable: true
resources:
  - name: box
    type: machine
`

/** The next version: `size` keeps a default; `region` is new and required. */
const V2_REQUIRED = `parameters:
  - name: size
    default: small
    mutable: true
  - name: region
    mutable: true
resources:
  - name: box
    type: machine
`

/** A version whose `size` options leave out the value workspaces hold. */
const V2_OPTIONS = `parameters:
  - name: size
    default: large
    mutable: true
    options:
      - { name: Large, value: large }
resources:
  - name: box
    type: machine
`

/** A version that adds a parameter with a default: no mismatch. */
const V2_COMPATIBLE = `parameters:
  - name: size
    default: small
    mutable: true
  - name: zone
    default: a
resources:
  - name: box
    type: machine
`

describe("GET /workspaces/{workspace}/resolve-autostart", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let dev: TestUser
  let other: TestUser

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({ lifecycle: false }))
    dev = await createUser(owner)
    other = await createUser(owner)
  })
  afterAll(() => srv.close())

  /** A template at V1 with dev's workspace on it (updating automatically or not), then `next` made active. */
  const world = async (next: string, options: { always?: boolean; requireActive?: boolean } = {}) => {
    const template = await makeTemplate(
      srv,
      owner,
      orgId,
      V1,
      options.requireActive === true ? { require_active_version: true } : {}
    )
    const w = await makeWorkspace(
      srv,
      dev.client,
      orgId,
      template.id,
      options.always === true ? { automatic_updates: "always" } : {}
    )
    const v2 = await createVersion(srv, owner, orgId, next, { template_id: template.id })
    expect(v2.status).toBe(201)
    await runJobs(srv)
    expect((await owner.patch(`/templates/${template.id}/versions`, { id: v2.body.id })).status).toBe(200)
    return { template, w, v2: v2.body as { id: string } }
  }
  const resolve = (client: Client, id: string) => client.get(`/workspaces/${id}/resolve-autostart`)

  it("a mismatch when the active version needs a value the latest build lacks, or refuses the one it has", async () => {
    for (const next of [V2_REQUIRED, V2_OPTIONS]) {
      const { w } = await world(next, { always: true })
      const r = await resolve(dev.client, w.id)
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toEqual({ parameter_mismatch: true })
    }
    // The template requiring its active version counts as automatic updates.
    const { w } = await world(V2_REQUIRED, { requireActive: true })
    expect((await resolve(dev.client, w.id)).body).toEqual({ parameter_mismatch: true })
  })

  it("no mismatch when the autostart would keep the latest build's version, or the active version's parameters resolve", async () => {
    // Not updating automatically: the autostart keeps the build's version.
    const kept = await world(V2_REQUIRED)
    expect((await resolve(dev.client, kept.w.id)).body).toEqual({ parameter_mismatch: false })
    // Compatible parameters.
    const compatible = await world(V2_COMPATIBLE, { always: true })
    expect((await resolve(dev.client, compatible.w.id)).body).toEqual({ parameter_mismatch: false })
    // Already on the active version.
    const template = await makeTemplate(srv, owner, orgId, V1)
    const current = await makeWorkspace(srv, dev.client, orgId, template.id, { automatic_updates: "always" })
    expect((await resolve(dev.client, current.id)).body).toEqual({ parameter_mismatch: false })
    // Who may read the workspace may ask: the owner of the deployment too.
    expect((await resolve(owner, compatible.w.id)).status).toBe(200)
  })

  it("401 without a session, 404 for who may not read it and for an unknown or deleted workspace, 400 for a bad id", async () => {
    const { w } = await world(V2_COMPATIBLE)
    expectResponse(await srv.anonymous.get(`/workspaces/${w.id}/resolve-autostart`), 401)
    expectResponse(await resolve(other.client, w.id), 404)
    expectResponse(await resolve(dev.client, UNKNOWN_ID), 404)
    expectValidations(await resolve(dev.client, "nope"), ["workspace"])
    expect((await dev.client.post(`/workspaces/${w.id}/builds`, { transition: "delete" })).status).toBe(200)
    await runJobs(srv)
    expectResponse(await resolve(dev.client, w.id), 404)
  })
})
