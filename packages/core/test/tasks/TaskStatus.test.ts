/**
 * A task's status from its workspace's latest build, the AI agent and the AI app, without HTTP
 * or a database; and the names generated from prompts.
 */
import { describe, expect, it } from "@effect/vitest"
import { nameFromPrompt } from "../../src/tasks/Tasks.js"
import { deriveTaskStatus, type TaskStatusInput } from "../../src/tasks/TaskStatus.js"

const start = (jobStatus: NonNullable<TaskStatusInput["build"]>["jobStatus"]) => ({
  transition: "start" as const,
  jobStatus
})
const up = { lifecycle: "ready", status: "connected" }

describe("deriveTaskStatus", () => {
  it("is pending without a workspace build", () => {
    expect(deriveTaskStatus({})).toBe("pending")
  })

  it("is error when the latest job failed, whatever its transition", () => {
    for (const transition of ["start", "stop", "delete"] as const) {
      expect(deriveTaskStatus({ build: { transition, jobStatus: "failed" }, agent: up, appHealth: "healthy" })).toBe(
        "error"
      )
    }
  })

  it("is paused once a stop or delete is queued, runs or succeeded; unknown when it was canceled", () => {
    for (const jobStatus of ["pending", "running", "succeeded"] as const) {
      expect(deriveTaskStatus({ build: { transition: "stop", jobStatus } })).toBe("paused")
    }
    expect(deriveTaskStatus({ build: { transition: "delete", jobStatus: "succeeded" } })).toBe("paused")
    expect(deriveTaskStatus({ build: { transition: "stop", jobStatus: "canceled" } })).toBe("unknown")
  })

  it("is initializing while the start is queued or runs, and while the agent starts", () => {
    expect(deriveTaskStatus({ build: start("pending") })).toBe("initializing")
    expect(deriveTaskStatus({ build: start("running") })).toBe("initializing")
    expect(deriveTaskStatus({ build: start("succeeded"), agent: { lifecycle: "created", status: "connecting" } })).toBe(
      "initializing"
    )
    expect(deriveTaskStatus({ build: start("succeeded"), agent: { lifecycle: "starting", status: "connected" } })).toBe(
      "initializing"
    )
  })

  it("follows the AI app once the agent is up and connected", () => {
    expect(deriveTaskStatus({ build: start("succeeded"), agent: up, appHealth: "healthy" })).toBe("active")
    expect(deriveTaskStatus({ build: start("succeeded"), agent: up, appHealth: "disabled" })).toBe("active")
    expect(
      deriveTaskStatus({
        build: start("succeeded"),
        agent: { lifecycle: "start_error", status: "connected" },
        appHealth: "disabled"
      })
    )
      .toBe("active")
    expect(deriveTaskStatus({ build: start("succeeded"), agent: up, appHealth: "initializing" })).toBe("initializing")
    expect(deriveTaskStatus({ build: start("succeeded"), agent: up, appHealth: "unhealthy" })).toBe("error")
    expect(deriveTaskStatus({ build: start("succeeded"), agent: up })).toBe("unknown")
  })

  it("is unknown when the agent is lost, timed out, shutting down, or absent from a finished build", () => {
    expect(
      deriveTaskStatus({
        build: start("succeeded"),
        agent: { lifecycle: "ready", status: "disconnected" },
        appHealth: "healthy"
      })
    )
      .toBe("unknown")
    expect(deriveTaskStatus({ build: start("succeeded"), agent: { lifecycle: "created", status: "timeout" } })).toBe(
      "unknown"
    )
    expect(deriveTaskStatus({ build: start("succeeded"), agent: { lifecycle: "shutting_down", status: "connected" } }))
      .toBe("unknown")
    expect(deriveTaskStatus({ build: start("succeeded") })).toBe("unknown")
    expect(deriveTaskStatus({ build: start("canceled") })).toBe("unknown")
  })
})

describe("nameFromPrompt", () => {
  it("takes the first line's words, lowercased, joined by single hyphens, within the length", () => {
    expect(nameFromPrompt("Fix the login bug!\nIt fails on Safari.")).toBe("fix-the-login-bug")
    expect(nameFromPrompt("  --Update   README.md for v2 ")).toBe("update-readme-md-for-v2")
    expect(nameFromPrompt("Refactor the authentication middleware and its tests")).toBe("refactor-the-authentication")
    expect(nameFromPrompt("Refactor the authentication middleware and its tests").length).toBeLessThanOrEqual(27)
  })

  it("falls back to a cut first word, or task when the prompt has no letters or digits", () => {
    expect(nameFromPrompt("a".repeat(40))).toBe("a".repeat(27))
    expect(nameFromPrompt("!!! ???")).toBe("task")
    expect(nameFromPrompt("")).toBe("task")
  })
})
