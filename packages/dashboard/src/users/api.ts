/**
 * The users area's calls: first-user setup, sign in and out (with GitHub's device flow), a
 * forgotten password's one-time passcode, the signed-in user and what they may do.
 */
import { apiErrorOf, client, isStatus, type Schemas, unwrap } from "../api/client.ts"

export type User = Schemas["User"]
export type AuthorizationCheck = Schemas["AuthorizationCheck"]

export const usersApi = {
  authMethods: () => unwrap(client.GET("/api/v2/users/authmethods")),
  /** Whether the first user exists (the endpoint answers 404 before). */
  firstUserExists: async () => {
    try {
      await unwrap(client.GET("/api/v2/users/first"))
      return true
    } catch (e) {
      if (isStatus(e, 404)) return false
      throw e
    }
  },
  createFirstUser: ({ name, ...body }: { email: string; username: string; name: string; password: string }) =>
    unwrap(client.POST("/api/v2/users/first", { body: name.trim() === "" ? body : { ...body, name } })),
  login: (email: string, password: string) => unwrap(client.POST("/api/v2/users/login", { body: { email, password } })),
  logout: () => unwrap(client.POST("/api/v2/users/logout")),
  /** A one-time passcode mailed to the account with this email (a forgotten password). */
  requestPasscode: (email: string) => unwrap(client.POST("/api/v2/users/otp/request", { body: { email } })),
  changePasswordWithPasscode: (body: { email: string; one_time_passcode: string; password: string }) =>
    unwrap(client.POST("/api/v2/users/otp/change-password", { body })),
  /** GitHub's device flow: a device code and the user code to enter at GitHub. */
  githubDevice: () => unwrap(client.GET("/api/v2/users/oauth2/github/device")),
  /**
   * Asks GitHub's callback whether the device code was approved: "pending", "slow_down" (ask less
   * often, RFC 8628), or where to go once signed in (the session cookie is then set). Plain fetch:
   * the callback answers 400 with GitHub's error while waiting, which is no failure here.
   */
  githubDevicePoll: async (
    code: string,
    state: string
  ): Promise<{ redirect_url: string } | "pending" | "slow_down"> => {
    const response = await fetch(
      `/api/v2/users/oauth2/github/callback?${new URLSearchParams({ code, state })}`,
      { headers: { accept: "application/json" }, credentials: "same-origin" }
    )
    const body: unknown = await response.json().catch(() => undefined)
    if (response.ok && typeof body === "object" && body !== null && "redirect_url" in body) {
      return { redirect_url: String(body.redirect_url) }
    }
    // The detail is GitHub's error, followed by its description when GitHub gave one.
    const refused = apiErrorOf(response.status, response.statusText, body)
    const refusal = refused.detail?.split(":")[0] ?? ""
    if (response.status === 400 && refusal === "authorization_pending") return "pending"
    if (response.status === 400 && refusal === "slow_down") return "slow_down"
    throw refused
  },
  /** The service's answer (yes or no) to each named check, for the signed-in user (`POST /authcheck`). */
  authCheck: (checks: Record<string, AuthorizationCheck>) =>
    unwrap(client.POST("/api/v2/authcheck", { body: { checks } })),
  /** A user by id or username (`me`: the caller). */
  user: (user: string) => unwrap(client.GET("/api/v2/users/{user}", { params: { path: { user } } })),
  /** The signed-in user, or null when not signed in. */
  me: async (): Promise<User | null> => {
    try {
      return await usersApi.user("me")
    } catch (e) {
      if (isStatus(e, 401)) return null
      throw e
    }
  }
}
