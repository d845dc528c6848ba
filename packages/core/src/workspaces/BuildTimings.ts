/**
 * A build's timings (the described system's `WorkspaceBuildTimings`), made from what Workbay
 * records: the stages of the build's provisioner job as its log lines name them, the runs of the
 * agents' scripts as the agents report them, and the agents' first connections. Pure; the
 * builds service reads the records. See docs/workspaces.md ("Timings").
 */
import { Schema } from "effect"
import type { ProvisionerJobLogRecord, ProvisionerJobRecord } from "../provisioners/ProvisionerJob.js"
import type { AgentScriptResult, StoredResource } from "./WorkspaceBuild.js"

export const timingStages = ["init", "plan", "graph", "apply", "start", "stop", "cron", "connect"] as const
export type TimingStage = typeof timingStages[number]

export class ProvisionerTiming extends Schema.Class<ProvisionerTiming>("ProvisionerTiming")({
  job_id: Schema.UUID,
  started_at: Schema.Date,
  ended_at: Schema.Date,
  stage: Schema.Literal(...timingStages),
  source: Schema.String,
  action: Schema.String,
  resource: Schema.String
}) {}

export class AgentScriptTiming extends Schema.Class<AgentScriptTiming>("AgentScriptTiming")({
  started_at: Schema.Date,
  ended_at: Schema.Date,
  exit_code: Schema.Int,
  stage: Schema.Literal(...timingStages),
  status: Schema.String,
  display_name: Schema.String,
  workspace_agent_id: Schema.UUID,
  workspace_agent_name: Schema.String
}) {}

export class AgentConnectionTiming extends Schema.Class<AgentConnectionTiming>("AgentConnectionTiming")({
  started_at: Schema.Date,
  ended_at: Schema.Date,
  stage: Schema.Literal(...timingStages),
  workspace_agent_id: Schema.UUID,
  workspace_agent_name: Schema.String
}) {}

export class WorkspaceBuildTimings extends Schema.Class<WorkspaceBuildTimings>("WorkspaceBuildTimings")({
  provisioner_timings: Schema.Array(ProvisionerTiming),
  agent_script_timings: Schema.Array(AgentScriptTiming),
  agent_connection_timings: Schema.Array(AgentConnectionTiming)
}) {}

/**
 * The timing stage of a provisioner log stage, by the names the built-in provisioner (and the
 * described system's provisioner daemons) give their steps; `undefined` for a step that is no
 * stage of a build (an import's parsing, a name a provisioner made up).
 */
export const provisionerStageOf = (logged: string): TimingStage | undefined => {
  switch (logged.trim().toLowerCase()) {
    case "setting up":
      return "init"
    case "planning infrastructure":
      return "plan"
    case "starting workspace":
    case "stopping workspace":
    case "destroying workspace":
    case "orphaning resources":
    case "committing quota":
    case "cleaning up":
      return "apply"
    default:
      return undefined
  }
}

/**
 * The provisioner timings of a job from its log lines, in order: each run of consecutive lines
 * of one logged stage is one timing, from its first line to the first line of the next run (the
 * last run ends when the job ended, else at its own last line). `action` and `resource` are the
 * stage as logged: Workbay's provisioners report steps, not per-resource times.
 */
export const provisionerTimings = (
  job: Pick<ProvisionerJobRecord, "id" | "provisioner" | "completed_at" | "canceled_at">,
  logs: ReadonlyArray<Pick<ProvisionerJobLogRecord, "created_at" | "stage">>
): ReadonlyArray<ProvisionerTiming> => {
  const runs: Array<{ stage: string; first: Date; last: Date }> = []
  for (const line of logs) {
    const current = runs[runs.length - 1]
    if (current !== undefined && current.stage === line.stage) current.last = line.created_at
    else runs.push({ stage: line.stage, first: line.created_at, last: line.created_at })
  }
  const jobEnd = job.completed_at ?? job.canceled_at
  const out: Array<ProvisionerTiming> = []
  runs.forEach((run, i) => {
    const stage = provisionerStageOf(run.stage)
    if (stage === undefined) return
    const next = runs[i + 1]
    const end = next !== undefined ? next.first : jobEnd !== null && jobEnd >= run.last ? jobEnd : run.last
    out.push(
      new ProvisionerTiming({
        job_id: job.id,
        started_at: run.first,
        ended_at: end < run.first ? run.first : end,
        stage,
        source: job.provisioner,
        action: run.stage,
        resource: run.stage
      }, true)
    )
  })
  return out
}

/** The stage of a script's run: the one the agent reported, else the one the script's settings imply. */
const scriptStage = (
  script: { readonly run_on_start: boolean; readonly run_on_stop: boolean; readonly cron: string },
  reported: AgentScriptResult["stage"]
): TimingStage =>
  reported ?? (script.run_on_start ? "start" : script.run_on_stop ? "stop" : script.cron !== "" ? "cron" : "start")

/**
 * The script timings of a build's agents: for each script that reported a run, its first
 * reported run (the described system shows each script's first run), in agent then script order.
 */
export const agentScriptTimings = (resources: ReadonlyArray<StoredResource>): ReadonlyArray<AgentScriptTiming> =>
  resources.flatMap((r) =>
    r.agents.flatMap((agent) =>
      agent.scripts.flatMap((script) => {
        const result = agent.script_results[script.id]
        if (result === undefined) return []
        const run = result.first ?? result
        return [
          new AgentScriptTiming({
            started_at: new Date(run.started_at),
            ended_at: new Date(run.ended_at),
            exit_code: run.exit_code,
            stage: scriptStage(script, run.stage),
            status: run.status,
            display_name: script.display_name,
            workspace_agent_id: agent.id,
            workspace_agent_name: agent.name
          }, true)
        ]
      })
    )
  )

/** The connection timings of a build's agents: from the agent's creation to its first connection (agents that never connected have none). */
export const agentConnectionTimings = (
  resources: ReadonlyArray<StoredResource>
): ReadonlyArray<AgentConnectionTiming> =>
  resources.flatMap((r) =>
    r.agents.flatMap((agent) =>
      agent.first_connected_at === null ? [] : [
        new AgentConnectionTiming({
          started_at: agent.created_at,
          ended_at: agent.first_connected_at,
          stage: "connect",
          workspace_agent_id: agent.id,
          workspace_agent_name: agent.name
        }, true)
      ]
    )
  )
