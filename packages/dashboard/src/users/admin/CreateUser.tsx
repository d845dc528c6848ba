import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { Link, useNavigate } from "react-router"
import { ApiError } from "../../api/client.ts"
import { ErrorMessage, formValues } from "../../ui/Form.tsx"
import { type LoginType, usersAdminApi as api } from "./api.ts"
import { usersAdminKeys } from "./queries.ts"
import { type FieldErrors, fieldErrorsOf, type NewUser, validateNewUser } from "./validate.ts"
import "./styles.css"

/** An input with its label, and its field's message (announced, and describing the input). */
const Input = (
  props: {
    label: string
    name: keyof FieldErrors
    type?: string
    error?: string | undefined
    disabled?: boolean
    autoComplete?: string
  }
) => (
  <div className="field">
    <label htmlFor={`new-${props.name}`}>{props.label}</label>
    <input
      id={`new-${props.name}`}
      name={props.name}
      type={props.type ?? "text"}
      autoComplete={props.autoComplete ?? "off"}
      disabled={props.disabled}
      aria-invalid={props.error === undefined ? undefined : true}
      aria-describedby={props.error === undefined ? undefined : `new-${props.name}-error`}
    />
    {props.error === undefined
      ? null
      : <p id={`new-${props.name}-error`} className="error field-error">{props.error}</p>}
  </div>
)

const LOGIN_TYPES: ReadonlyArray<[LoginType, string]> = [
  ["password", "Password"],
  ["oidc", "OpenID Connect"],
  ["github", "GitHub"],
  ["none", "None (API tokens only)"]
]

/**
 * The create-user form: email, username, full name, login type and (for password sign-in) a
 * password, checked as the service checks them (a message beside each bad field), then
 * `POST /users`; the service's validations are shown beside their fields the same way.
 */
export const CreateUserForm = ({ onCreated }: { onCreated: (username: string) => void }) => {
  const [errors, setErrors] = useState<FieldErrors>({})
  const [loginType, setLoginType] = useState<LoginType>("password")
  const create = useMutation({
    mutationFn: (v: NewUser) =>
      api.create({
        email: v.email.trim(),
        username: v.username,
        ...(v.name.trim() === "" ? {} : { name: v.name.trim() }),
        login_type: v.login_type as LoginType,
        ...(v.login_type === "password" ? { password: v.password } : {})
      }),
    onSuccess: (user) => onCreated(user.username),
    onError: (e) => {
      if (e instanceof ApiError) setErrors(fieldErrorsOf(e.validations).fields)
    }
  })
  const others = create.error instanceof ApiError ? fieldErrorsOf(create.error.validations).others : []
  const count = Object.keys(errors).length
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        const raw = formValues(e.currentTarget)
        const v: NewUser = {
          email: raw.email ?? "",
          username: raw.username ?? "",
          name: raw.name ?? "",
          password: raw.password ?? "",
          login_type: loginType
        }
        const found = validateNewUser(v)
        setErrors(found)
        if (Object.keys(found).length === 0) create.mutate(v)
      }}
    >
      {count > 0
        ? <p role="alert" className="error">{count === 1 ? "One field needs" : `${count} fields need`} a change.</p>
        : null}
      <Input label="Email" name="email" type="email" error={errors.email} />
      <Input label="Username" name="username" error={errors.username} />
      <Input label="Full name" name="name" error={errors.name} />
      <div className="field">
        <label htmlFor="new-login-type">Login type</label>
        <select id="new-login-type" value={loginType} onChange={(e) => setLoginType(e.target.value as LoginType)}>
          {LOGIN_TYPES.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
        </select>
      </div>
      {loginType === "password"
        ? <Input label="Password" name="password" type="password" autoComplete="new-password" error={errors.password} />
        : null}
      {create.error !== null && (count === 0 || others.length > 0)
        ? <ErrorMessage error={create.error} />
        : null}
      <div className="actions">
        <button type="submit" disabled={create.isPending}>Create user</button>
        <Link to="/deployment/users">Cancel</Link>
      </div>
    </form>
  )
}

export const CreateUserPage = () => {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  return (
    <>
      <h1>Create user</h1>
      <CreateUserForm
        onCreated={(username) => {
          void queryClient.invalidateQueries({ queryKey: usersAdminKeys.users })
          navigate(`/deployment/users?${new URLSearchParams({ q: username })}`)
        }}
      />
    </>
  )
}
