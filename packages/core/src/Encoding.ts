/**
 * Compiled encoders. Encoding a response through `Schema.encodeUnknownEither` walks the schema's
 * parser for every value: about 5 us for one user and 290 us for a page of 50, most of a list
 * request's time. {@link compileEncoder} compiles a schema's AST once into plain functions that
 * build the encoded value directly, for the parts of the AST responses are made of (classes and
 * structs, arrays, records, literals and primitives, refinements such as UUID, `Schema.Date`,
 * unions of one value type with primitives, and transformations whose encode step is
 * synchronous), and falls back to Schema for everything else.
 *
 * The rule that keeps it exact: the compiled path either produces what Schema would, or gives up
 * ({@link GIVE_UP}) and the whole value is encoded by Schema, which then answers its own result or
 * its own error. It gives up on any value it does not recognise as valid (a failed check, a
 * missing key, a transformation that is not synchronous), never on a guess. Every check Schema
 * makes on the way is made too: types, literals, refinement filters, class instances (the class
 * declaration's own check); no validation is skipped. A schema with a part it cannot compile is
 * encoded by Schema alone. The property test in `core/test/Encoding.test.ts` compares both on
 * generated values of every response schema.
 */
import { Either, Option, type ParseResult, Schema, type SchemaAST } from "effect"

/** What a compiled step answers when it cannot encode a value (Schema then encodes the whole value). */
export const GIVE_UP: unique symbol = Symbol.for("@workbay/core/Encoding/GIVE_UP")
type Step = (input: unknown) => unknown

const OPTIONS: SchemaAST.ParseOptions = {}
const hasOwn = Object.prototype.hasOwnProperty
const dateAst = Schema.Date.ast

const isRecord = (u: unknown): u is Record<PropertyKey, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/** Thrown while compiling a part that has no compiled form. */
class NotCompiled extends Error {}

/** A step identical to its input when `check` holds. */
const checked = (check: (u: unknown) => boolean): Step => (u) => check(u) ? u : GIVE_UP

/** Whether a schema part encodes a primitive to itself (so it cannot be confused with an object member of a union). */
const isPrimitiveIdentity = (ast: SchemaAST.AST): boolean => {
  switch (ast._tag) {
    case "Literal":
    case "StringKeyword":
    case "NumberKeyword":
    case "BooleanKeyword":
    case "UndefinedKeyword":
    case "Enums":
      return true
    case "Refinement":
      return isPrimitiveIdentity(ast.from)
    default:
      return false
  }
}

const compileAst = (ast: SchemaAST.AST, memo: Map<SchemaAST.AST, Step>): Step => {
  const known = memo.get(ast)
  if (known !== undefined) return known
  // Recursive schemas meet themselves through Suspend: the memo holds a forwarder until compiled.
  let compiled: Step | undefined
  memo.set(ast, (u) => compiled!(u))
  compiled = compileNode(ast, memo)
  memo.set(ast, compiled)
  return compiled
}

const compileNode = (ast: SchemaAST.AST, memo: Map<SchemaAST.AST, Step>): Step => {
  if (ast === dateAst) {
    return (u) => u instanceof Date && !Number.isNaN(u.getTime()) ? u.toISOString() : GIVE_UP
  }
  switch (ast._tag) {
    case "StringKeyword":
      return checked((u) => typeof u === "string")
    case "NumberKeyword":
      return checked((u) => typeof u === "number")
    case "BooleanKeyword":
      return checked((u) => typeof u === "boolean")
    case "UndefinedKeyword":
      return checked((u) => u === undefined)
    case "UnknownKeyword":
    case "AnyKeyword":
      return (u) => u
    case "ObjectKeyword":
      return checked((u) => (typeof u === "object" && u !== null) || typeof u === "function")
    case "Literal": {
      const literal = ast.literal
      return checked((u) => u === literal)
    }
    case "Enums": {
      const values = new Set<unknown>(ast.enums.map(([, v]) => v))
      return checked((u) => values.has(u))
    }
    case "Refinement": {
      const from = compileAst(ast.from, memo)
      return (u) => {
        const out = from(u)
        if (out === GIVE_UP) return GIVE_UP
        return Option.isNone(ast.filter(u, OPTIONS, ast)) ? out : GIVE_UP
      }
    }
    case "Declaration": {
      const encode = ast.encodeUnknown(...ast.typeParameters)
      return (u) => {
        const r = encode(u, OPTIONS, ast)
        return Either.isEither(r) && Either.isRight(r) ? r.right : GIVE_UP
      }
    }
    case "Transformation": {
      const t = ast.transformation
      if (t._tag === "TypeLiteralTransformation") throw new NotCompiled()
      const to = compileAst(ast.to, memo)
      const from = compileAst(ast.from, memo)
      if (t._tag === "ComposeTransformation") {
        return (u) => {
          const a = to(u)
          return a === GIVE_UP ? GIVE_UP : from(a)
        }
      }
      return (u) => {
        const a = to(u)
        if (a === GIVE_UP) return GIVE_UP
        const r = t.encode(a, OPTIONS, ast, u)
        return Either.isEither(r) && Either.isRight(r) ? from(r.right) : GIVE_UP
      }
    }
    case "Suspend":
      return compileAst(ast.f(), memo)
    case "TupleType": {
      if (ast.elements.length > 0 || ast.rest.length !== 1) throw new NotCompiled()
      const item = compileAst(ast.rest[0]!.type, memo)
      return (u) => {
        if (!Array.isArray(u)) return GIVE_UP
        const out = new Array(u.length)
        for (let i = 0; i < u.length; i++) {
          const v = item(u[i])
          if (v === GIVE_UP) return GIVE_UP
          out[i] = v
        }
        return out
      }
    }
    case "TypeLiteral": {
      if (ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0) {
        return checked((u) => u !== null && u !== undefined)
      }
      if (ast.indexSignatures.length > 0) {
        if (ast.propertySignatures.length > 0 || ast.indexSignatures.length > 1) throw new NotCompiled()
        const signature = ast.indexSignatures[0]!
        if (signature.parameter._tag !== "StringKeyword") throw new NotCompiled()
        const value = compileAst(signature.type, memo)
        return (u) => {
          if (!isRecord(u)) return GIVE_UP
          const out: Record<string, unknown> = {}
          for (const key of Object.keys(u)) {
            const v = value(u[key])
            if (v === GIVE_UP) return GIVE_UP
            out[key] = v
          }
          return out
        }
      }
      const fields = ast.propertySignatures.map((ps) => {
        if (typeof ps.name !== "string") throw new NotCompiled()
        return { name: ps.name, optional: ps.isOptional, step: compileAst(ps.type, memo) }
      })
      return objectStep(fields)
    }
    case "Union": {
      // Exact only when the members cannot claim the same value differently: primitives encode to
      // themselves, so at most one member may be anything else (an object, a date, an array).
      const complex = ast.types.filter((t) => !isPrimitiveIdentity(t))
      if (complex.length > 1) throw new NotCompiled()
      const steps = ast.types.map((t) => compileAst(t, memo))
      return (u) => {
        for (let i = 0; i < steps.length; i++) {
          const v = steps[i]!(u)
          if (v !== GIVE_UP) return v
        }
        return GIVE_UP
      }
    }
    default:
      throw new NotCompiled()
  }
}

interface Field {
  readonly name: string
  readonly optional: boolean
  readonly step: Step
}

/**
 * The step of a struct: each field's step in order, into a new object with the same key order
 * Schema gives (the property signatures' order). An optional field that is absent stays absent;
 * a required one that is absent is encoded from `undefined`, as Schema does.
 *
 * Generated as the source of one function with constant keys (`u["name"]`, an object literal),
 * which V8 compiles to fixed-shape property access: a loop over the field names reads and writes
 * properties by computed keys, about ten times slower. Field names enter the source only through
 * `JSON.stringify`. Where code generation is not allowed, the loop is used.
 */
const objectStep = (fields: ReadonlyArray<Field>): Step => {
  try {
    return generatedObjectStep(fields)
  } catch (e) {
    if (e instanceof EvalError) return loopObjectStep(fields)
    throw e
  }
}

const generatedObjectStep = (fields: ReadonlyArray<Field>): Step => {
  const lines: Array<string> = ["if (typeof u !== 'object' || u === null || Array.isArray(u)) return G;"]
  fields.forEach((f, i) => {
    const key = JSON.stringify(f.name)
    lines.push(
      f.optional
        ? `let v${i}; const h${i} = has.call(u, ${key}); if (h${i}) { v${i} = s[${i}](u[${key}]); if (v${i} === G) return G; }`
        : `const v${i} = s[${i}](u[${key}]); if (v${i} === G) return G;`
    )
  })
  // Keys in field order: the literal holds the fields before the first optional one, and the
  // rest are set after it in order (an optional one only when present).
  const firstOptional = fields.findIndex((f) => f.optional)
  const head = firstOptional < 0 ? fields.length : firstOptional
  const literal = fields.slice(0, head).map((f, i) => `${JSON.stringify(f.name)}: v${i}`).join(", ")
  const tail = fields.slice(head).map((f, j) => {
    const i = head + j
    const key = JSON.stringify(f.name)
    return f.optional ? `if (h${i}) o[${key}] = v${i};` : `o[${key}] = v${i};`
  })
  lines.push(`const o = { ${literal} };`, ...tail, "return o;")
  const make = new Function("s", "G", "has", `return function encodeStruct(u) {\n${lines.join("\n")}\n}`)
  return make(fields.map((f) => f.step), GIVE_UP, hasOwn) as Step
}

const loopObjectStep = (fields: ReadonlyArray<Field>): Step => (u) => {
  if (!isRecord(u)) return GIVE_UP
  const out: Record<string, unknown> = {}
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!
    if (!hasOwn.call(u, f.name) && f.optional) continue
    const v = f.step(u[f.name])
    if (v === GIVE_UP) return GIVE_UP
    out[f.name] = v
  }
  return out
}

/**
 * The compiled step of `schema`, or undefined when part of it has no compiled form. A step
 * answers the encoded value, or {@link GIVE_UP}.
 */
export const compileEncodeStep = <A, I, R>(
  schema: Schema.Schema<A, I, R>
): ((input: unknown) => unknown) | undefined => {
  try {
    return compileAst(schema.ast, new Map())
  } catch (e) {
    if (e instanceof NotCompiled) return undefined
    throw e
  }
}

/**
 * `Schema.encodeUnknownEither(schema)`, compiled where it can be: the same answers (values and
 * errors), faster. Schema encodes whatever the compiled step gives up on.
 */
export const compileEncoder = <A, I>(
  schema: Schema.Schema<A, I, never>
): (input: unknown) => Either.Either<I, ParseResult.ParseError> => {
  const slow = Schema.encodeUnknownEither(schema)
  const step = compileEncodeStep(schema)
  if (step === undefined) return slow
  return (input) => {
    const out = step(input)
    return out === GIVE_UP ? slow(input) : Either.right(out as I)
  }
}

/** `Schema.encodeSync(schema)`, compiled where it can be (see {@link compileEncoder}). */
export const compileEncoderSync = <A, I>(schema: Schema.Schema<A, I, never>): (input: A) => I => {
  const encode = compileEncoder(schema)
  return (input) => {
    const r = encode(input)
    if (Either.isLeft(r)) throw r.left
    return r.right
  }
}
