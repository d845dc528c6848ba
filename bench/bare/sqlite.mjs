// The bare SQLite server of bench/areas.mjs: node:http + better-sqlite3 answering, for the
// owner, the routes the areas bench loads, with the SQL statements the service runs for each
// (the same text, in the same order; see `--check-sql` in bench/areas.mjs) and the same JSON.
// No framework, no schemas, no Effect: plain objects and JSON.stringify.
//
//   node bench/bare/sqlite.mjs --db <file> --port <port>
//
// Routes (under /api/v2): GET /buildinfo (readiness), GET /users/me, GET /users?limit&offset,
// GET /workspaces/{id}, GET /workspaces?limit&offset, GET /templates/{id},
// GET /groups/{id}?exclude_members=true, GET and POST /users/{user}/keys/tokens,
// POST /workspaces/{id}/builds (transition start, no parameters). What it leaves out, against
// the service: the RBAC evaluator (the caller must be an owner, who may do all of these),
// scopes and allow lists (the bench's session key has `all`), search queries, favorites of
// other callers, template parameters, and every error path but 401/404/409. Where its statements
// still differ (`--check-sql`, 2026-11-29): the workspace list reads its page, then the page's latest
// builds, where the service reads both in one statement (a join); the build creation writes no
// placement columns and reads no pending move.
//
// Authentication is the one of bench/baseline.mjs with the service's statement: the key row
// joined with its user (one query, as the service reads it), sha256 of the secret compared in
// constant time, expiry, deleted and suspended users, and the `last_used` touch at most once a
// minute (sessions slide by 24 h).
import Database from "better-sqlite3"
import { createHash, randomInt, randomUUID } from "node:crypto"
import { createServer } from "node:http"
import { parseArgs } from "node:util"
import { sameHash, send } from "./http.mjs"
import { KEY_WITH_USER_SQLITE, userJson } from "./wire.mjs"

const { values } = parseArgs({ options: { db: { type: "string" }, port: { type: "string", default: "0" } } })
if (values.db === undefined) throw new Error("--db <file> is required")

const db = new Database(values.db)
// The pragmas the service sets on its connection.
db.pragma("journal_mode = WAL")
db.pragma("foreign_keys = ON")
db.pragma("busy_timeout = 5000")
db.pragma("synchronous = NORMAL")

const NIL = "00000000-0000-0000-0000-000000000000"
const TOUCH_INTERVAL_MS = 60_000
const SESSION_MS = 24 * 3_600_000
const TOKEN_LIFETIME_MS = 30 * 86_400_000
const DAEMON_STALE_MS = 90_000

// --- statements -------------------------------------------------------------------------------
const cache = new Map()
/** The prepared statement of `sql` (with `(?)` grown to `n` placeholders when `n` is given). */
const stmt = (sql, n) => {
  const key = n === undefined ? sql : `${n}:${sql}`
  let s = cache.get(key)
  if (s === undefined) {
    s = db.prepare(n === undefined ? sql : sql.replace("(?)", `(${Array.from({ length: n }, () => "?").join(",")})`))
    cache.set(key, s)
  }
  return s
}
const all = (sql, ...params) => stmt(sql).all(...params)
const one = (sql, ...params) => stmt(sql).all(...params)[0]
const allIn = (sql, list, ...rest) => stmt(sql, list.length).all(...list, ...rest)

const KEY_WITH_USER = KEY_WITH_USER_SQLITE
const unprefix = (row, prefix) => {
  const out = {}
  for (const k in row) if (k.startsWith(prefix)) out[k.slice(prefix.length)] = row[k]
  return out
}

const SQL = {
  touch: "UPDATE api_keys SET last_used = ?, expires_at = ? WHERE id = ?",
  userById: "SELECT * FROM users WHERE id = ?",
  // System users (the prebuilds user) are never listed, as the service's list leaves them out.
  usersPage:
    "SELECT * FROM users WHERE (deleted = FALSE AND is_system = FALSE) ORDER BY lower(username) LIMIT ? OFFSET ?",
  userCounts: "SELECT name, value FROM counters WHERE name IN ('users', 'users_active')",
  membershipsIn: `SELECT user_id, organization_id FROM organization_members WHERE "user_id" IN (?)`,
  workspaceById: "SELECT * FROM workspaces WHERE id = ?",
  // The constant written, not bound: the partial index api_keys_token_name_key is on login_type = 'token', and a
  // bound value there makes SQLite prepare the statement again at every run (docs/storage.md, as the service).
  tokensOf:
    "SELECT * FROM api_keys WHERE (user_id = ? AND login_type = 'token' AND expires_at > ?) ORDER BY created_at DESC",
  favoriteCount:
    "SELECT count(*) AS n FROM workspaces w WHERE (w.deleted = FALSE AND w.owner_id = ? AND w.favorite = TRUE)",
  favoritesPage:
    "SELECT w.* FROM workspaces w WHERE (w.deleted = FALSE AND w.owner_id = ? AND w.favorite = TRUE) ORDER BY w.list_rank, w.owner_username, lower(w.name), w.id LIMIT ? OFFSET ?",
  restPage:
    "SELECT w.* FROM workspaces w WHERE (w.deleted = FALSE AND NOT (w.owner_id = ? AND w.favorite = TRUE)) ORDER BY w.list_rank, w.owner_username, lower(w.name), w.id LIMIT ? OFFSET ?",
  keptCount: "SELECT value FROM counters WHERE name = ?",
  templateUsers: "SELECT name, value FROM counters WHERE \"name\" IN (?) AND value > 0",
  // A template's build time stats read its newest 100 successful builds of the last 30 days (migration 0031).
  templateBuildTimes:
    "SELECT template_id, transition, started_at, completed_at FROM ( SELECT template_id, transition, started_at, completed_at, ROW_NUMBER() OVER (PARTITION BY template_id ORDER BY build_created_at DESC, build_id DESC) AS rn FROM template_build_times WHERE template_id IN (?)) x WHERE rn <= ? AND started_at > ?",
  latestBuilds:
    "SELECT b.* FROM workspace_builds b WHERE b.workspace_id IN (?) AND b.build_number = (SELECT max(x.build_number) FROM workspace_builds x WHERE x.workspace_id = b.workspace_id)",
  latestSummaries:
    "SELECT b.id, b.created_at, b.updated_at, b.workspace_id, b.template_version_id, b.template_version_preset_id, b.build_number, b.transition, b.initiator_id, b.job_id, b.deadline, b.max_deadline, b.reason, b.daily_cost, b.has_ai_task, b.has_external_agent, b.orphan FROM workspaces w JOIN workspace_builds b ON b.workspace_id = w.id AND b.build_number = (SELECT max(x.build_number) FROM workspace_builds x WHERE x.workspace_id = w.id) WHERE w.id IN (?)",
  buildParameters:
    "SELECT workspace_build_id, name, value FROM workspace_build_parameters WHERE workspace_build_id IN (?) ORDER BY name",
  jobById: "SELECT * FROM provisioner_jobs WHERE id = ?",
  jobsIn: "SELECT * FROM provisioner_jobs WHERE \"id\" IN (?)",
  usersIn: "SELECT * FROM users WHERE \"id\" IN (?)",
  templatesIn: "SELECT * FROM templates WHERE \"id\" IN (?)",
  organizationsIn: "SELECT * FROM organizations WHERE \"id\" IN (?)",
  daemonsServing: "SELECT * FROM provisioner_daemons WHERE (organization_id IS NULL OR organization_id = ?)",
  pendingJobs:
    "SELECT id, provisioner, tags, created_at FROM provisioner_jobs WHERE started_at IS NULL AND canceled_at IS NULL AND completed_at IS NULL AND \"provisioner\" IN (?) ORDER BY created_at",
  versionMetadata:
    "SELECT v.id AS version_id, v.name AS version_name, t.id AS template_id, t.name AS template_name, t.display_name AS template_display_name, t.icon AS template_icon FROM template_versions v LEFT JOIN templates t ON t.id = v.template_id WHERE v.id IN (?)",
  buildMetadata:
    "SELECT b.id AS build_id, b.transition, w.id AS workspace_id, w.name AS workspace_name, v.id AS version_id, v.name AS version_name, t.id AS template_id, t.name AS template_name, t.display_name AS template_display_name, t.icon AS template_icon FROM workspace_builds b JOIN workspaces w ON w.id = b.workspace_id LEFT JOIN template_versions v ON v.id = b.template_version_id LEFT JOIN templates t ON t.id = w.template_id WHERE b.id IN (?)",
  resourcesOfJobs: "SELECT * FROM workspace_resources WHERE job_id IN (?) ORDER BY created_at, name, id",
  agentsOfJobs:
    "SELECT a.* FROM workspace_agents a WHERE a.resource_id IN (SELECT r.id FROM workspace_resources r WHERE r.job_id IN (?)) ORDER BY a.name, a.id",
  versionById: "SELECT * FROM template_versions WHERE id = ?",
  templateById: "SELECT * FROM templates WHERE id = ?",
  organizationById: "SELECT * FROM organizations WHERE id = ?",
  groupById:
    "SELECT g.*, o.name AS organization_name, o.display_name AS organization_display_name FROM groups g JOIN organizations o ON o.id = g.organization_id WHERE g.id = ?",
  tokenByName: "SELECT * FROM api_keys WHERE user_id = ? AND token_name = ? AND login_type = 'token'",
  insertKey:
    "INSERT INTO api_keys (\"id\",\"hashed_secret\",\"user_id\",\"login_type\",\"token_name\",\"scopes\",\"allow_list\",\"lifetime_seconds\",\"created_at\",\"updated_at\",\"expires_at\",\"last_used\") VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
  insertAudit:
    "INSERT INTO audit_logs (\"id\",\"time\",\"user_id\",\"organization_id\",\"ip\",\"user_agent\",\"request_id\",\"action\",\"resource_type\",\"resource_id\",\"resource_target\",\"resource_icon\",\"diff\",\"status_code\",\"additional_fields\",\"description\",\"build_reason\") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
  insertJob:
    "INSERT INTO provisioner_jobs (\"id\",\"created_at\",\"updated_at\",\"organization_id\",\"initiator_id\",\"provisioner\",\"type\",\"file_id\",\"input\",\"tags\") VALUES (?,?,?,?,?,?,?,?,?,?) RETURNING *",
  insertBuild:
    "INSERT INTO workspace_builds (\"id\",\"created_at\",\"updated_at\",\"workspace_id\",\"template_version_id\",\"template_version_preset_id\",\"build_number\",\"transition\",\"initiator_id\",\"job_id\",\"deadline\",\"max_deadline\",\"reason\",\"daily_cost\",\"has_ai_task\",\"has_external_agent\",\"orphan\",\"provisioner_state\") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
  listRank:
    "UPDATE workspaces SET list_rank = CASE WHEN EXISTS ( SELECT 1 FROM workspace_builds b JOIN provisioner_jobs j ON j.id = b.job_id WHERE b.workspace_id = workspaces.id AND b.transition = 'start' AND j.job_status = 'succeeded' AND b.build_number = (SELECT max(x.build_number) FROM workspace_builds x WHERE x.workspace_id = workspaces.id) ) THEN 0 ELSE 1 END, lifecycle_due_at = '1970-01-01T00:00:00.000Z', lifecycle_version = lifecycle_version + 1 WHERE id = ?"
}

// --- HTTP plumbing ----------------------------------------------------------------------------
class HttpError extends Error {
  constructor(status, message) {
    super(message)
    this.status = status
  }
}
const fail = (status, message) => {
  throw new HttpError(status, message)
}
const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
const randomString = (length) => {
  let out = ""
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)]
  return out
}
const iso = (ms) => new Date(ms).toISOString()
const json = (text, fallback) => {
  if (typeof text !== "string" || text === "") return text ?? fallback
  try {
    return JSON.parse(text)
  } catch {
    return fallback
  }
}
/** Go's omitempty, as the service's `putNonEmpty`. */
const isEmpty = (v) =>
  v === "" || v === false || v === 0 || v === null || v === undefined ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0)
const put = (target, key, value) => {
  if (!isEmpty(value)) target[key] = value
}

/** The caller: the key and its user, after the checks the service makes (401 otherwise). */
const authenticate = (req) => {
  const token = req.headers["service-session-token"]
  if (typeof token !== "string" || token.length !== 33 || token[10] !== "-") fail(401, "Invalid API key format.")
  const row = stmt(KEY_WITH_USER).all(token.slice(0, 10))[0]
  if (row === undefined || !sameHash(row.k_hashed_secret, createHash("sha256").update(token.slice(11)).digest("hex"))) {
    fail(401, "Invalid API key.")
  }
  const key = unprefix(row, "k_")
  const user = unprefix(row, "u_")
  const now = Date.now()
  const expires = Date.parse(key.expires_at)
  if (expires <= now) fail(401, "API key expired.")
  if (user.deleted === 1) fail(401, "The user of this API key has been deleted.")
  if (user.status !== "active") fail(401, "User is not active.")
  if (now - Date.parse(key.last_used) > TOUCH_INTERVAL_MS) {
    const expiresAt = key.login_type !== "token" ? Math.max(expires, now + SESSION_MS) : expires
    stmt(SQL.touch).run(iso(now), iso(expiresAt), key.id)
  }
  if (!json(user.rbac_roles, []).includes("owner")) fail(403, "The bare server answers owners only.")
  const memberships = JSON.parse(row.m_memberships).map(([organization_id, roles]) => ({
    organization_id,
    roles: json(roles, [])
  }))
  return { key, user, memberships, now }
}

// --- users ------------------------------------------------------------------------------------
const usersMe = ({ user, memberships }) => userJson(user, memberships.map((m) => m.organization_id))

const usersList = (_caller, params) => {
  const limit = Number(params.get("limit") ?? 0) > 0 ? Math.min(Number(params.get("limit")), 1000) : 100
  const offset = Number(params.get("offset") ?? 0) || 0
  const rows = all(SQL.usersPage, limit, offset)
  const counts = all(SQL.userCounts)
  const count = Number(counts.find((r) => r.name === "users")?.value ?? 0)
  const live = rows.filter((u) => u.deleted !== 1).map((u) => u.id)
  const orgs = new Map()
  if (live.length > 0) {
    for (const m of allIn(SQL.membershipsIn, live)) {
      const list = orgs.get(m.user_id)
      if (list === undefined) orgs.set(m.user_id, [m.organization_id])
      else list.push(m.organization_id)
    }
  }
  return { users: rows.map((u) => userJson(u, orgs.get(u.id) ?? [])), count }
}

// --- provisioner jobs (the wire job, as ProvisionerJobViews.describeAll) ----------------------
const jobStatus = (j) => {
  if (j.completed_at !== null) return j.error !== "" ? "failed" : j.canceled_at !== null ? "canceled" : "succeeded"
  if (j.canceled_at !== null) return "canceling"
  return j.started_at === null ? "pending" : "running"
}
const tagsMatch = (jobTags, workerTags) =>
  Object.entries(jobTags).every(([k, v]) => Object.prototype.hasOwnProperty.call(workerTags, k) && workerTags[k] === v)
const serves = (worker, job) => worker.provisioners.includes(job.provisioner) && tagsMatch(job.tags, worker.tags)
const daemonRows = (orgId) =>
  all(SQL.daemonsServing, orgId).map((d) => ({ ...d, provisioners: json(d.provisioners, []), tags: json(d.tags, {}) }))
const isLive = (d, now) => d.last_seen_at !== null && Date.parse(d.last_seen_at) >= now - DAEMON_STALE_MS
const jobRecord = (row) => ({ ...row, input: json(row.input, {}), tags: json(row.tags, {}) })

/** Wire jobs of one organization; the metadata of builds in `knownBuilds` (build id to metadata or undefined) is not read. */
const describeJobs = (orgId, jobs, now, knownBuilds = new Map()) => {
  const anyPending = jobs.some((j) => jobStatus(j) === "pending")
  const workers = anyPending ? daemonRows(orgId).filter((d) => isLive(d, now)) : []
  const types = [...new Set(workers.flatMap((w) => w.provisioners))]
  const pending = anyPending && types.length > 0
    ? allIn(SQL.pendingJobs, types).map((p) => ({ id: p.id, provisioner: p.provisioner, tags: json(p.tags, {}) }))
    : []
  const versionIds = [...new Set(jobs.flatMap((j) => j.input.template_version_id ?? []))]
  const versions = new Map(
    versionIds.length === 0 ? [] : allIn(SQL.versionMetadata, versionIds).map((v) => [v.version_id, v])
  )
  const buildIds = [
    ...new Set(jobs.flatMap((j) => (j.type === "workspace_build" ? j.input.workspace_build_id ?? [] : [])))
  ]
    .filter((id) => !knownBuilds.has(id))
  const builds = new Map(knownBuilds)
  if (buildIds.length > 0) { for (const b of allIn(SQL.buildMetadata, buildIds)) builds.set(b.build_id, b) }
  return jobs.map((j) => {
    const status = jobStatus(j)
    const isPending = status === "pending"
    let position = 0
    let size = 0
    if (isPending) {
      for (const p of pending) {
        if (!workers.some((w) => serves(w, p))) continue
        size++
        if (p.id === j.id) position = size
      }
    }
    const build = builds.get(j.input.workspace_build_id ?? "")
    const v = build ?? versions.get(j.input.template_version_id ?? "")
    const metadata = {
      template_version_name: v?.version_name ?? "",
      template_id: v?.template_id ?? NIL,
      template_name: v?.template_name ?? "",
      template_display_name: v?.template_display_name ?? "",
      template_icon: v?.template_icon ?? ""
    }
    if (build !== undefined) {
      metadata.workspace_id = build.workspace_id
      metadata.workspace_name = build.workspace_name
      metadata.workspace_build_transition = build.transition
    }
    const wire = { id: j.id, created_at: j.created_at }
    put(wire, "started_at", j.started_at)
    put(wire, "completed_at", j.completed_at)
    put(wire, "canceled_at", j.canceled_at)
    put(wire, "error", j.error)
    put(wire, "error_code", j.error_code)
    wire.status = status
    put(wire, "worker_id", j.worker_id)
    put(wire, "worker_name", j.worker_name)
    wire.file_id = j.file_id
    wire.tags = j.tags
    wire.queue_position = position
    wire.queue_size = size
    wire.organization_id = j.organization_id
    wire.initiator_id = j.initiator_id
    wire.input = Object.fromEntries(Object.entries(j.input).filter(([, x]) => x !== undefined && x !== ""))
    wire.type = j.type
    put(wire, "available_workers", isPending ? workers.filter((w) => serves(w, j)).map((w) => w.id) : undefined)
    wire.metadata = metadata
    wire.logs_overflowed = j.logs_overflowed === 1
    return wire
  })
}

// --- resources and agents (as toBuildResource) ------------------------------------------------
const DISPLAY_APPS = ["vscode", "vscode_insiders", "web_terminal", "port_forwarding_helper", "ssh_helper"]
const appJson = (app) => {
  const wire = { id: app.id }
  put(wire, "url", app.url)
  wire.external = app.external
  wire.slug = app.slug
  put(wire, "display_name", app.display_name)
  put(wire, "command", app.command)
  put(wire, "icon", app.icon)
  wire.subdomain = app.subdomain
  wire.sharing_level = app.sharing_level
  wire.healthcheck = {
    url: app.healthcheck?.url ?? "",
    interval: app.healthcheck?.interval ?? 0,
    threshold: app.healthcheck?.threshold ?? 0
  }
  wire.health = app.healthcheck !== undefined && app.healthcheck.url !== "" ? "initializing" : "disabled"
  put(wire, "group", app.group)
  wire.hidden = app.hidden
  wire.open_in = app.open_in
  put(wire, "tooltip", app.tooltip)
  wire.statuses = []
  return wire
}
const agentStatus = (a, now) => {
  if (a.first_connected_at === null) {
    const timeout = a.connection_timeout_seconds
    return timeout > 0 && now - Date.parse(a.created_at) > timeout * 1000 ? "timeout" : "connecting"
  }
  if (a.disconnected_at !== null && (a.last_connected_at === null || a.disconnected_at >= a.last_connected_at)) {
    return "disconnected"
  }
  return "connected"
}
const AGENT_HEALTH = {
  connecting: { healthy: false, reason: "agent has not yet connected" },
  timeout: { healthy: false, reason: "agent is taking too long to connect" },
  disconnected: { healthy: false, reason: "agent has lost connection" },
  connected: { healthy: true }
}
const agentJson = (a, resource, now) => {
  const scripts = json(a.scripts, [])
  const displayApps = json(a.display_apps, {})
  const status = agentStatus(a, now)
  const wire = {
    id: a.id,
    parent_id: null,
    created_at: a.created_at,
    updated_at: a.updated_at,
    status,
    lifecycle_state: a.lifecycle_state,
    name: a.name,
    resource_id: resource.id,
    architecture: a.architecture,
    environment_variables: json(a.environment_variables, {}),
    operating_system: a.operating_system,
    logs_length: a.logs_length,
    logs_overflowed: a.logs_overflowed === 1
  }
  put(wire, "directory", a.directory)
  wire.version = a.version
  wire.api_version = a.api_version
  wire.apps = json(a.apps, []).map(appJson)
  wire.connection_timeout_seconds = a.connection_timeout_seconds
  wire.troubleshooting_url = a.troubleshooting_url
  wire.subsystems = []
  wire.health = AGENT_HEALTH[status]
  wire.display_apps = DISPLAY_APPS.filter((name) => displayApps[name])
  wire.log_sources = scripts.map((s) => ({
    workspace_agent_id: a.id,
    id: s.id,
    created_at: resource.created_at,
    display_name: s.display_name,
    icon: ""
  }))
  wire.scripts = scripts.map((s) => ({
    id: s.id,
    log_source_id: s.id,
    log_path: s.log_path,
    script: s.script,
    cron: s.cron,
    run_on_start: s.run_on_start,
    run_on_stop: s.run_on_stop,
    start_blocks_login: s.start_blocks_login,
    timeout: s.timeout_seconds * 1e9,
    display_name: s.display_name
  }))
  wire.startup_script_behavior = a.startup_script_behavior
  return wire
}
const resourceJson = (r, agents, now) => {
  const wire = {
    id: r.id,
    created_at: r.created_at,
    job_id: r.job_id,
    workspace_transition: r.transition,
    type: r.type,
    name: r.name,
    hide: r.hide === 1,
    icon: r.icon
  }
  put(wire, "agents", agents.map((a) => agentJson(a, r, now)))
  put(wire, "metadata", json(r.metadata, []).map((m) => ({ key: m.key, value: m.value, sensitive: m.sensitive })))
  wire.daily_cost = r.daily_cost
  return wire
}

// --- builds and workspaces (as WorkspaceBuilds.toWires and Workspaces.toWires) ------------------
/** The latest builds of workspaces, with their parameters read in one query. */
const latestBuilds = (workspaceIds) => {
  if (workspaceIds.length === 0) return []
  const rows = allIn(SQL.latestBuilds, workspaceIds)
  if (rows.length > 0) allIn(SQL.buildParameters, rows.map((r) => r.id))
  return rows
}

/**
 * Wire builds of any workspaces, as WorkspaceBuilds.toWires reads them: versions, templates, jobs,
 * their views, resources, people and matched daemons, one read of each kind. `also.templates` and
 * `also.users` (id to row or undefined) are not read again.
 */
const buildWires = (list, known, now, also = {}) => {
  if (list.length === 0) return []
  const workspaces = new Map(known.map((w) => [w.id, w]))
  for (const id of new Set(list.map((b) => b.workspace_id))) {
    if (!workspaces.has(id)) {
      const w = one(SQL.workspaceById, id)
      if (w !== undefined) workspaces.set(id, w)
    }
  }
  const versions = new Map(
    allIn(SQL.versionMetadata, [...new Set(list.map((b) => b.template_version_id))]).map((v) => [v.version_id, v])
  )
  const templates = new Map(also.templates ?? [])
  const unknownTemplates = [...new Set([...workspaces.values()].map((w) => w.template_id))].filter((id) =>
    !templates.has(id)
  )
  if (unknownTemplates.length > 0) {
    const found = new Map(allIn(SQL.templatesIn, unknownTemplates).map((t) => [t.id, t]))
    for (const id of unknownTemplates) templates.set(id, found.get(id))
  }
  const knownBuilds = new Map()
  for (const b of list) {
    const w = workspaces.get(b.workspace_id)
    const v = versions.get(b.template_version_id)
    const t = w === undefined ? undefined : templates.get(w.template_id)
    knownBuilds.set(
      b.id,
      w === undefined ? undefined : {
        build_id: b.id,
        transition: b.transition,
        workspace_id: w.id,
        workspace_name: w.name,
        version_id: v?.version_id ?? "",
        version_name: v?.version_name ?? "",
        template_id: t?.id ?? null,
        template_name: t?.name ?? "",
        template_display_name: t?.display_name ?? "",
        template_icon: t?.icon ?? ""
      }
    )
  }
  const jobIds = [...new Set(list.map((b) => b.job_id))]
  const jobs = new Map(allIn(SQL.jobsIn, jobIds).map((r) => [r.id, jobRecord(r)]))
  const byOrg = new Map()
  for (const j of jobs.values()) byOrg.set(j.organization_id, [...(byOrg.get(j.organization_id) ?? []), j])
  const jobWires = new Map()
  for (const [orgId, js] of byOrg) for (const d of describeJobs(orgId, js, now, knownBuilds)) jobWires.set(d.id, d)
  const resourcesByJob = new Map()
  const resources = allIn(SQL.resourcesOfJobs, jobIds)
  if (resources.length > 0) {
    const agents = allIn(SQL.agentsOfJobs, jobIds)
    const byResource = new Map()
    for (const a of agents) byResource.set(a.resource_id, [...(byResource.get(a.resource_id) ?? []), a])
    for (const r of resources) {
      resourcesByJob.set(r.job_id, [
        ...(resourcesByJob.get(r.job_id) ?? []),
        resourceJson(r, byResource.get(r.id) ?? [], now)
      ])
    }
  }
  const people = new Map(also.users ?? [])
  const unknownPeople = new Set()
  for (const b of list) {
    const ownerId = workspaces.get(b.workspace_id)?.owner_id
    if (ownerId !== undefined && !people.has(ownerId)) unknownPeople.add(ownerId)
    if (!people.has(b.initiator_id)) unknownPeople.add(b.initiator_id)
  }
  if (unknownPeople.size > 0) {
    const found = new Map(allIn(SQL.usersIn, [...unknownPeople]).map((u) => [u.id, u]))
    for (const id of unknownPeople) people.set(id, found.get(id))
  }
  const person = (id) => people.get(id)
  const versionNames = new Map([...versions.values()].map((v) => [v.version_id, v.version_name]))
  // Unfinished builds' jobs: the daemons that could run them, read once per organization.
  const serving = new Map()
  for (const b of list) {
    const job = jobs.get(b.job_id)
    const status = jobStatus(job)
    if ((status === "pending" || status === "running") && !serving.has(job.organization_id)) {
      serving.set(job.organization_id, daemonRows(job.organization_id))
    }
  }
  return list.map((b) => {
    const w = workspaces.get(b.workspace_id)
    const job = jobs.get(b.job_id)
    const owner = w === undefined ? undefined : person(w.owner_id)
    const initiator = person(b.initiator_id)
    const status = jobStatus(job)
    const wire = {
      id: b.id,
      created_at: b.created_at,
      updated_at: b.updated_at,
      workspace_id: b.workspace_id,
      workspace_name: w?.name ?? "",
      workspace_owner_id: w?.owner_id ?? b.initiator_id
    }
    put(wire, "workspace_owner_name", owner?.username)
    put(wire, "workspace_owner_avatar_url", owner?.avatar_url)
    wire.template_version_id = b.template_version_id
    wire.template_version_name = versionNames.get(b.template_version_id) ?? ""
    wire.build_number = b.build_number
    wire.transition = b.transition
    wire.initiator_id = b.initiator_id
    wire.initiator_name = initiator?.username ?? ""
    wire.job = jobWires.get(job.id)
    wire.reason = b.reason
    wire.resources = resourcesByJob.get(job.id) ?? []
    put(wire, "deadline", b.deadline)
    put(wire, "max_deadline", b.max_deadline)
    wire.status = buildStatus(b.transition, status)
    wire.daily_cost = b.daily_cost
    if (status === "pending" || status === "running") {
      wire.matched_provisioners = matched(job, now, serving.get(job.organization_id))
    }
    wire.template_version_preset_id = b.template_version_preset_id
    put(wire, "has_ai_task", b.has_ai_task === 1)
    put(wire, "has_external_agent", b.has_external_agent === 1)
    return wire
  })
}
const buildStatus = (transition, job) => {
  switch (job) {
    case "pending":
      return "pending"
    case "running":
      return transition === "start" ? "starting" : transition === "stop" ? "stopping" : "deleting"
    case "succeeded":
      return transition === "start" ? "running" : transition === "stop" ? "stopped" : "deleted"
    case "canceling":
      return "canceling"
    case "canceled":
      return "canceled"
    default:
      return "failed"
  }
}
/** `matched_provisioners`: the daemons whose types and tags fit the job, the live ones, the last seen. */
const matched = (job, now, daemons) => {
  const fit = daemons.filter((d) => serves(d, job))
  const seen = fit.flatMap((d) => (d.last_seen_at === null ? [] : [Date.parse(d.last_seen_at)]))
  const out = { count: fit.length, available: fit.filter((d) => isLive(d, now)).length }
  if (seen.length > 0) out.most_recently_seen = iso(Math.max(...seen))
  return out
}

const workspaceWires = (list, now) => {
  if (list.length === 0) return []
  // As WorkspaceBuildRepo.latestSummariesOf: without parameters and provisioner state.
  const latest = allIn(SQL.latestSummaries, list.map((w) => w.id))
  const templateIds = [...new Set(list.map((w) => w.template_id))]
  const foundTemplates = new Map(allIn(SQL.templatesIn, templateIds).map((t) => [t.id, t]))
  const templates = new Map(templateIds.map((id) => [id, foundTemplates.get(id)]))
  const orgNames = new Map(
    allIn(SQL.organizationsIn, [...new Set(list.map((w) => w.organization_id))]).map((o) => [o.id, o.name])
  )
  const ownerIds = [...new Set(list.map((w) => w.owner_id))]
  const foundOwners = new Map(allIn(SQL.usersIn, ownerIds).map((u) => [u.id, u]))
  const owners = new Map(ownerIds.map((id) => [id, foundOwners.get(id)]))
  const builds = new Map(buildWires(latest, list, now, { users: owners, templates }).map((b) => [b.workspace_id, b]))
  return list.flatMap((w) => {
    const build = builds.get(w.id)
    const t = templates.get(w.template_id)
    if (build === undefined || t === undefined) return []
    if (w.user_acl !== "{}" || w.group_acl !== "{}") fail(501, "The bare server does not read shared workspaces.")
    const owner = owners.get(w.owner_id)
    const failing = build.resources.flatMap((r) => (r.agents ?? []).filter((a) => !a.health.healthy).map((a) => a.id))
    const wire = {
      id: w.id,
      created_at: w.created_at,
      updated_at: w.updated_at,
      owner_id: w.owner_id,
      owner_name: owner?.username ?? "",
      owner_avatar_url: owner?.avatar_url ?? ""
    }
    Object.assign(wire, {
      organization_id: w.organization_id,
      organization_name: orgNames.get(w.organization_id) ?? "",
      template_id: t.id,
      template_name: t.name,
      template_display_name: t.display_name,
      template_icon: t.icon,
      template_allow_user_cancel_workspace_jobs: t.allow_user_cancel_workspace_jobs === 1,
      template_active_version_id: t.active_version_id,
      template_require_active_version: t.require_active_version === 1,
      template_use_classic_parameter_flow: t.use_classic_parameter_flow === 1,
      latest_build: build,
      latest_app_status: null,
      outdated: build.template_version_id !== t.active_version_id,
      name: w.name
    })
    put(wire, "autostart_schedule", w.autostart_schedule)
    put(wire, "ttl_ms", w.ttl_ms ?? undefined)
    Object.assign(wire, {
      last_used_at: w.last_used_at,
      deleting_at: w.deleting_at,
      dormant_at: w.dormant_at,
      health: { healthy: failing.length === 0, failing_agents: failing },
      automatic_updates: w.automatic_updates,
      allow_renames: false,
      favorite: w.favorite === 1,
      next_start_at: w.next_start_at,
      is_prebuild: false,
      task_id: { uuid: NIL, valid: false },
      shared_with: []
    })
    return [wire]
  })
}

const workspaceGet = ({ now }, _params, id) => {
  const w = one(SQL.workspaceById, id.toLowerCase())
  if (w === undefined || w.deleted === 1) fail(404, "Resource not found or you do not have access to this resource")
  const [wire] = workspaceWires([w], now)
  if (wire === undefined) fail(404, "Resource not found or you do not have access to this resource")
  return wire
}

const workspacesList = ({ user, now }, params) => {
  const limit = Number(params.get("limit") ?? 0) > 0 ? Math.min(Number(params.get("limit")), 100) : 25
  const offset = Number(params.get("offset") ?? 0) || 0
  const favoriteCount = Number(one(SQL.favoriteCount, user.id)?.n ?? 0)
  const rows = []
  if (offset < favoriteCount) rows.push(...all(SQL.favoritesPage, user.id, limit, offset))
  if (rows.length < limit) {
    rows.push(...all(SQL.restPage, user.id, limit - rows.length, Math.max(0, offset - favoriteCount)))
  }
  const count = Number(one(SQL.keptCount, "workspaces")?.value ?? 0)
  return { workspaces: workspaceWires(rows, now), count }
}

// --- templates and groups -----------------------------------------------------------------------
const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
const daysOfMask = (mask) => WEEKDAYS.filter((_, i) => (mask & (1 << i)) !== 0)

/** The described system's `percentile_disc`: the first value whose cumulative share reaches `p`. */
const percentileDisc = (sorted, p) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]

/** `build_time_stats` of a template: p50 and p95 in milliseconds per transition, null without builds. */
const buildTimeStats = (templateId, now) => {
  const since = new Date(now - 30 * 86_400_000).toISOString()
  const seconds = new Map()
  for (const r of allIn(SQL.templateBuildTimes, [templateId], 100, since)) {
    const list = seconds.get(r.transition) ?? []
    list.push(Math.max(0, (Date.parse(r.completed_at) - Date.parse(r.started_at)) / 1000))
    seconds.set(r.transition, list)
  }
  const stats = { start: { P50: null, P95: null }, stop: { P50: null, P95: null }, delete: { P50: null, P95: null } }
  for (const [transition, list] of seconds) {
    list.sort((a, b) => a - b)
    stats[transition] = {
      P50: Math.round(percentileDisc(list, 0.5) * 1000),
      P95: Math.round(percentileDisc(list, 0.95) * 1000)
    }
  }
  return stats
}

const templateGet = ({ now }, _params, id) => {
  const t = one(SQL.templateById, id.toLowerCase())
  if (t === undefined || t.deleted === 1) fail(404, "Resource not found or you do not have access to this resource")
  const org = one(SQL.organizationById, t.organization_id)
  const createdBy = one(SQL.userById, t.created_by)?.username ?? ""
  // The template's distinct workspace owners: a kept count (migration 0014), as the service reads it.
  const activeUsers = Number(one(SQL.templateUsers, `template_users:${t.id}`)?.value ?? 0)
  return {
    active_user_count: activeUsers,
    active_version_id: t.active_version_id,
    activity_bump_ms: t.activity_bump_ms,
    allow_user_autostart: t.allow_user_autostart === 1,
    allow_user_autostop: t.allow_user_autostop === 1,
    allow_user_cancel_workspace_jobs: t.allow_user_cancel_workspace_jobs === 1,
    autostart_requirement: { days_of_week: daysOfMask(t.autostart_requirement_days_of_week) },
    autostop_requirement: {
      days_of_week: daysOfMask(t.autostop_requirement_days_of_week),
      weeks: Math.max(1, t.autostop_requirement_weeks)
    },
    build_time_stats: buildTimeStats(t.id, now),
    cors_behavior: t.cors_behavior,
    created_at: t.created_at,
    created_by_id: t.created_by,
    created_by_name: createdBy,
    default_ttl_ms: t.default_ttl_ms,
    deleted: t.deleted === 1,
    deprecated: t.deprecated !== "",
    deprecation_message: t.deprecated,
    description: t.description,
    display_name: t.display_name,
    failure_ttl_ms: t.failure_ttl_ms,
    icon: t.icon,
    id: t.id,
    max_port_share_level: t.max_port_share_level,
    name: t.name,
    organization_display_name: org?.display_name ?? "",
    organization_icon: org?.icon ?? "",
    organization_id: t.organization_id,
    organization_name: org?.name ?? "",
    provisioner: t.provisioner,
    require_active_version: t.require_active_version === 1,
    time_til_dormant_autodelete_ms: t.time_til_dormant_autodelete_ms,
    time_til_dormant_ms: t.time_til_dormant_ms,
    updated_at: t.updated_at,
    use_classic_parameter_flow: t.use_classic_parameter_flow === 1
  }
}

const groupGet = (_caller, params, id) => {
  if (params.get("exclude_members") !== "true") {
    fail(501, "The bare server answers groups with exclude_members=true only.")
  }
  const g = one(SQL.groupById, id.toLowerCase())
  if (g === undefined) fail(404, "Resource not found or you do not have access to this resource")
  const wire = {}
  put(wire, "avatar_url", g.avatar_url)
  Object.assign(wire, {
    display_name: g.display_name,
    id: g.id,
    members: [],
    name: g.name,
    organization_display_name: g.organization_display_name,
    organization_id: g.organization_id,
    organization_name: g.organization_name,
    quota_allowance: g.quota_allowance,
    source: g.source,
    total_member_count: g.member_count
  })
  return wire
}

// --- writes -------------------------------------------------------------------------------------
const audit = (req, caller, entry) =>
  stmt(SQL.insertAudit).run(
    randomUUID(),
    iso(Date.now()),
    caller.user.id,
    entry.organizationId ?? NIL,
    (req.socket.remoteAddress ?? "").replace(/^::ffff:/, ""),
    req.headers["user-agent"] ?? "",
    req.requestId,
    entry.action,
    entry.resourceType,
    entry.resourceId,
    entry.target,
    "",
    JSON.stringify(entry.diff),
    entry.status,
    JSON.stringify(entry.additional ?? {}),
    "",
    entry.buildReason ?? ""
  )
const diffOf = (fields) =>
  Object.fromEntries(
    fields.map((
      [k, v, secret]
    ) => [k, secret ? { old: "", new: "", secret: true } : { old: null, new: v, secret: false }])
  )

/** The user `{user}` names (`me`, an id), or 404. */
const userOf = (caller, userRef) => {
  const user = userRef === "me" || userRef.toLowerCase() === caller.user.id
    ? caller.user
    : one(SQL.userById, userRef.toLowerCase())
  if (user === undefined || user.deleted === 1) {
    fail(404, "Resource not found or you do not have access to this resource")
  }
  return user
}

/** GET /users/{user}/keys/tokens: the user's unexpired tokens, newest first, each with its owner's username. */
const listTokens = (caller, _params, userRef) => {
  const user = userOf(caller, userRef)
  return stmt(SQL.tokensOf).all(user.id, iso(Date.now())).map((k) => {
    const scopes = JSON.parse(k.scopes)
    return {
      allow_list: JSON.parse(k.allow_list),
      created_at: k.created_at,
      expires_at: k.expires_at,
      id: k.id,
      last_used: k.last_used,
      lifetime_seconds: k.lifetime_seconds,
      login_type: k.login_type,
      scope: scopes.includes("application_connect") && !scopes.includes("all") ? "application_connect" : "all",
      scopes,
      token_name: k.token_name,
      updated_at: k.updated_at,
      user_id: k.user_id,
      username: user.username
    }
  })
}

const createToken = (caller, _params, userRef, body, req) => {
  const user = userOf(caller, userRef)
  const input = json(body, undefined)
  if (input === undefined || typeof input !== "object") fail(400, "Request body must be valid JSON.")
  if (
    input.lifetime !== undefined || input.scope !== undefined || input.scopes !== undefined ||
    input.allow_list !== undefined
  ) {
    fail(501, "The bare server takes token_name only.")
  }
  const tokenName = typeof input.token_name === "string" && input.token_name !== ""
    ? input.token_name
    : `token-${randomString(8).toLowerCase()}`
  if (one(SQL.tokenByName, user.id, tokenName) !== undefined) {
    fail(409, `A token with name "${tokenName}" already exists.`)
  }
  const now = Date.now()
  const id = randomString(10)
  const secret = randomString(22)
  const record = {
    id,
    hashed_secret: createHash("sha256").update(secret).digest("hex"),
    user_id: user.id,
    login_type: "token",
    token_name: tokenName,
    scopes: ["all"],
    allow_list: [{ id: "*", type: "*" }],
    lifetime_seconds: Math.floor(TOKEN_LIFETIME_MS / 1000),
    created_at: iso(now),
    expires_at: iso(now + TOKEN_LIFETIME_MS)
  }
  try {
    stmt(SQL.insertKey).run(
      id,
      record.hashed_secret,
      user.id,
      "token",
      tokenName,
      JSON.stringify(record.scopes),
      JSON.stringify(record.allow_list),
      record.lifetime_seconds,
      record.created_at,
      record.created_at,
      record.expires_at,
      record.created_at
    )
  } catch (e) {
    if (e.code === "SQLITE_CONSTRAINT_UNIQUE" || e.code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
      fail(409, `A token with name "${tokenName}" already exists.`)
    }
    throw e
  }
  audit(req, caller, {
    action: "create",
    resourceType: "api_key",
    resourceId: user.id,
    target: tokenName,
    status: 201,
    diff: diffOf([
      ["id", id],
      ["hashed_secret", "", true],
      ["user_id", user.id],
      ["login_type", "token"],
      ["token_name", tokenName],
      ["scopes", record.scopes],
      ["allow_list", record.allow_list],
      ["lifetime_seconds", record.lifetime_seconds],
      ["created_at", record.created_at],
      ["expires_at", record.expires_at]
    ])
  })
  return [201, { key: `${id}-${secret}` }]
}

const begin = db.prepare("BEGIN")
const commit = db.prepare("COMMIT")
const rollback = db.prepare("ROLLBACK")

const createBuild = (caller, _params, workspaceId, body, req) => {
  const input = json(body, undefined)
  if (input === undefined || input.transition !== "start" || Object.keys(input).length !== 1) {
    fail(501, "The bare server takes {\"transition\":\"start\"} only.")
  }
  const w = one(SQL.workspaceById, workspaceId.toLowerCase())
  if (w === undefined || w.deleted === 1) fail(404, "Resource not found or you do not have access to this resource")
  if (w.dormant_at !== null) fail(501, "The bare server does not wake dormant workspaces.")
  const template = one(SQL.templateById, w.template_id)
  const [latest] = latestBuilds([w.id])
  if (latest !== undefined && one(SQL.jobById, latest.job_id).completed_at === null) {
    fail(409, "A workspace build is already active.")
  }
  const version = one(SQL.versionById, latest?.template_version_id ?? template.active_version_id)
  if (version === undefined || version.template_id !== template.id) {
    fail(400, "The template version does not belong to the workspace's template.")
  }
  const importJob = one(SQL.jobById, version.job_id)
  const imported = json(version.import_result, null)
  if (jobStatus(importJob) !== "succeeded" || imported === null) {
    fail(400, "The template version's import has not succeeded.")
  }
  if ((imported.parameters ?? []).length > 0) fail(501, "The bare server builds templates without parameters only.")
  const now = Date.now()
  const at = iso(now)
  const buildId = randomUUID()
  const jobId = randomUUID()
  const tags = json(version.tags, {})
  if (tags.scope === undefined) tags.scope = "organization"
  if (tags.scope === "user") tags.owner = caller.user.id
  else delete tags.owner
  const buildNumber = (latest?.build_number ?? 0) + 1
  begin.run()
  try {
    stmt(SQL.insertJob).all(
      jobId,
      at,
      at,
      w.organization_id,
      caller.user.id,
      importJob.provisioner,
      "workspace_build",
      importJob.file_id,
      JSON.stringify({ workspace_build_id: buildId }),
      JSON.stringify(tags)
    )
    stmt(SQL.insertBuild).run(
      buildId,
      at,
      at,
      w.id,
      version.id,
      latest?.template_version_preset_id ?? null,
      buildNumber,
      "start",
      caller.user.id,
      jobId,
      null,
      null,
      "initiator",
      0,
      0,
      0,
      0,
      latest?.provisioner_state ?? Buffer.alloc(0)
    )
    stmt(SQL.listRank).run(w.id)
    commit.run()
  } catch (e) {
    rollback.run()
    if (String(e.code).startsWith("SQLITE_CONSTRAINT")) fail(409, "A workspace build is already active.")
    throw e
  }
  const build = {
    id: buildId,
    created_at: at,
    updated_at: at,
    workspace_id: w.id,
    template_version_id: version.id,
    template_version_preset_id: latest?.template_version_preset_id ?? null,
    build_number: buildNumber,
    transition: "start",
    initiator_id: caller.user.id,
    job_id: jobId,
    deadline: null,
    max_deadline: null,
    reason: "initiator",
    daily_cost: 0,
    has_ai_task: 0,
    has_external_agent: 0
  }
  const [wire] = buildWires([build], [w], now, {
    templates: new Map([[template.id, template]]),
    users: new Map([[caller.user.id, caller.user]])
  })
  audit(req, caller, {
    action: "start",
    resourceType: "workspace_build",
    resourceId: buildId,
    target: w.name,
    organizationId: w.organization_id,
    status: 200,
    buildReason: "initiator",
    diff: diffOf([["transition", "start"], ["build_number", buildNumber], ["template_version_id", version.id]]),
    additional: {
      build_number: String(buildNumber),
      build_reason: "initiator",
      workspace_name: w.name,
      workspace_id: w.id
    }
  })
  return [200, wire]
}

// --- routing ------------------------------------------------------------------------------------
const UUID = "([0-9a-fA-F-]{36})"
const routes = [
  ["GET", /^\/api\/v2\/users\/me$/, usersMe],
  ["GET", /^\/api\/v2\/users$/, usersList],
  ["GET", new RegExp(`^/api/v2/workspaces/${UUID}$`), workspaceGet],
  ["GET", /^\/api\/v2\/workspaces$/, workspacesList],
  ["GET", new RegExp(`^/api/v2/templates/${UUID}$`), templateGet],
  ["GET", new RegExp(`^/api/v2/groups/${UUID}$`), groupGet],
  ["GET", /^\/api\/v2\/users\/([^/]+)\/keys\/tokens$/, listTokens],
  ["POST", /^\/api\/v2\/users\/([^/]+)\/keys\/tokens$/, createToken],
  ["POST", new RegExp(`^/api/v2/workspaces/${UUID}/builds$`), createBuild]
]

const handle = (req, res, body) => {
  const q = req.url.indexOf("?")
  const path = q < 0 ? req.url : req.url.slice(0, q)
  if (req.method === "GET" && path === "/api/v2/buildinfo") return send(res, 200, { version: "bare" })
  for (const [method, pattern, handler] of routes) {
    if (req.method !== method) continue
    const m = pattern.exec(path)
    if (m === null) continue
    try {
      req.requestId = randomUUID()
      const caller = authenticate(req)
      const params = new URLSearchParams(q < 0 ? "" : req.url.slice(q + 1))
      const out = handler(caller, params, m[1], body, req)
      return method === "GET" ? send(res, 200, out) : send(res, out[0], out[1])
    } catch (e) {
      if (e instanceof HttpError) return send(res, e.status, { message: e.message })
      console.error(e)
      return send(res, 500, { message: String(e) })
    }
  }
  send(res, 404, { message: "Route not found." })
}

const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
  if (req.method === "GET") return handle(req, res, undefined)
  const chunks = []
  req.on("data", (c) => chunks.push(c))
  req.on("end", () => handle(req, res, Buffer.concat(chunks).toString("utf8")))
})
server.listen(
  Number(values.port),
  "127.0.0.1",
  () => console.log(`bare server listening on http://127.0.0.1:${server.address().port}`)
)
process.once("SIGTERM", () => server.close(() => process.exit(0)))
