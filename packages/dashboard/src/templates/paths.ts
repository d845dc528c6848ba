/** Where a template's pages are, for links from any area. */
import { useQuery } from "@tanstack/react-query"
import type { Template } from "./api.ts"
import { defaultOrganizationQuery } from "./queries.ts"

/**
 * A template's pages: `/templates/<name>` in the default organization, as the described system's,
 * and `/templates/<organization>/<name>` in any other.
 */
export const templatePath = (name: string, organization?: string) =>
  organization === undefined
    ? `/templates/${encodeURIComponent(name)}`
    : `/templates/${encodeURIComponent(organization)}/${encodeURIComponent(name)}`

/** The path of a listed template (its organization named unless it is the default one). */
export const useTemplatePath = () => {
  const fallback = useQuery(defaultOrganizationQuery).data?.name
  return (t: Pick<Template, "name" | "organization_name">) =>
    templatePath(t.name, fallback === undefined || t.organization_name === fallback ? undefined : t.organization_name)
}
