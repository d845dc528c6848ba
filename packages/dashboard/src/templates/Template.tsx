/**
 * A template's pages (`/templates/:template`, looked up by name in the default organization:
 * `GET /organizations/default/templates/{name}`): the frame with the template's name, "Create
 * workspace" and its tabs (summary, versions, settings, variables, permissions, insights), and the summary
 * with its prebuilt workspaces (Prebuilds.tsx) and the active version's README.
 */
import { useQuery } from "@tanstack/react-query"
import { lazy, Suspense } from "react"
import { Link, NavLink, Outlet, useOutletContext, useParams } from "react-router"
import { ErrorMessage } from "../ui/Form.tsx"
import { Time } from "../ui/Time.tsx"
import { displayName, type Template } from "./api.ts"
import { templatePath } from "./paths.ts"
import { TemplatePrebuilds } from "./Prebuilds.tsx"
import { templateQuery } from "./queries.ts"
import { useVersion } from "./Templates.tsx"
import "./styles.css"

// react-markdown and its parsers are a chunk of their own, loaded when a README is shown.
const Markdown = lazy(() => import("../ui/Markdown.tsx").then((m) => ({ default: m.Markdown })))

/** The template of the page (the frame reads it; its pages get it from the frame). */
export const useTemplate = () => useOutletContext<Template>()

export const TemplateLayout = () => {
  const { template: name = "", organization } = useParams()
  const template = useQuery(templateQuery(name, organization))
  if (template.isPending) return <p role="status">Loading the template…</p>
  if (template.isError) {
    return (
      <>
        <h1>{name}</h1>
        <ErrorMessage error={template.error} />
        <p>
          <Link to="/templates">All templates</Link>
        </p>
      </>
    )
  }
  const t = template.data
  const base = templatePath(t.name, organization)
  return (
    <div className="templates">
      <p>
        <Link to="/templates">All templates</Link>
      </p>
      <div className="heading">
        <div>
          <h1>{displayName(t)}</h1>
          {t.description === "" ? null : <p className="lede">{t.description}</p>}
        </div>
        <Link className="button" to={`${base}/workspace`}>Create workspace</Link>
      </div>
      {t.deprecated
        ? <p className="notice">This template is deprecated: {t.deprecation_message}</p>
        : null}
      <nav aria-label="Template" className="tabs">
        <ul>
          <li>
            <NavLink end to={base}>Summary</NavLink>
          </li>
          <li>
            <NavLink to={`${base}/versions`}>Versions</NavLink>
          </li>
          <li>
            <NavLink to={`${base}/settings`}>Settings</NavLink>
          </li>
          <li>
            <NavLink to={`${base}/variables`}>Variables</NavLink>
          </li>
          <li>
            <NavLink to={`${base}/permissions`}>Permissions</NavLink>
          </li>
          <li>
            <NavLink to={`${base}/insights`}>Insights</NavLink>
          </li>
        </ul>
      </nav>
      <Outlet context={t} />
    </div>
  )
}

/** The summary: the template's facts, and the active version's README as Markdown. */
export const TemplateSummary = () => {
  const t = useTemplate()
  const version = useVersion(t.active_version_id)
  return (
    <>
      <h2 className="visually-hidden">Summary</h2>
      <dl className="facts">
        <dt>Name</dt>
        <dd>{t.name}</dd>
        <dt>Active version</dt>
        <dd>{version.data?.name ?? "…"}</dd>
        <dt>Provisioner</dt>
        <dd>{t.provisioner}</dd>
        <dt>Used by</dt>
        <dd>{t.active_user_count} {t.active_user_count === 1 ? "developer" : "developers"}</dd>
        <dt>Created by</dt>
        <dd>{t.created_by_name}</dd>
        <dt>Last updated</dt>
        <dd>
          <Time value={t.updated_at} />
        </dd>
      </dl>
      <ErrorMessage error={version.error} />
      <TemplatePrebuilds template={t} />
      <section aria-labelledby="readme" className="readme">
        <h2 id="readme">README</h2>
        {version.data === undefined
          ? null
          : version.data.readme.trim() === ""
          ? <p className="empty">This version has no README.</p>
          : (
            <Suspense fallback={<p role="status">Loading the README…</p>}>
              <Markdown document>{version.data.readme}</Markdown>
            </Suspense>
          )}
      </section>
    </>
  )
}
