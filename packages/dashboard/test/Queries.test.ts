/**
 * Each area's data in one place (docs/dashboard.md, "How a page gets its data"): only an area's
 * `api.ts` calls the service (the typed `client`, or `fetch`), and only an area's `queries.ts`
 * writes a query key. Pages and components take their keys and query options from a `queries.ts`
 * (their area's, or another's to invalidate its data), so a key is spelled once and every
 * invalidation reaches what it names. Read from the sources with TypeScript's parser; no browser.
 */
import { readdirSync, readFileSync } from "node:fs"
import { basename, dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { describe, expect, it } from "vitest"

const SRC = fileURLToPath(new URL("../src/", import.meta.url))

const sources = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : /\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts")
      ? [join(dir, e.name)]
      : []
  )

/** The QueryClient methods whose first argument is a query key. */
const KEY_ARGUMENT = new Set(["setQueryData", "getQueryData", "getQueryState", "ensureQueryData"])

/** The places in `text` (a module named `file`) where it writes a query key of its own. */
const keyLiterals = (file: string, text: string): Array<string> => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX)
  const imports = new Map<string, string>()
  const locals = new Map<string, Array<ts.Expression>>()
  const collect = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const from = node.moduleSpecifier.text
      const bindings = node.importClause?.namedBindings
      if (bindings !== undefined && ts.isNamedImports(bindings)) {
        for (const b of bindings.elements) imports.set(b.name.text, from)
      }
      if (node.importClause?.name !== undefined) imports.set(node.importClause.name.text, from)
    }
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer !== undefined) {
      locals.set(node.name.text, [...(locals.get(node.name.text) ?? []), node.initializer])
    }
    ts.forEachChild(node, collect)
  }
  collect(source)

  const found: Array<string> = []
  const where = (node: ts.Node) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart())
    return `${file}:${line + 1}: ${node.getText().split("\n")[0]}`
  }
  const unwrap = (e: ts.Expression): ts.Expression =>
    ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) ||
      ts.isNonNullExpression(e)
      ? unwrap(e.expression)
      : e
  // A key must come from a queries.ts: an array written here, a local spelled as one, or a name
  // imported from elsewhere is a key of this file's own.
  const check = (expr: ts.Expression, at: ts.Node, seen: Set<string>): void => {
    const e = unwrap(expr)
    if (ts.isArrayLiteralExpression(e)) return void found.push(where(at))
    if (ts.isArrowFunction(e) && !ts.isBlock(e.body)) return check(e.body, at, seen)
    if (ts.isIdentifier(e)) {
      const from = imports.get(e.text)
      if (from !== undefined) {
        if (basename(from) !== "queries.ts") found.push(where(at))
        return
      }
      if (seen.has(e.text)) return
      for (const init of locals.get(e.text) ?? []) check(init, at, new Set([...seen, e.text]))
      return
    }
    if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) return check(e.expression, at, seen)
    if (ts.isCallExpression(e)) return check(e.expression, at, seen)
  }
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAssignment(node) && node.name.getText() === "queryKey") check(node.initializer, node, new Set())
    if (ts.isShorthandPropertyAssignment(node) && node.name.text === "queryKey") check(node.name, node, new Set())
    if (
      ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) &&
      KEY_ARGUMENT.has(node.expression.name.text) && node.arguments[0] !== undefined
    ) check(node.arguments[0], node, new Set())
    // A key declared here for others to import (`export const xKey = [...]`).
    if (
      ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && /key$/i.test(node.name.text) &&
      node.initializer !== undefined
    ) {
      const init = unwrap(node.initializer)
      const body = ts.isArrowFunction(init) && !ts.isBlock(init.body) ? unwrap(init.body) : init
      if (ts.isArrayLiteralExpression(body)) found.push(where(node))
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** The places in `text` where it calls the service itself. */
const clientCalls = (file: string, text: string): Array<string> =>
  text.split("\n").flatMap((line, i) =>
    /\bclient\.(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE|request)\b/.test(line) ||
      /(^|[^.\w])fetch\(/.test(line) ||
      /import\s*\{[^}]*\bclient\b[^}]*\}\s*from\s*"[./]*api\/client\.ts"/.test(line)
      ? [`${file}:${i + 1}: ${line.trim()}`]
      : []
  )

const files = sources(SRC).map((path) => ({
  path,
  name: relative(SRC, path),
  text: readFileSync(path, "utf8")
}))

describe("the dashboard's queries", () => {
  it("only an area's queries.ts writes query keys", () => {
    const found = files.filter((f) => basename(f.path) !== "queries.ts").flatMap((f) => keyLiterals(f.name, f.text))
    expect(found, "move these keys to their area's queries.ts").toEqual([])
  })

  it("only an area's api.ts calls the service", () => {
    const found = files.filter((f) => basename(f.path) !== "api.ts").flatMap((f) => clientCalls(f.name, f.text))
    expect(found, "move these calls to their area's api.ts").toEqual([])
  })

  it("every area with an api.ts has its queries.ts beside it", () => {
    const areas = files.filter((f) => basename(f.path) === "api.ts").map((f) => dirname(f.path))
    const missing = areas.filter((dir) => !files.some((f) => f.path === join(dir, "queries.ts")))
    expect(missing.map((dir) => relative(SRC, dir))).toEqual([])
    expect(areas.length).toBeGreaterThan(10)
  })

  it("finds a key written outside queries.ts, however it is spelled", () => {
    const page = (body: string) => keyLiterals("Page.tsx", `import { fooKeys } from "./queries.ts"\n${body}`)
    expect(page(`useQuery({ queryKey: ["foo", id], queryFn })`)).toHaveLength(1)
    expect(page(`const key = ["foo"] as const\nuseQuery({ queryKey: key, queryFn })`)).toHaveLength(2)
    expect(page(`const queryKey = ["foo", id]\nuseQuery({ queryKey, queryFn })`)).toHaveLength(2)
    expect(page(`qc.invalidateQueries({ queryKey: [...fooKeys.all, id] })`)).toHaveLength(1)
    expect(page(`qc.setQueryData(["me"], null)`)).toHaveLength(1)
    expect(page(`export const barKey = (id: string) => ["bar", id]`)).toHaveLength(1)
    expect(keyLiterals("Page.tsx", `import { barKey } from "./Bar.tsx"\nqc.invalidateQueries({ queryKey: barKey })`))
      .toHaveLength(1)
    // Keys and options from a queries.ts are what pages use.
    expect(page(`const o = fooQuery(id)\nuseQuery(o)\nqc.setQueryData(o.queryKey, x)`)).toEqual([])
    expect(page(`qc.invalidateQueries({ queryKey: fooKeys.item(id) })`)).toEqual([])
  })

  it("finds a call of the service outside api.ts", () => {
    expect(clientCalls("Page.tsx", `unwrap(client.GET("/api/v2/users"))`)).toHaveLength(1)
    expect(clientCalls("Page.tsx", `import { client, unwrap } from "../api/client.ts"`)).toHaveLength(1)
    expect(clientCalls("Page.tsx", `await fetch("/api/v2/users")`)).toHaveLength(1)
    expect(clientCalls("Page.tsx", `void version.refetch()\nqueryClient.fetchQuery(o)`)).toEqual([])
  })
})
