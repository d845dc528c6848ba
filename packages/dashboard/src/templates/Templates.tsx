/**
 * The templates the caller can see (`/templates`): `GET /templates` as a table (name and display
 * name, description, active version, how many use it), each linking to its page, and "Create
 * template". The active version's name is read per row (`GET /templateversions/{id}`), cached
 * under the key the template's page reads too.
 */
import { useQuery } from "@tanstack/react-query"
import { Link } from "react-router"
import { ErrorMessage } from "../ui/Form.tsx"
import { displayName, type Template } from "./api.ts"
import { useTemplatePath } from "./paths.ts"
import { templatesQuery, versionQuery } from "./queries.ts"
import "./styles.css"

export const useVersion = (id: string) => useQuery(versionQuery(id))

const ActiveVersion = ({ template }: { template: Template }) => {
  const version = useVersion(template.active_version_id)
  return <>{version.data?.name ?? (version.isError ? "—" : "…")}</>
}

export const TemplatesPage = () => {
  const list = useQuery(templatesQuery)
  const pathOf = useTemplatePath()
  return (
    <div className="templates">
      <div className="heading">
        <h1>Templates</h1>
        <Link className="button" to="/templates/new">Create template</Link>
      </div>
      <ErrorMessage error={list.error} />
      {list.isPending
        ? <p role="status">Loading templates…</p>
        : list.data === undefined
        ? null
        : list.data.length === 0
        ? <p className="empty">No templates yet. Create one from a starter template or an archive.</p>
        : (
          <table>
            <caption className="visually-hidden">Templates, {list.data.length} in all</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Description</th>
                <th scope="col">Active version</th>
                <th scope="col">Used by</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((t) => (
                <tr key={t.id}>
                  <th scope="row">
                    <Link to={pathOf(t)}>{displayName(t)}</Link>
                    {displayName(t) === t.name ? null : <span className="owner">{t.name}</span>}
                    {t.deprecated ? <span className="badge">Deprecated</span> : null}
                  </th>
                  <td>{t.description === "" ? "—" : t.description}</td>
                  <td>
                    <ActiveVersion template={t} />
                  </td>
                  <td>
                    {t.active_user_count} {t.active_user_count === 1 ? "developer" : "developers"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
    </div>
  )
}
