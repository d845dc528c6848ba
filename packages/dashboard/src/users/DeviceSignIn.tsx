/**
 * GitHub's device flow (`/login/device?state=...`, where the service's GitHub callback sends the
 * browser when the deployment signs in through the device flow): the page asks the service for a
 * device code (`GET /users/oauth2/github/device`), shows the code to enter at GitHub's address, and
 * asks the callback every `interval` seconds with the device code and the state
 * (`GET /users/oauth2/github/callback?code=<device_code>&state=...`): 400 `authorization_pending`
 * (the detail's first word) waits, `slow_down` waits 5 s more (RFC 8628), 200 `{redirect_url}` means signed in (the session
 * cookie is set) and the page goes there; anything else is shown, with a way back.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query"
import { useEffect, useState } from "react"
import { Link, useSearchParams } from "react-router"
import { Card, ErrorMessage } from "../ui/Form.tsx"
import { usersApi as api } from "./api.ts"
import { githubDeviceQuery, refreshMe } from "./queries.ts"

/** Only a path on this site (never another site's address). */
const samePath = (url: string) => (url.startsWith("/") && !url.startsWith("//") ? url : "/workspaces")

export const DeviceSignInPage = () => {
  const [params] = useSearchParams()
  const state = params.get("state") ?? ""
  const device = useQuery(githubDeviceQuery)
  const queryClient = useQueryClient()
  const [failure, setFailure] = useState<Error | null>(null)
  const data = device.data
  useEffect(() => {
    if (data === undefined || state === "") return
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    let interval = Math.max(1, data.interval) * 1000
    const ask = async () => {
      try {
        const answer = await api.githubDevicePoll(data.device_code, state)
        if (stopped) return
        if (answer === "pending" || answer === "slow_down") {
          if (answer === "slow_down") interval += 5000
          timer = setTimeout(ask, interval)
          return
        }
        await refreshMe(queryClient)
        window.location.assign(samePath(answer.redirect_url))
      } catch (e) {
        if (!stopped) setFailure(e instanceof Error ? e : new Error(String(e)))
      }
    }
    timer = setTimeout(ask, interval)
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [data, state])
  return (
    <Card title="Sign in with GitHub">
      {state === ""
        ? <p role="alert" className="error">This page is reached from “Sign in with GitHub”; start there.</p>
        : null}
      <ErrorMessage error={device.error} />
      <ErrorMessage error={failure} />
      {data === undefined ? (device.isPending ? <p role="status">Asking GitHub for a code…</p> : null) : (
        <>
          <p>
            Enter this code at{" "}
            <a href={data.verification_uri} target="_blank" rel="noreferrer">{data.verification_uri}</a>:
          </p>
          <p className="device-code" aria-label="Device code">
            <code>{data.user_code}</code>
          </p>
          <button type="button" onClick={() => void navigator.clipboard?.writeText(data.user_code)}>
            Copy the code
          </button>
          {failure === null
            ? <p role="status">Waiting for you to approve the sign-in at GitHub…</p>
            : null}
        </>
      )}
      <p>
        <Link to="/login">Back to sign in</Link>
      </p>
    </Card>
  )
}
