/**
 * `workbay ping` on a deployment of two replicas on Postgres (two in-process services on one
 * database schema, each registering its own URL as its relay address), the REAL reference agent
 * connected to replica B, the command bundled as users run it and pointed at replica A: it times
 * the round trips through A (which relays the terminal to B) and then through each other replica
 * `GET /replicas` lists (B, reached directly), and says so per replica, in text and in JSON.
 */
import { type RunningAgent, startAgent } from "@workbay/agent"
import * as Postgres from "@workbay/storage-postgres"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { eventually, externalAgentWorkspace } from "../../agent/test/support.js"
import { bootstrapOwner, type Client, type ServiceTestServer, startServiceTestServer } from "../../http/test/support.js"
import { bundleCli, type CliUser, cliUser } from "./support.js"

const url = inject("workbayPgUrl")

describe.skipIf(url === null)("workbay ping through each replica, on Postgres", () => {
  let a: ServiceTestServer
  let b: ServiceTestServer
  let owner: Client
  let agent: RunningAgent | undefined
  let user: CliUser
  let workspace: string
  const dir = mkdtempSync(join(tmpdir(), "workbay-ping-replicas-"))

  beforeAll(async () => {
    const schema = `t_${randomBytes(6).toString("hex")}`
    const options = { hangDetector: false, retention: false, lifecycle: false, relayToHere: true } as const
    const storage = () => Postgres.layer({ url: url!, schema, maxConnections: 3 })
    a = await startServiceTestServer({ storage: storage(), ...options })
    b = await startServiceTestServer({ storage: storage(), ...options })
    const boot = await bootstrapOwner(a)
    owner = boot.client
    const { agentId, token } = await externalAgentWorkspace(a, owner, boot.organizationId, { script: "true" })
    agent = await startAgent({ url: b.url, token, auth: "token", directory: dir, logDir: dir, log: () => {} })
    await eventually(
      async () => (await owner.get(`/workspaceagents/${agentId}`)).body.status,
      (s) => s === "connected",
      "the agent connected to B"
    )
    workspace = (await owner.get("/workspaces")).body.workspaces[0].name
    // Both replicas listed (each registers itself at its start).
    await eventually(async () => (await owner.get("/replicas")).body.length, (n) => n === 2, "two replicas")
    user = cliUser(await bundleCli())
  }, 120_000)
  afterAll(async () => {
    await agent?.stop()
    await a?.close()
    await b?.close()
    rmSync(dir, { recursive: true, force: true })
    if (user !== undefined) rmSync(user.home, { recursive: true, force: true })
  })

  it("times the way through the replica it was given, then through the other one", async () => {
    const env = { WORKBAY_URL: a.url, WORKBAY_SESSION_TOKEN: owner.token! }
    const json = await user.run(["ping", workspace, "-n", "3", "--wait", "0s", "-o", "json"], { env })
    expect(json.code, json.stderr).toBe(0)
    const summary = JSON.parse(json.stdout)
    expect(summary).toMatchObject({ workspace: `admin/${workspace}`, agent: "main", sent: 3, received: 3 })
    expect(summary.replicas).toEqual([
      expect.objectContaining({ url: b.url, sent: 3, received: 3, min_ms: expect.any(Number) })
    ])

    const text = await user.run(["ping", workspace, "-n", "2", "--wait", "0s"], { env })
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout.match(new RegExp(`pong from admin/${workspace} through ${a.url} in`, "g"))).toHaveLength(2)
    expect(text.stdout.match(new RegExp(`pong from admin/${workspace} through \\S+ \\(${b.url}\\) in`, "g")))
      .toHaveLength(2)
    expect(text.stdout).toMatch(new RegExp(`through \\S+ \\(${b.url}\\): 2 pings, 2 pongs, 0% lost`))
  }, 60_000)
})
