/**
 * The access table's workspaces made through their own routes, for the workspace and agent rows:
 * workspaces of `someone` (a plain member of `org`) made by the setup owner from a template Everyone may use.
 */
import type { AccessTable, Row } from "../accessTable.js"
import { makeTemplate } from "../templates/fixtures.js"
import { runJobs } from "../templates/versions.js"
import { FREE_TEMPLATE, makeTemplate as importTemplate } from "./fixtures.js"

/** Who reads a workspace of `someone` in `org`: owners, organization admins and (site or `org`) template admins. */
export const READ: Row["expected"] = [200, 404, 404, 200, 404, 200, 404, 404, 404, 200]

export interface MadeWorkspace {
  readonly id: string
  readonly name: string
  readonly buildId: string
  readonly templateId: string
}

export const wsCheck = (action: string, w: { id: string }) => ({
  action,
  object: { resource_type: "workspace", resource_id: w.id }
})

const make = (tbl: AccessTable) => {
  const { unique } = tbl
  /** A template of `org` the built-in workers build (once). */
  let builtTemplate: Promise<{ id: string }> | undefined
  const built = () => (builtTemplate ??= importTemplate(tbl.srv, tbl.admin, tbl.org.id, FREE_TEMPLATE))
  /** A template of `org` whose builds nobody runs (their jobs stay pending), once. */
  let idleTemplate: Promise<{ id: string }> | undefined
  const idle = () => (idleTemplate ??= makeTemplate(tbl.srv, tbl.admin, {
    organizationId: tbl.org.id,
    createdBy: tbl.adminId,
    name: unique("tbl-idle-tpl")
  }))
  /** A workspace of `owner` (default `someone`) in `orgId`, created by the setup owner through the route; built unless `pending`. */
  const routeWorkspace = async (
    options: { pending?: boolean; owner?: string; orgId?: string; body?: Record<string, unknown> } = {}
  ): Promise<MadeWorkspace> => {
    const orgId = options.orgId ?? tbl.org.id
    const t = options.pending === true ? await idle() : orgId === tbl.org.id ? await built() : await ownTemplate()
    const r = await tbl.admin.post(`/organizations/${orgId}/members/${options.owner ?? tbl.someone}/workspaces`, {
      name: unique("tbl-ws"),
      template_id: t.id,
      ...options.body
    })
    if (r.status !== 200) throw new Error(`workspace: ${r.status} ${JSON.stringify(r.body)}`)
    if (options.pending !== true) await runJobs(tbl.srv)
    return { id: r.body.id, name: r.body.name, buildId: r.body.latest_build.id, templateId: t.id }
  }
  /** A template of the default organization (where every role's user is a member), for their own workspaces. */
  let defaultTemplate: Promise<{ id: string }> | undefined
  const ownTemplate = () => (defaultTemplate ??= importTemplate(tbl.srv, tbl.admin, tbl.defaultOrg, FREE_TEMPLATE))
  /** One built workspace of `someone` for the rows that only read. */
  let shared: Promise<MadeWorkspace> | undefined
  const readOnly = () => (shared ??= routeWorkspace())
  return { built, ownTemplate, routeWorkspace, readOnly }
}

/** The table's workspace helpers (its templates and shared workspace made once, on first use). */
export const routeWorkspaces = (tbl: AccessTable) => tbl.once(make)
