import { useMutation } from "@tanstack/react-query"
import { Link, useNavigate, useSearchParams } from "react-router"
import { Card, ErrorMessage, Field, formValues } from "../ui/Form.tsx"
import { usersApi as api } from "./api.ts"

/** A forgotten password, step one: the email, to which the service mails a one-time passcode. */
export const RequestPasscodePage = () => {
  const navigate = useNavigate()
  const request = useMutation({
    mutationFn: api.requestPasscode,
    onSuccess: (_, email) => navigate(`/reset-password/change?${new URLSearchParams({ email })}`)
  })
  return (
    <Card title="Reset your password">
      <p>Enter your account's email: we will mail you a one-time passcode to choose a new password with.</p>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          request.mutate(formValues(e.currentTarget).email ?? "")
        }}
      >
        <Field label="Email" name="email" type="email" autoComplete="email" />
        <ErrorMessage error={request.error} />
        <button type="submit" disabled={request.isPending}>Send passcode</button>
      </form>
      <p>
        <Link to="/login">Back to sign in</Link>
      </p>
    </Card>
  )
}

/** Step two: the email, the mailed passcode and a new password; then sign in with it. */
export const ChangePasswordPage = () => {
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const change = useMutation({
    mutationFn: api.changePasswordWithPasscode,
    onSuccess: () => navigate("/login", { state: { passwordChanged: true } })
  })
  return (
    <Card title="Choose a new password">
      {params.has("email")
        ? <p role="status">If an account has this email, a passcode is on its way to it.</p>
        : null}
      <form
        onSubmit={(e) => {
          e.preventDefault()
          const v = formValues(e.currentTarget)
          change.mutate({
            email: v.email ?? "",
            one_time_passcode: (v.one_time_passcode ?? "").trim(),
            password: v.password ?? ""
          })
        }}
      >
        <div className="field">
          <label htmlFor="email">Email</label>
          <input
            id="email"
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={params.get("email") ?? ""}
          />
        </div>
        <Field label="One-time passcode" name="one_time_passcode" autoComplete="one-time-code" />
        <Field label="New password" name="password" type="password" autoComplete="new-password" />
        <ErrorMessage error={change.error} />
        <button type="submit" disabled={change.isPending}>Change password</button>
      </form>
      <p>
        <Link to="/reset-password">Send another passcode</Link>
      </p>
    </Card>
  )
}
