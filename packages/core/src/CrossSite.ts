/**
 * Cross-site request forgery, the one rule (docs/authentication.md, "Cross-site requests"): a
 * request a browser made from another site is refused when it would change state with the
 * browser's own credentials (the session cookie). What the browser says decides, since a page
 * cannot forge it: `Sec-Fetch-Site` must be `same-origin` or `none` (typed in the address bar);
 * without it, an `Origin` must name this service (the access URL's host or the request's `Host`).
 * A request with neither header is not a modern browser's cross-site request (a non-browser
 * client, or a same-origin GET form in an old browser) and passes.
 */

/** Where a browser request came from (Origin, Sec-Fetch-Site, Host). */
export interface RequestOrigin {
  readonly origin?: string | undefined
  readonly secFetchSite?: string | undefined
  readonly host?: string | undefined
}

/** Why a request is refused as cross-site, or undefined when it is not. `accessHost`: the access URL's host, lower case. */
export const crossSiteRefusal = (from: RequestOrigin, accessHost: string | undefined): string | undefined => {
  const site = from.secFetchSite?.toLowerCase()
  if (site !== undefined && site !== "same-origin" && site !== "none") return `Sec-Fetch-Site is "${site}".`
  // A browser's own word that the request came from this origin; pages cannot forge it.
  if (site === "same-origin") return undefined
  if (from.origin === undefined) return undefined
  let host: string | undefined
  try {
    host = from.origin === "null" ? undefined : new URL(from.origin).host.toLowerCase()
  } catch {
    host = undefined
  }
  return host === undefined || (host !== accessHost && host !== from.host?.toLowerCase())
    ? "The request's Origin is not this service."
    : undefined
}

/** The host of the access URL, lower case; undefined when it is not a URL. */
export const accessHostOf = (accessUrl: string): string | undefined => {
  try {
    return new URL(accessUrl).host.toLowerCase()
  } catch {
    return undefined
  }
}
