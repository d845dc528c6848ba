// Rows as the service answers them, shared by the bare servers (and bench/lib.mjs). Plain
// functions with no imports, so a bare server loads nothing it does not need.

const ROLE_NAMES = { owner: "Owner", "user-admin": "User Admin", auditor: "Auditor", "template-admin": "Template Admin", member: "Member" }

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
