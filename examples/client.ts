/**
 * A typed client derived from the same HttpApi definition the server uses.
 * Run against a server: BASE_URL=http://localhost:3000 npx tsx --conditions=@workbay/source examples/client.ts
 */
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { WorkbayApi } from "@workbay/http"
import { Effect } from "effect"
import { pathToFileURL } from "node:url"

/** Creates the first user if needed, logs in, and reads the caller and the organizations. */
export const tour = (baseUrl: string, account: { email: string; username: string; password: string }) =>
  Effect.gen(function*() {
    const anonymous = yield* HttpApiClient.make(WorkbayApi, { baseUrl })
    yield* anonymous.authorization.createFirstUser({ payload: { ...account } }).pipe(
      Effect.catchTag("Conflict", () => Effect.void) // already set up
    )
    const { session_token } = yield* anonymous.authorization.login({
      payload: { email: account.email, password: account.password }
    })
    const client = yield* HttpApiClient.make(WorkbayApi, {
      baseUrl,
      transformClient: HttpClient.mapRequest(HttpClientRequest.setHeader("Service-Session-Token", session_token))
    })
    const me = yield* client.users.get({ path: { user: "me" } })
    const organizations = yield* client.organizations.list()
    return { me, organizations }
  }).pipe(Effect.provide(FetchHttpClient.layer))

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await Effect.runPromise(
    tour(process.env.BASE_URL ?? "http://localhost:3000", {
      email: "admin@example.com",
      username: "admin",
      password: process.env.PASSWORD ?? "Correct-Horse-Battery-9"
    })
  )
  console.log(
    `logged in as ${result.me.username}; organizations: ${result.organizations.map((o) => o.name).join(", ")}`
  )
}
