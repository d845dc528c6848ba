// Rows as the service answers them, shared by the bare servers (and bench/lib.mjs). Plain
// functions with no imports, so a bare server loads nothing it does not need.

/**
 * The service's one read of a key with its user and the user's memberships (`ApiKeyRepo.findWithUser`
 * on SQLite): columns prefixed `k_` and `u_`, and `m_memberships` (JSON: [organization id, roles text]).
 */
export const USER_COLUMNS = [
  "id",
  "email",
  "username",
  "name",
  "avatar_url",
  "login_type",
  "status",
  "rbac_roles",
  "is_service_account",
  "hashed_password",
  "created_at",
  "updated_at",
  "last_seen_at",
  "deleted",
  "appearance",
  "quiet_hours_schedule",
  "hashed_one_time_passcode",
  "one_time_passcode_expires_at"
]
export const KEY_COLUMNS = [
  "id",
  "hashed_secret",
  "user_id",
  "login_type",
  "token_name",
  "scopes",
  "allow_list",
  "lifetime_seconds",
  "created_at",
  "updated_at",
  "expires_at",
  "last_used"
]
const prefixed = (alias, columns, prefix) => columns.map((c) => `${alias}.${c} AS ${prefix}${c}`).join(", ")
export const KEY_WITH_USER_SQLITE = `SELECT ${prefixed("k", KEY_COLUMNS, "k_")}, ${
  prefixed("u", USER_COLUMNS, "u_")
}, (SELECT json_group_array(json_array(m.organization_id, m.roles) ORDER BY m.created_at)
  FROM organization_members m WHERE m.user_id = u.id) AS m_memberships FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.id = ?`

const ROLE_NAMES = {
  owner: "Owner",
  "user-admin": "User Admin",
  auditor: "Auditor",
  "template-admin": "Template Admin",
  member: "Member"
}

/**
 * A users row as the service answers a reduced user: empty optional fields left out (the
 * described system's omitempty), in the service's field order, so answers compare equal.
 */
export const reducedUserJson = (u) => {
  const theme = JSON.parse(u.appearance).theme_preference
  const user = {}
  if (u.avatar_url) user.avatar_url = u.avatar_url
  user.created_at = u.created_at
  user.email = u.email
  user.id = u.id
  if (u.is_service_account === 1) user.is_service_account = true
  user.last_seen_at = u.last_seen_at
  user.login_type = u.login_type
  if (u.name) user.name = u.name
  user.status = u.status
  if (theme) user.theme_preference = theme
  user.updated_at = u.updated_at
  user.username = u.username
  return user
}

/** A users row as the service answers a full user, with the organizations it is a member of. */
export const userJson = (u, organizationIds) => {
  const user = reducedUserJson(u)
  user.has_ai_seat = false
  user.organization_ids = organizationIds
  user.roles = JSON.parse(u.rbac_roles).map((name) => ({ display_name: ROLE_NAMES[name] ?? name, name }))
  return user
}
