/**
 * The expressions of dynamic parameters (docs/templates.md#dynamic-parameters): Common Expression
 * Language (CEL) through `@marcbachmann/cel-js`, a tree-walking interpreter (no `eval`, no
 * `new Function`), bounded before anything runs so that no expression and no input can hold the
 * server: the text's length, the syntax tree's size and depth, list and map literals, and the
 * nesting of comprehensions (`map`, `filter`, `all`, `exists`, `exists_one`) are limited, and
 * `cel.bind` (which could double a value per level) and `matches` (JavaScript's backtracking
 * `RegExp`) are refused: template patterns are `validation.regex`, matched by RE2.
 */
import { Environment, type ParseResult } from "@marcbachmann/cel-js"
import { Either } from "effect"
import { once } from "../Lazily.js"

/** The longest expression, in characters. */
export const MAX_EXPRESSION_LENGTH = 2_048
/** The most syntax-tree nodes, and the deepest nesting, of one expression. */
export const MAX_EXPRESSION_NODES = 512
export const MAX_EXPRESSION_DEPTH = 32
/** How deep comprehensions may nest: two over lists of at most `MAX_LIST_VALUES` is 65,536 steps. */
export const MAX_COMPREHENSION_NESTING = 2
/** The most elements of a list literal or of a list parameter's value. */
export const MAX_LIST_VALUES = 256

const comprehensions = new Set(["map", "filter", "all", "exists", "exists_one"])
const refused = new Map([
  ["bind", "cel.bind is not allowed in template expressions"],
  ["matches", "matches() is not allowed in template expressions: use validation.regex"]
])

const environment = once(() =>
  new Environment({
    unlistedVariablesAreDyn: false,
    homogeneousAggregateLiterals: false,
    limits: {
      maxAstNodes: MAX_EXPRESSION_NODES,
      maxDepth: MAX_EXPRESSION_DEPTH,
      maxListElements: MAX_LIST_VALUES,
      maxMapEntries: MAX_LIST_VALUES,
      maxCallArguments: 16
    }
  })
    .registerVariable("param", "map<string, dyn>")
    .registerVariable("owner", "map<string, dyn>")
)

interface Node {
  readonly op: string
  readonly args: unknown
}
const isNode = (x: unknown): x is Node => typeof x === "object" && x !== null && "op" in x && "args" in x

/** The first rule the tree breaks (a refused function, comprehensions nested too deep), if any. */
const checkTree = (root: unknown): string | undefined => {
  const stack: Array<[unknown, number]> = [[root, 0]]
  while (stack.length > 0) {
    const [x, nesting] = stack.pop()!
    if (Array.isArray(x)) {
      for (const item of x) stack.push([item, nesting])
      continue
    }
    if (!isNode(x)) continue
    let inner = nesting
    if ((x.op === "rcall" || x.op === "call") && Array.isArray(x.args) && typeof x.args[0] === "string") {
      const name = x.args[0]
      const why = refused.get(name)
      if (why !== undefined) return why
      if (comprehensions.has(name)) inner = nesting + 1
      if (inner > MAX_COMPREHENSION_NESTING) {
        return `comprehensions may nest at most ${MAX_COMPREHENSION_NESTING} deep`
      }
    }
    stack.push([x.args, inner])
  }
  return undefined
}

/** A checked expression, ready to evaluate many times. */
export type Expression = ParseResult

const cache = new Map<string, Either.Either<Expression, string>>()
const MAX_CACHED = 4_096

/**
 * Parses and checks `text`: the expression, or why it is refused (a syntax error, or a bound it
 * passes). Results are kept (at most 4,096), since a template's expressions are evaluated on
 * every answer of its form.
 */
export const compileExpression = (text: string): Either.Either<Expression, string> => {
  const hit = cache.get(text)
  if (hit !== undefined) return hit
  const result = compileUncached(text)
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!)
  cache.set(text, result)
  return result
}

const firstLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).split("\n")[0]!.trim()

const compileUncached = (text: string): Either.Either<Expression, string> => {
  if (text.length > MAX_EXPRESSION_LENGTH) return Either.left(`is longer than ${MAX_EXPRESSION_LENGTH} characters`)
  let parsed: Expression
  try {
    parsed = environment().parse(text)
  } catch (e) {
    return Either.left(`is not a valid expression: ${firstLine(e)}`)
  }
  const broken = checkTree(parsed.ast)
  return broken === undefined ? Either.right(parsed) : Either.left(broken)
}

/** A value an expression sees or answers, once CEL's integers (bigints) are numbers again. */
export type Value = string | number | boolean | null | ReadonlyArray<Value> | { readonly [key: string]: Value }

const plain = (v: unknown, depth = 0): Value => {
  if (depth > MAX_EXPRESSION_DEPTH) throw new Error("the answer nests too deep")
  if (typeof v === "bigint") return Number(v)
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean" || v === null) return v
  if (Array.isArray(v)) return v.map((x) => plain(x, depth + 1))
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), plain(x, depth + 1)]))
  if (typeof v === "object") {
    return Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, plain(x, depth + 1)]))
  }
  return String(v)
}

/** What an expression sees: earlier parameters' values and the workspace owner. */
export interface ExpressionContext {
  readonly param: Readonly<Record<string, unknown>>
  readonly owner: Readonly<Record<string, unknown>>
}

/** Evaluates a checked expression: its answer, or the evaluation's error (a missing key, a type mismatch). */
export const evaluateExpression = (
  expression: Expression,
  context: ExpressionContext
): Either.Either<Value, string> => {
  try {
    return Either.right(plain(expression(context)))
  } catch (e) {
    return Either.left(firstLine(e))
  }
}
