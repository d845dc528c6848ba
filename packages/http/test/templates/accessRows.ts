/**
 * The access table's rows of the files, templates, template versions and prebuild settings routes
 * (packages/http/src/templates/), run by ../accessTable.ts.
 */
import type { AreaRows, Row } from "../accessTable.js"
import { newTemplate, templateCheck } from "./accessFixtures.js"
import { makeVersion } from "./fixtures.js"

export const accessRows: AreaRows = (tbl) => {
  const { unique } = tbl
  // Files have no organization: only site-wide file readers see another user's file.
  // Templates: organization members reach them through the Everyone group's `use` entry, not
  // through a role; a private template only its organization's template readers see.
  // Template versions of no template are the `template` resource of their organization.
  return [
    {
      kind: "file",
      action: "create",
      route: "POST /files",
      expected: [201, 201, 201, 201, 201, 201, 201, 201, 201, 201],
      attempt: async (who) => ({
        method: "POST",
        path: "/files",
        raw: { text: unique("archive"), contentType: "application/x-tar" },
        check: { action: "create", object: { resource_type: "file", owner_id: who.id } }
      })
    },
    {
      kind: "file",
      action: "read",
      route: "GET /files/{fileID} (another user's)",
      expected: [200, 404, 404, 200, 404, 404, 404, 404, 404, 404],
      attempt: async () => ({
        method: "GET",
        path: `/files/${tbl.file}`,
        check: { action: "read", object: { resource_type: "file", resource_id: tbl.file, owner_id: tbl.adminId } }
      })
    },
    {
      kind: "template",
      action: "create",
      route: "POST /organizations/{organization}/templates",
      expected: [201, 404, 403, 201, 403, 201, 403, 403, 403, 201],
      attempt: async () => {
        const version = await makeVersion(tbl.srv, { organizationId: tbl.org.id, createdBy: tbl.adminId })
        return {
          method: "POST",
          path: `/organizations/${tbl.org.id}/templates`,
          body: { name: unique("tbl-tpl"), template_version_id: version.id },
          check: { action: "create", object: { resource_type: "template", organization_id: tbl.org.id } }
        }
      }
    },
    {
      kind: "template",
      action: "read",
      route: "GET /templates/{template} (Everyone may use it)",
      expected: [200, 404, 200, 200, 404, 200, 200, 200, 200, 200],
      attempt: async () => {
        const t = await newTemplate(tbl)
        return { method: "GET", path: `/templates/${t.id}`, check: templateCheck(tbl, "read", t) }
      }
    },
    {
      kind: "template",
      action: "read",
      route: "GET /templates/{template} (private)",
      expected: [200, 404, 200, 200, 404, 200, 404, 200, 404, 200],
      attempt: async () => {
        const t = await newTemplate(tbl, true)
        return { method: "GET", path: `/templates/${t.id}`, check: templateCheck(tbl, "read", t) }
      }
    },
    {
      kind: "template",
      action: "read",
      route: "GET /organizations/{organization}/templates/examples",
      expected: [200, 404, 200, 200, 404, 200, 404, 200, 404, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${tbl.org.id}/templates/examples`,
        check: { action: "read", object: { resource_type: "template", organization_id: tbl.org.id } }
      })
    },
    {
      kind: "template",
      action: "read",
      route: "GET /templates/examples (templates of any organization)",
      expected: [200, 404, 200, 200, 404, 200, 404, 200, 404, 200],
      attempt: async () => ({
        method: "GET",
        path: "/templates/examples",
        check: { action: "read", object: { resource_type: "template", any_org: true } }
      })
    },
    {
      kind: "template",
      action: "update",
      route: "PATCH /templates/{template}",
      expected: [200, 404, 403, 200, 404, 200, 403, 403, 403, 200],
      attempt: async () => {
        const t = await newTemplate(tbl)
        return {
          method: "PATCH",
          path: `/templates/${t.id}`,
          body: { display_name: unique("Tpl") },
          check: templateCheck(tbl, "update", t)
        }
      }
    },
    {
      kind: "template",
      action: "update",
      route: "PATCH /templates/{template}/acl",
      expected: [200, 404, 403, 200, 404, 200, 403, 403, 403, 200],
      attempt: async () => {
        const t = await newTemplate(tbl)
        return {
          method: "PATCH",
          path: `/templates/${t.id}/acl`,
          body: { group_perms: { [tbl.org.id]: "" } },
          check: templateCheck(tbl, "update", t)
        }
      }
    },
    {
      kind: "template",
      action: "delete",
      route: "DELETE /templates/{template}",
      expected: [200, 404, 403, 200, 404, 200, 403, 403, 403, 200],
      attempt: async () => {
        const t = await newTemplate(tbl)
        return { method: "DELETE", path: `/templates/${t.id}`, check: templateCheck(tbl, "delete", t) }
      }
    },
    {
      kind: "template",
      action: "create",
      route: "POST /organizations/{organization}/templateversions",
      expected: [201, 404, 403, 201, 403, 201, 403, 403, 403, 201],
      attempt: async (who) => {
        const up = await who.client.request("POST", "/files", undefined, {
          raw: unique("version archive"),
          headers: { "content-type": "application/x-tar" }
        })
        return {
          method: "POST",
          path: `/organizations/${tbl.org.id}/templateversions`,
          body: { storage_method: "file", file_id: up.body.hash, provisioner: "none-here", tags: {} },
          check: { action: "create", object: { resource_type: "template", organization_id: tbl.org.id } }
        }
      }
    },
    {
      kind: "template",
      action: "read",
      route: "GET /templateversions/{templateversion}",
      expected: [200, 404, 200, 200, 404, 200, 404, 200, 404, 200],
      attempt: async () => ({
        method: "GET",
        path: `/templateversions/${tbl.version}`,
        check: { action: "read", object: { resource_type: "template", organization_id: tbl.org.id } }
      })
    },
    {
      kind: "template",
      action: "read",
      route: "POST /templateversions/{templateversion}/dynamic-parameters/evaluate",
      expected: [200, 404, 200, 200, 404, 200, 404, 200, 404, 200],
      attempt: async () => ({
        method: "POST",
        path: `/templateversions/${tbl.version}/dynamic-parameters/evaluate`,
        body: { id: 1, inputs: {} },
        check: { action: "read", object: { resource_type: "template", organization_id: tbl.org.id } }
      })
    },
    ...(["parameters", "schema"] as const).map((route): Row => ({
      kind: "template",
      action: "read",
      route: `GET /templateversions/{templateversion}/${route} (removed: [])`,
      expected: [200, 404, 200, 200, 404, 200, 404, 200, 404, 200],
      attempt: async () => ({
        method: "GET",
        path: `/templateversions/${tbl.version}/${route}`,
        check: { action: "read", object: { resource_type: "template", organization_id: tbl.org.id } }
      })
    })),
    {
      kind: "template",
      action: "update",
      route: "PATCH /templateversions/{templateversion}",
      expected: [200, 404, 403, 200, 404, 200, 404, 403, 404, 200],
      attempt: async () => ({
        method: "PATCH",
        path: `/templateversions/${tbl.version}`,
        body: { message: unique("message") },
        check: { action: "update", object: { resource_type: "template", organization_id: tbl.org.id } }
      })
    },
    {
      // As the described system's dbauthz `UpsertPrebuildsSettings` (reading them checks nothing).
      kind: "deployment_config",
      action: "update",
      route: "PUT /prebuilds/settings",
      expected: [200, 403, 403, 403, 403, 403, 403, 403, 403, 403],
      attempt: async () => {
        await tbl.admin.put("/prebuilds/settings", { reconciliation_paused: false })
        return {
          method: "PUT",
          path: "/prebuilds/settings",
          body: { reconciliation_paused: true },
          check: { action: "update", object: { resource_type: "deployment_config" } }
        }
      }
    }
  ]
}
