/**
 * A template's permissions (`/templates/:template/permissions`): its access list
 * (`GET /templates/{id}/acl`), users and groups with their role (`use` or `admin`), each role
 * changed or the entry removed (`PATCH /templates/{id}/acl` with the role, or `""`); and users or
 * groups added from those the list may take (`GET /templates/{id}/acl/available?q=`).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useDeferredValue, useState } from "react"
import { ErrorMessage } from "../ui/Form.tsx"
import { type TemplateRole, templatesApi as api } from "./api.ts"
import { aclAvailableQuery, aclQuery, templateKeys } from "./queries.ts"
import { useTemplate } from "./Template.tsx"

type Perms = { user_perms?: Record<string, TemplateRole | "">; group_perms?: Record<string, TemplateRole | ""> }

const ROLES: ReadonlyArray<TemplateRole> = ["use", "admin"]
const roleLabel = (r: TemplateRole) => (r === "use" ? "Use" : "Admin")

const RoleSelect = (
  props: { label: string; value: TemplateRole; disabled: boolean; onChange: (r: TemplateRole) => void }
) => (
  <select
    aria-label={props.label}
    value={props.value}
    disabled={props.disabled}
    onChange={(e) => props.onChange(e.target.value as TemplateRole)}
  >
    {ROLES.map((r) => <option key={r} value={r}>{roleLabel(r)}</option>)}
  </select>
)

export const PermissionsPage = () => {
  const t = useTemplate()
  const queryClient = useQueryClient()
  const acl = useQuery(aclQuery(t.id))
  const change = useMutation({
    mutationFn: (perms: Perms) => api.updateAcl(t.id, perms),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templateKeys.acl(t.id) })
  })
  const users = acl.data?.users ?? []
  const groups = acl.data?.group ?? []
  return (
    <>
      <h2>Permissions</h2>
      <p className="hint">
        Use: may see the template and create workspaces from it. Admin: may also change, delete and see its insights.
      </p>
      <AddMember onAdd={(perms) => change.mutate(perms)} busy={change.isPending} templateId={t.id} />
      <ErrorMessage error={acl.error} />
      <ErrorMessage error={change.error} />
      {acl.isPending
        ? <p role="status">Loading the permissions…</p>
        : users.length + groups.length === 0
        ? <p className="empty">No one is on this template's access list: only template administrators can use it.</p>
        : (
          <table>
            <caption className="visually-hidden">Access list of {t.name}</caption>
            <thead>
              <tr>
                <th scope="col">User or group</th>
                <th scope="col">Role</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {groups.map((g) => {
                const name = g.display_name === "" ? g.name : g.display_name
                return (
                  <tr key={g.id}>
                    <th scope="row">
                      {name}
                      <span className="owner">
                        Group, {g.total_member_count} {g.total_member_count === 1 ? "member" : "members"}
                      </span>
                    </th>
                    <td>
                      <RoleSelect
                        label={`Role of ${name}`}
                        value={g.role}
                        disabled={change.isPending}
                        onChange={(role) => change.mutate({ group_perms: { [g.id]: role } })}
                      />
                    </td>
                    <td>
                      <button
                        type="button"
                        className="secondary"
                        disabled={change.isPending}
                        aria-label={`Remove ${name}`}
                        onClick={() => change.mutate({ group_perms: { [g.id]: "" } })}
                      >
                        Remove
                      </button>
                    </td>
                  </tr>
                )
              })}
              {users.map((u) => (
                <tr key={u.id}>
                  <th scope="row">
                    {u.username}
                    <span className="owner">{u.email}</span>
                  </th>
                  <td>
                    <RoleSelect
                      label={`Role of ${u.username}`}
                      value={u.role}
                      disabled={change.isPending}
                      onChange={(role) => change.mutate({ user_perms: { [u.id]: role } })}
                    />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="secondary"
                      disabled={change.isPending}
                      aria-label={`Remove ${u.username}`}
                      onClick={() => change.mutate({ user_perms: { [u.id]: "" } })}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
    </>
  )
}

/** A search over the users and groups the list may take, and the role to give the chosen one. */
const AddMember = (
  { templateId, busy, onAdd }: { templateId: string; busy: boolean; onAdd: (perms: Perms) => void }
) => {
  const [q, setQ] = useState("")
  const deferred = useDeferredValue(q.trim())
  const available = useQuery(aclAvailableQuery(templateId, deferred))
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const who = String(form.get("who") ?? "")
    const role = String(form.get("role") ?? "use") as TemplateRole
    const [kind, id] = who.split(":")
    if (id === undefined || id === "") return
    onAdd(kind === "group" ? { group_perms: { [id]: role } } : { user_perms: { [id]: role } })
  }
  const users = available.data?.users ?? []
  const groups = available.data?.groups ?? []
  return (
    <form onSubmit={submit} className="add-member" aria-labelledby="add-member">
      <h3 id="add-member">Add a user or group</h3>
      <div className="field">
        <label htmlFor="acl-search">Search users and groups</label>
        <input id="acl-search" type="search" value={q} onChange={(e) => setQ(e.target.value)} autoComplete="off" />
      </div>
      <div className="field">
        <label htmlFor="acl-who">User or group</label>
        <select id="acl-who" name="who" required>
          {users.length + groups.length === 0 ? <option value="">No match</option> : null}
          {groups.length > 0
            ? (
              <optgroup label="Groups">
                {groups.map((g) => (
                  <option key={g.id} value={`group:${g.id}`}>{g.display_name === "" ? g.name : g.display_name}</option>
                ))}
              </optgroup>
            )
            : null}
          {users.length > 0
            ? (
              <optgroup label="Users">
                {users.map((u) => <option key={u.id} value={`user:${u.id}`}>{u.username} ({u.email})</option>)}
              </optgroup>
            )
            : null}
        </select>
      </div>
      <div className="field">
        <label htmlFor="acl-role">Role</label>
        <select id="acl-role" name="role" defaultValue="use">
          {ROLES.map((r) => <option key={r} value={r}>{roleLabel(r)}</option>)}
        </select>
      </div>
      <button type="submit" disabled={busy || users.length + groups.length === 0}>Add</button>
      <ErrorMessage error={available.error} />
    </form>
  )
}
