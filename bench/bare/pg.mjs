// The bare Postgres server of bench/areas.mjs: node:http + pg doing the work of an authenticated
// GET /api/v2/users/me with the statements the service runs on Postgres: the API key joined with
// its user (one query), sha256 of the secret compared in constant time, expiry, deleted and
// suspended users, the `last_used` touch at most once a minute (sessions slide by 24 h), the
// user's memberships, and the user as JSON. A pool of 10 connections, as the service's default;
// statements are sent unnamed (not prepared by name), as @effect/sql-pg sends them.
//
//   node bench/bare/pg.mjs --url postgres://postgres@127.0.0.1:5432/<db> --port <port>
//
// The database must already hold the service's schema and data (bench/areas.mjs points both at
// one database).
import { createHash, timingSafeEqual } from "node:crypto"
import { createServer } from "node:http"
import { parseArgs } from "node:util"
import pg from "pg"

const { values } = parseArgs({ options: { url: { type: "string" }, port: { type: "string", default: "0" } } })
if (values.url === undefined) throw new Error("--url <postgres url> is required")

const pool = new pg.Pool({ connectionString: values.url, max: 10, application_name: "bare" })

const USER_COLUMNS = [
  "id", "email", "username", "name", "avatar_url", "login_type", "status", "rbac_roles", "is_service_account",
  "hashed_password", "created_at", "updated_at", "last_seen_at", "deleted", "appearance", "quiet_hours_schedule",
  "hashed_one_time_passcode", "one_time_passcode_expires_at"
]
const KEY_COLUMNS = [
  "id", "hashed_secret", "user_id", "login_type", "token_name", "scopes", "allow_list", "lifetime_seconds",
  "created_at", "updated_at", "expires_at", "last_used"
]
const prefixed = (alias, columns, prefix) => columns.map((c) => `${alias}.${c} AS ${prefix}${c}`).join(", ")
const KEY_WITH_USER = `SELECT ${prefixed("k", KEY_COLUMNS, "k_")}, ${prefixed("u", USER_COLUMNS, "u_")} FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.id = $1`
const MEMBERSHIPS = "SELECT * FROM organization_members WHERE user_id = $1 ORDER BY created_at"
const TOUCH = "UPDATE api_keys SET last_used = $1, expires_at = $2 WHERE id = $3"
const TOUCH_INTERVAL_MS = 60_000
const SESSION_MS = 24 * 3_600_000

const ROLE_NAMES = { owner: "Owner", "user-admin": "User Admin", auditor: "Auditor", "template-admin": "Template Admin", member: "Member" }
const HEADERS = { "content-type": "application/json; charset=utf-8" }
const send = (res, status, body) => {
  const text = JSON.stringify(body)
  res.writeHead(status, { ...HEADERS, "content-length": Buffer.byteLength(text) })
  res.end(text)
}
const sameHash = (a, b) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))
const iso = (v) => (v instanceof Date ? v.toISOString() : new Date(v).toISOString())

const usersMe = async (req, res) => {
  const token = req.headers["service-session-token"]
  if (typeof token !== "string" || token.length !== 33 || token[10] !== "-") return send(res, 401, { message: "Invalid API key format." })
  const row = (await pool.query(KEY_WITH_USER, [token.slice(0, 10)])).rows[0]
  if (row === undefined || !sameHash(row.k_hashed_secret, createHash("sha256").update(token.slice(11)).digest("hex"))) {
    return send(res, 401, { message: "Invalid API key." })
  }
  const now = Date.now()
  const expires = row.k_expires_at.getTime()
  if (expires <= now) return send(res, 401, { message: "API key expired." })
  if (row.u_deleted) return send(res, 401, { message: "The user of this API key has been deleted." })
  if (row.u_status !== "active") return send(res, 401, { message: "User is not active." })
  if (now - row.k_last_used.getTime() > TOUCH_INTERVAL_MS) {
    const expiresAt = row.k_login_type !== "token" ? Math.max(expires, now + SESSION_MS) : expires
    await pool.query(TOUCH, [new Date(now).toISOString(), new Date(expiresAt).toISOString(), row.k_id])
  }
  const memberships = (await pool.query(MEMBERSHIPS, [row.u_id])).rows
  const theme = JSON.parse(row.u_appearance).theme_preference
  // Empty optional fields are left out, as the service (and the described system) answers them.
  const body = {}
  if (row.u_avatar_url) body.avatar_url = row.u_avatar_url
  body.created_at = iso(row.u_created_at)
  body.email = row.u_email
  body.id = row.u_id
  if (row.u_is_service_account) body.is_service_account = true
  body.last_seen_at = iso(row.u_last_seen_at)
  body.login_type = row.u_login_type
  if (row.u_name) body.name = row.u_name
  body.status = row.u_status
  if (theme) body.theme_preference = theme
  body.updated_at = iso(row.u_updated_at)
  body.username = row.u_username
  body.has_ai_seat = false
  body.organization_ids = memberships.map((m) => m.organization_id)
  body.roles = JSON.parse(row.u_rbac_roles).map((name) => ({ display_name: ROLE_NAMES[name] ?? name, name }))
  send(res, 200, body)
}

const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
  const q = req.url.indexOf("?")
  const path = q < 0 ? req.url : req.url.slice(0, q)
  if (req.method === "GET" && path === "/api/v2/buildinfo") return send(res, 200, { version: "bare-pg" })
  if (req.method !== "GET" || path !== "/api/v2/users/me") return send(res, 404, { message: "Route not found." })
  usersMe(req, res).catch((e) => {
    console.error(e)
    send(res, 500, { message: String(e) })
  })
})
// Ready once the pool reached the database.
await pool.query("SELECT 1")
server.listen(Number(values.port), "127.0.0.1", () => console.log(`bare pg server listening on http://127.0.0.1:${server.address().port}`))
process.once("SIGTERM", () => server.close(() => pool.end().then(() => process.exit(0))))
