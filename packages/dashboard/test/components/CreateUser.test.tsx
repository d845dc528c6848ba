// @vitest-environment happy-dom
/**
 * The create-user form without a browser: its checks (the service's rules) put a message beside
 * each bad field and send nothing; the service's validations land beside their fields the same way.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query"
import { cleanup, fireEvent, render, waitFor } from "@testing-library/react"
import { MemoryRouter } from "react-router"
import { afterEach, describe, expect, it, vi } from "vitest"
import { ApiError } from "../../src/api/client.ts"
import { CreateUserForm } from "../../src/users/admin/CreateUser.tsx"
import { fieldErrorsOf, validateNewUser } from "../../src/users/admin/validate.ts"
import { screen } from "./screen.ts"

// The service's answer, in place of the request.
const create = vi.hoisted(() => vi.fn())
vi.mock("../../src/users/admin/api.ts", () => ({ usersAdminApi: { create } }))

const good = { email: "a@example.com", username: "ann", name: "", password: "x", login_type: "password" }

describe("validateNewUser", () => {
  it("accepts a good user and names each bad field", () => {
    expect(validateNewUser(good)).toEqual({})
    expect(Object.keys(validateNewUser({ ...good, email: "a@b" }))).toEqual(["email"])
    expect(Object.keys(validateNewUser({ ...good, username: "-ann" }))).toEqual(["username"])
    expect(Object.keys(validateNewUser({ ...good, username: "a".repeat(33) }))).toEqual(["username"])
    expect(Object.keys(validateNewUser({ ...good, password: "" }))).toEqual(["password"])
    // No password needed for another login type.
    expect(validateNewUser({ ...good, password: "", login_type: "oidc" })).toEqual({})
  })
  it("sorts the service's validations by field", () => {
    expect(fieldErrorsOf([{ field: "email", detail: "taken" }, { field: "roles", detail: "no" }])).toEqual({
      fields: { email: "taken" },
      others: ["roles: no"]
    })
  })
})

describe("CreateUserForm", () => {
  afterEach(() => {
    cleanup()
    create.mockReset()
  })
  const mount = () =>
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <CreateUserForm onCreated={() => {}} />
        </MemoryRouter>
      </QueryClientProvider>
    )
  const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } })

  it("refuses a bad email beside its field and sends nothing", async () => {
    mount()
    fill("Email", "bob@nowhere")
    fill("Username", "bob")
    fill("Password", "pw")
    fireEvent.click(screen.getByRole("button", { name: "Create user" }))
    const email = screen.getByLabelText("Email")
    expect(email.getAttribute("aria-invalid")).toBe("true")
    expect(document.getElementById(email.getAttribute("aria-describedby")!)?.textContent).toMatch(/valid email/)
    expect(screen.getByRole("alert").textContent).toBe("One field needs a change.")
    expect(screen.getByLabelText("Username").getAttribute("aria-invalid")).toBeNull()
    expect(create).not.toHaveBeenCalled()
  })

  it("shows the service's validation beside its field", async () => {
    create.mockRejectedValue(
      new ApiError(400, "Invalid", undefined, [{ field: "username", detail: "Username is taken." }])
    )
    mount()
    fill("Email", "bob@example.com")
    fill("Username", "bob")
    fill("Password", "pw")
    fireEvent.click(screen.getByRole("button", { name: "Create user" }))
    await waitFor(() => expect(screen.getByLabelText("Username").getAttribute("aria-invalid")).toBe("true"))
    expect(screen.getByText("Username is taken.")).toBeTruthy()
  })
})
