import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { Link } from "react-router"
import { usePermissions } from "../../api/permissions.ts"
import { ConfirmButton } from "../../ui/Confirm.tsx"
import { ErrorMessage } from "../../ui/Form.tsx"
import { Pager } from "../../ui/Pager.tsx"
import { RolesButton } from "../../ui/RolesDialog.tsx"
import { SearchBox, useSearchPage } from "../../ui/Search.tsx"
import { Time } from "../../ui/Time.tsx"
import { type User, usersAdminApi as api } from "./api.ts"
import { siteRolesQuery, usersAdminKeys, usersQuery } from "./queries.ts"
import "./styles.css"

const PAGE_SIZE = 25

/**
 * The deployment's users (`GET /users?q=&limit=&offset=`), searched by `q` (in the URL) and
 * paged; for each: its site roles (`PUT /users/{user}/roles`), suspend or activate (`PUT
 * /users/{user}/status/suspend|activate`) and delete (`DELETE /users/{user}`, confirmed).
 */
export const UsersPage = () => {
  const { q, page, go } = useSearchPage()
  const list = useQuery({ ...usersQuery(q, page, PAGE_SIZE), placeholderData: keepPreviousData })
  const roles = useQuery(siteRolesQuery)
  const may = usePermissions().data
  const queryClient = useQueryClient()
  const refresh = () => queryClient.invalidateQueries({ queryKey: usersAdminKeys.users })
  const change = useMutation({
    mutationFn: async (c: { user: User; to: "suspend" | "activate" | "delete" | { roles: Array<string> } }) => {
      if (c.to === "suspend") return api.suspend(c.user.id)
      if (c.to === "activate") return api.activate(c.user.id)
      if (c.to === "delete") return api.remove(c.user.id)
      return api.setRoles(c.user.id, c.to.roles)
    },
    onSettled: refresh
  })
  return (
    <>
      <div className="heading-row">
        <h1>Users</h1>
        {may?.createUser === true ? <Link className="button" to="/deployment/users/create">Create user</Link> : null}
      </div>
      <SearchBox
        label="Search users"
        q={q}
        placeholder="status:active role:owner"
        onSearch={(q) => go({ q, page: 0 })}
      />
      <ErrorMessage error={list.error ?? change.error} />
      {list.isPending ? <p role="status">Loading users…</p> : null}
      {list.data !== undefined && list.data.users.length === 0
        ? <p className="empty">{q === "" ? "No users." : `No users match “${q}”.`}</p>
        : null}
      {list.data !== undefined && list.data.users.length > 0
        ? (
          <table>
            <caption className="visually-hidden">Users, {list.data.count} in all</caption>
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Roles</th>
                <th scope="col">Status</th>
                <th scope="col">Last seen</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.data.users.map((u) => (
                <tr key={u.id}>
                  <th scope="row">
                    {u.username}
                    <span className="owner">{u.email}</span>
                  </th>
                  <td>{u.roles.length === 0 ? "Member" : u.roles.map((r) => r.display_name || r.name).join(", ")}</td>
                  <td>
                    <span className={`status status-${u.status}`}>
                      {u.status === "active" ? "Active" : "Suspended"}
                    </span>
                  </td>
                  <td>
                    <Time value={u.last_seen_at} />
                  </td>
                  <td className="row-actions">
                    <RolesButton
                      who={u.username}
                      roles={(roles.data ?? []).filter((r) => r.name !== "member")}
                      current={u.roles.map((r) => r.name)}
                      disabled={change.isPending || roles.data === undefined}
                      onSave={(next) => change.mutate({ user: u, to: { roles: next } })}
                    />
                    {u.status === "active"
                      ? (
                        <ConfirmButton
                          label="Suspend"
                          title={`Suspend ${u.username}?`}
                          disabled={change.isPending}
                          onConfirm={() => change.mutate({ user: u, to: "suspend" })}
                        >
                          <p>{u.username} is signed out and cannot sign in until activated again.</p>
                        </ConfirmButton>
                      )
                      : (
                        <button
                          type="button"
                          className="secondary"
                          disabled={change.isPending}
                          onClick={() => change.mutate({ user: u, to: "activate" })}
                        >
                          Activate
                        </button>
                      )}
                    <ConfirmButton
                      label="Delete"
                      title={`Delete ${u.username}?`}
                      danger
                      disabled={change.isPending}
                      onConfirm={() => change.mutate({ user: u, to: "delete" })}
                    >
                      <p>{u.username}'s account is deleted. This cannot be undone.</p>
                    </ConfirmButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
        : null}
      <Pager page={page} size={PAGE_SIZE} count={list.data?.count ?? 0} onPage={(p) => go({ page: p })} />
    </>
  )
}
