/**
 * Sharing the workspace (`GET /workspaces/{id}/acl`): the users it is shared with and their
 * roles, a user added by username with a role (`PATCH /workspaces/{id}/acl` `{user_roles: {id:
 * role}}`, the id from `GET /users/{username}`), a role changed, a user removed (role `""`).
 * Groups are listed as they are.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useId } from "react"
import { ConfirmButton } from "../ui/Confirm.tsx"
import { ErrorMessage } from "../ui/Form.tsx"
import { usersApi } from "../users/api.ts"
import { type Workspace, workspacesApi as api } from "./api.ts"

export const WorkspaceSharing = ({ workspace: w }: { workspace: Workspace }) => {
  const queryKey = ["acl", w.id]
  const acl = useQuery({ queryKey, queryFn: () => api.acl(w.id) })
  const queryClient = useQueryClient()
  const id = useId()
  const change = useMutation({
    mutationFn: async ({ user, role }: { user: string; role: string }) => {
      const userId = /^[0-9a-f-]{36}$/i.test(user) ? user : (await usersApi.user(user)).id
      await api.updateAcl(w.id, { [userId]: role })
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey })
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
                      onChange={(e) => change.mutate({ user: u.id, role: e.currentTarget.value })}
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
                      onConfirm={() => change.mutate({ user: u.id, role: "" })}
                    >
                      <p>{u.username} will no longer reach {w.name}.</p>
                    </ConfirmButton>
                  </td>
                </tr>
              ))}
              {acl.data.group.map((g) => (
                <tr key={g.id}>
                  <th scope="row">{g.display_name !== "" ? g.display_name : g.name} (group)</th>
                  <td>{g.role === "admin" ? "Admin" : "Use"}</td>
                  <td>—</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault()
          const form = e.currentTarget
          const data = new FormData(form)
          const user = String(data.get("username") ?? "").trim()
          if (user === "") return
          change.mutate({ user, role: String(data.get("role") ?? "use") }, { onSuccess: () => form.reset() })
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-user`}>Username</label>
          <input id={`${id}-user`} name="username" autoComplete="off" required />
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
