/**
 * Serving the dashboard (docs/dashboard.md): the built single-page application of
 * `@workbay/dashboard` (its `dist` folder: index.html and hashed files under assets/) on every
 * GET or HEAD path the service does not own. `/api/v2`, the OAuth2 and discovery routes, `/bin/`,
 * `/healthz` and the path-based apps (`/@owner/...`) are answered by the service as before.
 *
 * - The HTML shell (index.html) answers every other path, so client-side routes load on a reload;
 *   it is never cached (`no-cache`, with an ETag to revalidate).
 * - Files under `/assets/` carry a content hash in their names: cached for a year, `immutable`.
 *   An unknown asset is a plain 404 (never the shell, which a script tag would try to run).
 * - Every answer carries a Content-Security-Policy allowing no inline script and no eval, and
 *   refuses framing (`frame-ancestors 'none'`, `X-Frame-Options: DENY`).
 * - The files are listed when the handler is made; each is read on its first request and then kept in
 *   memory with its gzip form (a start-up reads none of them).
 */
import { createHash } from "node:crypto"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import type { IncomingMessage, ServerResponse } from "node:http"
import { extname, join } from "node:path"
import { gzipSync } from "node:zlib"
import type { NodeHandler, WebHandler, WebRequestInfo } from "./Adapters.js"

export interface DashboardOptions {
  /** The built dashboard: `dashboardDir` of `@workbay/dashboard` (a folder with index.html and assets/). */
  readonly dir: string
}

/** The policy of every dashboard answer: scripts, styles and connections only from the service itself. */
export const DASHBOARD_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; "
  + "img-src 'self' data: https:; font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
  + "frame-ancestors 'none'"

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": DASHBOARD_CSP,
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin"
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json; charset=utf-8"
}

interface DashboardFile {
  readonly body: Buffer
  /** The body gzipped, made on the first request that accepts it (not at start-up); undefined when not worth it. */
  readonly gzip: () => Buffer | undefined
  readonly headers: Readonly<Record<string, string>>
}

/** A dashboard answer: status, headers and body (undefined for HEAD). */
export interface DashboardAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: Buffer | undefined
}

const COMPRESSIBLE = new Set([".html", ".js", ".mjs", ".css", ".json", ".svg", ".txt", ".map"])

/** A file of the build, read on its first use and kept; undefined when it can no longer be read. */
const lazyFile = (path: string, cacheControl: string): () => DashboardFile | undefined => {
  let file: DashboardFile | undefined
  return () => {
    if (file !== undefined) return file
    try {
      return file = loadFile(path, cacheControl)
    } catch {
      return undefined
    }
  }
}

const loadFile = (path: string, cacheControl: string): DashboardFile => {
  const body = readFileSync(path)
  const ext = extname(path)
  const compressible = COMPRESSIBLE.has(ext) && body.length > 512
  let gzipped: Buffer | undefined
  return {
    body,
    gzip: () => compressible ? (gzipped ??= gzipSync(body, { level: 9 })) : undefined,
    headers: {
      ...SECURITY_HEADERS,
      "content-type": CONTENT_TYPES[ext] ?? "application/octet-stream",
      "cache-control": cacheControl,
      etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`,
      ...(compressible ? { vary: "Accept-Encoding" } : {})
    }
  }
}

/**
 * The dashboard's answers from `options.dir`: `answer(method, path, headers)` gives the answer
 * for a GET or HEAD of a path the service does not own. Throws when `dir` has no index.html.
 */
export const makeDashboard = (options: DashboardOptions) => {
  const index = join(options.dir, "index.html")
  if (!existsSync(index)) {
    throw new Error(`The dashboard is not built: no ${index} (npm start builds it; or run node scripts/build.mjs).`)
  }
  const shell = lazyFile(index, "no-cache")
  const files = new Map<string, () => DashboardFile | undefined>()
  const assets = join(options.dir, "assets")
  if (existsSync(assets)) {
    for (const name of readdirSync(assets)) {
      if (statSync(join(assets, name)).isFile()) {
        files.set(`/assets/${name}`, lazyFile(join(assets, name), "public, max-age=31536000, immutable"))
      }
    }
  }
  // Files at the root of the build (a favicon): not hashed, so revalidated. build.json is the
  // build's own record (packages/dashboard/build.mjs).
  for (const name of readdirSync(options.dir)) {
    if (name !== "index.html" && name !== "build.json" && statSync(join(options.dir, name)).isFile()) {
      files.set(`/${name}`, lazyFile(join(options.dir, name), "no-cache"))
    }
  }
  const notFound: DashboardAnswer = {
    status: 404,
    headers: { ...SECURITY_HEADERS, "content-type": "text/plain; charset=utf-8", "cache-control": "no-cache" },
    body: Buffer.from("Not found.\n")
  }

  const answer = (
    method: string,
    path: string,
    header: (name: string) => string | undefined
  ): DashboardAnswer => {
    const file = (files.get(path) ?? (path.startsWith("/assets/") ? undefined : shell))?.()
    if (file === undefined) return method === "HEAD" ? { ...notFound, body: undefined } : notFound
    if (header("if-none-match") === file.headers.etag) {
      return { status: 304, headers: file.headers, body: undefined }
    }
    const gzipped = /\bgzip\b/.test(header("accept-encoding") ?? "") ? file.gzip() : undefined
    const gzip = gzipped !== undefined
    const body = gzipped ?? file.body
    return {
      status: 200,
      headers: {
        ...file.headers,
        "content-length": String(body.length),
        ...(gzip ? { "content-encoding": "gzip" } : {})
      },
      body: method === "HEAD" ? undefined : body
    }
  }
  return { answer }
}

const pathOf = (url: string) => {
  const q = url.search(/[?#]/)
  return q < 0 ? url : url.slice(0, q)
}

/**
 * `handler` (the service's node and web handlers) with the dashboard on what the service does not
 * own: GET and HEAD of any other path. `owns(path)` says which paths are the service's.
 */
export const withDashboardHandlers = (
  handler: { readonly node: NodeHandler; readonly web: WebHandler },
  owns: (path: string) => boolean,
  options: DashboardOptions
): { readonly node: NodeHandler; readonly web: WebHandler } => {
  const dashboard = makeDashboard(options)
  const takes = (method: string, path: string) => (method === "GET" || method === "HEAD") && !owns(path)
  const node: NodeHandler = (req: IncomingMessage, res: ServerResponse, next) => {
    const method = req.method ?? "GET"
    const path = pathOf(req.url ?? "/")
    if (!takes(method, path)) return handler.node(req, res, next)
    const a = dashboard.answer(method, path, (name) => {
      const v = req.headers[name]
      return Array.isArray(v) ? v.join(", ") : v
    })
    res.writeHead(a.status, a.headers)
    res.end(a.body)
  }
  const web: WebHandler = async (request: Request, info?: WebRequestInfo) => {
    const path = new URL(request.url).pathname
    if (!takes(request.method, path)) return handler.web(request, info)
    const a = dashboard.answer(request.method, path, (name) => request.headers.get(name) ?? undefined)
    return new Response(a.body === undefined ? null : new Uint8Array(a.body), { status: a.status, headers: a.headers })
  }
  return { node, web }
}
