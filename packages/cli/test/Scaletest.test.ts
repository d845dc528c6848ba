/**
 * `workbay scaletest`, run small against real server processes: on SQLite, 20 workspaces of the
 * `scaletest` starter with their light agents ready, terminal, SSH and app traffic through the
 * service, people on the dashboard, and a cleanup that removes the scaletest's users and
 * workspaces and nothing else; on two replicas on Postgres, agents connected to both and the
 * traffic sent through the replica most of them are not on. And the refusals: a count out of
 * bounds, a member who may not make users. Counts and the output's shape are asserted, never
 * times.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { firstOwnerSession } from "../../server/test/owner.js"
import { freshDatabase, type ServerProcess, startServerProcess } from "../../server/test/process.js"
import { api, bundleCli, type CliUser, cliUser } from "./support.js"

const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix))

interface Summary {
  readonly errors: number
  readonly requests: Record<string, { count: number; errors: number; p95_ms: number | null; histogram: Array<unknown> }>
  readonly [k: string]: unknown
}

const json = (r: { code: number; stdout: string; stderr: string }): Summary => {
  if (r.code !== 0) throw new Error(`exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`)
  return JSON.parse(r.stdout) as Summary
}

/** `scaletest workspace-traffic` of `run`'s workspaces in `mode`, small: 32 bytes every 200 ms for 2 s, and `more`. */
const trafficArgs = (mode: string, run: string, more: ReadonlyArray<string>) => [
  "scaletest",
  "workspace-traffic",
  "--mode",
  mode,
  "--run",
  run,
  "--run-agents",
  ...more,
  "--bytes-per-tick",
  "32",
  "--tick-interval",
  "200ms",
  "--duration",
  "2s",
  "-o",
  "json"
]

/** A deployment with the `scaletest` starter as a template, and its owner's session. */
const setUp = async (url: string) => {
  const token = await firstOwnerSession(url)
  const owner = api(url, token)
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${url}/api/v2${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body)
    })
    return { status: res.status, body: (await res.json().catch(() => undefined)) as any }
  }
  const org = (await owner.get("/users/me/organizations")).body[0].id as string
  const version = await post(`/organizations/${org}/templateversions`, {
    storage_method: "file",
    example_id: "scaletest",
    provisioner: "workbay",
    tags: {}
  })
  expect(version.status, JSON.stringify(version.body)).toBe(201)
  for (let i = 0; i < 100; i++) {
    if ((await owner.get(`/templateversions/${version.body.id}`)).body.job.status === "succeeded") break
    await new Promise((r) => setTimeout(r, 100))
  }
  const template = await post(`/organizations/${org}/templates`, {
    name: "scaletest",
    template_version_id: version.body.id
  })
  expect(template.status, JSON.stringify(template.body)).toBe(201)
  return { token, owner, post, org, templateId: template.body.id as string }
}

describe("workbay scaletest on SQLite", () => {
  let server: ServerProcess
  let user: CliUser
  let deployment: Awaited<ReturnType<typeof setUp>>
  let env: Record<string, string>
  const dataDir = tempDir("workbay-scaletest-data-")

  beforeAll(async () => {
    let bundle: string
    ;[server, bundle] = await Promise.all([
      startServerProcess(["--data-dir", dataDir], { DATABASE_URL: "" }),
      bundleCli()
    ])
    user = cliUser(bundle)
    deployment = await setUp(server.url)
    env = { WORKBAY_URL: server.url, WORKBAY_SESSION_TOKEN: deployment.token }
  })

  afterAll(async () => {
    await server?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("refuses a count out of bounds and a member who may not make users, before making anything", async () => {
    expect((await user.run(["scaletest", "create-workspaces", "--count", "0", "-t", "scaletest"], { env })).code).toBe(
      2
    )
    const tooMany = await user.run(["scaletest", "create-workspaces", "--count", "10001", "-t", "scaletest"], { env })
    expect(tooMany.code).toBe(2)
    expect(tooMany.stderr).toContain("--count takes a whole number from 1 to 10000")
    const processes = await user.run(
      ["scaletest", "create-workspaces", "--count", "1", "-t", "scaletest", "--agent-processes", "65"],
      { env }
    )
    expect(processes.code).toBe(2)
    expect(processes.stderr).toContain("--agent-processes takes a whole number from 0 to 64")
    const jitter = await user.run(["scaletest", "dashboard", "--interval", "1s", "--jitter", "2s"], { env })
    expect(jitter.code).toBe(2)
    expect(jitter.stderr).toContain("--jitter (2s) may not be longer than --interval (1s).")
    // A member: may not make users, so only --use-host-login runs.
    const member = await deployment.post("/users", {
      email: "alice@example.com",
      username: "alice",
      password: "Correct-Horse-Battery-9",
      organization_ids: [deployment.org]
    })
    expect(member.status).toBe(201)
    const login = await deployment.post("/users/login", {
      email: "alice@example.com",
      password: "Correct-Horse-Battery-9"
    })
    const aliceEnv = { WORKBAY_URL: server.url, WORKBAY_SESSION_TOKEN: login.body.session_token as string }
    const refused = await user.run(["scaletest", "create-workspaces", "--count", "2", "-t", "scaletest"], {
      env: aliceEnv
    })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("You may not create users")
    expect((await deployment.owner.get("/workspaces?q=name:scaletest-")).body.count).toBe(0)
    // A person's own workspace whose name looks like a scaletest's: cleanup must leave it.
    const own = await fetch(`${server.url}/api/v2/organizations/${deployment.org}/members/me/workspaces`, {
      method: "POST",
      headers: { authorization: `Bearer ${aliceEnv.WORKBAY_SESSION_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "scaletest-abcdef-1", template_id: deployment.templateId })
    })
    expect(own.status).toBe(200)
  })

  it("creates 20 workspaces, runs their agents to ready, sends traffic, and cleans up only its own", async () => {
    const created = json(
      await user.run(
        [
          "scaletest",
          "create-workspaces",
          "--count",
          "20",
          "-t",
          "scaletest",
          "--concurrency",
          "10",
          "--hold",
          "2s",
          "-o",
          "json"
        ],
        { env }
      )
    )
    expect(created).toMatchObject({
      count: 20,
      created: 20,
      agents_ready: 20,
      errors: 0,
      held_seconds: 2,
      held_errors: 0
    })
    expect(created.held_requests).toBeTypeOf("object")
    // Each command samples its own event loop's delay (every 100 ms): while held, into the held ones.
    expect((created.held_requests as any)["process:event loop delay"].count).toBeGreaterThan(5)
    const run = created.run as string
    expect(run).toMatch(/^[a-z0-9]{6}$/)
    // Every kind of report the reference agent makes went through, timed.
    // (Each agent's start-up ended before the command did; stats and metadata go on after it, metadata
    // reported a second after it was collected, so the first reports may fall in the hold.)
    for (const kind of ["agent:get_manifest", "agent:update_startup", "agent:batch_create_logs"]) {
      expect(created.requests[kind], kind).toMatchObject({ count: 20, errors: 0 })
    }
    expect(created.requests["agent:update_lifecycle"]).toMatchObject({ count: 40, errors: 0 })
    for (const kind of ["agent:update_stats", "agent:batch_update_metadata"]) {
      expect((created.requests[kind]?.count ?? 0) + ((created.held_requests as any)[kind]?.count ?? 0), kind)
        .toBeGreaterThan(0)
    }
    expect(created.requests["user:create user"]).toMatchObject({ count: 20, errors: 0 })
    expect(created.requests["user:create workspace"]).toMatchObject({ count: 20, errors: 0 })
    expect(created.requests["user:create workspace"]!.histogram).toHaveLength(16)
    expect(created.requests["user:create workspace"]!.p95_ms).toBeGreaterThan(0)
    // The deployment saw it: one user per workspace, each agent connected, ready, then off.
    const listed = (await deployment.owner.get(`/workspaces?q=name:scaletest-${run}&limit=100`)).body
    expect(listed.count).toBe(20)
    const agent = listed.workspaces[0].latest_build.resources[0].agents[0]
    expect(agent.first_connected_at).not.toBeNull()
    expect(agent.ready_at).not.toBeNull()
    expect(agent.lifecycle_state).toBe("off")
    const logs = (await deployment.owner.get(`/workspaceagents/${agent.id}/logs`)).body
    expect(logs.map((l: { output: string }) => l.output)).toContain("scaletest: Start running")

    for (const mode of ["pty", "ssh", "app"]) {
      const traffic = json(
        await user.run(trafficArgs(mode, run, ["--concurrency", "4"]), { env })
      )
      expect(traffic, mode).toMatchObject({ mode, workspaces: 4, errors: 0 })
      expect(traffic.requests[`traffic:${mode} echo`]?.count, mode).toBeGreaterThanOrEqual(4)
      expect(traffic.requests["process:event loop delay"]?.count, mode).toBeGreaterThan(5)
    }

    // The executable with no Node (what people download from /bin): its agents in a child process
    // it forks of itself, their terminals through node-pty's pty.node from its own assets.
    const executable = cliUser(join(inject("workbayCliBinaries"), "workbay-linux-amd64"))
    try {
      const traffic = json(
        await executable.run(trafficArgs("pty", run, ["--agent-processes", "1", "--concurrency", "2"]), { env })
      )
      expect(traffic).toMatchObject({ mode: "pty", workspaces: 2, errors: 0 })
      expect(traffic.requests["traffic:pty echo"]?.count).toBeGreaterThanOrEqual(2)
    } finally {
      rmSync(executable.home, { recursive: true, force: true })
    }

    const dashboard = json(
      await user.run(
        [
          "scaletest",
          "dashboard",
          "--users",
          "3",
          "--duration",
          "2s",
          "--interval",
          "100ms",
          "--jitter",
          "50ms",
          "-o",
          "json"
        ],
        { env }
      )
    )
    expect(dashboard).toMatchObject({ users: 3, errors: 0, interval_ms: 100, jitter_ms: 50 })
    expect(dashboard.requests["user:list workspaces"]?.count).toBeGreaterThan(0)
    expect(dashboard.requests["process:event loop delay"]?.count).toBeGreaterThan(5)

    const cleaned = json(await user.run(["scaletest", "cleanup", "-o", "json"], { env }))
    expect(cleaned).toMatchObject({ workspaces_deleted: 20, users_deleted: 20, errors: 0 })
    const left = (await deployment.owner.get("/workspaces?q=name:scaletest-")).body
    expect(left.workspaces.map((w: { owner_name: string; name: string }) => `${w.owner_name}/${w.name}`)).toEqual([
      "alice/scaletest-abcdef-1"
    ])
    const users = (await deployment.owner.get("/users?q=scaletest-")).body.users
    expect(users).toEqual([])
  })
})

describe("workbay scaletest on two replicas on Postgres", () => {
  const pgUrl = inject("workbayPgUrl") ?? undefined
  let replicas: Array<ServerProcess> = []
  let db: Awaited<ReturnType<typeof freshDatabase>> | undefined
  let user: CliUser

  beforeAll(async () => {
    if (pgUrl === undefined || pgUrl === "") return
    db = await freshDatabase(pgUrl)
    const env = { DATABASE_URL: db.url }
    let bundle: string
    ;[replicas[0], bundle] = await Promise.all([startServerProcess(["--docker", "off"], env), bundleCli()])
    replicas[1] = await startServerProcess(["--docker", "off"], env)
    user = cliUser(bundle)
  })

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()))
    await db?.drop()
  })

  it("runs agents on both replicas and traffic through either", async (t) => {
    if (pgUrl === undefined || pgUrl === "") {
      if (process.env.CI) throw new Error("Postgres is required under CI")
      console.log("SKIPPED: Postgres (no server)")
      return t.skip()
    }
    const [a, b] = replicas as [ServerProcess, ServerProcess]
    const deployment = await setUp(a.url)
    const env = { WORKBAY_URL: a.url, WORKBAY_SESSION_TOKEN: deployment.token }
    const created = json(
      await user.run([
        "scaletest",
        "create-workspaces",
        "--count",
        "6",
        "-t",
        "scaletest",
        "--agent-url",
        a.url,
        "--agent-url",
        b.url,
        "--agent-processes",
        "2",
        "--hold",
        "4s",
        "-o",
        "json"
      ], { env })
    )
    expect(created).toMatchObject({ created: 6, agents_ready: 6, errors: 0, held_errors: 0 })
    // The agents ran in two child processes: their requests' times came back from there, and each
    // process sampled its own loop's delay while held (three loops, some 40 samples each in 4 s).
    for (const kind of ["agent:get_manifest", "agent:update_startup", "agent:batch_create_logs"]) {
      expect(created.requests[kind], kind).toMatchObject({ count: 6, errors: 0 })
    }
    expect((created.held_requests as any)["process:event loop delay"].count).toBeGreaterThan(50)
    // Terminals through replica B to agents connected to A and to B.
    const traffic = json(
      await user.run([
        "scaletest",
        "workspace-traffic",
        "--mode",
        "pty",
        "--run-agents",
        "--agent-processes",
        "3",
        "--agent-url",
        a.url,
        "--agent-url",
        b.url,
        "--duration",
        "2s",
        "--tick-interval",
        "200ms",
        "-o",
        "json"
      ], { env: { ...env, WORKBAY_URL: b.url } })
    )
    expect(traffic).toMatchObject({ workspaces: 6, errors: 0 })
    expect(traffic.requests["traffic:pty echo"]?.count).toBeGreaterThanOrEqual(6)
    // Each echo counted again by where its agent is: the workspaces' agents in turn on A and B,
    // three each; the terminals came through B.
    const here = traffic.requests["traffic:pty echo (agent on this replica)"]
    const there = traffic.requests["traffic:pty echo (agent on another replica)"]
    expect(here?.count).toBeGreaterThanOrEqual(3)
    expect(there?.count).toBeGreaterThanOrEqual(3)
    expect(here.count + there.count).toBe(traffic.requests["traffic:pty echo"].count)
    const cleaned = json(await user.run(["scaletest", "cleanup", "-o", "json"], { env }))
    expect(cleaned).toMatchObject({ workspaces_deleted: 6, users_deleted: 6, errors: 0 })
  })
})
