/**
 * The HTML of the authorization endpoint: the sign-in page, the consent page and the error page.
 * Every value shown is escaped by `escape-html`; the pages carry no script and are sent with a
 * Content-Security-Policy that forbids framing (with `X-Frame-Options: DENY` for older browsers).
 */
import { type AuthorizePage, CONSENT_GRANT_PREFIX } from "@workbay/core"
import escapeHtml from "escape-html"

/**
 * Headers of every page: no script, no framing, no caching, no referrer to other sites (the
 * query holds the state). Forms may post only to this service, and (the consent form, whose answer redirects
 * there) to the origin of the client's redirect URI.
 */
export const pageHeaders = (formTarget?: string): Readonly<Record<string, string>> => {
  let origin = ""
  try {
    origin = formTarget === undefined ? "" : ` ${new URL(formTarget).origin}`
  } catch {
    origin = ""
  }
  return {
    "content-security-policy":
      `default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; form-action 'self'${origin}; frame-ancestors 'none'; base-uri 'none'`,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cache-control": "no-store"
  }
}

const STYLE =
  `body{font-family:system-ui,sans-serif;background:#f5f5f7;color:#1d1d1f;display:flex;justify-content:center;padding:4rem 1rem}
main{background:#fff;border-radius:12px;box-shadow:0 2px 12px rgba(0,0,0,.08);padding:2rem;max-width:28rem;width:100%}
h1{font-size:1.3rem;margin:0 0 1rem}label{display:block;margin:.8rem 0 .3rem}input{width:100%;padding:.5rem;box-sizing:border-box}
button{margin-top:1rem;padding:.5rem 1.2rem;font-size:1rem;cursor:pointer}.error{color:#b00020}.target{word-break:break-all;font-family:monospace}
img.icon{width:48px;height:48px;float:right}fieldset{border:1px solid #ddd;border-radius:8px;margin:1rem 0}
label.scope{display:flex;gap:.5rem;align-items:baseline;margin:.4rem 0}label.scope input{width:auto}code{color:#555}`

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
  `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`

/** The sign-in form; it posts to the sign-in route with the authorization request's query. */
export const signInPage = (query: string, message?: string) =>
  page(
    "Sign in",
    `<h1>Sign in to continue</h1>` +
      (message !== undefined ? `<p class="error" role="alert">${escapeHtml(message)}</p>` : "") +
      `<form method="post" action="sign-in${query === "" ? "" : `?${escapeHtml(query)}`}">` +
      `<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required>` +
      `<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>` +
      `<button type="submit">Sign in</button></form>`
  )

/**
 * One requested scope of the consent page: a checkbox (checked) with the scope in words and its
 * name. One the user does not hold cannot be granted: shown unchecked and disabled, saying why.
 */
const scopeItem = (scope: Extract<AuthorizePage, { kind: "consent" }>["scopes"][number]) =>
  `<label class="scope"><input type="checkbox" name="${escapeHtml(CONSENT_GRANT_PREFIX + scope.name)}" value="on"${
    scope.held ? " checked" : " disabled"
  }> ${escapeHtml(scope.description)} <code>${escapeHtml(scope.name)}</code>${
    scope.held ? "" : ` <em>(you do not have this permission)</em>`
  }</label>`

/** The consent page: which app asks, as whom, and where the browser will go. */
export const consentPage = (p: Extract<AuthorizePage, { kind: "consent" }>, query: string) =>
  page(
    `Authorize ${p.appName}`,
    (p.appIcon !== "" ? `<img class="icon" src="${escapeHtml(p.appIcon)}" alt="">` : "") +
      `<h1>Authorize <span id="app-name">${escapeHtml(p.appName)}</span></h1>` +
      `<p>Signed in as <strong>${escapeHtml(p.username)}</strong>.</p>` +
      `<p><strong>${escapeHtml(p.appName)}</strong> asks for access to your account, within your permissions:</p>` +
      `<p>After you choose, you will be sent to:</p><p class="target" id="redirect-target">${
        escapeHtml(p.redirectUri)
      }</p>` +
      `<form method="post" action="authorize${query === "" ? "" : `?${escapeHtml(query)}`}">` +
      `<input type="hidden" name="csrf_token" value="${escapeHtml(p.csrfToken)}">` +
      `<input type="hidden" name="scope_choice" value="1">` +
      `<fieldset id="scopes"><legend>Access requested</legend>${p.scopes.map(scopeItem).join("")}</fieldset>` +
      `<button type="submit" name="decision" value="allow" id="allow">Allow</button> ` +
      `<button type="submit" name="decision" value="deny" id="deny">Deny</button></form>`
  )

/** A request that cannot be sent back to the client (unknown client, unregistered redirect URI). */
export const errorPage = (message: string) =>
  page(
    "Authorization error",
    `<h1>This authorization request is not valid</h1><p class="error">${escapeHtml(message)}</p>`
  )

/** The small body of a redirect. */
export const redirectPage = (location: string) =>
  page("Redirecting", `<p>Continue to <a href="${escapeHtml(location)}">${escapeHtml(location)}</a>.</p>`)
