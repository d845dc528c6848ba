/**
 * Cloud instance identity end to end over real HTTP: a server trusting the test's own AWS
 * certificate, Azure root and Google key; agents given instance ids by a `workbay` template;
 * signed documents exchanged for agent tokens that then reach the agent's routes. Forgeries,
 * unknown instances, replaced builds and bad bodies are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  awsDocument,
  awsSignature,
  azureDocument,
  azureSignature,
  type GoogleSigner,
  googleToken,
  issue,
  type Issued,
  makeCa,
  makeGoogleSigner
} from "../../../core/test/agents/IdentityFixtures.js"
import {
  type Client,
  createUser,
  expectResponse,
  expectValidations,
  type ServiceTestServer,
  startWithOwner,
  UUID_PATTERN
} from "../support.js"
import { runJobs } from "../templates/versions.js"
import { makeTemplate, makeWorkspace } from "../workspaces/fixtures.js"
import { trustSettings } from "./identityServer.js"

const ACCESS_URL = "https://workbay.example.com"

// Two agents share the box's instance; the solo machine has one.
const TEMPLATE = `resources:
  - name: box
    type: machine
    agents:
      - name: main
        instance_id: "i-\${workspace.id}"
      - name: side
        instance_id: "i-\${workspace.id}"
  - name: solo
    type: machine
    agents:
      - name: only
        instance_id: "solo-\${workspace.id}"
`

describe("cloud instance identity", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let dev: Client
  let template: { id: string }
  let awsRegion: Issued
  let awsStranger: Issued
  let azureRoot: Issued
  let azureIntermediate: Issued
  let azureSigner: Issued
  let google: GoogleSigner
  let googleStranger: GoogleSigner

  beforeAll(async () => {
    awsRegion = await makeCa("ec2.amazonaws.com")
    awsStranger = await makeCa("ec2.amazonaws.com")
    azureRoot = await makeCa("Test Azure Root")
    azureIntermediate = await issue(azureRoot, "Test Azure Issuing CA", { ca: true })
    azureSigner = await issue(azureIntermediate, "eastus.metadata.azure.com")
    google = await makeGoogleSigner("g-1")
    googleStranger = await makeGoogleSigner("g-1")
    ;({ srv, owner, orgId } = await startWithOwner({
      lifecycle: false,
      settings: trustSettings(ACCESS_URL, { aws: awsRegion, azure: azureRoot, google })
    }))
    dev = (await createUser(owner, { username: "identity-dev" })).client
    template = await makeTemplate(srv, owner, orgId, TEMPLATE)
  })
  afterAll(() => srv.close())

  const workspace = () => makeWorkspace(srv, dev, orgId, template.id)
  const anonymous = () => dev.as(undefined)
  const gitSshKey = (token: string) => dev.as(token).get("/workspaceagents/me/gitsshkey")
  const aws = (instanceId: string, agentName?: string, signer = awsRegion) => {
    const document = awsDocument(instanceId)
    return anonymous().post("/workspaceagents/aws-instance-identity", {
      document,
      signature: awsSignature(document, signer),
      ...(agentName === undefined ? {} : { agent_name: agentName })
    })
  }
  const azure = async (vmId: string, agentName?: string, signer = azureSigner) =>
    anonymous().post("/workspaceagents/azure-instance-identity", {
      encoding: "pkcs7",
      signature: await azureSignature(azureDocument(vmId), signer, [signer, azureIntermediate]),
      ...(agentName === undefined ? {} : { agent_name: agentName })
    })
  const gcp = async (
    instanceId: string,
    options: { agentName?: string; signer?: GoogleSigner; audience?: string } = {}
  ) =>
    anonymous().post("/workspaceagents/google-instance-identity", {
      json_web_token: await googleToken(options.signer ?? google, instanceId, {
        audience: options.audience ?? ACCESS_URL
      }),
      ...(options.agentName === undefined ? {} : { agent_name: options.agentName })
    })

  /** Asserts a 200 `{session_token}` whose token reaches the agent's routes; answers the token. */
  const exchanged = async (reply: { status: number; body: any }) => {
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    expect(Object.keys(reply.body)).toEqual(["session_token"])
    expect(reply.body.session_token).toMatch(UUID_PATTERN)
    expect((await gitSshKey(reply.body.session_token)).status).toBe(200)
    return reply.body.session_token as string
  }

  it("the Agent record shows its instance_id", async () => {
    const w = await workspace()
    const agents = (w.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])
    expect(Object.fromEntries(agents.map((a) => [a.name, a.instance_id]))).toEqual({
      main: `i-${w.id}`,
      side: `i-${w.id}`,
      only: `solo-${w.id}`
    })
  })

  it("AWS: a signed document is exchanged for a new token of the agent on that instance", async () => {
    const w = await workspace()
    const token = await exchanged(await aws(`solo-${w.id}`))
    // A second exchange mints another token; the first stops working.
    const again = await exchanged(await aws(`solo-${w.id}`))
    expect(again).not.toBe(token)
    expectResponse(await gitSshKey(token), 401)
  })

  it("Azure: a signed attested document is exchanged for the agent's token", async () => {
    const w = await workspace()
    await exchanged(await azure(`solo-${w.id}`))
  })

  it("Google: an identity token for this deployment is exchanged for the agent's token", async () => {
    const w = await workspace()
    await exchanged(await gcp(`solo-${w.id}`))
  })

  it("agent_name picks among agents sharing an instance; without it the answer is 400", async () => {
    const w = await workspace()
    expectValidations(await aws(`i-${w.id}`), ["agent_name"])
    expectValidations(await gcp(`i-${w.id}`), ["agent_name"])
    const main = await exchanged(await aws(`i-${w.id}`, "main"))
    const side = await exchanged(await azure(`i-${w.id}`, "side"))
    expect(main).not.toBe(side)
    // Each is its own agent's token.
    const agents = (w.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])
    const byName = Object.fromEntries(agents.map((a) => [a.name, a.id]))
    expect(byName.main).not.toBe(byName.side)
    // A name the instance does not run is refused.
    expectResponse(await aws(`i-${w.id}`, "only"), 401)
  })

  it("forged documents are refused with 401 and the Response object", async () => {
    const w = await workspace()
    const id = `solo-${w.id}`
    // AWS: signed by another key; tampered after signing.
    const aws401 = await aws(id, undefined, awsStranger)
    expectResponse(aws401, 401)
    expect(aws401.body.message).toBe("Invalid AWS identity.")
    const document = awsDocument("i-somewhere-else")
    expectResponse(
      await anonymous().post("/workspaceagents/aws-instance-identity", {
        document: document.replace("i-somewhere-else", id),
        signature: awsSignature(document, awsRegion)
      }),
      401
    )
    // Azure: a chain to an unknown root; a signer that is not the metadata service.
    const strangerRoot = await makeCa("Test Azure Root")
    const strangerSigner = await issue(strangerRoot, "metadata.azure.com")
    const forged = await anonymous().post("/workspaceagents/azure-instance-identity", {
      encoding: "pkcs7",
      signature: await azureSignature(azureDocument(id), strangerSigner, [strangerSigner])
    })
    expectResponse(forged, 401)
    expect(forged.body.message).toBe("Invalid Azure identity.")
    expectResponse(await azure(id, undefined, await issue(azureIntermediate, "www.example.com")), 401)
    // Google: another key with the same key id; another audience; expired.
    expectResponse(await gcp(id, { signer: googleStranger }), 401)
    const elsewhere = await gcp(id, { audience: "https://other.example.com" })
    expectResponse(elsewhere, 401)
    expect(elsewhere.body.detail).toMatch(/audience/)
    const expired = await anonymous().post("/workspaceagents/google-instance-identity", {
      json_web_token: await googleToken(google, id, {
        audience: ACCESS_URL,
        issuedAt: new Date(Date.now() - 7_200_000)
      })
    })
    expectResponse(expired, 401)
    expect(expired.body.detail).toMatch(/expired/)
    // A real document for the same instance still works.
    await exchanged(await aws(id))
  })

  it("a suspended owner's agent gets no token", async () => {
    const user = await createUser(owner, { username: "identity-suspended" })
    const w = await makeWorkspace(srv, user.client, orgId, template.id)
    await exchanged(await aws(`solo-${w.id}`))
    expect((await owner.put(`/users/${user.user.id}/status/suspend`)).status).toBe(200)
    const r = await aws(`solo-${w.id}`)
    expectResponse(r, 401)
    expect(r.body.detail).toMatch(/suspended/)
  })

  it("an unknown instance is 401", async () => {
    const r = await aws("i-nobody")
    expectResponse(r, 401)
    expect(r.body.message).toContain("i-nobody")
  })

  it("an agent of a replaced build is refused: after a stop build, and after a delete", async () => {
    const w = await workspace()
    const id = `solo-${w.id}`
    const token = await exchanged(await aws(id))
    expect((await dev.post(`/workspaces/${w.id}/builds`, { transition: "stop" })).status).toBe(200)
    await runJobs(srv)
    expectResponse(await aws(id), 401)
    expectResponse(await gitSshKey(token), 401)
    // A new start build has a new agent on the same instance: it is that one's token now.
    expect((await dev.post(`/workspaces/${w.id}/builds`, { transition: "start" })).status).toBe(200)
    await runJobs(srv)
    const fresh = await exchanged(await gcp(id))
    const current = await dev.get(`/workspaces/${w.id}`)
    const only = (current.body.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? []).find((a) =>
      a.name === "only"
    )
    expect((await dev.as(fresh).get(`/workspaceagents/${only.id}`)).status).toBe(401)
    expect((await dev.post(`/workspaces/${w.id}/builds`, { transition: "delete" })).status).toBe(200)
    await runJobs(srv)
    expectResponse(await azure(id), 401)
    expectResponse(await gitSshKey(fresh), 401)
  })

  it("exchanges are audited as writes of the agent by its owner, the token a secret; refusals anonymously", async () => {
    const w = await workspace()
    await exchanged(await aws(`solo-${w.id}`))
    const agent = (w.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? []).find((a) => a.name === "only")
    const logs = await owner.get(`/audit?q=${encodeURIComponent(`resource_id:${agent.id}`)}&limit=5`)
    expect(logs.status, JSON.stringify(logs.body)).toBe(200)
    const [entry] = logs.body.audit_logs
    expect(entry).toMatchObject({
      action: "write",
      resource_type: "workspace_agent",
      resource_target: "only",
      status_code: 200
    })
    expect(entry.user.username).toBe("identity-dev")
    expect(entry.diff).toEqual({ agent_token: { old: "", new: "", secret: true } })
    expect(entry.additional_fields).toMatchObject({ instance_identity: "aws" })
    expectResponse(await aws("i-unknown-audited"), 401)
    const recent = await owner.get(`/audit?q=${encodeURIComponent("resource_type:workspace_agent")}&limit=5`)
    expect(recent.status, JSON.stringify(recent.body)).toBe(200)
    const refused = (recent.body.audit_logs as Array<any>).find((e) => e.status_code === 401)
    expect(refused, JSON.stringify(recent.body.audit_logs)).toBeDefined()
    expect(refused.request_id).not.toBe(entry.request_id)
    expect(refused.user?.username).not.toBe("identity-dev")
    expect(refused.additional_fields).toMatchObject({ instance_identity: "aws" })
  })

  it("malformed bodies are 400 with one validation per bad field", async () => {
    const post = (path: string, body: unknown) => anonymous().post(`/workspaceagents/${path}`, body)
    expectValidations(await post("aws-instance-identity", {}), ["document", "signature"])
    expectValidations(await post("aws-instance-identity", { document: 1, signature: "", agent_name: 5 }), [
      "agent_name",
      "document",
      "signature"
    ])
    expectValidations(await post("azure-instance-identity", { encoding: "der", signature: "x" }), ["encoding"])
    expectValidations(await post("azure-instance-identity", {}), ["encoding", "signature"])
    expectValidations(await post("google-instance-identity", { json_web_token: "" }), ["json_web_token"])
    expectValidations(await post("google-instance-identity", { json_web_token: "x".repeat(70_000) }), [
      "json_web_token"
    ])
    // Not JSON at all.
    const raw = await anonymous().request("POST", "/workspaceagents/aws-instance-identity", undefined, { raw: "{nope" })
    expectResponse(raw, 400)
  })

  it("garbage inside well-formed bodies is 401, never 500", async () => {
    for (
      const [path, body] of [
        ["aws-instance-identity", { document: "{}", signature: "AAAA" }],
        ["aws-instance-identity", { document: "x", signature: "!!" }],
        ["azure-instance-identity", { encoding: "pkcs7", signature: "AAAA" }],
        ["azure-instance-identity", { encoding: "pkcs7", signature: Buffer.from("garbage").toString("base64") }],
        ["google-instance-identity", { json_web_token: "a.b.c" }],
        ["google-instance-identity", { json_web_token: "eyJhbGciOiJub25lIn0.eyJ9.x" }]
      ] as const
    ) {
      expectResponse(await anonymous().post(`/workspaceagents/${path}`, body), 401)
    }
  })
})

describe("cloud instance identity without trust roots", () => {
  it("refuses every kind with 401: nothing is configured", async () => {
    const { srv } = await startWithOwner({ lifecycle: false })
    try {
      const aws = await srv.anonymous.post("/workspaceagents/aws-instance-identity", {
        document: "{}",
        signature: "AAAA"
      })
      expectResponse(aws, 401)
      expect(aws.body.detail).toMatch(/No AWS certificates/)
      expectResponse(
        await srv.anonymous.post("/workspaceagents/azure-instance-identity", { encoding: "pkcs7", signature: "AAAA" }),
        401
      )
      expectResponse(
        await srv.anonymous.post("/workspaceagents/google-instance-identity", { json_web_token: "a.b.c" }),
        401
      )
    } finally {
      await srv.close()
    }
  })
})
