// The bare baseline: node:http + better-sqlite3 doing the work of an
// authenticated GET /api/v2/users/me and nothing else. Per request: read the
// token header, look up the API key row by id, sha256 the secret and compare
// in constant time, check expiry, look up the user row, look up the user's
// memberships, and write the user as JSON. No framework, no validation.
//
//   node bench/baseline.mjs --db <file> --port <port>
//
// The database must already have Workbay's schema and data (bench/run.mjs
// gives it a copy of the Workbay server's database).
import Database from "better-sqlite3"
import { createHash } from "node:crypto"
import { createServer } from "node:http"
import { parseArgs } from "node:util"
import { sameHash, send } from "./bare/http.mjs"

const { values } = parseArgs({ options: { db: { type: "string" }, port: { type: "string", default: "0" } } })
if (values.db === undefined) throw new Error("--db <file> is required")

const db = new Database(values.db)
db.pragma("journal_mode = WAL")
db.pragma("foreign_keys = ON")
db.pragma("busy_timeout = 5000")
db.pragma("synchronous = NORMAL")

const keyById = db.prepare("SELECT * FROM api_keys WHERE id = ?")
const userById = db.prepare("SELECT * FROM users WHERE id = ?")
const membershipsOf = db.prepare("SELECT * FROM organization_members WHERE user_id = ? ORDER BY created_at")
const touch = db.prepare("UPDATE api_keys SET last_used = ?, expires_at = ? WHERE id = ?")

const ROLE_NAMES = {
  owner: "Owner",
  "user-admin": "User Admin",
  auditor: "Auditor",
  "template-admin": "Template Admin",
  member: "Member"
}

const unauthorized = (res, message) => send(res, 401, { message })

const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
  const q = req.url.indexOf("?")
  const path = q < 0 ? req.url : req.url.slice(0, q)
  if (req.method === "GET" && path === "/api/v2/buildinfo") return send(res, 200, { version: "baseline" })
  if (req.method !== "GET" || path !== "/api/v2/users/me") return send(res, 404, { message: "Route not found." })

  const token = req.headers["service-session-token"]
  if (typeof token !== "string" || token.length !== 33 || token[10] !== "-") {
    return unauthorized(res, "Invalid API key format.")
  }
  const key = keyById.get(token.slice(0, 10))
  if (key === undefined || !sameHash(key.hashed_secret, createHash("sha256").update(token.slice(11)).digest("hex"))) {
    return unauthorized(res, "Invalid API key.")
  }
  const now = Date.now()
  if (Date.parse(key.expires_at) <= now) return unauthorized(res, "API key expired.")
  const user = userById.get(key.user_id)
  if (user === undefined || user.deleted === 1) return unauthorized(res, "The user of this API key has been deleted.")
  if (user.status !== "active") return unauthorized(res, "User is not active.")
  if (now - Date.parse(key.last_used) > 60_000) touch.run(new Date(now).toISOString(), key.expires_at, key.id)
  const memberships = membershipsOf.all(user.id)
  const appearance = JSON.parse(user.appearance)
  // Empty optional fields are left out, as Workbay (and the described system) answers them.
  const body = {}
  if (user.avatar_url) body.avatar_url = user.avatar_url
  body.created_at = user.created_at
  body.email = user.email
  body.id = user.id
  if (user.is_service_account === 1) body.is_service_account = true
  body.last_seen_at = user.last_seen_at
  body.login_type = user.login_type
  if (user.name) body.name = user.name
  body.status = user.status
  if (appearance.theme_preference) body.theme_preference = appearance.theme_preference
  body.updated_at = user.updated_at
  body.username = user.username
  body.has_ai_seat = false
  body.organization_ids = memberships.map((m) => m.organization_id)
  body.roles = JSON.parse(user.rbac_roles).map((name) => ({ display_name: ROLE_NAMES[name] ?? name, name }))
  send(res, 200, body)
})

server.listen(Number(values.port), "127.0.0.1", () => {
  console.log(`baseline listening on http://127.0.0.1:${server.address().port}`)
})
process.once("SIGTERM", () => server.close(() => process.exit(0)))
