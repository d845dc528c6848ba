/**
 * Decoding failures as the Response object's validations: one per bad field, bounded however
 * many problems the input holds (only the first MAX_POINTERS fields are formatted, at most
 * MAX_VALIDATIONS listed, the detail saying how many there were).
 */
import { BadRequest, type Validation } from "@workbay/core"
import { ParseResult } from "effect"

export interface ValidationEntry {
  readonly field: string
  readonly detail: string
}

/** The note that says some problems were left out of the list. */
export const moreNote = (listed: number, total: number, exact = true) =>
  exact
    ? `Only the first ${listed} of ${total} problems are listed.`
    : `Only the first ${listed} problems are listed, of at least ${total}.`

export const badRequest = (message: string, detail?: string, validations?: ReadonlyArray<ValidationEntry>) =>
  new BadRequest(
    {
      message,
      ...(detail !== undefined ? { detail } : {}),
      ...(validations !== undefined ? { validations: validations as ReadonlyArray<Validation> } : {})
    },
    true
  )

/** Fields (pointers into the input) of one decoding failure that are formatted; the rest are only counted. */
const MAX_POINTERS = 100

/**
 * `issue` with at most `budget.left` pointers (a field or an item of the input, each usually one
 * validation); the pointers left out are counted in `budget.skipped`. Only pointers grow with
 * the input (an array of 1,000 bad items is 1,000 of them); the rest of the tree (a union's
 * members) is as wide as the schema. It recurses as deep as the schema nests, never deeper.
 */
const pruneIssue = (
  issue: ParseResult.ParseIssue,
  budget: { left: number; skipped: number }
): ParseResult.ParseIssue | undefined => {
  switch (issue._tag) {
    case "Pointer": {
      if (budget.left <= 0) {
        budget.skipped++
        return undefined
      }
      budget.left--
      const inner = pruneIssue(issue.issue, budget)
      return inner === undefined ? undefined : new ParseResult.Pointer(issue.path, issue.actual, inner)
    }
    case "Refinement": {
      const inner = pruneIssue(issue.issue, budget)
      return inner === undefined ? undefined : new ParseResult.Refinement(issue.ast, issue.actual, issue.kind, inner)
    }
    case "Transformation": {
      const inner = pruneIssue(issue.issue, budget)
      return inner === undefined
        ? undefined
        : new ParseResult.Transformation(issue.ast, issue.actual, issue.kind, inner)
    }
    case "Composite": {
      if (!Array.isArray(issue.issues)) {
        const inner = pruneIssue(issue.issues as ParseResult.ParseIssue, budget)
        return inner === undefined ? undefined : new ParseResult.Composite(issue.ast, issue.actual, inner, issue.output)
      }
      const kept: Array<ParseResult.ParseIssue> = []
      for (const child of issue.issues as ReadonlyArray<ParseResult.ParseIssue>) {
        const inner = pruneIssue(child, budget)
        if (inner !== undefined) kept.push(inner)
      }
      return kept.length === 0
        ? undefined
        : new ParseResult.Composite(
          issue.ast,
          issue.actual,
          kept as [ParseResult.ParseIssue, ...Array<ParseResult.ParseIssue>],
          issue.output
        )
    }
    default:
      return issue
  }
}

/**
 * One validation per bad field, `field` being the JSON path (or the parameter name).
 * An optional field with a wrong value fails twice (its value, and "not undefined", or "not
 * null" for a field that takes `null` as "not given"); only the real issue is kept.
 */
const formatValidations = (error: ParseResult.ParseError, prefix?: string): Array<ValidationEntry> => {
  const seen = new Map<string, string>()
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const paths = issues.map((i) => i.path.map(String).join("."))
  for (const [index, issue] of issues.entries()) {
    const own = paths[index]!
    const aboutAbsence = issue.message.startsWith("Expected undefined") || issue.message.startsWith("Expected null")
    if (aboutAbsence && paths.some((p, j) => j !== index && (p === own || p.startsWith(own === "" ? "" : `${own}.`)))) {
      continue
    }
    const path = issue.path.map(String).join(".")
    const field = prefix ? (path === "" ? prefix : path) : path
    if (seen.has(field)) continue
    seen.set(field, issue._tag === "Missing" ? "This field is required." : issue.message)
  }
  return [...seen].map(([field, detail]) => ({ field, detail }))
}

/**
 * The validations of a decoding failure, and how many problems it holds in all (at least, when
 * not `exact`). Only the first MAX_POINTERS fields are formatted, so a failure with 100,000
 * issues costs little more than one with 100.
 */
export const collectValidations = (
  error: ParseResult.ParseError,
  prefix?: string
): { validations: Array<ValidationEntry>; total: number; exact: boolean } => {
  const budget = { left: MAX_POINTERS, skipped: 0 }
  const pruned = pruneIssue(error.issue, budget)
  const validations = budget.skipped === 0 || pruned === undefined
    ? formatValidations(error, prefix)
    : formatValidations(new ParseResult.ParseError({ issue: pruned }), prefix)
  return { validations, total: validations.length + budget.skipped, exact: budget.skipped === 0 }
}

/**
 * One validation per bad field, `field` being the JSON path (or the parameter name), for the
 * first MAX_POINTERS fields of `error`.
 */
export const validationsOf = (error: ParseResult.ParseError, prefix?: string): Array<ValidationEntry> =>
  collectValidations(error, prefix).validations
