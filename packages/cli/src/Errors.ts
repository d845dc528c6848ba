/** The failures a command ends with, and how each is printed (docs/cli.md, "Exit codes"). */

/** One entry of a Response's `validations`. */
export interface Validation {
  readonly field: string
  readonly detail: string
}

/** A refusal of the service: its status and the Response body (`message`, `detail`, `validations`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly detail: string | undefined,
    readonly validations: ReadonlyArray<Validation>
  ) {
    super(message)
  }
}

/** A failure the command explains itself (exit code 1 unless told). */
export class CliError extends Error {
  constructor(message: string, readonly exitCode = 1, readonly detail?: string) {
    super(message)
  }
}

/** A bad command line: exit code 2, as for the parser's own usage errors. */
export const usageError = (message: string) => new CliError(message, 2)

/** The lines printed on standard error for `error`, and the exit code. */
export const describeError = (error: unknown): { readonly lines: ReadonlyArray<string>; readonly exitCode: number } => {
  if (error instanceof ApiError) {
    const lines = [`error: ${error.message}`]
    if (error.detail !== undefined && error.detail !== "") lines.push(error.detail)
    for (const v of error.validations) lines.push(`  ${v.field}: ${v.detail}`)
    return { lines, exitCode: 1 }
  }
  if (error instanceof CliError) {
    const lines = [`error: ${error.message}`]
    if (error.detail !== undefined && error.detail !== "") lines.push(error.detail)
    return { lines, exitCode: error.exitCode }
  }
  const message = error instanceof Error ? error.message : String(error)
  return { lines: [`error: ${message}`], exitCode: 1 }
}
