// @vitest-environment happy-dom
/** The confirmation dialog, without a browser: what must be done before it acts. */
import { cleanup, fireEvent, render } from "@testing-library/react"
import { afterEach, describe, expect, it, vi } from "vitest"
import { ConfirmButton } from "../../src/ui/Confirm.tsx"
import { screen } from "./screen.ts"

afterEach(cleanup)

describe("ConfirmButton", () => {
  it("acts only once the confirming button is pressed", () => {
    const onConfirm = vi.fn()
    render(
      <ConfirmButton label="Remove" title="Remove it?" onConfirm={onConfirm}>
        <p>It goes.</p>
      </ConfirmButton>
    )
    fireEvent.click(screen.getByRole("button", { name: "Remove" }))
    expect(onConfirm).not.toHaveBeenCalled()
    fireEvent.click(screen.getAllByRole("button", { name: "Remove", hidden: true }).at(-1)!)
    expect(onConfirm).toHaveBeenCalledTimes(1)
  })

  it("with typeToConfirm, keeps its confirming button disabled until the exact text is typed", () => {
    const onConfirm = vi.fn()
    render(
      <ConfirmButton
        label="Delete"
        title="Delete dev?"
        confirm="Delete workspace"
        typeToConfirm="dev"
        onConfirm={onConfirm}
      >
        <p>Gone for good.</p>
      </ConfirmButton>
    )
    fireEvent.click(screen.getByRole("button", { name: "Delete" }))
    const confirm = screen.getByRole("button", { name: "Delete workspace", hidden: true }) as HTMLButtonElement
    const typed = screen.getByLabelText("Type “dev” to confirm") as HTMLInputElement
    expect(confirm.disabled).toBe(true)
    fireEvent.change(typed, { target: { value: "de" } })
    expect(confirm.disabled).toBe(true)
    fireEvent.change(typed, { target: { value: "dev" } })
    expect(confirm.disabled).toBe(false)
    fireEvent.click(confirm)
    expect(onConfirm).toHaveBeenCalledTimes(1)
  })
})
