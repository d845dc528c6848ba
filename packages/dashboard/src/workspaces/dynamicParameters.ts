/**
 * The dynamic parameters of a template version (the described system's
 * `useDynamicParametersWebSocket` and CreateWorkspacePageViewExperimental): `GET
 * /templateversions/{id}/dynamic-parameters?user_id=me` as a WebSocket (the session cookie, same origin)
 * answers at once with id -1, then once per request `{id, inputs}`, echoing its id. The form sends
 * the values the person changed with an increasing id and keeps only the answer to its latest
 * request (an older one, overtaken, is dropped). Each answer holds the visible parameters as
 * evaluated (options, default, validation and form control) with their values and diagnostics.
 *
 * `toParameter` turns an evaluated parameter into the classic shape the form's controls and
 * checks (ParameterFields.tsx, parameters.ts) take, so a template without expressions gets the
 * same form either way.
 */
import { useCallback, useEffect, useRef, useState } from "react"
import { type Schemas, webSocketUrl } from "../api/client.ts"
import type { Parameter } from "./api.ts"
import type { Values } from "./parameters.ts"

export type DynamicResponse = Schemas["DynamicParametersResponse"]
export type PreviewParameter = Schemas["PreviewParameter"]
export type Diagnostic = Schemas["FriendlyDiagnostic"]

/** An evaluated parameter in the classic shape (its evaluated options, default, rules and control). */
export const toParameter = (p: PreviewParameter): Parameter => {
  const v = p.validations[0]
  const monotonic = v?.validation_monotonic
  return {
    name: p.name,
    ...(p.display_name !== "" ? { display_name: p.display_name } : {}),
    description: p.description,
    description_plaintext: p.description,
    type: p.type,
    form_type: p.form_type,
    mutable: p.mutable,
    default_value: p.default_value.valid ? p.default_value.value : "",
    icon: p.icon,
    options: p.options.map((o) => ({ name: o.name, description: o.description, icon: o.icon, value: o.value.value })),
    required: p.required,
    ephemeral: p.ephemeral,
    ...(v !== undefined && v.validation_error !== "" ? { validation_error: v.validation_error } : {}),
    ...(v?.validation_regex != null && v.validation_regex !== "" ? { validation_regex: v.validation_regex } : {}),
    ...(v?.validation_min != null ? { validation_min: v.validation_min } : {}),
    ...(v?.validation_max != null ? { validation_max: v.validation_max } : {}),
    ...(monotonic === "increasing" || monotonic === "decreasing" ? { validation_monotonic: monotonic } : {})
  }
}

/** Each evaluated parameter's value as the service answered it (`""` when it has none). */
export const answeredValues = (response: DynamicResponse): Values =>
  Object.fromEntries(response.parameters.map((p) => [p.name, p.value.valid ? p.value.value : ""]))

/** A diagnostic as one sentence: its detail, else its summary. */
export const diagnosticText = (d: Diagnostic) => (d.detail !== "" ? d.detail : d.summary)

/**
 * Follows the dynamic parameters of `version` (nothing when undefined) for `owner` (the workspace
 * owner's id; the signed-in user by default). `response` is the answer to the latest request
 * (undefined until the first answer), `current` whether no request is waiting for its answer,
 * `failed` whether the socket could not open or closed by itself (the form then falls back to the
 * classic parameters). `send(inputs)` asks again; false when the socket is not open (nothing sent).
 */
export const useDynamicParameters = (version: string | undefined, owner = "me") => {
  const [state, setState] = useState<{ response?: DynamicResponse; failed: boolean; sent: number }>({
    failed: false,
    sent: -1
  })
  const socketRef = useRef<WebSocket | undefined>(undefined)
  const sent = useRef(-1)
  useEffect(() => {
    if (version === undefined) return
    let closing = false
    sent.current = -1
    setState({ failed: false, sent: -1 })
    // For the workspace's owner, as the described system's forms open it (`?user_id=`).
    const socket = new WebSocket(
      webSocketUrl(
        `/templateversions/${encodeURIComponent(version)}/dynamic-parameters?user_id=${encodeURIComponent(owner)}`
      )
    )
    socketRef.current = socket
    socket.onmessage = (event) => {
      let answer: DynamicResponse
      try {
        answer = JSON.parse(String(event.data)) as DynamicResponse
      } catch {
        return
      }
      // An answer to a request since replaced: dropped.
      if (answer.id !== sent.current || !Array.isArray(answer.parameters)) return
      setState((s) => ({ ...s, response: answer }))
    }
    socket.onclose = () => {
      if (!closing) setState((s) => ({ ...s, failed: true }))
    }
    return () => {
      closing = true
      socketRef.current = undefined
      socket.close()
    }
  }, [version, owner])
  const send = useCallback((inputs: Values) => {
    const socket = socketRef.current
    if (socket === undefined || socket.readyState !== WebSocket.OPEN) return false
    sent.current += 1
    const id = sent.current
    socket.send(JSON.stringify({ id, inputs }))
    setState((s) => ({ ...s, sent: id }))
    return true
  }, [])
  return {
    response: state.response,
    current: state.response !== undefined && state.response.id === state.sent,
    failed: state.failed,
    send
  }
}
