/**
 * `PUT /workspacebuilds/{workspacebuild}/state` over real HTTP (docs/workspaces.md, "Overwriting
 * the state"): template administrators overwrite a build's provisioner state, in either byte form;
 * the next build starts from it; the change is audited without the bytes.
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
import { runJobs } from "../templates/versions.js"
import { FREE_TEMPLATE, makeTemplate, makeWorkspace } from "./fixtures.js"

describe("PUT /workspacebuilds/{workspacebuild}/state", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let dev: TestUser
  let templateAdmin: TestUser
  let other: TestUser
  let template: { id: string }

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner({ lifecycle: false }))
    dev = await createUser(owner)
    other = await createUser(owner)
    templateAdmin = await createUser(owner, { roles: ["template-admin"] })
    template = await makeTemplate(srv, owner, orgId, FREE_TEMPLATE)
  })
  afterAll(() => srv.close())

  const stateOf = async (buildId: string) => {
    const r = await owner.get(`/workspacebuilds/${buildId}/state`)
    expect(r.status).toBe(200)
    return r.body
  }

  it("overwrites the state from base64 or from bytes, and the next build starts from it", async () => {
    const w = await makeWorkspace(srv, dev.client, orgId, template.id)
    const buildId = w.latest_build.id
    const custom = { format: "workbay/1", build_number: 41, transition: "start", resources: [] }
    const put = await owner.put(`/workspacebuilds/${buildId}/state`, {
      state: Buffer.from(JSON.stringify(custom)).toString("base64")
    })
    expect(put.status, JSON.stringify(put.body)).toBe(204)
    expect(put.body).toBeUndefined()
    expect(await stateOf(buildId)).toEqual(custom)
    // The next build starts from the state written: the built-in provisioner counts on from its build number.
    const stop = await dev.client.post(`/workspaces/${w.id}/builds`, { transition: "stop" })
    expect(stop.status).toBe(200)
    await runJobs(srv)
    expect((await stateOf(stop.body.id)).build_number).toBe(42)
    // The array form, by a template administrator; `[]` and `""` clear it.
    const bytes = [...Buffer.from("{\"a\":1}")]
    expect((await templateAdmin.client.put(`/workspacebuilds/${buildId}/state`, { state: bytes })).status).toBe(204)
    expect(await stateOf(buildId)).toEqual({ a: 1 })
    expect((await owner.put(`/workspacebuilds/${buildId}/state`, { state: [] })).status).toBe(204)
    expect((await owner.get(`/workspacebuilds/${buildId}/state`)).body).toBeUndefined()
    expect((await owner.put(`/workspacebuilds/${buildId}/state`, { state: "eyJiIjoyfQ==" })).status).toBe(204)
    expect(await stateOf(buildId)).toEqual({ b: 2 })
    expect((await owner.put(`/workspacebuilds/${buildId}/state`, { state: "" })).status).toBe(204)
    expect((await owner.get(`/workspacebuilds/${buildId}/state`)).body).toBeUndefined()
  })

  it("is audited as a write of the build, with the state's size and digest and never its bytes", async () => {
    const w = await makeWorkspace(srv, dev.client, orgId, template.id)
    const buildId = w.latest_build.id
    expect((await owner.put(`/workspacebuilds/${buildId}/state`, { state: "c2VjcmV0" })).status).toBe(204)
    const entries = (await owner.get(`/audit?q=${encodeURIComponent(`resource_id:${buildId}`)}&limit=10`)).body
      .audit_logs as Array<any>
    const entry = entries.find((e) => e.action === "write")
    expect(entry).toMatchObject({ resource_type: "workspace_build", resource_target: w.name, status_code: 204 })
    expect(entry.diff.provisioner_state_bytes.new).toBe(6)
    expect(entry.diff.provisioner_state_sha256.new).toBe(
      "2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b"
    )
    expect(JSON.stringify(entry)).not.toContain("c2VjcmV0")
    expect(entry.additional_fields).toMatchObject({ build_number: "1", workspace_name: w.name })
  })

  it("401 without a session, 404 for the workspace's owner and for who may not read it, 404 unknown, 400 bad input", async () => {
    const w = await makeWorkspace(srv, dev.client, orgId, template.id)
    const buildId = w.latest_build.id
    const before = await stateOf(buildId)
    const body = { state: "e30=" }
    expectResponse(await srv.anonymous.put(`/workspacebuilds/${buildId}/state`, body), 401)
    // The owner reads the workspace but may not update its template: the state stays hidden.
    expectResponse(await dev.client.put(`/workspacebuilds/${buildId}/state`, body), 404)
    expectResponse(await other.client.put(`/workspacebuilds/${buildId}/state`, body), 404)
    expectResponse(await owner.put(`/workspacebuilds/${UNKNOWN_ID}/state`, body), 404)
    expectValidations(await owner.put(`/workspacebuilds/nope/state`, body), ["workspacebuild"])
    for (
      const bad of [
        {},
        { state: null },
        { state: "not base64!" },
        { state: "abc" },
        { state: [256] },
        { state: [-1, 1.5] },
        { state: ["a"] },
        { state: 7 }
      ]
    ) {
      expectValidations(await owner.put(`/workspacebuilds/${buildId}/state`, bad), ["state"])
    }
    expect(await stateOf(buildId)).toEqual(before)
  })
})
