import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useId } from "react"
import { useParams } from "react-router"
import { ConfirmButton } from "../ui/Confirm.tsx"
import { ErrorMessage } from "../ui/Form.tsx"
import { RolesButton } from "../ui/RolesDialog.tsx"
import { Time } from "../ui/Time.tsx"
import { type Member, organizationsApi as api } from "./api.ts"
import { membersQuery, organizationKeys, rolesQuery } from "./queries.ts"

/**
 * An organization's members (`GET /organizations/{org}/members`): add one by username (`POST
 * .../members/{user}`), their organization roles (`PUT .../members/{user}/roles`), remove one
 * (`DELETE .../members/{user}`, confirmed).
 */
export const MembersPage = () => {
  const { org = "" } = useParams()
  const members = useQuery(membersQuery(org))
  const roles = useQuery(rolesQuery(org))
  const queryClient = useQueryClient()
  const change = useMutation({
    mutationFn: (c: { user: string; to: "add" | "remove" | { roles: Array<string> } }) =>
      c.to === "add"
        ? api.addMember(org, c.user)
        : c.to === "remove"
        ? api.removeMember(org, c.user)
        : api.setMemberRoles(org, c.user, c.to.roles),
    onSettled: () => queryClient.invalidateQueries({ queryKey: organizationKeys.members(org) })
  })
  const userId = useId()
  const label = (m: Member) => m.roles.length === 0 ? "Member" : m.roles.map((r) => r.display_name || r.name).join(", ")
  return (
    <>
      <h2>Members</h2>
      <form
        className="search"
        onSubmit={(e) => {
          e.preventDefault()
          const form = e.currentTarget
          const user = String(new FormData(form).get("user") ?? "").trim()
          if (user !== "") change.mutate({ user, to: "add" }, { onSuccess: () => form.reset() })
        }}
      >
        <label htmlFor={userId}>Username to add</label>
        <input id={userId} name="user" required autoComplete="off" />
        <button type="submit" disabled={change.isPending}>Add member</button>
      </form>
      <ErrorMessage error={members.error ?? change.error} />
      {members.data === undefined ? <p role="status">Loading members…</p> : (
        <table>
          <caption className="visually-hidden">Members, {members.data.length} in all</caption>
          <thead>
            <tr>
              <th scope="col">User</th>
              <th scope="col">Roles</th>
              <th scope="col">Member since</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {members.data.map((m) => (
              <tr key={m.user_id}>
                <th scope="row">
                  {m.username}
                  <span className="owner">{m.email}</span>
                </th>
                <td>{label(m)}</td>
                <td>
                  <Time value={m.created_at} />
                </td>
                <td className="row-actions">
                  <RolesButton
                    who={m.username}
                    roles={(roles.data ?? []).filter((r) => r.name !== "organization-member")}
                    current={m.roles.map((r) => r.name)}
                    disabled={change.isPending || roles.data === undefined}
                    onSave={(next) => change.mutate({ user: m.user_id, to: { roles: next } })}
                  />
                  <ConfirmButton
                    label="Remove"
                    title={`Remove ${m.username} from the organization?`}
                    danger
                    disabled={change.isPending}
                    onConfirm={() => change.mutate({ user: m.user_id, to: "remove" })}
                  >
                    <p>{m.username} loses access to the organization's templates and workspaces.</p>
                  </ConfirmButton>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  )
}
