/** Test support: the first user of a freshly started server, and a session of theirs. */

/** Creates the first user (`admin`) of the server at `url` and logs in: their session token. */
export const firstOwnerSession = async (url: string): Promise<string> => {
  const base = `${url}/api/v2`
  const json = { "content-type": "application/json" }
  const user = { email: "admin@example.com", username: "admin", password: "Correct-Horse-Battery-9" }
  const created = await fetch(`${base}/users/first`, { method: "POST", headers: json, body: JSON.stringify(user) })
  if (created.status !== 201) throw new Error(`first user: ${created.status}`)
  const login = await fetch(`${base}/users/login`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ email: user.email, password: user.password })
  })
  return ((await login.json()) as { session_token: string }).session_token
}
