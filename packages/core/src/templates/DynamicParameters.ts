/**
 * Dynamic parameters (docs/templates.md#dynamic-parameters): a version's parameters evaluated
 * against a form's values and the workspace owner, answered as the described system's
 * `DynamicParametersResponse`, and the evaluated parameters that workspace builds check values
 * against. Pure: no I/O.
 */
import { Either, Schema } from "effect"
import type { DynamicExpressions, RichParameter, RichParameterOption } from "../provisioners/Provisioner.js"
import { compileExpression, evaluateExpression, MAX_LIST_VALUES, type Value } from "./Expressions.js"
import { checkValue } from "./ParameterValues.js"
import { defaultFormType, parameterFormTypes } from "./TemplateVersionWire.js"

// The wire, as the described system's codersdk names it.

export class NullHCLString extends Schema.Class<NullHCLString>("NullHCLString")({
  value: Schema.String,
  valid: Schema.Boolean
}) {}

export class DiagnosticExtra extends Schema.Class<DiagnosticExtra>("DiagnosticExtra")({
  code: Schema.String
}) {}

export class FriendlyDiagnostic extends Schema.Class<FriendlyDiagnostic>("FriendlyDiagnostic")({
  severity: Schema.Literal("error", "warning"),
  summary: Schema.String,
  detail: Schema.String,
  extra: DiagnosticExtra
}) {}

export class PreviewParameterOption extends Schema.Class<PreviewParameterOption>("PreviewParameterOption")({
  name: Schema.String,
  description: Schema.String,
  value: NullHCLString,
  icon: Schema.String
}) {}

export class PreviewParameterValidation extends Schema.Class<PreviewParameterValidation>("PreviewParameterValidation")({
  validation_error: Schema.String,
  validation_regex: Schema.NullOr(Schema.String),
  validation_min: Schema.NullOr(Schema.Number),
  validation_max: Schema.NullOr(Schema.Number),
  validation_monotonic: Schema.NullOr(Schema.String)
}) {}

export class PreviewParameterStyling extends Schema.Class<PreviewParameterStyling>("PreviewParameterStyling")({
  placeholder: Schema.optionalWith(Schema.String, { exact: true }),
  disabled: Schema.optionalWith(Schema.Boolean, { exact: true }),
  label: Schema.optionalWith(Schema.String, { exact: true }),
  mask_input: Schema.optionalWith(Schema.Boolean, { exact: true })
}) {}

export type ParameterFormType = typeof parameterFormTypes[number]

export class PreviewParameter extends Schema.Class<PreviewParameter>("PreviewParameter")({
  name: Schema.String,
  display_name: Schema.String,
  description: Schema.String,
  type: Schema.Literal("string", "number", "bool", "list(string)"),
  form_type: Schema.Literal(...parameterFormTypes),
  styling: PreviewParameterStyling,
  mutable: Schema.Boolean,
  default_value: NullHCLString,
  icon: Schema.String,
  options: Schema.Array(PreviewParameterOption),
  validations: Schema.Array(PreviewParameterValidation),
  required: Schema.Boolean,
  order: Schema.Number,
  ephemeral: Schema.Boolean,
  value: NullHCLString,
  diagnostics: Schema.Array(FriendlyDiagnostic)
}) {}

export class DynamicParametersResponse extends Schema.Class<DynamicParametersResponse>("DynamicParametersResponse")({
  id: Schema.Number,
  diagnostics: Schema.Array(FriendlyDiagnostic),
  parameters: Schema.Array(PreviewParameter)
}) {}

/** What expressions know of the workspace's owner (`owner.name`, `owner.groups`, ...). */
export interface WorkspaceOwnerData {
  readonly id: string
  readonly name: string
  readonly full_name: string
  readonly email: string
  readonly groups: ReadonlyArray<string>
}

/** The longest value a form may send for one parameter, in characters. */
export const MAX_INPUT_LENGTH = 4_096

const diagnostic = (summary: string, detail: string, code: string, severity: "error" | "warning" = "error") =>
  new FriendlyDiagnostic({ severity, summary, detail, extra: new DiagnosticExtra({ code }) }, true)

/** A value as expressions see it: numbers, booleans and lists typed; undefined when it does not fit its type. */
const typedValue = (type: RichParameter["type"], value: string): unknown => {
  switch (type) {
    case "number": {
      const n = Number(value)
      return value.trim() !== "" && Number.isFinite(n) ? n : undefined
    }
    case "bool":
      return value === "true" ? true : value === "false" ? false : undefined
    case "list(string)": {
      try {
        const parsed: unknown = JSON.parse(value)
        return Array.isArray(parsed) && parsed.length <= MAX_LIST_VALUES && parsed.every((x) => typeof x === "string")
          ? parsed
          : undefined
      } catch {
        return undefined
      }
    }
    default:
      return value
  }
}

/** An answer as a parameter value: strings as they are, lists as JSON, the rest as text. */
const asText = (v: Value): string =>
  typeof v === "string" ? v : Array.isArray(v) ? JSON.stringify(v.map((x) => asText(x))) : String(v)

/** One parameter's evaluation: the parameter as evaluated (undefined when hidden) and its diagnostics. */
export interface EvaluatedParameter {
  readonly parameter: RichParameter
  readonly visible: boolean
  readonly value: string | undefined
  readonly diagnostics: ReadonlyArray<FriendlyDiagnostic>
}

type Key = keyof DynamicExpressions

/**
 * Evaluates a version's parameters in their declared order with the form's `inputs` and the
 * `owner`: each parameter's expressions see the values of the visible parameters above it
 * (`param.NAME`) and the owner. A failing expression leaves the property as written and says
 * why in the parameter's diagnostics.
 */
export const evaluateParameters = (
  parameters: ReadonlyArray<RichParameter>,
  inputs: Readonly<Record<string, string>>,
  owner: WorkspaceOwnerData
): ReadonlyArray<EvaluatedParameter> => {
  const param: Record<string, unknown> = {}
  const ownerValue = { ...owner, groups: [...owner.groups] }
  const out: Array<EvaluatedParameter> = []
  for (const p of parameters) {
    const diagnostics: Array<FriendlyDiagnostic> = []
    const run = (key: Key): Value | undefined => {
      const text = p.dynamic?.[key]
      if (text === undefined) return undefined
      const result = Either.flatMap(compileExpression(text), (e) => evaluateExpression(e, { param, owner: ownerValue }))
      if (Either.isLeft(result)) {
        diagnostics.push(diagnostic(`The expression of ${key} failed.`, result.left, "expression"))
        return undefined
      }
      return result.right
    }
    const expect = <A>(key: Key, v: Value | undefined, ok: (v: Value) => A | undefined, what: string) => {
      if (v === undefined) return undefined
      const a = ok(v)
      if (a === undefined) {
        diagnostics.push(diagnostic(`The expression of ${key} failed.`, `must be ${what}`, "expression"))
      }
      return a
    }
    const visible = expect("visible", run("visible"), (v) => (typeof v === "boolean" ? v : undefined), "true or false")
    if (visible === false) {
      out.push({ parameter: p, visible: false, value: undefined, diagnostics })
      continue
    }
    const options = expect("options", run("options"), (v) => toOptions(v), "a list of values or of {name, value}")
    const dflt = expect(
      "default",
      run("default"),
      (v) => (v === null || typeof v === "object" && !Array.isArray(v) ? undefined : asText(v)),
      "a string, a number, a boolean or a list"
    )
    const num = (v: Value) => (typeof v === "number" && Number.isFinite(v) ? v : undefined)
    const str = (v: Value) => (typeof v === "string" ? v : undefined)
    const min = expect("min", run("min"), num, "a number")
    const max = expect("max", run("max"), num, "a number")
    const regex = expect("regex", run("regex"), str, "a string")
    const error = expect("error", run("error"), str, "a string")
    const formType = expect(
      "form_type",
      run("form_type"),
      (v) => (parameterFormTypes as ReadonlyArray<unknown>).includes(v) ? v as ParameterFormType : undefined,
      `one of ${parameterFormTypes.filter((t) => t !== "").join(", ")}`
    )
    const evaluated: RichParameter = {
      ...p,
      ...(options !== undefined ? { options } : {}),
      ...(dflt !== undefined ? { default_value: dflt, required: false } : {}),
      ...(min !== undefined ? { validation_min: min } : {}),
      ...(max !== undefined ? { validation_max: max } : {}),
      ...(regex !== undefined ? { validation_regex: regex } : {}),
      ...(error !== undefined ? { validation_error: error } : {}),
      ...(formType !== undefined ? { form_type: formType } : {})
    }
    const given = inputs[p.name]
    const value = given ?? (evaluated.required ? undefined : evaluated.default_value)
    if (given !== undefined && given.length > MAX_INPUT_LENGTH) {
      diagnostics.push(
        diagnostic("The value is too long.", `A value may have at most ${MAX_INPUT_LENGTH} characters.`, "input")
      )
    } else if (value === undefined) {
      diagnostics.push(diagnostic("A value is required.", `Parameter "${p.name}" is required.`, "required"))
    } else {
      for (const problem of checkValue(evaluated, value)) {
        diagnostics.push(diagnostic("Invalid value.", problem, "value"))
      }
      const typed = typedValue(p.type, value)
      if (typed !== undefined) param[p.name] = typed
    }
    out.push({ parameter: evaluated, visible: true, value, diagnostics })
  }
  return out
}

const toOptions = (v: Value): ReadonlyArray<RichParameterOption> | undefined => {
  if (!Array.isArray(v)) return undefined
  const options: Array<RichParameterOption> = []
  for (const item of v as ReadonlyArray<Value>) {
    if (typeof item === "string" || typeof item === "number" || typeof item === "boolean") {
      options.push({ name: String(item), value: String(item), description: "", icon: "" })
    } else if (item !== null && typeof item === "object" && !Array.isArray(item)) {
      const o = item as { readonly [key: string]: Value }
      const value = o["value"]
      if (value === undefined || value === null || typeof value === "object") return undefined
      const text = (k: string) => (typeof o[k] === "string" ? o[k] : "")
      options.push({
        name: text("name") || String(value),
        value: String(value),
        description: text("description"),
        icon: text("icon")
      })
    } else return undefined
  }
  return options
}

/** Whether any parameter of a version has expressions. */
export const hasDynamicParameters = (parameters: ReadonlyArray<RichParameter>) =>
  parameters.some((p) => p.dynamic !== undefined && Object.keys(p.dynamic).length > 0)

const hcl = (value: string | undefined) => new NullHCLString({ value: value ?? "", valid: value !== undefined }, true)

/** The wire form of one evaluated, visible parameter. */
export const toPreviewParameter = (e: EvaluatedParameter): PreviewParameter => {
  const p = e.parameter
  const hasValidation = p.validation_regex !== "" || p.validation_min !== undefined ||
    p.validation_max !== undefined || p.validation_monotonic !== "" || p.validation_error !== ""
  return new PreviewParameter({
    name: p.name,
    display_name: p.display_name,
    description: p.description,
    type: p.type,
    form_type: (p.form_type as ParameterFormType | undefined) ?? defaultFormType(p),
    styling: new PreviewParameterStyling({}, true),
    mutable: p.mutable,
    default_value: hcl(p.required ? undefined : p.default_value),
    icon: p.icon,
    options: p.options.map((o) =>
      new PreviewParameterOption({ name: o.name, description: o.description, value: hcl(o.value), icon: o.icon }, true)
    ),
    validations: hasValidation
      ? [
        new PreviewParameterValidation({
          validation_error: p.validation_error,
          validation_regex: p.validation_regex === "" ? null : p.validation_regex,
          validation_min: p.validation_min ?? null,
          validation_max: p.validation_max ?? null,
          validation_monotonic: p.validation_monotonic === "" ? null : p.validation_monotonic
        }, true)
      ]
      : [],
    required: p.required,
    order: p.order,
    ephemeral: p.ephemeral,
    value: hcl(e.value),
    diagnostics: e.diagnostics
  }, true)
}

/** The answer to one request of a form: its id echoed, the visible parameters evaluated. */
export const dynamicParametersResponse = (
  id: number,
  parameters: ReadonlyArray<RichParameter>,
  inputs: Readonly<Record<string, string>>,
  owner: WorkspaceOwnerData
): DynamicParametersResponse =>
  new DynamicParametersResponse({
    id,
    diagnostics: [],
    parameters: evaluateParameters(parameters, inputs, owner).filter((e) => e.visible).map(toPreviewParameter)
  }, true)

/**
 * The parameters a build checks its values against: for a version with expressions, the visible
 * ones as evaluated with `values` (what the build would use: given, else previous, else preset)
 * and the owner; a static version's parameters as they are.
 */
export const parametersForBuild = (
  parameters: ReadonlyArray<RichParameter>,
  values: Readonly<Record<string, string>>,
  owner: WorkspaceOwnerData
): ReadonlyArray<RichParameter> =>
  hasDynamicParameters(parameters)
    ? evaluateParameters(parameters, values, owner).filter((e) => e.visible).map((e) => e.parameter)
    : parameters
