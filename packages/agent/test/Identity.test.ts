/**
 * The reference agent authenticating by a cloud instance identity: it reads the signed document
 * from the metadata service (a real HTTP server here, speaking AWS's IMDSv2: a session token,
 * then the document and its signature), exchanges it for its token, and reaches `ready`; its
 * `stop` reports `off`. A document the service does not trust stops the agent from starting.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { awsDocument, awsSignature, type Issued, makeCa } from "../../core/test/agents/IdentityFixtures.js"
import { type Client, type ServiceTestServer, startWithOwner } from "../../http/test/support.js"
import { makeTemplate, makeWorkspace } from "../../http/test/workspaces/fixtures.js"
import { startAgent } from "../src/index.js"

const INSTANCE = "i-0agentfixture"

/** An AWS metadata service answering `document`, signed by `signer`, to callers with an IMDSv2 session token. */
const metadataService = async (document: string, signer: Issued) => {
  const server: Server = createServer((req, res) => {
    if (req.method === "PUT" && req.url === "/latest/api/token") return void res.end("session-token")
    if (req.headers["x-aws-ec2-metadata-token"] !== "session-token") return void res.writeHead(401).end()
    if (req.url === "/latest/dynamic/instance-identity/document") return void res.end(document)
    if (req.url === "/latest/dynamic/instance-identity/signature") {
      return void res.end(`${awsSignature(document, signer)}\n`)
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }
}

describe("the reference agent with an instance identity", () => {
  let srv: ServiceTestServer
  let owner: Client
  let region: Issued
  let dir: string
  let agentId: string

  beforeAll(async () => {
    region = await makeCa("ec2.amazonaws.com")
    dir = mkdtempSync(join(tmpdir(), "workbay-agent-identity-"))
    let orgId: string
    ;({ srv, owner, orgId } = await startWithOwner({
      lifecycle: false,
      settings: { awsInstanceIdentityCertificates: [region.pem] }
    }))
    const template = await makeTemplate(
      srv,
      owner,
      orgId,
      `resources:
  - name: vm
    type: machine
    agents:
      - name: main
        instance_id: ${INSTANCE}
        scripts:
          - { display_name: Hello, script: "echo hello from the instance", run_on_start: true }
`
    )
    const w = await makeWorkspace(srv, owner, orgId, template.id)
    agentId = (w.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])[0].id
  })
  afterAll(async () => {
    await srv.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it("exchanges the signed document for its token and reaches ready", async () => {
    const metadata = await metadataService(awsDocument(INSTANCE), region)
    try {
      const lines: Array<string> = []
      const agent = await startAgent({
        url: srv.url,
        auth: "aws",
        metadataUrl: metadata.url,
        directory: dir,
        logDir: join(dir, "logs"),
        log: (l) => lines.push(l)
      })
      expect(await agent.started, lines.join("\n")).toBe("ready")
      const record = (await owner.get(`/workspaceagents/${agentId}`)).body
      expect([record.status, record.lifecycle_state]).toEqual(["connected", "ready"])
      await agent.stop()
      expect((await owner.get(`/workspaceagents/${agentId}`)).body.lifecycle_state).toBe("off")
    } finally {
      metadata.close()
    }
  })

  it("does not start on a document signed by a key the service does not trust", async () => {
    const forger = await makeCa("ec2.amazonaws.com")
    const metadata = await metadataService(awsDocument(INSTANCE), forger)
    try {
      await expect(
        startAgent({ url: srv.url, auth: "aws", metadataUrl: metadata.url, directory: dir, logDir: dir, log: () => {} })
      )
        .rejects.toMatchObject({ name: "ApiError", status: 401 })
    } finally {
      metadata.close()
    }
  })
})
