/**
 * A task's status, derived from its workspace as the described system derives it (its
 * `tasks_with_status` view): the latest build's transition and job status first, then the AI
 * agent's lifecycle, then the health of the AI app. See docs/tasks.md for the table.
 */
import type { WorkspaceTransition } from "../provisioners/Provisioner.js"
import type { ProvisionerJobStatus } from "../provisioners/ProvisionerJob.js"
import type { TaskStatus } from "./TaskWire.js"

export interface TaskStatusInput {
  /** The workspace's latest build; absent when the task has no workspace (or build) yet. */
  readonly build?: { readonly transition: WorkspaceTransition; readonly jobStatus: ProvisionerJobStatus } | undefined
  /** The agent that runs the AI app, in that build. */
  readonly agent?: { readonly lifecycle: string; readonly status: string } | undefined
  /** The AI app's health (`disabled`, `initializing`, `healthy`, `unhealthy`). */
  readonly appHealth?: string | undefined
}

const agentStarting = new Set(["created", "starting"])
const agentUp = new Set(["ready", "start_timeout", "start_error"])

/**
 * - no workspace or build: `pending`;
 * - a failed job: `error`;
 * - a stop or delete (queued, running or done): `paused`;
 * - a start whose job is pending: `initializing`;
 * - a start whose job runs or succeeded: by the agent: none yet while the job runs, or starting
 *   (`created`, `starting`, still connecting): `initializing`; up (`ready`, `start_timeout`,
 *   `start_error`) and connected: by the app: `unhealthy` is `error`, `initializing` is
 *   `initializing`, `healthy` or `disabled` is `active`;
 * - anything else (a canceled job, a lost agent, an agent shutting down): `unknown`.
 */
export const deriveTaskStatus = (input: TaskStatusInput): TaskStatus => {
  const { build, agent } = input
  if (build === undefined) return "pending"
  if (build.jobStatus === "failed") return "error"
  if (build.transition !== "start") {
    return build.jobStatus === "canceled" || build.jobStatus === "canceling" ? "unknown" : "paused"
  }
  if (build.jobStatus === "pending") return "initializing"
  if (build.jobStatus !== "running" && build.jobStatus !== "succeeded") return "unknown"
  if (agent === undefined) return build.jobStatus === "running" ? "initializing" : "unknown"
  if (agentStarting.has(agent.lifecycle)) {
    return agent.status === "timeout" || agent.status === "disconnected"
      ? "unknown"
      : "initializing"
  }
  if (agentUp.has(agent.lifecycle)) {
    if (agent.status !== "connected") return "unknown"
    switch (input.appHealth) {
      case "unhealthy":
        return "error"
      case "initializing":
        return "initializing"
      case "healthy":
      case "disabled":
        return "active"
      default:
        return "unknown"
    }
  }
  return "unknown"
}
