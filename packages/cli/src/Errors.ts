/** The failures a command ends with, and how each is printed (docs/cli.md, "Exit codes"). */
import { ApiError } from "@workbay/client"

/** A refusal of the service (`@workbay/client`'s, read from the Response body by its `apiErrorOf`). */
export { ApiError }

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
