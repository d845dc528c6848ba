/**
 * The reference agent and an AI task's conversation, for real: a real server (real HTTP, real
 * WebSockets, real SQLite), input sent with the service's `TaskConversation`. The command, started
 * with `--task-command`, pipes each input to the command and reports its stdout as output; the
 * library's `onTaskInput` hears each input and `reportTaskOutput` adds output (long output in
 * several entries that each fit a message).
 */
import { TaskConversation } from "@workbay/core"
import { Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Client, type ServiceTestServer, startWithOwner } from "../../http/test/support.js"
import { makeTemplate, makeWorkspace } from "../../http/test/workspaces/fixtures.js"
import { type RunningAgent, splitOutput, startAgent, type TaskInput } from "../src/index.js"
import { MAX_TASK_OUTPUT_MESSAGE_BYTES, TaskInputs } from "../src/Tasks.js"
import { AGENT_COMMAND, eventually } from "./support.js"

describe("the reference agent and task input", () => {
  let srv: ServiceTestServer
  let owner: Client
  let orgId: string
  let workDir: string
  const children: Array<ChildProcess> = []
  const agents: Array<RunningAgent> = []

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), "workbay-agent-tasks-"))
    ;({ srv, owner, orgId } = await startWithOwner({ agentCommand: AGENT_COMMAND, lifecycle: false }))
  })
  afterAll(async () => {
    for (const c of children) c.kill("SIGKILL")
    for (const a of agents) await a.stop()
    await srv.close()
    rmSync(workDir, { recursive: true, force: true })
  })

  const template = `resources:
  - name: laptop
    type: machine
    agents:
      - name: mine
        external: true
        env: { TASK_PREFIX: "agent says" }
`

  /** A workspace with the external agent `mine`: its id, its agent's id, and its credentials. */
  const workspace = async () => {
    const t = await makeTemplate(srv, owner, orgId, template)
    const w = await makeWorkspace(srv, owner, orgId, t.id)
    const agentId = (w.latest_build.resources as Array<any>).flatMap((r) => r.agents ?? []).find((a: any) =>
      a.name === "mine"
    ).id as string
    const credentials = await owner.get(`/workspaces/${w.id}/external-agent/mine/credentials`)
    expect(credentials.status, JSON.stringify(credentials.body)).toBe(200)
    return {
      workspaceId: w.id,
      agentId,
      command: credentials.body.command as string,
      token: credentials.body.agent_token as string
    }
  }
  const connected = (agentId: string) =>
    eventually(
      async () => (await owner.get(`/workspaceagents/${agentId}`)).body.status,
      (s) => s === "connected",
      "the agent's status"
    )
  const send = (workspaceId: string, agentId: string, content: string) =>
    srv.run(Effect.flatMap(TaskConversation, (c) => c.send({ workspaceId, agentId, content })))
  const logs = (workspaceId: string) =>
    srv.run(Effect.flatMap(TaskConversation, (c) => c.logs({ workspaceId, live: true }))).then((l) =>
      l.logs.map((e) => [e.type, e.content])
    )

  it("--task-command: each input goes to the command's stdin, its stdout comes back as output, in order", async () => {
    const { workspaceId, agentId, command } = await workspace()
    const [bin, ...args] = command.split(" ")
    // The command runs in sh -c with the manifest's environment.
    const child = spawn(bin!, [
      ...args,
      "--log-dir",
      join(workDir, "logs"),
      "--task-command",
      `printf '%s: ' "$TASK_PREFIX"; tr a-z A-Z`
    ], {
      stdio: ["ignore", "pipe", "pipe"]
    })
    children.push(child)
    let output = ""
    child.stderr!.on("data", (d) => (output += d))
    await connected(agentId)
    await send(workspaceId, agentId, "fix the parser")
    await send(workspaceId, agentId, "then the tests")
    const found = await eventually(
      () => logs(workspaceId),
      (l) => l.length >= 4,
      `the task's log (agent output: ${output})`
    )
    expect(found.filter((e) => e[0] === "input").map((e) => e[1])).toEqual(["fix the parser", "then the tests"])
    // Each input's output comes after it, in the order sent.
    expect(found.filter((e) => e[0] === "output").map((e) => e[1])).toEqual([
      "agent says: FIX THE PARSER",
      "agent says: THEN THE TESTS"
    ])
    const at = (content: string) => found.findIndex((e) => e[1] === content)
    expect(at("agent says: FIX THE PARSER")).toBeGreaterThan(at("fix the parser"))
    expect(at("agent says: THEN THE TESTS")).toBeGreaterThan(at("then the tests"))
    child.kill("SIGTERM")
    await new Promise((r) => child.once("exit", r))
  })

  it("the library: onTaskInput hears each input; reportTaskOutput adds output, long output split to fit messages", async () => {
    const { workspaceId, agentId, token } = await workspace()
    const agent = await startAgent({
      url: srv.url,
      token,
      auth: "token",
      directory: workDir,
      logDir: join(workDir, "lib-logs"),
      log: () => {}
    })
    agents.push(agent)
    const heard: Array<TaskInput> = []
    const off = agent.onTaskInput((input) => heard.push(input))
    await agent.started
    await connected(agentId)
    const entry = await send(workspaceId, agentId, "résumé ✓")
    await eventually(async () => heard.length, (n) => n === 1, "the input")
    expect(heard[0]).toEqual({ entryId: entry.id, content: "résumé ✓", time: entry.time })
    const ids = await agent.reportTaskOutput("short answer", new Date("2030-01-01T00:00:00Z"))
    expect(ids).toHaveLength(1)
    const long = "é".repeat(30_000) + "\n" + "x".repeat(20_000)
    const pieces = splitOutput(long)
    expect(pieces.length).toBeGreaterThan(1)
    expect(pieces.join("")).toBe(long)
    for (const p of pieces) {
      expect(Buffer.byteLength(JSON.stringify(p))).toBeLessThanOrEqual(MAX_TASK_OUTPUT_MESSAGE_BYTES + 2)
    }
    expect(await agent.reportTaskOutput(long)).toHaveLength(pieces.length)
    const stored = await logs(workspaceId)
    expect(stored.slice(0, 2)).toEqual([["input", "résumé ✓"], ["output", "short answer"]])
    expect(stored.slice(2).map((e) => e[1]).join("")).toBe(long)
    off()
    await send(workspaceId, agentId, "unheard")
    await new Promise((r) => setTimeout(r, 300))
    expect(heard).toHaveLength(1)
  })

  it("stopping ends a running task command and reports nothing of it", async () => {
    const { workspaceId, agentId, token } = await workspace()
    const marker = join(workDir, "started")
    const agent = await startAgent({
      url: srv.url,
      token,
      auth: "token",
      directory: workDir,
      logDir: join(workDir, "stop-logs"),
      log: () => {},
      taskCommand: `touch ${marker}; sleep 30; echo late`
    })
    await agent.started
    await connected(agentId)
    await send(workspaceId, agentId, "take your time")
    await eventually(async () => existsSync(marker), (e) => e, "the task command's start")
    const began = Date.now()
    await agent.stop()
    expect(Date.now() - began).toBeLessThan(10_000)
    expect(await logs(workspaceId)).toEqual([["input", "take your time"]])
  })
})

describe("task inputs before the manifest", () => {
  /** A command environment that is known only when `know` is called, as before the agent's first manifest. */
  const later = () => {
    let know!: (env: Record<string, string>) => void
    const known = new Promise<{ directory: string; env: Record<string, string> }>((resolve) =>
      know = (env) => resolve({ directory: tmpdir(), env })
    )
    return { know, environment: () => known }
  }

  it("an input that arrives before the manifest waits for its environment", async () => {
    const { know, environment } = later()
    const reported: Array<string> = []
    const inputs = new TaskInputs({
      command: `printf '%s: ' "$TASK_PREFIX"; tr a-z A-Z`,
      environment,
      report: async (content) => void reported.push(content),
      log: () => {}
    })
    inputs.receive({ entryId: 1, content: "fix the parser", time: new Date() })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(reported).toEqual([])
    know({ TASK_PREFIX: "agent says" })
    await eventually(async () => reported, (r) => r.length === 1, "the command's output")
    expect(reported).toEqual(["agent says: FIX THE PARSER"])
  })

  it("stopping while an input waits for the manifest settles, and runs nothing", async () => {
    const { environment } = later()
    const reported: Array<string> = []
    const inputs = new TaskInputs({
      command: "cat",
      environment,
      report: async (content) => void reported.push(content),
      log: () => {}
    })
    inputs.receive({ entryId: 1, content: "never run", time: new Date() })
    await inputs.stop()
    expect(reported).toEqual([])
  })
})
