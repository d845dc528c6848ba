// @vitest-environment happy-dom
/**
 * The shared form parts, rendered without a browser (happy-dom and Testing Library): what a
 * person and a screen reader get from a failed request.
 */
import { cleanup, render } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import { ApiError } from "../../src/api/client.ts"
import { ErrorMessage, Field } from "../../src/ui/Form.tsx"
import { screen } from "./screen.ts"

afterEach(cleanup)

describe("ErrorMessage", () => {
  it("announces the service's message, its detail and one line per bad field", () => {
    render(
      <ErrorMessage
        error={new ApiError(400, "Validation failed.", "Check the fields.", [
          { field: "name", detail: "Name is required." },
          { field: "ttl_ms", detail: "Must be at least one minute." }
        ])}
      />
    )
    const alert = screen.getByRole("alert")
    expect(alert.textContent).toContain("Validation failed.: Check the fields.")
    expect(screen.getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "name: Name is required.",
      "ttl_ms: Must be at least one minute."
    ])
  })

  it("renders nothing without an error, and a plain error's message", () => {
    const { container, rerender } = render(<ErrorMessage error={null} />)
    expect(container.innerHTML).toBe("")
    rerender(<ErrorMessage error={new Error("offline")} />)
    expect(screen.getByRole("alert").textContent).toBe("offline")
    expect(screen.queryByRole("list")).toBeNull()
  })

  it("escapes what the service sends (no markup from a message)", () => {
    render(<ErrorMessage error={new ApiError(400, `<img src=x onerror="alert(1)">`)} />)
    expect(screen.getByRole("alert").querySelector("img")).toBeNull()
    expect(screen.getByRole("alert").textContent).toContain("<img")
  })
})

describe("Field", () => {
  it("is named by its label and described by its hint", () => {
    render(<Field label="Username" name="username" hint="Letters, digits and dashes." />)
    const input = screen.getByRole("textbox", { name: "Username" })
    expect(input.getAttribute("aria-describedby")).toBe("username-hint")
    expect(screen.getByText("Letters, digits and dashes.").id).toBe("username-hint")
    expect((input as HTMLInputElement).required).toBe(true)
  })
})
