/**
 * The SQL text and parameters of a statement for SQLite, its text made once per shape. @effect/sql
 * compiles a statement's segments into its text at every run: the text is built piece by piece
 * and, new each time, is flattened and hashed again where the client looks up its prepared
 * statement by it (1.2-1.5 us a statement with its building, against 0.2 us here: some 2% of a
 * workspace read's CPU). A
 * statement's text depends only on its segments' shape: each literal's text, where a parameter
 * stands (SQLite's `?`), each identifier's name (`sql.in("id", ids)`, which the client's compiler
 * quotes the same way every time) and how many values each `IN` list has. So the shapes are kept
 * in a tree, keyed segment by segment (a literal by its string, which a template keeps as one
 * interned object, a parameter by one key, an identifier by a mark of its own then its name, a
 * list by its length); a shape seen before answers the very text compiled the first time, whose
 * hash the string keeps. Statements with any other segment (a record helper, a custom one) are
 * compiled as before, and so is every new shape once the tree holds {@link MAX_NODES} (literals
 * made at run time, lists of many lengths).
 */
import type { Statement } from "@effect/sql"

/** A shape's node: the next segments' nodes, and the text of the shape that ends here. */
interface Node {
  readonly next: Map<unknown, Node>
  text: string | undefined
}

/** The key of a parameter (a literal is keyed by its text, a list by its length). */
const PARAMETER = Symbol("parameter")
/** The key before an identifier's name (`sql.in("id", ids)`): a name is never taken for a literal of the same text. */
const IDENTIFIER = Symbol("identifier")

/** The most nodes kept; about 150 bytes each beside the literals' strings, which templates keep anyway. */
export const MAX_NODES = 20_000

/** Makes a compiler of shapes (one per client: texts are the client's compiler's). */
export const makeStatementText = () => {
  const root: Node = { next: new Map(), text: undefined }
  let nodes = 1
  /** `node`'s child for `key`, made when new; undefined once the tree is full. */
  const step = (node: Node, key: unknown): Node | undefined => {
    let child = node.next.get(key)
    if (child === undefined) {
      if (nodes >= MAX_NODES) return undefined
      child = { next: new Map(), text: undefined }
      node.next.set(key, child)
      nodes++
    }
    return child
  }
  return (statement: Statement.Statement<unknown>): readonly [string, ReadonlyArray<unknown>] => {
    const segments = statement.segments
    const params: Array<unknown> = []
    let node: Node | undefined = root
    for (let i = 0; i < segments.length && node !== undefined; i++) {
      const segment = segments[i]!
      switch (segment._tag) {
        case "Literal":
          if (segment.params !== undefined) { for (const p of segment.params) params.push(p) }
          node = step(node, segment.value)
          break
        case "Parameter":
          params.push(segment.value)
          node = step(node, PARAMETER)
          break
        case "ArrayHelper":
          for (const v of segment.value) params.push(v)
          node = step(node, segment.value.length)
          break
        case "Identifier":
          if (typeof segment.value !== "string") return statement.compile()
          node = step(node, IDENTIFIER)
          if (node !== undefined) node = step(node, segment.value)
          break
        default:
          return statement.compile()
      }
    }
    if (node === undefined) return statement.compile()
    if (node.text === undefined) {
      const [text, compiled] = statement.compile()
      node.text = text
      return [text, compiled]
    }
    return [node.text, params]
  }
}
