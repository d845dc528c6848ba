import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { Link, useNavigate, useParams } from "react-router"
import { ConfirmButton } from "../ui/Confirm.tsx"
import { ErrorMessage, formValues } from "../ui/Form.tsx"
import { organizationsApi as api, type Role } from "./api.ts"
import { organizationKeys, rolesQuery } from "./queries.ts"

/** The resources and actions the custom role form offers (the organization-scoped ones). */
const RESOURCES = [
  "workspace",
  "template",
  "file",
  "group",
  "group_member",
  "organization_member",
  "assign_org_role",
  "audit_log",
  "provisioner_daemon",
  "provisioner_jobs"
] as const
const ACTIONS = ["create", "read", "update", "delete"] as const

const permissionCount = (r: Role) =>
  r.organization_permissions.length + r.site_permissions.length + r.user_permissions.length

/**
 * An organization's roles (`GET /organizations/{org}/members/roles`): the built-in ones, and its
 * custom roles with Edit and Delete (`DELETE .../members/roles/{name}`, confirmed).
 */
export const RolesPage = () => {
  const { org = "" } = useParams()
  const roles = useQuery(rolesQuery(org))
  const queryClient = useQueryClient()
  const remove = useMutation({
    mutationFn: (name: string) => api.deleteRole(org, name),
    onSettled: () => queryClient.invalidateQueries({ queryKey: organizationKeys.roles(org) })
  })
  return (
    <>
      <div className="heading-row">
        <h2>Roles</h2>
        <Link to="create">Create custom role</Link>
      </div>
      <ErrorMessage error={roles.error ?? remove.error} />
      {roles.data === undefined ? <p role="status">Loading roles…</p> : (
        <table>
          <caption className="visually-hidden">Roles of the organization</caption>
          <thead>
            <tr>
              <th scope="col">Role</th>
              <th scope="col">Kind</th>
              <th scope="col">Permissions</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {roles.data.map((r) => (
              <tr key={r.name}>
                <th scope="row">
                  {r.display_name || r.name}
                  <span className="owner">{r.name}</span>
                </th>
                <td>{r.built_in ? "Built in" : "Custom"}</td>
                <td>{permissionCount(r)}</td>
                <td className="row-actions">
                  {r.built_in ? null : (
                    <>
                      <Link to={`${encodeURIComponent(r.name)}`} aria-label={`Edit ${r.display_name || r.name}`}>
                        Edit
                      </Link>
                      <ConfirmButton
                        label="Delete"
                        title={`Delete the role ${r.display_name || r.name}?`}
                        danger
                        onConfirm={() => remove.mutate(r.name)}
                      >
                        <p>Members with this role lose its permissions.</p>
                      </ConfirmButton>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  )
}

/**
 * A custom role's form (`/organizations/:org/roles/create`, or `/roles/:role` to edit): name,
 * display name and a grid of permissions (resource × action), sent with `POST` (new) or `PUT`
 * (edit) `/organizations/{org}/members/roles`.
 */
export const RoleFormPage = () => {
  const { org = "", role } = useParams()
  const editing = role !== undefined
  const roles = useQuery({ ...rolesQuery(org), enabled: editing })
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const existing = editing ? roles.data?.find((r) => r.name === role) : undefined
  const save = useMutation({
    mutationFn: (body: Parameters<typeof api.createRole>[1]) =>
      editing ? api.updateRole(org, body) : api.createRole(org, body),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: organizationKeys.roles(org) })
      navigate(`/organizations/${encodeURIComponent(org)}/roles`)
    }
  })
  if (editing && roles.isPending) return <p role="status">Loading the role…</p>
  if (editing && existing === undefined) return <ErrorMessage error={roles.error ?? new Error(`No role ${role}.`)} />
  const has = (resource: string, action: string) =>
    existing?.organization_permissions.some((p) => p.resource_type === resource && p.action === action && !p.negate) ??
      false
  return (
    <>
      <h2>{editing ? `Edit ${existing?.display_name || role}` : "Create custom role"}</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          const form = e.currentTarget
          const v = formValues(form)
          const permissions = [...new FormData(form).getAll("permission")].map(String).map((p) => {
            const [resource_type = "", action = ""] = p.split(":")
            return { resource_type, action, negate: false }
          })
          save.mutate({
            name: editing ? role : v["role-name"] ?? "",
            display_name: v["role-display-name"] ?? "",
            organization_permissions: permissions,
            site_permissions: [],
            user_permissions: []
          })
        }}
      >
        <div className="field">
          <label htmlFor="role-name">Name</label>
          <input id="role-name" name="role-name" required defaultValue={role ?? ""} disabled={editing} />
          <p className="hint">Lowercase letters, digits and dashes.</p>
        </div>
        <div className="field">
          <label htmlFor="role-display-name">Display name</label>
          <input id="role-display-name" name="role-display-name" defaultValue={existing?.display_name ?? ""} />
        </div>
        <table className="permissions">
          <caption>Permissions in the organization</caption>
          <thead>
            <tr>
              <th scope="col">Resource</th>
              {ACTIONS.map((a) => <th scope="col" key={a}>{a}</th>)}
            </tr>
          </thead>
          <tbody>
            {RESOURCES.map((resource) => (
              <tr key={resource}>
                <th scope="row">{resource}</th>
                {ACTIONS.map((action) => (
                  <td key={action}>
                    <input
                      type="checkbox"
                      name="permission"
                      value={`${resource}:${action}`}
                      aria-label={`${resource}: ${action}`}
                      defaultChecked={has(resource, action)}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        <ErrorMessage error={save.error} />
        <div className="actions">
          <button type="submit" disabled={save.isPending}>{editing ? "Save role" : "Create role"}</button>
          <Link to={`/organizations/${encodeURIComponent(org)}/roles`}>Cancel</Link>
        </div>
      </form>
    </>
  )
}
