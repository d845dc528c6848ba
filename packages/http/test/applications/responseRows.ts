/**
 * The response schema table's rows of the applications endpoints (packages/http/src/applications/), run by
 * ../responseSchemas.ts.
 */
import { externalAuthWorld } from "../externalauth/fixtures.js"
import { type Row, row } from "../responseSchemas.js"

export const responseRows: ReadonlyArray<Row> = [
  row("applications.host", "GET /api/v2/applications/host", 200, "AppHostResponse", async (w) => {
    const x = await externalAuthWorld()
    return [await w.bob.client.get("/applications/host"), await x.member.client.get("/applications/host")]
  }),
  row("applications.authRedirect", "GET /api/v2/applications/auth-redirect", 307, "none", async (w) => {
    const x = await externalAuthWorld()
    return [
      await w.bob.client.get(`/applications/auth-redirect?redirect_uri=${encodeURIComponent(w.srv.url)}`),
      await x.member.client.get(
        `/applications/auth-redirect?redirect_uri=${encodeURIComponent("http://code.apps.example.test/")}`
      )
    ]
  })
]
