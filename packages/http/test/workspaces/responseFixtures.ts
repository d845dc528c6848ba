/** The workspaces the response schema rows of workspaces and agents read (see ../responseSchemas.ts). */
import { perWorld } from "../responseSchemas.js"
import { uniqueName } from "../support.js"
import { createVersion, runJobs } from "../templates/versions.js"

const WS_TEMPLATE = `parameters:
  - { name: size, default: small, mutable: true }
resources:
  - name: box
    type: machine
    agents:
      - { name: main, apps: [{ slug: code, url: "http://localhost:1" }] }
      - { name: laptop, external: true, apps: [{ slug: board, url: "http://localhost:2" }] }
`
/** Workspaces the rows read, made once per world: a free template, a running workspace (favorite), a stopped one. */
export const workspacesOf = perWorld(async (w) => {
  const v = await createVersion(w.srv, w.owner, w.orgId, WS_TEMPLATE)
  await runJobs(w.srv)
  const template = (await w.owner.post(`/organizations/${w.orgId}/templates`, {
    name: uniqueName("wst"),
    template_version_id: v.body.id
  })).body
  const make = async (name: string) => {
    const r = await w.owner.post(`/organizations/${w.orgId}/members/me/workspaces`, {
      name,
      template_id: template.id,
      ttl_ms: 3_600_000
    })
    if (r.status !== 200) throw new Error(`workspace: ${r.status} ${JSON.stringify(r.body)}`)
    await runJobs(w.srv)
    return r.body
  }
  const running = await make(uniqueName("run"))
  await w.owner.put(`/workspaces/${running.id}/favorite`)
  const stopped = await make(uniqueName("stop"))
  await w.owner.post(`/workspaces/${stopped.id}/builds`, { transition: "stop" })
  await runJobs(w.srv)
  return { template, running, stopped }
})
