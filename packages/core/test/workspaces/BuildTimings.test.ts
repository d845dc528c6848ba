/** Build timings from stored records: the job's logged stages, the scripts' runs, the agents' first connections. */
import { describe, expect, it } from "@effect/vitest"
import type { StoredResource } from "@workbay/core"
import {
  agentConnectionTimings,
  agentScriptTimings,
  provisionerStageOf,
  provisionerTimings
} from "../../src/workspaces/BuildTimings.js"

const JOB = "8f30ee3b-5c59-4d89-92e1-4d08de853c8e"
const at = (s: number) => new Date(Date.UTC(2030, 0, 1, 10, 0, s))
const line = (s: number, stage: string) => ({ created_at: at(s), stage })

describe("provisionerTimings", () => {
  it("makes one timing per run of a stage, each ending where the next starts and the last with the job", () => {
    const t = provisionerTimings(
      { id: JOB, provisioner: "workbay", completed_at: at(20), canceled_at: null },
      [
        line(0, "Setting up"),
        line(1, "Setting up"),
        line(2, "Planning infrastructure"),
        line(5, "Starting workspace"),
        line(9, "Starting workspace"),
        line(10, "Cleaning Up")
      ]
    )
    expect(t.map((x) => [x.stage, x.action, x.started_at.getUTCSeconds(), x.ended_at.getUTCSeconds()])).toEqual([
      ["init", "Setting up", 0, 2],
      ["plan", "Planning infrastructure", 2, 5],
      ["apply", "Starting workspace", 5, 10],
      ["apply", "Cleaning Up", 10, 20]
    ])
    expect(t.every((x) => x.job_id === JOB && x.source === "workbay" && x.resource === x.action)).toBe(true)
  })

  it("leaves out steps that are no build stage, and ends an unfinished job's last run at its last line", () => {
    const t = provisionerTimings(
      { id: JOB, provisioner: "docker", completed_at: null, canceled_at: null },
      [line(0, "Parsing template parameters"), line(1, "Planning infrastructure"), line(3, "Planning infrastructure")]
    )
    expect(t.map((x) => [x.stage, x.started_at.getUTCSeconds(), x.ended_at.getUTCSeconds()])).toEqual([["plan", 1, 3]])
    expect(provisionerTimings({ id: JOB, provisioner: "workbay", completed_at: null, canceled_at: null }, [])).toEqual(
      []
    )
  })

  it("names the stages of the described system's provisioner steps", () => {
    expect(
      ["Setting up", "Planning infrastructure", "Destroying workspace", "Stopping workspace", "nope"].map(
        provisionerStageOf
      )
    )
      .toEqual(["init", "plan", "apply", "apply", undefined])
  })
})

const agent = (over: Record<string, unknown>) => ({
  id: "11111111-1111-4111-8111-111111111111",
  name: "main",
  created_at: at(0),
  first_connected_at: null,
  scripts: [
    { id: "s1", display_name: "Install", run_on_start: true, run_on_stop: false, cron: "" },
    { id: "s2", display_name: "Stop", run_on_start: false, run_on_stop: true, cron: "" },
    { id: "s3", display_name: "Never", run_on_start: true, run_on_stop: false, cron: "" }
  ],
  script_results: {},
  ...over
})
const resources = (a: Record<string, unknown>) =>
  [{ resource: {}, agents: [a] }] as unknown as ReadonlyArray<StoredResource>

describe("agent timings", () => {
  it("shows each script's first reported run, its stage the reported one or the script's", () => {
    const t = agentScriptTimings(resources(agent({
      script_results: {
        s1: {
          status: "exit_failure",
          exit_code: 1,
          started_at: at(30).toISOString(),
          ended_at: at(31).toISOString(),
          stage: "cron",
          first: { status: "ok", exit_code: 0, started_at: at(1).toISOString(), ended_at: at(2).toISOString() }
        },
        s2: { status: "timed_out", exit_code: 9, started_at: at(40).toISOString(), ended_at: at(50).toISOString() }
      }
    })))
    expect(t.map((x) => [x.display_name, x.stage, x.status, x.exit_code, x.started_at.getUTCSeconds()])).toEqual([
      ["Install", "start", "ok", 0, 1],
      ["Stop", "stop", "timed_out", 9, 40]
    ])
  })

  it("times an agent's connection from its creation to its first connection; never connected, none", () => {
    expect(agentConnectionTimings(resources(agent({})))).toEqual([])
    const [t] = agentConnectionTimings(resources(agent({ first_connected_at: at(12) })))
    expect([t!.stage, t!.started_at, t!.ended_at, t!.workspace_agent_name]).toEqual(["connect", at(0), at(12), "main"])
  })
})
