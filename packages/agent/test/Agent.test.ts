/**
 * The reference agent for real: the external agent credentials route's command, run as a child
 * process against a real server (real HTTP, real WebSockets, real SQLite), brings a workspace's
 * agent to `ready`: it runs the start scripts, streams their output as logs, reports its
 * lifecycle and script results, probes its app's health check; stopping it runs the stop script
 * and reports `off`, and the agent shows as disconnected.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readEvents } from "../../http/test/sse.js"
import { type Client, type ServiceTestServer, SESSION_HEADER, startWithOwner } from "../../http/test/support.js"
import { makeTemplate, makeWorkspace } from "../../http/test/workspaces/fixtures.js"
import { machineRunner, startAgent } from "../src/Agent.js"
import { AGENT_COMMAND, eventually } from "./support.js"

describe("the reference agent", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let app: Server
  let appPort: number
  let workDir: string
  const children: Array<ChildProcess> = []

  beforeAll(async () => {
    app = createServer((_req, res) => res.end("ok"))
    await new Promise<void>((r) => app.listen(0, "127.0.0.1", () => r()))
    appPort = (app.address() as AddressInfo).port
    workDir = mkdtempSync(join(tmpdir(), "workbay-agent-test-"))
    ;({ srv, owner, orgId } = await startWithOwner({ agentCommand: AGENT_COMMAND, lifecycle: false }))
  })
  afterAll(async () => {
    for (const c of children) c.kill("SIGKILL")
    await srv.close()
    app.close()
    rmSync(workDir, { recursive: true, force: true })
  })

  /** A template of one external agent `mine` in the test's folder, with `more` of its settings. */
  const oneAgent = (more: string) =>
    `resources:
  - name: laptop
    type: machine
    agents:
      - name: mine
        external: true
        directory: ${workDir}
${more}`

  const template = () =>
    oneAgent(`        env: { GREETING: hello }
        apps:
          - slug: web
            url: http://127.0.0.1:${appPort}
            healthcheck: { url: "http://127.0.0.1:${appPort}/health", interval: 1, threshold: 2 }
        scripts:
          - display_name: Setup
            script: "for i in 1 2 3; do echo \\"$GREETING line $i\\"; done; echo oops >&2"
            run_on_start: true
            timeout: 30
          - display_name: Goodbye
            script: "echo bye > goodbye.txt"
            run_on_stop: true
`)

  /** Starts the agent the way a user would: the credentials route's command, run in a shell-less spawn. */
  const runCredentialsCommand = async (workspaceId: string) => {
    const credentials = await owner.get(`/workspaces/${workspaceId}/external-agent/mine/credentials`)
    expect(credentials.status, JSON.stringify(credentials.body)).toBe(200)
    const [command, ...args] = (credentials.body.command as string).split(" ")
    const child = spawn(command!, [...args, "--log-dir", join(workDir, "logs")], { stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout!.on("data", (d) => (output += d))
    child.stderr!.on("data", (d) => (output += d))
    children.push(child)
    return { child, output: () => output }
  }

  it("brings its agent to ready, streams the scripts' logs and runs the stop script on SIGTERM", async () => {
    const t = await makeTemplate(srv, owner, orgId, template())
    const w = await makeWorkspace(srv, owner, orgId, t.id)
    const agentId =
      (w.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? []).find((a: any) => a.name === "mine").id
    const { child, output } = await runCredentialsCommand(w.id)

    const agent = await eventually(
      async () => (await owner.get(`/workspaceagents/${agentId}`)).body,
      (a) => a.lifecycle_state === "ready",
      `the agent (output: ${output()})`
    )
    expect(agent.status).toBe("connected")
    expect(agent.scripts.find((s: any) => s.display_name === "Setup")).toMatchObject({ status: "ok", exit_code: 0 })
    const logs = await eventually(
      async () => (await owner.get(`/workspaceagents/${agentId}/logs`)).body as Array<any>,
      (ls) => ls.length >= 4,
      "the script's logs"
    )
    expect(logs.map((l) => l.output)).toEqual(["hello line 1", "hello line 2", "hello line 3", "oops"])
    expect(logs.map((l) => l.level)).toEqual(["info", "info", "info", "error"])
    const health = await eventually(
      async () => (await owner.get(`/workspaceagents/${agentId}`)).body.apps[0].health,
      (h) => h === "healthy",
      "the app's health"
    )
    expect(health).toBe("healthy")

    // The build's timings: the agent's first connection and its start script, with the stage it reported.
    const timings = (await owner.get(`/workspacebuilds/${w.latest_build.id}/timings`)).body
    expect(timings.agent_connection_timings.map((t: any) => [t.workspace_agent_name, t.stage])).toEqual([[
      "mine",
      "connect"
    ]])
    expect(timings.agent_script_timings.map((t: any) => [t.display_name, t.stage, t.status])).toEqual([[
      "Setup",
      "start",
      "ok"
    ]])

    // Listening ports, asked of the agent over its connection: a port something listens on is
    // listed; the app's port is left out.
    const other = createServer((_req, res) => res.end("other"))
    await new Promise<void>((r) => other.listen(0, "127.0.0.1", () => r()))
    const otherPort = (other.address() as AddressInfo).port
    try {
      const listed = await owner.get(`/workspaceagents/${agentId}/listening-ports`)
      if (process.platform === "linux") {
        expect(listed.status, JSON.stringify(listed.body)).toBe(200)
        const ports = (listed.body.ports as Array<any>).map((p) => p.port)
        expect(ports).toContain(otherPort)
        expect(ports).not.toContain(appPort)
        expect(listed.body.ports.find((p: any) => p.port === otherPort)).toMatchObject({ network: "tcp" })
      }
    } finally {
      other.close()
    }

    child.kill("SIGTERM")
    await new Promise((r) => child.once("exit", r))
    const stopped = (await owner.get(`/workspaceagents/${agentId}`)).body
    expect(stopped.lifecycle_state).toBe("off")
    expect(stopped.status).toBe("disconnected")
    expect(readFileSync(join(workDir, "goodbye.txt"), "utf8")).toBe("bye\n")
  })

  it("collects each metadata item at its interval and reports the items collected together in one call", async () => {
    const t = await makeTemplate(
      srv,
      owner,
      orgId,
      oneAgent(`        metadata:
          - { key: load, display_name: Load, script: "echo 0.5", interval: 1 }
          - { key: disk, display_name: Disk, script: "echo 40%", interval: 1 }
`)
    )
    const w = await makeWorkspace(srv, owner, orgId, t.id)
    const agentId =
      (w.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? []).find((a: any) => a.name === "mine").id
    const credentials = await owner.get(`/workspaces/${w.id}/external-agent/mine/credentials`)
    const sse = await readEvents(`${srv.url}/api/v2/workspaceagents/${agentId}/watch-metadata`, {
      [SESSION_HEADER]: owner.token!
    })
    let collections = 0
    let reports = 0
    const agent = await startAgent({
      url: srv.url,
      token: credentials.body.agent_token,
      auth: "token",
      directory: workDir,
      logDir: workDir,
      log: () => {},
      runner: {
        ...machineRunner,
        metadata: async (item, environment) => {
          collections++
          return machineRunner.metadata(item, environment)
        }
      },
      onCall: (type) => void (type === "batch_update_metadata" && reports++)
    })
    try {
      // Both values arrive, as the script printed them.
      const values = await eventually(
        async () => {
          const lists = sse.events.filter((e) => e.event === "data").map((e) => e.data as Array<any>)
          return Object.fromEntries((lists.at(-1) ?? []).map((m) => [m.description.key, m.result.value]))
        },
        (v) => v.load === "0.5" && v.disk === "40%",
        "the metadata values"
      )
      expect(values).toEqual({ load: "0.5", disk: "40%" })
      await eventually(async () => collections, (n) => n >= 8, "eight collections")
      // Two items of one interval: one call for the pair, not one per item (the reference agent's batching).
      expect(reports).toBeGreaterThan(0)
      expect(reports).toBeLessThanOrEqual(collections / 2 + 1)
    } finally {
      await agent.stop()
      await sse.stop()
    }
  })

  describe("when the service goes away", () => {
    /** A service of its own (this test stops it), a workspace, and its agent ready. */
    const readyAgentOfItsOwn = async (dir: string, stopScript: string) => {
      const own = await startWithOwner({ agentCommand: AGENT_COMMAND, lifecycle: false })
      const t = await makeTemplate(
        own.srv,
        own.owner,
        own.orgId,
        `resources:
  - name: laptop
    type: machine
    agents:
      - name: mine
        external: true
        directory: ${dir}
        scripts:
          - display_name: Goodbye
            script: "${stopScript}"
            run_on_stop: true
`
      )
      const w = await makeWorkspace(own.srv, own.owner, own.orgId, t.id)
      const agentId = (w.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? [])[0].id
      const credentials = await own.owner.get(`/workspaces/${w.id}/external-agent/mine/credentials`)
      const [command, ...args] = (credentials.body.command as string).split(" ")
      const child = spawn(command!, [...args, "--log-dir", join(dir, "logs")], { stdio: ["ignore", "pipe", "pipe"] })
      children.push(child)
      let output = ""
      child.stderr!.on("data", (d) => (output += d))
      await eventually(
        async () => (await own.owner.get(`/workspaceagents/${agentId}`)).body.lifecycle_state,
        (s) => s === "ready",
        `the agent (output: ${output})`
      )
      return { own, agentId, child }
    }
    const exited = (child: ChildProcess) =>
      child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((r) => child.once("exit", r))

    it("runs its stop script and exits on SIGTERM when the service is already gone", async () => {
      const dir = mkdtempSync(join(tmpdir(), "workbay-agent-gone-"))
      try {
        const { own, child } = await readyAgentOfItsOwn(dir, "echo bye > gone.txt")
        await own.srv.close()
        child.kill("SIGTERM")
        expect(await exited(child)).toBe(0)
        expect(readFileSync(join(dir, "gone.txt"), "utf8")).toBe("bye\n")
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    })

    it("still exits when the service goes away while it reports its stop", async () => {
      const dir = mkdtempSync(join(tmpdir(), "workbay-agent-gone-"))
      try {
        // The stop script outlives the service: its result and the final state have nowhere to go.
        const { own, agentId, child } = await readyAgentOfItsOwn(dir, "sleep 1; echo bye > late.txt")
        child.kill("SIGTERM")
        await eventually(
          async () => (await own.owner.get(`/workspaceagents/${agentId}`)).body.lifecycle_state,
          (s) => s === "shutting_down",
          "the agent reports shutting down"
        )
        await own.srv.close()
        expect(await exited(child)).toBe(0)
        expect(readFileSync(join(dir, "late.txt"), "utf8")).toBe("bye\n")
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    })
  })
})
