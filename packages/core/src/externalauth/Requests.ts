/**
 * The request bodies and queries of the external auth routes (`/external-auth/...`, and what an
 * agent asks under `/workspaceagents/me/`). The routes in `http/src/externalauth/` declare them;
 * the services take their decoded types (`typeof X.Type`). The sign-in providers' callback query
 * is the users area's `CallbackQuery`.
 */
import { Schema } from "effect"
import { optionalParam } from "../Requests.js"

const text = (max: number) => Schema.String.pipe(Schema.maxLength(max, { message: () => `At most ${max} characters.` }))

/** The callback's query: the provider's `code` and `state` (or `error`), or, to start, a `redirect` path. */
export const ExternalAuthCallbackQuery = Schema.Struct({
  code: optionalParam(text(4096)),
  state: optionalParam(text(1024)),
  error: optionalParam(text(256)),
  error_description: optionalParam(text(1024)),
  /** A path on this deployment to return to after linking (only a path is honoured). */
  redirect: optionalParam(text(2048))
})

/** POST /external-auth/{externalauth}/device: the device code to exchange. */
export class ExternalAuthDeviceExchangeRequest
  extends Schema.Class<ExternalAuthDeviceExchangeRequest>("ExternalAuthDeviceExchange")({
    device_code: text(1024).pipe(Schema.minLength(1, { message: () => "The device code is required." }))
  })
{}

/** `listen` is on when present at all (`?listen`, `?listen=true`), as the described system reads it; `false` or `0` turn it off. */
const ListenParam = Schema.transform(Schema.String, Schema.Boolean, {
  strict: true,
  decode: (s) => s !== "false" && s !== "0",
  encode: (b) => (b ? "true" : "false")
})

/** What an agent asks: `match` (a URL; `url` for older agents) or `id`, and whether to wait for a link (`listen`). */
export const AgentExternalAuthQuery = Schema.Struct({
  match: optionalParam(text(2048)),
  /** The older agents' name of `match`. */
  url: optionalParam(text(2048)),
  id: optionalParam(text(256)),
  listen: Schema.optional(ListenParam)
})
