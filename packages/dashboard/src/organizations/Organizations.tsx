import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { Link, useNavigate } from "react-router"
import { usePermissions } from "../api/permissions.ts"
import { ErrorMessage, Field, formValues } from "../ui/Form.tsx"
import { organizationsApi as api } from "./api.ts"
import { organizationKeys, organizationsQuery } from "./queries.ts"
import "./styles.css"

/** The organizations (`GET /organizations`), each linking to its page; a new one (`POST /organizations`). */
export const OrganizationsPage = () => {
  const list = useQuery(organizationsQuery)
  const may = usePermissions().data
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const create = useMutation({
    mutationFn: (v: { name: string; display_name: string }) =>
      api.create({ name: v.name, ...(v.display_name === "" ? {} : { display_name: v.display_name }) }),
    onSuccess: async (o) => {
      await queryClient.invalidateQueries({ queryKey: organizationKeys.list })
      navigate(`/organizations/${o.name}/members`)
    }
  })
  return (
    <>
      <h1>Organizations</h1>
      <ErrorMessage error={list.error} />
      {list.data === undefined ? <p role="status">Loading organizations…</p> : (
        <table>
          <caption className="visually-hidden">Organizations</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Description</th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((o) => (
              <tr key={o.id}>
                <th scope="row">
                  <Link to={`/organizations/${o.name}/members`}>{o.display_name || o.name}</Link>
                  <span className="owner">{o.name}{o.is_default ? " (default)" : ""}</span>
                </th>
                <td>{o.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {may?.createOrganization === true
        ? (
          <section aria-labelledby="new-org">
            <h2 id="new-org">Create an organization</h2>
            <form
              className="inline-form"
              onSubmit={(e) => {
                e.preventDefault()
                const v = formValues(e.currentTarget)
                create.mutate({ name: v["org-name"] ?? "", display_name: v["org-display-name"] ?? "" })
              }}
            >
              <Field label="Name" name="org-name" hint="Letters, digits and dashes." />
              <Field label="Display name" name="org-display-name" required={false} />
              <ErrorMessage error={create.error} />
              <button type="submit" disabled={create.isPending}>Create organization</button>
            </form>
          </section>
        )
        : null}
    </>
  )
}
