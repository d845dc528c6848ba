/**
 * The create-user form's checks, the service's own rules (CreateUserRequestWithOrgs): a message
 * per bad field, shown beside it before anything is sent. The service checks again; its
 * validations are shown the same way.
 */
export type FieldErrors = Partial<Record<"email" | "username" | "name" | "password", string>>

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const USERNAME = /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/

export interface NewUser {
  readonly email: string
  readonly username: string
  readonly name: string
  readonly password: string
  readonly login_type: string
}

export const validateNewUser = (v: NewUser): FieldErrors => {
  const errors: FieldErrors = {}
  if (v.email.trim() === "") errors.email = "Enter an email address."
  else if (!EMAIL.test(v.email.trim()) || v.email.length > 320) {
    errors.email = "Enter a valid email address, like name@example.com."
  }
  if (v.username === "") errors.username = "Enter a username."
  else if (v.username.length > 32) errors.username = "A username is at most 32 characters."
  else if (!USERNAME.test(v.username)) {
    errors.username = "Use letters, digits and single dashes between them (not at the start or end)."
  }
  if (v.name.length > 128) errors.name = "A name is at most 128 characters."
  if (v.login_type === "password" && v.password === "") errors.password = "Enter a password."
  return errors
}

/** The service's validations (`{field, detail}`), by the form's fields; the others are kept apart. */
export const fieldErrorsOf = (validations: ReadonlyArray<{ field: string; detail: string }>) => {
  const fields: FieldErrors = {}
  const others: Array<string> = []
  for (const v of validations) {
    if (v.field === "email" || v.field === "username" || v.field === "name" || v.field === "password") {
      fields[v.field] = v.detail
    } else others.push(`${v.field}: ${v.detail}`)
  }
  return { fields, others }
}
