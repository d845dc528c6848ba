// The bare Postgres baseline: node:http + pg doing the work of an authenticated
// GET /api/v2/users/me and nothing else, on the database a Workbay server uses.
// Per request: read the token header, look up the API key with its user, sha256
// the secret and compare in constant time, check expiry, deletion and status,
// touch last_used (sliding a session's expiry) at most once a minute, read the
// user's memberships, and write the user as JSON. No framework, no validation.
//
//   node bench/pg-baseline.mjs --url postgres://... --port <port> [--queries one|two|plain] [--prepared] [--batched] [--max 10]
//
// --queries one: Workbay's one statement (the key joined with its user, the memberships as
// JSON in a subquery); two: the key joined with its user, then the memberships (Workbay
// before that statement); plain: three queries (key, user, memberships), as bench/baseline.mjs
// does on SQLite.
// Queries go through pool.query with text and values, as most node + pg code does; with
// --prepared, as named statements (parsed once per connection), as Workbay runs its read.
// --batched (with --prepared), as Workbay sends them: the queries asked for in one turn of the
// event loop go out together at its check phase, up to 16 on one pooled connection in pg's
// pipeline mode, in one write.
import { createHash } from "node:crypto"
import { createServer } from "node:http"
import { parseArgs } from "node:util"
import pg from "pg"
import { sameHash, send } from "./bare/http.mjs"
import { KEY_COLUMNS, USER_COLUMNS } from "./bare/wire.mjs"

const { values } = parseArgs({
  options: {
    url: { type: "string" },
    port: { type: "string", default: "0" },
    queries: { type: "string", default: "one" },
    max: { type: "string", default: "10" },
    prepared: { type: "boolean", default: false },
    batched: { type: "boolean", default: false }
  }
})
if (values.url === undefined) throw new Error("--url postgres://... is required")
if (!["one", "two", "plain"].includes(values.queries)) throw new Error("--queries takes one, two or plain")

if (values.batched && !values.prepared) throw new Error("--batched goes with --prepared")
const pool = new pg.Pool({ connectionString: values.url, max: Number(values.max), pipeline: values.batched })
pool.on("error", () => {})

const SESSION_MS = 24 * 3_600_000
const ROLE_NAMES = {
  owner: "Owner",
  "user-admin": "User Admin",
  auditor: "Auditor",
  "template-admin": "Template Admin",
  member: "Member"
}

// The columns Workbay reads (packages/storage-sql/src/Rows.ts), shared with the SQLite bare servers.
const JOIN = `SELECT ${KEY_COLUMNS.map((c) => `k.${c} AS k_${c}`).join(", ")}, ${
  USER_COLUMNS.map((c) => `u.${c} AS u_${c}`).join(", ")
}`
const FROM = "FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.id = $1"
/** The key with its user and the user's memberships (organization id and roles, oldest first) as JSON text. */
const ONE = `${JOIN},
  (SELECT coalesce(json_agg(json_build_array(m.organization_id, m.roles) ORDER BY m.created_at), '[]')::text
     FROM organization_members m WHERE m.user_id = u.id) AS u_memberships ${FROM}`
const TWO = `${JOIN} ${FROM}`
const MEMBERSHIPS = "SELECT * FROM organization_members WHERE user_id = $1 ORDER BY created_at"

/** pool.query of `text`, named after the text when --prepared. */
const names = new Map()
const query = (text, values_) => {
  if (!values.prepared) return pool.query(text, values_)
  if (!names.has(text)) names.set(text, `bare_${names.size}`)
  const config = { name: names.get(text), text, values: values_ }
  return values.batched ? batched(config) : pool.query(config)
}

/** Queries queued until the loop's check phase, then sent 16 at most to a connection, in one write. */
let queue = []
const flush = () => {
  const all = queue
  queue = []
  const size = Math.ceil(all.length / Math.ceil(all.length / 16))
  for (let i = 0; i < all.length; i += size) {
    const batch = all.slice(i, i + size)
    pool.connect((error, client, release) => {
      if (error) return batch.forEach((q) => q.reject(error))
      client.connection.stream.cork()
      const done = batch.map((q) => client.query(q.config).then(q.resolve, (e) => (q.reject(e), Promise.reject(e))))
      client.connection.stream.uncork()
      Promise.allSettled(done).then((rs) => release(rs.find((r) => r.status === "rejected")?.reason))
    })
  }
}
const batched = (config) =>
  new Promise((resolve, reject) => {
    if (queue.push({ config, resolve, reject }) === 1) setImmediate(flush)
  })

const unauthorized = (res, message) => send(res, 401, { message })

const pick = (row, prefix, columns) => Object.fromEntries(columns.map((c) => [c, row[prefix + c]]))

/** The key, its user and the user's organization ids, or undefined. */
const lookup = async (keyId) => {
  if (values.queries !== "plain") {
    const row = (await query(values.queries === "one" ? ONE : TWO, [keyId])).rows[0]
    if (row === undefined) return undefined
    const user = pick(row, "u_", USER_COLUMNS)
    return {
      key: pick(row, "k_", KEY_COLUMNS),
      user,
      organizationIds: async () =>
        values.queries === "one"
          ? JSON.parse(row.u_memberships).map((m) => m[0])
          : (await query(MEMBERSHIPS, [user.id])).rows.map((m) => m.organization_id)
    }
  }
  const key = (await query("SELECT * FROM api_keys WHERE id = $1", [keyId])).rows[0]
  if (key === undefined) return undefined
  const user = (await query("SELECT * FROM users WHERE id = $1", [key.user_id])).rows[0]
  return user === undefined ? undefined : {
    key,
    user,
    organizationIds: async () =>
      (await query(MEMBERSHIPS, [user.id])).rows
        .map((m) => m.organization_id)
  }
}

const me = async (req, res) => {
  const token = req.headers["service-session-token"]
  if (typeof token !== "string" || token.length !== 33 || token[10] !== "-") {
    return unauthorized(res, "Invalid API key format.")
  }
  const found = await lookup(token.slice(0, 10))
  if (
    found === undefined ||
    !sameHash(found.key.hashed_secret, createHash("sha256").update(token.slice(11)).digest("hex"))
  ) {
    return unauthorized(res, "Invalid API key.")
  }
  const { key, user } = found
  const now = Date.now()
  if (key.expires_at.getTime() <= now) return unauthorized(res, "API key expired.")
  if (user.deleted) return unauthorized(res, "The user of this API key has been deleted.")
  if (user.status !== "active") return unauthorized(res, "User is not active.")
  if (now - key.last_used.getTime() > 60_000) {
    const expiresAt = key.login_type === "token"
      ? key.expires_at
      : new Date(Math.max(key.expires_at.getTime(), now + SESSION_MS))
    await query("UPDATE api_keys SET last_used = $1, expires_at = $2 WHERE id = $3", [
      new Date(now).toISOString(),
      expiresAt.toISOString(),
      key.id
    ])
  }
  const organizationIds = await found.organizationIds()
  const appearance = JSON.parse(user.appearance)
  // Empty optional fields are left out, as Workbay (and the described system) answers them.
  const body = {}
  if (user.avatar_url) body.avatar_url = user.avatar_url
  body.created_at = user.created_at.toISOString()
  body.email = user.email
  body.id = user.id
  if (user.is_service_account) body.is_service_account = true
  body.last_seen_at = user.last_seen_at.toISOString()
  body.login_type = user.login_type
  if (user.name) body.name = user.name
  body.status = user.status
  if (appearance.theme_preference) body.theme_preference = appearance.theme_preference
  body.updated_at = user.updated_at.toISOString()
  body.username = user.username
  body.has_ai_seat = false
  body.organization_ids = organizationIds
  body.roles = JSON.parse(user.rbac_roles).map((name) => ({ display_name: ROLE_NAMES[name] ?? name, name }))
  send(res, 200, body)
}

const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
  const q = req.url.indexOf("?")
  const path = q < 0 ? req.url : req.url.slice(0, q)
  if (req.method === "GET" && path === "/api/v2/buildinfo") return send(res, 200, { version: "pg-baseline" })
  if (req.method !== "GET" || path !== "/api/v2/users/me") return send(res, 404, { message: "Route not found." })
  me(req, res).catch((e) => send(res, 500, { message: String(e) }))
})

server.listen(Number(values.port), "127.0.0.1", () => {
  console.log(
    `pg baseline (${values.queries}${
      values.prepared ? ", prepared" : ""
    }) listening on http://127.0.0.1:${server.address().port}`
  )
})
process.once("SIGTERM", () => server.close(() => pool.end().then(() => process.exit(0))))
