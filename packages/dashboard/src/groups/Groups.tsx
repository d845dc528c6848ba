import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useId } from "react"
import { Link, useNavigate, useParams } from "react-router"
import { ConfirmButton } from "../ui/Confirm.tsx"
import { ErrorMessage, Field, formValues } from "../ui/Form.tsx"
import { usersApi } from "../users/api.ts"
import { groupsApi as api } from "./api.ts"
import { groupKeys, groupQuery, groupsChanged, groupsQuery } from "./queries.ts"
import "./styles.css"

/**
 * An organization's groups (`GET /organizations/{org}/groups`): name, members, quota allowance;
 * a new group (`POST /organizations/{org}/groups`: name, display name, quota allowance).
 */
export const GroupsPage = () => {
  const { org = "" } = useParams()
  const groups = useQuery(groupsQuery(org))
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const create = useMutation({
    mutationFn: (v: { name: string; display_name: string; quota: string }) =>
      api.create(org, {
        name: v.name,
        ...(v.display_name === "" ? {} : { display_name: v.display_name }),
        ...(v.quota === "" ? {} : { quota_allowance: Number(v.quota) })
      }),
    onSuccess: async (g) => {
      await groupsChanged(queryClient, org)
      navigate(encodeURIComponent(g.name))
    }
  })
  return (
    <>
      <h2>Groups</h2>
      <ErrorMessage error={groups.error} />
      {groups.data === undefined ? <p role="status">Loading groups…</p> : (
        <table>
          <caption className="visually-hidden">Groups of the organization</caption>
          <thead>
            <tr>
              <th scope="col">Group</th>
              <th scope="col">Members</th>
              <th scope="col">Quota allowance</th>
            </tr>
          </thead>
          <tbody>
            {groups.data.map((g) => (
              <tr key={g.id}>
                <th scope="row">
                  <Link to={encodeURIComponent(g.name)}>{g.display_name || g.name}</Link>
                  <span className="owner">{g.name}</span>
                </th>
                <td>{g.total_member_count}</td>
                <td>{g.quota_allowance}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <section aria-labelledby="new-group">
        <h3 id="new-group">Create a group</h3>
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault()
            const v = formValues(e.currentTarget)
            create.mutate({
              name: v["group-name"] ?? "",
              display_name: v["group-display-name"] ?? "",
              quota: v["group-quota"] ?? ""
            })
          }}
        >
          <Field label="Group name" name="group-name" />
          <Field label="Display name" name="group-display-name" required={false} />
          <div className="field">
            <label htmlFor="group-quota">Quota allowance</label>
            <input id="group-quota" name="group-quota" type="number" min={0} step={1} defaultValue={0} />
          </div>
          <ErrorMessage error={create.error} />
          <button type="submit" disabled={create.isPending}>Create group</button>
        </form>
      </section>
    </>
  )
}

/**
 * A group (`GET /organizations/{org}/groups/{name}`): its members, add one by username (the
 * user's id from `GET /users/{username}`, then `PATCH /groups/{id}` `add_users`), remove one
 * (`remove_users`), its quota allowance (`quota_allowance`), and delete the group (confirmed).
 */
export const GroupPage = () => {
  const { org = "", group = "" } = useParams()
  const found = useQuery(groupQuery(org, group))
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const userId = useId()
  const quotaId = useId()
  const changed = async () => {
    await queryClient.invalidateQueries({ queryKey: groupKeys.group(org, group) })
    await groupsChanged(queryClient, org)
  }
  const patch = useMutation({
    mutationFn: async (c: { add?: string; remove?: string; quota?: number }) => {
      const id = found.data!.id
      if (c.add !== undefined) {
        const user = await usersApi.user(c.add)
        return api.patch(id, { add_users: [user.id] })
      }
      if (c.remove !== undefined) return api.patch(id, { remove_users: [c.remove] })
      return api.patch(id, { quota_allowance: c.quota ?? 0 })
    },
    onSuccess: changed
  })
  const remove = useMutation({
    mutationFn: () => api.remove(found.data!.id),
    onSuccess: async () => {
      await groupsChanged(queryClient, org)
      navigate(`/organizations/${encodeURIComponent(org)}/groups`)
    }
  })
  if (found.isPending) return <p role="status">Loading the group…</p>
  if (found.data === undefined) return <ErrorMessage error={found.error} />
  const g = found.data
  const everyone = g.id === g.organization_id
  return (
    <>
      <p className="crumb">
        <Link to={`/organizations/${encodeURIComponent(org)}/groups`}>Groups</Link>
      </p>
      <h2>{g.display_name || g.name}</h2>
      <ErrorMessage error={patch.error ?? remove.error} />
      <form
        className="search"
        onSubmit={(e) => {
          e.preventDefault()
          const quota = Number(new FormData(e.currentTarget).get("quota"))
          patch.mutate({ quota })
        }}
      >
        <label htmlFor={quotaId}>Quota allowance</label>
        <input
          id={quotaId}
          name="quota"
          type="number"
          min={0}
          step={1}
          defaultValue={g.quota_allowance}
          key={g.quota_allowance}
        />
        <button type="submit" disabled={patch.isPending}>Save quota</button>
        {patch.isSuccess && patch.variables?.quota !== undefined ? <p role="status">Quota saved.</p> : null}
      </form>
      <h3>Members</h3>
      {everyone ? <p className="hint">Every member of the organization is in this group.</p> : (
        <form
          className="search"
          onSubmit={(e) => {
            e.preventDefault()
            const form = e.currentTarget
            const user = String(new FormData(form).get("user") ?? "").trim()
            if (user !== "") patch.mutate({ add: user }, { onSuccess: () => form.reset() })
          }}
        >
          <label htmlFor={userId}>Username to add to the group</label>
          <input id={userId} name="user" required autoComplete="off" />
          <button type="submit" disabled={patch.isPending}>Add to group</button>
        </form>
      )}
      {g.members.length === 0 ? <p className="empty">No members yet.</p> : (
        <table>
          <caption className="visually-hidden">Members of {g.display_name || g.name}</caption>
          <thead>
            <tr>
              <th scope="col">User</th>
              <th scope="col">Status</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {g.members.map((m) => (
              <tr key={m.id}>
                <th scope="row">
                  {m.username}
                  <span className="owner">{m.email}</span>
                </th>
                <td>{m.status === "active" ? "Active" : "Suspended"}</td>
                <td>
                  {everyone ? null : (
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`Remove ${m.username} from the group`}
                      disabled={patch.isPending}
                      onClick={() => patch.mutate({ remove: m.id })}
                    >
                      Remove
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {everyone ? null : (
        <div className="actions">
          <ConfirmButton
            label="Delete group"
            title={`Delete the group ${g.name}?`}
            danger
            onConfirm={() => remove.mutate()}
          >
            <p>Its members keep their accounts; the group and its quota allowance go.</p>
          </ConfirmButton>
        </div>
      )}
    </>
  )
}
