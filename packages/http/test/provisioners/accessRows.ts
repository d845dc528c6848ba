/**
 * The access table's rows of the provisioner jobs, daemons and keys routes (packages/http/src/provisioners/),
 * run by ../accessTable.ts.
 */
import type { AreaRows } from "../accessTable.js"
import { eventually } from "../websocket.js"
import { hostDaemon } from "./hosts.js"

export const accessRows: AreaRows = (tbl) => {
  //                      own  mem  aud  tad  uad  oadm omem oaud ousr otad
  // Provisioner keys: made and deleted with `provisioner_daemon` rights in the organization.
  const newKey = async () => {
    const name = `key-${Math.random().toString(36).slice(2, 10)}`
    const r = await tbl.admin.post(`/organizations/${tbl.org.id}/provisionerkeys`, { name })
    if (r.status !== 201) throw new Error(`key: ${r.status} ${JSON.stringify(r.body)}`)
    return name
  }
  const keyCheck = (action: string) => ({
    action,
    object: { resource_type: "provisioner_daemon", organization_id: tbl.org.id }
  })
  /** A host of the organization (a daemon of a new key reports it), made once for every role's attempt. */
  let host: Promise<string> | undefined
  const drainable = () =>
    host ??= (async () => {
      const key = (await tbl.admin.post(`/organizations/${tbl.org.id}/provisionerkeys`, {
        name: `key-${Math.random().toString(36).slice(2, 10)}`
      })).body.key as string
      const name = `host-${Math.random().toString(36).slice(2, 10)}`
      const daemon = await hostDaemon(tbl.srv.wsUrl, tbl.org.id, key, name)
      daemon.report()
      // The report is taken once the daemon's next message is answered: an unknown job is refused.
      daemon.ws.socket.send(JSON.stringify({ type: "heartbeat", job_id: "00000000-0000-4000-8000-000000000001" }))
      await eventually(() => daemon.ws.messages.length > 1)
      return name
    })()
  return [
    {
      kind: "provisioner_jobs",
      action: "read",
      route: "GET /organizations/{organization}/provisionerjobs",
      expected: [200, 404, 403, 200, 403, 200, 403, 403, 403, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${tbl.org.id}/provisionerjobs`,
        check: { action: "read", object: { resource_type: "provisioner_jobs", organization_id: tbl.org.id } }
      })
    },
    {
      kind: "provisioner_jobs",
      action: "read",
      route: "GET /organizations/{organization}/provisionerjobs/{job}",
      expected: [200, 404, 404, 200, 404, 200, 404, 404, 404, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${tbl.org.id}/provisionerjobs/${tbl.job}`,
        check: { action: "read", object: { resource_type: "provisioner_jobs", organization_id: tbl.org.id } }
      })
    },
    {
      // Draining a host: who may manage daemons (an unknown host answers 404 after the check).
      kind: "provisioner_daemon",
      action: "update",
      route: "PATCH /organizations/{organization}/provisionerhosts/{host}",
      expected: [200, 404, 403, 200, 403, 200, 403, 403, 403, 403],
      attempt: async () => ({
        method: "PATCH",
        path: `/organizations/${tbl.org.id}/provisionerhosts/${await drainable()}`,
        body: { draining: true },
        check: { action: "update", object: { resource_type: "provisioner_daemon", organization_id: tbl.org.id } }
      })
    },
    {
      // Hosts: who may read daemons may read the hosts they run on.
      kind: "provisioner_daemon",
      action: "read",
      route: "GET /organizations/{organization}/provisionerhosts",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${tbl.defaultOrg}/provisionerhosts`,
        check: { action: "read", object: { resource_type: "provisioner_daemon", organization_id: tbl.defaultOrg } }
      })
    },
    {
      // Every user may read daemons (site members too); the default organization, which all are in.
      kind: "provisioner_daemon",
      action: "read",
      route: "GET /organizations/{organization}/provisionerdaemons",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${tbl.defaultOrg}/provisionerdaemons`,
        check: { action: "read", object: { resource_type: "provisioner_daemon", organization_id: tbl.defaultOrg } }
      })
    },
    {
      kind: "provisioner_daemon",
      action: "create",
      route: "POST /organizations/{organization}/provisionerkeys",
      expected: [201, 404, 403, 201, 403, 201, 403, 403, 403, 403],
      attempt: async () => ({
        method: "POST",
        path: `/organizations/${tbl.org.id}/provisionerkeys`,
        body: { name: `key-${Math.random().toString(36).slice(2, 10)}` },
        check: keyCheck("create")
      })
    },
    {
      // Every user reads daemons and so the keys' names and tags (never their secrets), as in the
      // described system; the default organization, which all are in.
      kind: "provisioner_daemon",
      action: "read",
      route: "GET /organizations/{organization}/provisionerkeys",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${tbl.defaultOrg}/provisionerkeys`,
        check: { action: "read", object: { resource_type: "provisioner_daemon", organization_id: tbl.defaultOrg } }
      })
    },
    {
      kind: "provisioner_daemon",
      action: "read",
      route: "GET /organizations/{organization}/provisionerkeys/daemons",
      expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
      attempt: async () => ({
        method: "GET",
        path: `/organizations/${tbl.defaultOrg}/provisionerkeys/daemons`,
        check: { action: "read", object: { resource_type: "provisioner_daemon", organization_id: tbl.defaultOrg } }
      })
    },
    {
      kind: "provisioner_daemon",
      action: "delete",
      route: "DELETE /organizations/{organization}/provisionerkeys/{provisionerkey}",
      expected: [204, 404, 403, 204, 403, 204, 403, 403, 403, 403],
      attempt: async () => {
        const name = await newKey()
        return {
          method: "DELETE",
          path: `/organizations/${tbl.org.id}/provisionerkeys/${name}`,
          check: keyCheck("delete")
        }
      }
    }
  ]
}
