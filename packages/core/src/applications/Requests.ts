/**
 * The queries of the applications area's routes (`/applications/...`). The routes in
 * `http/src/applications/` declare them.
 */
import { Schema } from "effect"

/** The query of GET /applications/auth-redirect: where to send the browser with a new application key. */
export const AuthRedirectQuery = Schema.Struct({
  redirect_uri: Schema.String.pipe(
    Schema.minLength(1, { message: () => "The redirect_uri is required." }),
    Schema.maxLength(4096, { message: () => "At most 4096 characters." })
  )
})
