// A workspace of an external agent on a bench's server, and the reference agent (its bundle,
// packages/agent/bin) run as its own process for it: shared by the benches that reach a real agent
// through the service (bench/streams.ts, bench/cli.ts).
import { zipSync } from "fflate"
import { type ChildProcess, spawn as spawnChild } from "node:child_process"
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { request, root, seedTemplate, sleep, stop } from "./lib.mjs"

export type Headers = Record<string, string>

const AGENT_BIN = join(root, "packages/agent/bin/workbay-agent.mjs")
const EXTERNAL = `resources:
  - name: box
    type: machine
    agents:
      - name: main
        external: true
`

/** Where a bench keeps its work: its folder, what to undo at its end, and each process's output for its report. */
export interface BenchPlace {
  readonly work: string
  readonly undo: Array<() => Promise<unknown>>
  readonly outputs: Array<{ name: string; output: () => string }>
}

/** A workspace `name` of an external agent (`main`) on the server at `base`: its id, its agent's id and the token. */
export const externalWorkspace = async (base: string, auth: Headers, orgId: string, name: string) => {
  const archive = zipSync({ "template.yaml": new TextEncoder().encode(EXTERNAL) })
  const template = await seedTemplate(base, auth, orgId, archive, name)
  const created = await request(`${base}/organizations/${orgId}/members/me/workspaces`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ name, template_id: template.id })
  })
  if (created.status !== 200 && created.status !== 201) {
    throw new Error(`workspace: ${created.status} ${JSON.stringify(created.body)}`)
  }
  let w: any
  for (let i = 0;; i++) {
    w = (await request(`${base}/workspaces/${created.body.id}`, { headers: auth })).body
    if (w.latest_build.job.status === "succeeded") break
    if (w.latest_build.job.status === "failed" || i > 1000) {
      throw new Error(`build: ${JSON.stringify(w.latest_build.job)}`)
    }
    await sleep(20)
  }
  const agentId: string = w.latest_build.resources.flatMap((r: any) => r.agents ?? [])[0].id
  const credentials = await request(`${base}/workspaces/${w.id}/external-agent/main/credentials`, { headers: auth })
  if (credentials.status !== 200) throw new Error(`credentials: ${JSON.stringify(credentials.body)}`)
  return { workspaceId: w.id as string, agentId, token: credentials.body.agent_token as string }
}

/** The reference agent (its bundle) as its own process, with `url` and `token`; resolves once the service sees it ready. */
export const startAgent = async (
  place: BenchPlace,
  name: string,
  url: string,
  token: string,
  check: { base: string; auth: Headers; agentId: string }
): Promise<{ child: ChildProcess; output: () => string }> => {
  const dir = join(place.work, `agent-${name}`)
  mkdirSync(dir)
  const child = spawnChild(
    process.execPath,
    [AGENT_BIN, "--url", url, "--token", token, "--directory", dir, "--log-dir", dir],
    { env: { ...process.env, HOME: dir }, stdio: ["ignore", "pipe", "pipe"] }
  )
  let output = ""
  child.stdout.on("data", (d) => (output += d))
  child.stderr.on("data", (d) => (output += d))
  place.undo.push(() => stop(child))
  place.outputs.push({ name: `agent ${name}`, output: () => output })
  for (let i = 0;; i++) {
    if (child.exitCode !== null) throw new Error(`the agent exited:\n${output}`)
    const a = (await request(`${check.base}/workspaceagents/${check.agentId}`, { headers: check.auth })).body
    if (a.status === "connected" && a.lifecycle_state === "ready") break
    if (i > 1500) throw new Error(`the agent did not connect: ${JSON.stringify(a)}\n${output}`)
    await sleep(20)
  }
  return { child, output: () => output }
}
