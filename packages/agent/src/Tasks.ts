/**
 * An AI task's conversation on the agent's side (docs/agents.md, "Task input and output"): the
 * service sends input as `task_input` notifications; the agent reports what it produced with
 * `append_task_log`. Listeners (`onTaskInput`) get each input; with a task command, each input is
 * also piped to `sh -c <command>` (one at a time, in order) and its stdout reported as output.
 */
import { spawn } from "node:child_process"

/** One input the service sent. */
export interface TaskInput {
  /** The input's entry id in the task's log. */
  readonly entryId: number
  readonly content: string
  readonly time: Date
}

/** Where a task command runs. */
export interface TaskCommandEnvironment {
  readonly directory: string
  readonly env: Readonly<Record<string, string>>
}

/**
 * Room for one entry's content in one message: the service takes messages of at most 32 KiB by
 * default, and each character is counted as it travels (UTF-8, JSON escapes).
 */
export const MAX_TASK_OUTPUT_MESSAGE_BYTES = 24 * 1024

/** The most characters of one entry (the service's limit). */
const MAX_ENTRY_CHARACTERS = 64 * 1024

const encodedBytes = (text: string) => Buffer.byteLength(JSON.stringify(text), "utf8") - 2

/** `content` in pieces each of which, JSON-encoded, fits `maxBytes` (never splitting a character). */
export const splitOutput = (content: string, maxBytes = MAX_TASK_OUTPUT_MESSAGE_BYTES): ReadonlyArray<string> => {
  if (content.length <= MAX_ENTRY_CHARACTERS && encodedBytes(content) <= maxBytes) return [content]
  const pieces: Array<string> = []
  let piece = ""
  let pieceBytes = 0
  for (const char of content) {
    const bytes = encodedBytes(char)
    if (piece !== "" && (pieceBytes + bytes > maxBytes || piece.length + char.length > MAX_ENTRY_CHARACTERS)) {
      pieces.push(piece)
      piece = ""
      pieceBytes = 0
    }
    piece += char
    pieceBytes += bytes
  }
  if (piece !== "") pieces.push(piece)
  return pieces
}

/** A `task_input` message's fields, or undefined when it is not one. */
export const parseTaskInput = (message: Record<string, unknown>): TaskInput | undefined =>
  message.type === "task_input" && typeof message.content === "string" && typeof message.entry_id === "number"
    ? {
      entryId: message.entry_id,
      content: message.content,
      time: new Date(typeof message.time === "string" ? message.time : Date.now())
    }
    : undefined

/**
 * Runs `command` in `sh -c` with `input` on its stdin (in a process group of its own, so `signal`
 * ends it with its children); answers its stdout, and a diagnosis when it failed.
 */
export const runTaskCommand = (
  command: string,
  input: string,
  environment: TaskCommandEnvironment,
  signal?: AbortSignal
) =>
  new Promise<{ stdout: string; failure?: string }>((resolve) => {
    const child = spawn("sh", ["-c", command], {
      cwd: environment.directory,
      env: { ...process.env, ...environment.env },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true
    })
    const kill = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL")
      } catch {
        // already gone
      }
    }
    signal?.addEventListener("abort", kill, { once: true })
    child.on("close", () => signal?.removeEventListener("abort", kill))
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d))
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
    // A command that does not read its input closes the pipe early: not a failure of the agent.
    child.stdin.on("error", () => {})
    child.stdin.end(input)
    child.on("error", (e) => resolve({ stdout, failure: e.message }))
    child.on("close", (code, signal) =>
      resolve(
        code === 0
          ? { stdout }
          : {
            stdout,
            failure: `${signal ?? `exit code ${code}`}${stderr.trim() === "" ? "" : `: ${stderr.trim().slice(0, 500)}`}`
          }
      ))
  })

/** Calls each listener with each input, and runs the task command (if any) on each input in turn. */
export class TaskInputs {
  private readonly listeners = new Set<(input: TaskInput) => void>()
  private queue: Promise<void> = Promise.resolve()
  private readonly stopping = new AbortController()
  /** Settles (undefined) once stopped: an input waiting for its environment waits no longer. */
  private readonly stopped = new Promise<undefined>((resolve) =>
    this.stopping.signal.addEventListener("abort", () => resolve(undefined), { once: true })
  )

  constructor(
    private readonly options: {
      readonly command?: string | undefined
      /** Where the command runs; an input waits until it is known (the agent's first manifest). */
      readonly environment: () => Promise<TaskCommandEnvironment>
      readonly report: (content: string) => Promise<unknown>
      readonly log: (line: string) => void
    }
  ) {}

  on(listener: (input: TaskInput) => void): () => void {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }

  receive(input: TaskInput): void {
    for (const listener of this.listeners) {
      try {
        listener(input)
      } catch (e) {
        this.options.log(`a task input listener failed: ${String(e)}`)
      }
    }
    const command = this.options.command
    if (command === undefined || command === "" || this.stopping.signal.aborted) return
    this.queue = this.queue.then(async () => {
      if (this.stopping.signal.aborted) return
      const environment = await Promise.race([this.options.environment(), this.stopped])
      if (environment === undefined || this.stopping.signal.aborted) return
      const result = await runTaskCommand(command, input.content, environment, this.stopping.signal)
      if (this.stopping.signal.aborted) return
      if (result.failure !== undefined) {
        this.options.log(`the task command failed on input ${input.entryId}: ${result.failure}`)
      }
      const output = result.stdout.replace(/\n$/, "")
      if (output !== "") {
        await this.options.report(output).catch((e) => this.options.log(`reporting task output: ${String(e)}`))
      }
    })
  }

  /** Ends the running task command (and skips the inputs waiting); settles once it ended. */
  stop(): Promise<void> {
    this.stopping.abort()
    return this.queue
  }
}
