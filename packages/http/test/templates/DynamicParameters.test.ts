/**
 * Dynamic parameters over real HTTP: the evaluate route, the WebSocket (first answer, then one
 * per request with its id), who may ask for whose form, bad input, and workspace creation
 * checked against the parameters as evaluated.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Client,
  createUser,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  SESSION_HEADER,
  startWithOwner,
  UNKNOWN_ID
} from "../support.js"
import { uniqueName } from "../support.js"
import { connect, eventually, refusal } from "../websocket.js"
import { makeTemplate } from "../workspaces/fixtures.js"
import { createVersion, runJobs } from "./versions.js"

export const DYNAMIC_TEMPLATE = `parameters:
  - name: region
    default: eu
    options:
      - { name: Europe, value: eu }
      - { name: America, value: us }
  - name: size
    form_type: dropdown
    dynamic:
      options: 'param.region == "eu" ? ["small", "medium"] : ["large"]'
      default: 'param.region == "eu" ? "small" : "large"'
  - name: gpu
    type: bool
    default: false
    dynamic:
      visible: '"gpu-users" in owner.groups'
  - name: greeting
    dynamic:
      default: '"Hello " + owner.name'
resources:
  - { name: box, type: machine }
`

describe("dynamic parameters", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let versionId: string
  let templateId: string
  let member: Client
  let memberId: string

  beforeAll(async () => {
    ;({ srv, owner, orgId } = await startWithOwner())
    const m = await createUser(owner)
    member = m.client
    memberId = m.user.id
    const template = await makeTemplate(srv, owner, orgId, DYNAMIC_TEMPLATE)
    templateId = template.id
    versionId = template.active_version_id
  })
  afterAll(() => srv.close())

  const evaluate = (client: Client, body: unknown, id = versionId) =>
    client.post(`/templateversions/${id}/dynamic-parameters/evaluate`, body)

  it("evaluates the form with the given values and echoes the id", async () => {
    const r = await evaluate(owner, { id: 3, inputs: { region: "us" } })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.id).toBe(3)
    expect(r.body.diagnostics).toEqual([])
    expect(r.body.parameters.map((p: any) => p.name)).toEqual(["region", "size", "greeting"])
    const size = r.body.parameters[1]
    expect(size).toMatchObject({
      name: "size",
      type: "string",
      form_type: "dropdown",
      styling: {},
      required: false,
      default_value: { value: "large", valid: true },
      value: { value: "large", valid: true },
      options: [{ name: "large", description: "", value: { value: "large", valid: true }, icon: "" }],
      validations: [],
      diagnostics: []
    })
    expect(r.body.parameters[2].value.value).toBe("Hello admin")
    // The parameters as written keep the template's form_type.
    const written = await owner.get(`/templateversions/${versionId}/rich-parameters`)
    expect(written.body.map((p: any) => [p.name, p.form_type])).toEqual([
      ["region", "radio"],
      ["size", "dropdown"],
      ["gpu", "radio"],
      ["greeting", "input"]
    ])
  })

  it("shows a parameter to owners in the group its expression names, with the owner_id's groups", async () => {
    const grp = await owner.post(`/organizations/${orgId}/groups`, { name: uniqueName("gpu") })
    expect(grp.status).toBe(201)
    await owner.patch(`/groups/${grp.body.id}`, { name: "gpu-users", add_users: [memberId] })
    const forMember = await evaluate(owner, { id: 1, inputs: {}, owner_id: memberId })
    expect(forMember.body.parameters.map((p: any) => p.name)).toContain("gpu")
    expect((await evaluate(owner, { id: 1, inputs: {} })).body.parameters.map((p: any) => p.name)).not.toContain("gpu")
  })

  it("answers a value outside the evaluated options in the parameter's diagnostics", async () => {
    const r = await evaluate(member, { id: 9, inputs: { region: "us", size: "small" } })
    expect(r.status).toBe(200)
    const size = r.body.parameters.find((p: any) => p.name === "size")
    expect(size.diagnostics[0]).toMatchObject({ severity: "error", extra: { code: "value" } })
  })

  it("refuses callers without a session (401), unknown versions and owners (404), others' forms to members (403)", async () => {
    expectResponse(await srv.anonymous.post(`/templateversions/${versionId}/dynamic-parameters/evaluate`, {}), 401)
    expectResponse(await evaluate(owner, { id: 1 }, UNKNOWN_ID), 404)
    const other = await createUser(owner)
    expectResponse(await evaluate(member, { id: 1, owner_id: other.user.id }), 403)
    expectResponse(await evaluate(owner, { id: 1, owner_id: UNKNOWN_ID }), 404)
  })

  it("refuses bad input with one validation per field (400)", async () => {
    expectValidations(await evaluate(owner, { id: "x", inputs: { a: 1 }, owner_id: "nope" }), [
      "id",
      "inputs.a",
      "owner_id"
    ])
    expectValidations(await evaluate(owner, { inputs: { region: "x".repeat(5000) } }), ["inputs.region"])
    const bad = await owner.post(`/templateversions/not-a-uuid/dynamic-parameters/evaluate`, {})
    expect(bad.status).toBe(400)
  })

  it("answers over the WebSocket at once, then each request with its id, in order", async () => {
    const ws = await connect(`${srv.wsUrl}/api/v2/templateversions/${versionId}/dynamic-parameters`, {
      [SESSION_HEADER]: owner.token!
    })
    await eventually(() => ws.messages.length === 1)
    const first = JSON.parse(ws.messages[0]!)
    expect(first.id).toBe(-1)
    expect(first.parameters.find((p: any) => p.name === "size").value.value).toBe("small")
    for (let id = 1; id <= 3; id++) {
      ws.socket.send(JSON.stringify({ id, inputs: { region: id % 2 === 0 ? "eu" : "us" } }))
    }
    await eventually(() => ws.messages.length === 4)
    const answers = ws.messages.slice(1).map((m) => JSON.parse(m))
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3])
    expect(answers.map((a) => a.parameters[1].value.value)).toEqual(["large", "small", "large"])
    // Not a request: closed with 1003.
    ws.socket.send("{")
    expect((await ws.closed).code).toBe(1003)
  })

  it("refuses the WebSocket without a session, for an unknown version and a bad user_id", async () => {
    const url = `${srv.wsUrl}/api/v2/templateversions/${versionId}/dynamic-parameters`
    expect((await refusal(connect(url))).status).toBe(401)
    const unknown = await refusal(
      connect(`${srv.wsUrl}/api/v2/templateversions/${UNKNOWN_ID}/dynamic-parameters`, {
        [SESSION_HEADER]: owner.token!
      })
    )
    expect(unknown.status).toBe(404)
    const bad = await refusal(connect(`${url}?user_id=nope`, { [SESSION_HEADER]: owner.token! }))
    expect(bad.status).toBe(400)
    expect(bad.body.validations.map((v: any) => v.field)).toEqual(["user_id"])
    const me = await connect(`${url}?user_id=me`, { [SESSION_HEADER]: member.token! })
    await eventually(() => me.messages.length === 1)
    me.socket.close()
  })

  it("checks workspace creation against the evaluated parameters", async () => {
    const create = (values: Array<{ name: string; value: string }>) =>
      member.post(`/organizations/${orgId}/members/me/workspaces`, {
        name: uniqueName("ws"),
        template_id: templateId,
        rich_parameter_values: values
      })
    // "small" is an option only for eu.
    expectValidations(await create([{ name: "region", value: "us" }, { name: "size", value: "small" }]), [
      "rich_parameter_values.size"
    ])
    const ok = await create([{ name: "region", value: "us" }])
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    await runJobs(srv)
    const params = await member.get(`/workspacebuilds/${ok.body.latest_build.id}/parameters`)
    expect(params.body).toEqual(expect.arrayContaining([
      { name: "size", value: "large" },
      { name: "greeting", value: expect.stringContaining("Hello ") }
    ]))
  })

  it("refuses an import whose expression is broken, naming the key", async () => {
    const v = await createVersion(srv, owner, orgId, `parameters:\n  - name: a\n    dynamic:\n      default: '1 +'\n`)
    await runJobs(srv)
    const got = await owner.get(`/templateversions/${v.body.id}`)
    expect(got.body.job.status).toBe("failed")
    expect(got.body.job.error).toContain("parameters[0].dynamic.default")
  })
})
