/**
 * Running the agent's scripts: each in `sh -c` in the agent's directory with the manifest's
 * environment, its output streamed line by line as logs of its log source and written to its
 * log file, killed (the whole process group) when its timeout passes. Cron scripts run on their
 * schedule (five fields, or six with seconds), one run at a time.
 */
import { CronExpressionParser } from "cron-parser"
import { spawn } from "node:child_process"
import { createWriteStream, mkdirSync } from "node:fs"
import { dirname, isAbsolute, join } from "node:path"
import { createInterface } from "node:readline"
import type { LogSender } from "./Logs.js"

/** A script as the manifest lists it (the Agent record's `scripts`). */
export interface Script {
  readonly id: string
  readonly log_source_id: string
  readonly log_path: string
  readonly script: string
  readonly cron: string
  readonly run_on_start: boolean
  readonly run_on_stop: boolean
  readonly start_blocks_login: boolean
  /** Nanoseconds; 0: no limit. */
  readonly timeout: number
  readonly display_name: string
}

export type ScriptStatus = "ok" | "exit_failure" | "timed_out" | "pipes_left_open"

export interface ScriptRun {
  readonly script_id: string
  readonly started_at: string
  readonly ended_at: string
  readonly exit_code: number
  readonly status: ScriptStatus
  readonly timeout: boolean
}

export interface ScriptEnvironment {
  readonly directory: string
  readonly env: Readonly<Record<string, string>>
  readonly logDir: string
  readonly logs: LogSender
}

/** Runs `script` once to its end. */
export const runScript = (script: Script, environment: ScriptEnvironment): Promise<ScriptRun> =>
  new Promise((resolve) => {
    const started = new Date()
    const logFile = script.log_path === ""
      ? join(environment.logDir, `${script.display_name.replace(/[^A-Za-z0-9._-]+/g, "_") || script.id}.log`)
      : isAbsolute(script.log_path)
      ? script.log_path
      : join(environment.logDir, script.log_path)
    mkdirSync(dirname(logFile), { recursive: true })
    const file = createWriteStream(logFile, { flags: "a" })
    mkdirSync(environment.directory, { recursive: true })
    const child = spawn("sh", ["-c", script.script], {
      cwd: environment.directory,
      env: { ...process.env, ...environment.env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true
    })
    const lines = (stream: NodeJS.ReadableStream, level: "info" | "error") => {
      createInterface({ input: stream }).on("line", (line) => {
        file.write(`${line}\n`)
        environment.logs.add(script.log_source_id, level, line)
      })
    }
    lines(child.stdout!, "info")
    lines(child.stderr!, "error")
    let timedOut = false
    const timeoutMs = script.timeout / 1_000_000
    const timer = timeoutMs > 0
      ? setTimeout(() => {
        timedOut = true
        try {
          process.kill(-child.pid!, "SIGKILL")
        } catch {
          child.kill("SIGKILL")
        }
      }, timeoutMs)
      : undefined
    const finish = (code: number) => {
      if (timer !== undefined) clearTimeout(timer)
      file.end()
      resolve({
        script_id: script.id,
        started_at: started.toISOString(),
        ended_at: new Date().toISOString(),
        exit_code: timedOut ? -1 : code,
        status: timedOut ? "timed_out" : code === 0 ? "ok" : "exit_failure",
        timeout: timedOut
      })
    }
    child.on("error", () => finish(127))
    child.on("exit", (code, signal) => finish(code ?? (signal === null ? 1 : 128)))
  })

/** Runs cron scripts on their schedules (each run by `run`) until stopped; `onRun` gets each run's result. */
export const scheduleCron = (
  scripts: ReadonlyArray<Script>,
  environment: ScriptEnvironment,
  onRun: (run: ScriptRun) => void,
  log: (line: string) => void,
  run: (script: Script, environment: ScriptEnvironment) => Promise<ScriptRun> = runScript
): { readonly stop: () => void } => {
  const timers = new Set<NodeJS.Timeout>()
  let stopped = false
  for (const script of scripts) {
    if (script.cron === "") continue
    let expression: ReturnType<typeof CronExpressionParser.parse>
    try {
      expression = CronExpressionParser.parse(script.cron)
    } catch (e) {
      log(`script ${script.display_name}: its cron ${JSON.stringify(script.cron)} does not parse: ${String(e)}`)
      continue
    }
    const next = () => {
      if (stopped) return
      const at = expression.next().getTime()
      const timer = setTimeout(async () => {
        timers.delete(timer)
        if (stopped) return
        onRun(await run(script, environment))
        next()
      }, Math.max(0, at - Date.now()))
      timer.unref()
      timers.add(timer)
    }
    next()
  }
  return {
    stop: () => {
      stopped = true
      for (const t of timers) clearTimeout(t)
      timers.clear()
    }
  }
}
