/**
 * The state of a parameters form, one hook for the three forms that ask for a version's
 * parameters: creating a workspace (CreateWorkspace.tsx) and a workspace's "Change parameters" and
 * "Update" dialogs (WorkspaceParameters.tsx), as the described system's dynamic parameters forms
 * (CreateWorkspacePageViewExperimental, WorkspaceParametersPageViewExperimental).
 *
 * The parameters are the service's dynamic parameters (dynamicParameters.ts) evaluated for the
 * workspace's owner, unless the template asks for the classic form or the socket fails: then the
 * version's parameters as written (`GET /templateversions/{id}/rich-parameters`). The form sends
 * the values it knows: the latest build's (a workspace's dialogs; ephemeral ones are never carried
 * to the next build), the preset's, and those the person changed; the others take the evaluated
 * values of the latest answer, so options, defaults, visibility, rules and controls follow what
 * is typed. Immutable parameters the workspace has a value for are locked and not sent (the
 * service keeps their value). Each field's message: the form's own check (parameters.ts) once the
 * field was left, else the service's diagnostics; the diagnostics of the latest answer block a
 * submit. The service's validations of a refused request land on their fields.
 */
import { useQuery } from "@tanstack/react-query"
import { useEffect, useMemo, useRef, useState } from "react"
import type { ApiError } from "../api/client.ts"
import type { NameValue, Preset } from "./api.ts"
import { answeredValues, diagnosticText, toParameter, useDynamicParameters } from "./dynamicParameters.ts"
import {
  applyPreset,
  type Errors,
  initialValues,
  serverErrors,
  toRequest,
  validateAll,
  type Values
} from "./parameters.ts"
import { richParametersQuery } from "./queries.ts"

const NONE: ReadonlyArray<never> = []

export interface ParameterFormOptions {
  /** The template version whose parameters are asked. */
  readonly version: string
  /** The template asks for the classic form (`use_classic_parameter_flow`). */
  readonly classic: boolean
  /** The workspace owner's id the service evaluates for; the signed-in user when undefined. */
  readonly owner?: string | undefined
  /** The latest build's values, for a workspace that exists. */
  readonly previous?: ReadonlyArray<NameValue> | undefined
  /** The chosen preset: its values are held. */
  readonly preset?: Preset | undefined
  /** Only these parameters are asked (the classic update: what the workspace cannot answer). */
  readonly only?: ReadonlyArray<string> | undefined
  /** Other fields of the form the service's validations may name (`name`). */
  readonly otherFields?: ReadonlyArray<string> | undefined
  /** Every field's message shown from the start (a form opened because its values were refused). */
  readonly showAll?: boolean | undefined
  /** The service's validations the form opens with (`rich_parameter_values.NAME`). */
  readonly refused?: ReadonlyArray<{ field: string; detail: string }> | undefined
}

export const useParameterForm = (options: ParameterFormOptions) => {
  const { version, owner, previous = NONE, preset, only, otherFields = NONE, showAll = false } = options
  const dynamic = useDynamicParameters(options.classic ? undefined : version, owner)
  const classic = options.classic || dynamic.failed
  const rich = useQuery({ ...richParametersQuery(version), enabled: classic })
  const response = classic ? undefined : dynamic.response
  const evaluated = useMemo(() => response?.parameters.map(toParameter), [response])
  const all = (classic ? rich.data : evaluated) ?? NONE
  const parameters = useMemo(
    () => (only === undefined ? all : all.filter((p) => only.includes(p.name))),
    [all, only]
  )
  const names = parameters.map((p) => p.name)

  // The values the person changed; the others are the evaluated ones (dynamic) or the previous
  // build's, else the defaults (classic).
  const [typed, setTyped] = useState<Values>({})
  // Which fields show their message: those left once, and all after a submit.
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set())
  const [submitted, setSubmitted] = useState(false)
  const [fromServer, setFromServer] = useState<Errors>(() => {
    const refused = options.refused ?? NONE
    return serverErrors(refused, refused.map((v) => v.field.replace(/^rich_parameter_values\./, ""))).errors
  })

  // The names ever answered as ephemeral: their previous values are not carried.
  const ephemeral = useRef(new Set<string>())
  for (const p of all) if (p.ephemeral) ephemeral.current.add(p.name)
  const was = useMemo(
    () => Object.fromEntries(previous.filter((v) => !ephemeral.current.has(v.name)).map((v) => [v.name, v.value])),
    // The ephemeral names are learnt from the answers.
    [previous, all]
  )
  const locked = useMemo(
    () => new Set(all.filter((p) => !p.mutable && (was[p.name] ?? "") !== "").map((p) => p.name)),
    [all, was]
  )
  const base = useMemo(
    () => (response !== undefined ? answeredValues(response) : initialValues(all, previous)),
    [response, all, previous]
  )
  const { values, fixed } = useMemo(() => applyPreset({ ...base, ...typed }, preset), [base, typed, preset])
  // What the service evaluates with: the previous values, the changed ones, and the preset's.
  const inputs = useMemo(() => applyPreset({ ...was, ...typed }, preset).values, [was, typed, preset])
  const send = dynamic.send
  const opened = response !== undefined
  const lastSent = useRef("{}")
  // Whether the form opened with values to send (the previous build's, the preset's): it then
  // waits for their answer.
  const [seeded, setSeeded] = useState<boolean | undefined>(undefined)
  useEffect(() => {
    if (classic || !opened) return
    const json = JSON.stringify(inputs)
    const sent = json !== lastSent.current && send(inputs)
    if (sent) lastSent.current = json
    setSeeded((s) => s ?? sent)
  }, [inputs, send, classic, opened])

  const shown = (field: string) => showAll || submitted || touched.has(field)
  // The service's diagnostics of each parameter (a missing value only once the field was left).
  const diagnostics = useMemo(() => {
    const errors: Record<string, string> = {}
    const warnings: Record<string, string> = {}
    for (const p of response?.parameters ?? []) {
      const of = (severity: string) =>
        p.diagnostics.filter((d) => d.severity === severity && (d.extra.code !== "required" || shown(p.name)))
          .map(diagnosticText).join(" ")
      if (of("error") !== "") errors[p.name] = of("error")
      if (of("warning") !== "") warnings[p.name] = of("warning")
    }
    return { errors, warnings }
  }, [response, touched, submitted, showAll])
  const checked = validateAll(parameters, values, previous)
  const errors: Errors = { ...checked, ...fromServer }
  // A field's message: the form's own check once the field was left, else the service's diagnostics.
  const visible: Errors = {
    ...diagnostics.errors,
    ...Object.fromEntries(Object.entries(errors).filter(([k]) => shown(k)))
  }
  // Diagnostics block a submit only when they answer the latest values.
  const blocking = dynamic.current && !classic ? diagnostics.errors : {}

  const loading = classic
    ? rich.isPending && !rich.isError
    // The first answer, and, when it opened with values to send, the answer to them.
    : response === undefined || seeded === undefined || (seeded && response.id < 0)
  const touch = (field: string) => setTouched((t) => new Set(t).add(field))

  return {
    loading,
    error: classic ? rich.error : null,
    /** Whether the form follows the service's evaluation. */
    dynamic: !classic,
    parameters,
    values,
    /** Whether `field` shows its message. */
    shown,
    touch,
    /** The service's validation of a field (`name` too). */
    fromServer,
    /** The props of ParameterFields. */
    fields: {
      parameters,
      values,
      errors: visible,
      warnings: diagnostics.warnings,
      fixed,
      locked,
      onChange: (field: string, value: string) => {
        setTyped((v) => ({ ...v, [field]: value }))
        setFromServer(({ [field]: _, ...rest }) => rest)
      },
      onBlur: touch
    },
    clearServerError: (field: string) => setFromServer(({ [field]: _, ...rest }) => rest),
    /** A submit: every message shown; true when nothing blocks it. */
    submit: () => {
      setSubmitted(true)
      return Object.keys(errors).length === 0 && Object.keys(blocking).length === 0
    },
    /** The request's `rich_parameter_values`: the visible parameters but the locked ones. */
    request: () => toRequest(parameters.filter((p) => !locked.has(p.name)), values),
    /** The service refused the request: its validations on their fields. */
    refused: (e: ApiError) => setFromServer(serverErrors(e.validations, [...otherFields, ...names]).errors)
  }
}

export type ParameterForm = ReturnType<typeof useParameterForm>
