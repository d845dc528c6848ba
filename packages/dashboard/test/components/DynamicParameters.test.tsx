// @vitest-environment happy-dom
/**
 * The dynamic parameters' socket without a browser (useDynamicParameters against a fake
 * WebSocket): the first answer (id -1) taken, requests sent with increasing ids and only the
 * user's inputs, an answer to a replaced request dropped, a socket closing by itself failing over;
 * `toParameter`, the evaluated parameter in the classic shape; and the form's hook
 * (useParameterForm) for a workspace that exists: evaluated for its owner from the latest build's
 * values (ephemeral ones not carried), immutable ones locked and left out of the request.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query"
import { act, cleanup, renderHook } from "@testing-library/react"
import type { ReactNode } from "react"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import {
  answeredValues,
  type DynamicResponse,
  type PreviewParameter,
  toParameter,
  useDynamicParameters
} from "../../src/workspaces/dynamicParameters.ts"
import { useParameterForm } from "../../src/workspaces/parameterForm.ts"

class FakeSocket {
  static OPEN = 1
  static last: FakeSocket | undefined
  readyState = 1
  sent: Array<unknown> = []
  onmessage: ((e: { data: string }) => void) | null = null
  onclose: (() => void) | null = null
  constructor(readonly url: string) {
    FakeSocket.last = this
  }
  send(data: string) {
    this.sent.push(JSON.parse(data))
  }
  close() {
    this.readyState = 3
  }
  answer(r: DynamicResponse) {
    this.onmessage?.({ data: JSON.stringify(r) })
  }
}

const preview = (p: Partial<PreviewParameter> & { name: string }): PreviewParameter => ({
  display_name: "",
  description: "",
  type: "string",
  form_type: "input",
  styling: {},
  mutable: false,
  default_value: { value: "", valid: false },
  icon: "",
  options: [],
  validations: [],
  required: false,
  order: 0,
  ephemeral: false,
  value: { value: "", valid: false },
  diagnostics: [],
  ...p
})

const answer = (id: number, value: string): DynamicResponse => ({
  id,
  diagnostics: [],
  parameters: [preview({ name: "size", value: { value, valid: true } })]
})

const real = globalThis.WebSocket
beforeEach(() => {
  globalThis.WebSocket = FakeSocket as unknown as typeof WebSocket
})
afterEach(() => {
  globalThis.WebSocket = real
  cleanup()
})

describe("useDynamicParameters", () => {
  it("keeps only the answer to the latest request", () => {
    const { result } = renderHook(() => useDynamicParameters("v1"))
    const socket = FakeSocket.last!
    expect(socket.url).toMatch(/\/api\/v2\/templateversions\/v1\/dynamic-parameters\?user_id=me$/)
    act(() => socket.answer(answer(-1, "small")))
    expect(result.current.response?.id).toBe(-1)
    expect(result.current.current).toBe(true)

    act(() => result.current.send({ region: "us" }))
    act(() => result.current.send({ region: "eu" }))
    expect(socket.sent).toEqual([{ id: 0, inputs: { region: "us" } }, { id: 1, inputs: { region: "eu" } }])
    expect(result.current.current).toBe(false)
    // The answer to the replaced request: dropped.
    act(() => socket.answer(answer(0, "large")))
    expect(result.current.response?.id).toBe(-1)
    act(() => socket.answer(answer(1, "medium")))
    expect(result.current.response?.id).toBe(1)
    expect(result.current.current).toBe(true)
    expect(answeredValues(result.current.response!)).toEqual({ size: "medium" })
  })

  it("fails over when the socket closes by itself, not when the form closes it", () => {
    const { result, unmount } = renderHook(() => useDynamicParameters("v1"))
    act(() => FakeSocket.last!.onclose?.())
    expect(result.current.failed).toBe(true)
    unmount()
    const again = renderHook(() => useDynamicParameters("v2"))
    const socket = FakeSocket.last!
    expect(again.result.current.failed).toBe(false)
    again.unmount()
    expect(socket.readyState).toBe(3)
  })

  it("opens nothing for the classic form", () => {
    FakeSocket.last = undefined
    renderHook(() => useDynamicParameters(undefined))
    expect(FakeSocket.last).toBeUndefined()
  })
})

describe("toParameter", () => {
  it("gives the evaluated options, default and rules in the classic shape", () => {
    const p = toParameter(preview({
      name: "disk",
      display_name: "Disk",
      type: "number",
      required: false,
      default_value: { value: "10", valid: true },
      options: [{ name: "Ten", description: "", icon: "", value: { value: "10", valid: true } }],
      validations: [{
        validation_error: "At most 20 GB.",
        validation_min: null,
        validation_max: 20,
        validation_regex: null,
        validation_monotonic: null
      }]
    }))
    expect(p).toMatchObject({
      name: "disk",
      display_name: "Disk",
      default_value: "10",
      options: [{ name: "Ten", value: "10" }],
      validation_max: 20,
      validation_error: "At most 20 GB."
    })
    expect(p.validation_min).toBeUndefined()
    expect(p.validation_regex).toBeUndefined()
    expect(toParameter(preview({ name: "x" })).display_name).toBeUndefined()
  })
})

describe("useParameterForm", () => {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>
  )
  const parameters = (size: string, sizeValid = true) => [
    preview({ name: "zone", value: { value: "a", valid: true } }),
    preview({ name: "size", mutable: true, value: { value: size, valid: sizeValid } }),
    preview({ name: "fresh", type: "bool", mutable: true, ephemeral: true, value: { value: "false", valid: true } })
  ]
  const previous = [{ name: "zone", value: "a" }, { name: "size", value: "medium" }, { name: "fresh", value: "true" }]

  it("evaluates a workspace's form for its owner from the latest build's values", () => {
    const { result } = renderHook(
      () => useParameterForm({ version: "v1", classic: false, owner: "owner-id", previous }),
      { wrapper }
    )
    const socket = FakeSocket.last!
    expect(socket.url).toMatch(/\/dynamic-parameters\?user_id=owner-id$/)
    expect(result.current.loading).toBe(true)
    act(() => socket.answer({ id: -1, diagnostics: [], parameters: parameters("small") }))
    // The latest build's values sent (not the ephemeral one); the form waits for their answer.
    expect(socket.sent).toEqual([{ id: 0, inputs: { zone: "a", size: "medium" } }])
    expect(result.current.loading).toBe(true)
    act(() => socket.answer({ id: 0, diagnostics: [], parameters: parameters("medium") }))
    expect(result.current.loading).toBe(false)
    expect(result.current.values).toEqual({ zone: "a", size: "medium", fresh: "false" })
    expect([...result.current.fields.locked]).toEqual(["zone"])
    // A change is sent with the kept values; the request leaves the locked one out.
    act(() => result.current.fields.onChange("size", "large"))
    expect(socket.sent.at(-1)).toEqual({ id: 1, inputs: { zone: "a", size: "large" } })
    expect(result.current.loading).toBe(false)
    act(() => socket.answer({ id: 1, diagnostics: [], parameters: parameters("large") }))
    expect(result.current.request()).toEqual([{ name: "size", value: "large" }, { name: "fresh", value: "false" }])
  })

  it("opens at once when there is nothing to send, and takes the refusals it opens with", () => {
    const { result } = renderHook(
      () =>
        useParameterForm({
          version: "v1",
          classic: false,
          refused: [{ field: "rich_parameter_values.size", detail: "Size is required." }],
          showAll: true
        }),
      { wrapper }
    )
    const socket = FakeSocket.last!
    act(() => socket.answer({ id: -1, diagnostics: [], parameters: parameters("", false) }))
    expect(socket.sent).toEqual([])
    expect(result.current.loading).toBe(false)
    expect(result.current.fields.errors["size"]).toBe("Size is required.")
    expect(result.current.fields.locked.size).toBe(0)
  })
})
