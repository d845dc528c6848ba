/** The access table's templates of `org`, for the template and insights rows. */
import type { AccessTable } from "../accessTable.js"
import { makeTemplate } from "./fixtures.js"

/** A template of `org` made by the setup owner; the Everyone group may use it unless `private`. */
export const newTemplate = (tbl: AccessTable, isPrivate = false) =>
  makeTemplate(tbl.srv, tbl.admin, {
    organizationId: tbl.org.id,
    createdBy: tbl.adminId,
    name: tbl.unique("tbl-tpl"),
    body: isPrivate ? { disable_everyone_group_access: true } : {}
  })

export const templateCheck = (tbl: AccessTable, action: string, t: { id: string }) => ({
  action,
  object: { resource_type: "template", resource_id: t.id, organization_id: tbl.org.id }
})
