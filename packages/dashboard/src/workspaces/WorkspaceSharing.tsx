/**
 * Sharing the workspace (`GET /workspaces/{id}/acl`): the users and groups it is shared with and
 * their roles; a user added by username (the id from `GET /users/{username}`, then `PATCH
 * /workspaces/{id}/acl` `{user_roles: {id: role}}`) or a group by name in the workspace's
 * organization (`GET /organizations/{org}/groups/{name}`, then `{group_roles: {id: role}}`), each
 * with a role; a role changed; one removed (role `""`).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useId } from "react"
import { groupsApi } from "../groups/api.ts"
import { ConfirmButton } from "../ui/Confirm.tsx"
import { ErrorMessage } from "../ui/Form.tsx"
import { usersApi } from "../users/api.ts"
import { type Workspace, workspacesApi as api } from "./api.ts"
import { aclQuery, workspaceKeys } from "./queries.ts"

export const WorkspaceSharing = ({ workspace: w }: { workspace: Workspace }) => {
  const acl = useQuery(aclQuery(w.id))
  const queryClient = useQueryClient()
  const id = useId()
  const change = useMutation({
    mutationFn: async ({ kind, name, role }: { kind: "user" | "group"; name: string; role: string }) => {
      const known = /^[0-9a-f-]{36}$/i.test(name)
      if (kind === "group") {
        const groupId = known ? name : (await groupsApi.byName(w.organization_id, name)).id
        return api.updateAcl(w.id, { group_roles: { [groupId]: role } })
      }
      const userId = known ? name : (await usersApi.user(name)).id
      await api.updateAcl(w.id, { user_roles: { [userId]: role } })
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workspaceKeys.acl(w.id) })
  })
  return (
    <section aria-labelledby="sharing-heading">
      <h2 id="sharing-heading">Sharing</h2>
      <ErrorMessage error={acl.error} />
      {acl.data === undefined ? null : acl.data.users.length === 0 && acl.data.group.length === 0
        ? <p className="empty">Shared with no one.</p>
        : (
          <table>
            <caption className="visually-hidden">Shared with</caption>
            <thead>
              <tr>
                <th scope="col">User or group</th>
                <th scope="col">Role</th>
                <th scope="col">Remove</th>
              </tr>
            </thead>
            <tbody>
              {acl.data.users.map((u) => (
                <tr key={u.id}>
                  <th scope="row">{u.username}</th>
                  <td>
                    <select
                      aria-label={`Role of ${u.username}`}
                      value={u.role}
                      onChange={(e) => change.mutate({ kind: "user", name: u.id, role: e.currentTarget.value })}
                    >
                      <option value="use">Use</option>
                      <option value="admin">Admin</option>
                    </select>
                  </td>
                  <td>
                    <ConfirmButton
                      label={`Remove ${u.username}`}
                      title={`Stop sharing with ${u.username}?`}
                      confirm="Remove"
                      danger
                      onConfirm={() => change.mutate({ kind: "user", name: u.id, role: "" })}
                    >
                      <p>{u.username} will no longer reach {w.name}.</p>
                    </ConfirmButton>
                  </td>
                </tr>
              ))}
              {acl.data.group.map((g) => {
                const name = `${g.display_name !== "" ? g.display_name : g.name} (group)`
                return (
                  <tr key={g.id}>
                    <th scope="row">{name}</th>
                    <td>
                      <select
                        aria-label={`Role of ${name}`}
                        value={g.role}
                        onChange={(e) => change.mutate({ kind: "group", name: g.id, role: e.currentTarget.value })}
                      >
                        <option value="use">Use</option>
                        <option value="admin">Admin</option>
                      </select>
                    </td>
                    <td>
                      <ConfirmButton
                        label={`Remove ${name}`}
                        title={`Stop sharing with ${name}?`}
                        confirm="Remove"
                        danger
                        onConfirm={() => change.mutate({ kind: "group", name: g.id, role: "" })}
                      >
                        <p>The members of {name} will no longer reach {w.name} through it.</p>
                      </ConfirmButton>
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        )}
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault()
          const form = e.currentTarget
          const data = new FormData(form)
          const name = String(data.get("name") ?? "").trim()
          if (name === "") return
          const kind = data.get("kind") === "group" ? "group" : "user"
          change.mutate({ kind, name, role: String(data.get("role") ?? "use") }, { onSuccess: () => form.reset() })
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-kind`}>Share with</label>
          <select id={`${id}-kind`} name="kind" defaultValue="user">
            <option value="user">A user</option>
            <option value="group">A group</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-name`}>Username or group name</label>
          <input id={`${id}-name`} name="name" autoComplete="off" required />
        </div>
        <div className="field">
          <label htmlFor={`${id}-role`}>Role</label>
          <select id={`${id}-role`} name="role" defaultValue="use">
            <option value="use">Use</option>
            <option value="admin">Admin</option>
          </select>
        </div>
        <button type="submit" disabled={change.isPending}>Share</button>
      </form>
      <ErrorMessage error={change.error} />
    </section>
  )
}
