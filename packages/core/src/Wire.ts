/**
 * Response fields the described system omits when empty. Its Go types tag them
 * `json:",omitempty"`: an empty string, `false`, `0`, an empty list or map is
 * not sent at all (a `null` pointer neither), so a client that checks formats
 * never sees `"avatar_url": ""`. Times are structs in Go and are always sent.
 *
 * The field is declared with {@link omitEmpty} on the response class and the
 * conversion leaves it out when empty with {@link putNonEmpty}: the encoder then
 * has nothing to transform, which keeps list pages as fast as plain fields.
 */
import { Schema, type Types } from "effect"

/** A response field that is absent when empty (Go's `omitempty`). */
export const omitEmpty = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

/** Whether Go's `omitempty` drops this value: `""`, `false`, `0`, `null`, an empty array or an empty object. */
export const isEmptyValue = (value: unknown): boolean => {
  if (value === "" || value === false || value === 0 || value === null || value === undefined) return true
  if (Array.isArray(value)) return value.length === 0
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    for (const _ in value) return false
    return true
  }
  return false
}

/** The mutable properties a response class is constructed from. */
export type WireProps<C extends new(props: any, disableValidation?: boolean) => any> = Types.Mutable<
  ConstructorParameters<C>[0]
>

/** A Schema class: its constructor takes the props and whether to skip validation; `fields` are its schema's. */
type WireClass = (new(props: any, disableValidation?: boolean) => any) & { readonly fields: Schema.Struct.Fields }

/** Whether a field fills itself in when absent (`Schema.optionalWith(..., { default })`, a tag). */
const hasConstructorDefault = (field: unknown): boolean => {
  if (!Schema.isPropertySignature(field)) return false
  const ast = field.ast as Schema.PropertySignature.AST
  return (ast._tag === "PropertySignatureDeclaration" ? ast.defaultValue : ast.to.defaultValue) !== undefined
}

/**
 * A constructor that copies `fields` from the props onto a new instance of `proto`: one generated
 * function per class with constant keys (as the encoders are, Encoding.ts), so every record of a
 * class is built in one fixed shape. An optional field is copied only when the props have it (an
 * absent one stays absent, as a copy of the props leaves it); a required one always. `undefined`
 * where code generation is not allowed, or for a field name that cannot be a plain property.
 */
const fieldCopier = (fields: Schema.Struct.Fields, proto: object): ((props: object) => any) | undefined => {
  const ast = Schema.typeSchema(Schema.Struct(fields)).ast
  if (ast._tag !== "TypeLiteral" || ast.indexSignatures.length > 0) return undefined
  const signatures = ast.propertySignatures
  if (signatures.some((ps) => typeof ps.name !== "string" || ps.name === "__proto__")) return undefined
  const lines = signatures.map((ps) => {
    const key = JSON.stringify(ps.name)
    return ps.isOptional ? `if (has.call(p, ${key})) this[${key}] = p[${key}]` : `this[${key}] = p[${key}]`
  })
  let Make: new(props: object) => unknown
  try {
    Make = new Function("has", `return function WireRecord(p) {\n${lines.join("\n")}\n}`)(
      Object.prototype.hasOwnProperty
    )
  } catch (e) {
    if (!(e instanceof EvalError)) throw e
    return undefined
  }
  Make.prototype = proto
  return (props) => new Make(props)
}

/**
 * The constructor of records of `C` from props already valid: what `new C(props, true)` makes,
 * at a tenth of the cost or less. Schema's class constructor copies the props, walks the class's
 * fields for defaults to fill in (about 0.8 us for a record of fifteen fields, a large part of
 * building a list page's rows), then copies them onto the instance; for a class none of whose
 * fields has a default that walk finds nothing, so the class's fields are copied from the props
 * onto a new instance of `C` directly ({@link fieldCopier}; where code is not generated, a copy of
 * the props given the class's prototype). The record has the class's fields only, in the class's
 * order. A class with a default (or a tag) keeps `new C(props, true)`. Make it once per class,
 * next to the class, as with the encoders.
 */
export const wireMaker = <C extends WireClass>(C: C): (props: ConstructorParameters<C>[0]) => InstanceType<C> => {
  // Settled at the first record, so that a maker may be made where `C` is imported (modules in a
  // cycle see their imports only once every module of it ran).
  let make: ((props: ConstructorParameters<C>[0]) => InstanceType<C>) | undefined
  const settle = () => {
    if (Object.values(C.fields).some(hasConstructorDefault)) {
      return (props: ConstructorParameters<C>[0]) => new C(props, true)
    }
    const proto = C.prototype
    // Where code is not generated: a copy given the class's prototype (a quarter of the cost of
    // `Object.assign(Object.create(proto), props)` for 30 fields, three times the generated copier's).
    return fieldCopier(C.fields, proto) ??
      ((props: ConstructorParameters<C>[0]) => Object.setPrototypeOf({ ...props }, proto))
  }
  return (props) => (make ??= settle())(props)
}

/** Sets `target[key]` to `value` unless `value` is empty (see {@link isEmptyValue}). */
export const putNonEmpty = <T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void => {
  if (!isEmptyValue(value)) target[key] = value as T[K]
}
