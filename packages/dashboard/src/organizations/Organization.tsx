import { useQuery } from "@tanstack/react-query"
import { Suspense } from "react"
import { NavLink, Outlet, useParams } from "react-router"
import { ErrorMessage } from "../ui/Form.tsx"
import { organizationQuery } from "./queries.ts"
import "./styles.css"

/** The organization of the address (`:org`, its name or id). */
export const useOrganization = () => {
  const { org = "" } = useParams()
  return useQuery(organizationQuery(org))
}

/** An organization's frame (`/organizations/:org/...`): its name, and its pages' navigation. */
export const OrganizationFrame = () => {
  const { org = "" } = useParams()
  const organization = useOrganization()
  const base = `/organizations/${encodeURIComponent(org)}`
  return (
    <>
      <p className="crumb">Organization</p>
      <h1>{organization.data === undefined ? org : organization.data.display_name || organization.data.name}</h1>
      <ErrorMessage error={organization.error} />
      <nav aria-label="Organization" className="tabs">
        <ul>
          <li>
            <NavLink to={`${base}/members`}>Members</NavLink>
          </li>
          <li>
            <NavLink to={`${base}/groups`}>Groups</NavLink>
          </li>
          <li>
            <NavLink to={`${base}/roles`}>Roles</NavLink>
          </li>
          <li>
            <NavLink to={`${base}/provisioners`}>Provisioners</NavLink>
          </li>
          <li>
            <NavLink to={`${base}/idp-sync`}>IdP sync</NavLink>
          </li>
        </ul>
      </nav>
      {organization.data === undefined ? null : (
        <Suspense fallback={<p role="status">Loading…</p>}>
          <Outlet />
        </Suspense>
      )}
    </>
  )
}
