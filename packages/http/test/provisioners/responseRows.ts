/**
 * The response schema table's rows of the provisioner jobs, daemons and keys endpoints
 * (packages/http/src/provisioners/), run by ../responseSchemas.ts.
 */
import { ProvisionerJobs } from "@workbay/core"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expect } from "vitest"
import { type Row, row, type World } from "../responseSchemas.js"
import { uniqueName } from "../support.js"
import { connect, eventually } from "../websocket.js"
import { hostDaemon } from "./hosts.js"

/** A job no worker serves (pending) and one the built-in workers claimed and failed (no executor for its type yet). */
const seedJobs = async (w: World) => {
  const enqueue = (provisioner: string) =>
    w.srv.run(Effect.flatMap(ProvisionerJobs, (jobs) =>
      jobs.enqueue({
        organization_id: w.orgId,
        initiator_id: w.ownerId,
        provisioner,
        type: "template_version_import",
        file_id: randomUUID(),
        input: { template_version_id: randomUUID() },
        tags: {}
      })))
  const pending = (await enqueue("terraform")).id
  const failed = (await enqueue("workbay")).id
  for (let i = 0; i < 200; i++) {
    const job = await w.srv.run(Effect.flatMap(ProvisionerJobs, (jobs) => jobs.get(failed)))
    if (job.completed_at !== null) break
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return { pending, failed }
}

export const responseRows: ReadonlyArray<Row> = [
  // templates: provisioner jobs and daemons
  row(
    "provisionerJobs.list",
    "GET /api/v2/organizations/:organization/provisionerjobs",
    200,
    "[ProvisionerJob]",
    async (w) => {
      await seedJobs(w)
      return [
        await w.owner.get(`/organizations/${w.orgId}/provisionerjobs`),
        await w.owner.get(`/organizations/${w.orgId}/provisionerjobs?status=pending,failed&limit=5`)
      ]
    }
  ),
  row(
    "provisionerJobs.get",
    "GET /api/v2/organizations/:organization/provisionerjobs/:job",
    200,
    "ProvisionerJob",
    async (w) => {
      const { pending, failed } = await seedJobs(w)
      return [
        await w.owner.get(`/organizations/${w.orgId}/provisionerjobs/${pending}`),
        await w.owner.get(`/organizations/${w.orgId}/provisionerjobs/${failed}`)
      ]
    }
  ),
  row(
    "provisionerJobs.listDaemons",
    "GET /api/v2/organizations/:organization/provisionerdaemons",
    200,
    "[ProvisionerDaemon]",
    async (w) => {
      await seedJobs(w)
      // bob reads the daemons of `org` as one of its members.
      await w.owner.post(`/organizations/${w.org.id}/members/${w.bob.user.id}`)
      return [
        await w.owner.get(`/organizations/${w.orgId}/provisionerdaemons`),
        await w.bob.client.get(`/organizations/${w.org.id}/provisionerdaemons`)
      ]
    }
  ),
  row(
    "provisionerJobs.listHosts",
    "GET /api/v2/organizations/:organization/provisionerhosts",
    200,
    "[ProvisionerHost]",
    async (w) => {
      const made = await w.owner.post(`/organizations/${w.orgId}/provisionerkeys`, { name: uniqueName("key") })
      const host = uniqueName("host")
      const daemon = await hostDaemon(w.srv.wsUrl, w.orgId, made.body.key, host)
      daemon.report({ disk_free_bytes: null })
      // The report is this replica's until written: it is listed at once.
      let r = await w.owner.get(`/organizations/${w.orgId}/provisionerhosts`)
      for (let i = 0; i < 500 && !(r.body as Array<any>).some((h) => h.name === host); i++) {
        await new Promise((resolve) => setTimeout(resolve, 20))
        r = await w.owner.get(`/organizations/${w.orgId}/provisionerhosts`)
      }
      daemon.ws.socket.close()
      return r
    }
  ),
  row(
    "provisionerJobs.patchHost",
    "PATCH /api/v2/organizations/:organization/provisionerhosts/:host",
    200,
    "ProvisionerHost",
    async (w) => {
      const made = await w.owner.post(`/organizations/${w.orgId}/provisionerkeys`, { name: uniqueName("key") })
      const host = uniqueName("host")
      const daemon = await hostDaemon(w.srv.wsUrl, w.orgId, made.body.key, host)
      daemon.report()
      // Drained once the report is stored (the route writes this replica's reports first).
      let r = await w.owner.patch(`/organizations/${w.orgId}/provisionerhosts/${host}`, { draining: true })
      for (let i = 0; i < 500 && r.status === 404; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20))
        r = await w.owner.patch(`/organizations/${w.orgId}/provisionerhosts/${host}`, { draining: true })
      }
      daemon.ws.socket.close()
      expect(r.body.draining).toBe(true)
      return r
    }
  ),
  // provisioner keys, and the external daemons' serve route (its first message is the daemon's `welcome`)
  row(
    "provisionerKeys.create",
    "POST /api/v2/organizations/:organization/provisionerkeys",
    201,
    "CreateProvisionerKeyResponse",
    (w) => w.owner.post(`/organizations/${w.orgId}/provisionerkeys`, { name: uniqueName("key"), tags: { pool: "a" } })
  ),
  row(
    "provisionerKeys.list",
    "GET /api/v2/organizations/:organization/provisionerkeys",
    200,
    "[ProvisionerKey]",
    async (w) => {
      await w.owner.post(`/organizations/${w.orgId}/provisionerkeys`, { name: uniqueName("key") })
      return w.bob.client.get(`/organizations/${w.orgId}/provisionerkeys`)
    }
  ),
  row(
    "provisionerKeys.listDaemons",
    "GET /api/v2/organizations/:organization/provisionerkeys/daemons",
    200,
    "[ProvisionerKeyDaemons]",
    async (w) => {
      const made = await w.owner.post(`/organizations/${w.orgId}/provisionerkeys`, { name: uniqueName("key") })
      const ws = await connect(
        `${w.srv.wsUrl}/api/v2/organizations/${w.orgId}/provisionerdaemons/serve?provisioner=script&name=${
          uniqueName("d")
        }`,
        {
          "Coder-Provisioner-Daemon-Key": made.body.key
        }
      )
      await eventually(() => ws.messages.length > 0)
      const r = await w.owner.get(`/organizations/${w.orgId}/provisionerkeys/daemons`)
      ws.socket.close()
      expect((r.body as Array<any>).some((k) => k.daemons.length === 1)).toBe(true)
      return r
    }
  ),
  row(
    "provisionerKeys.delete",
    "DELETE /api/v2/organizations/:organization/provisionerkeys/:provisionerkey",
    204,
    "none",
    async (w) => {
      const name = uniqueName("key")
      await w.owner.post(`/organizations/${w.orgId}/provisionerkeys`, { name })
      return w.owner.delete(`/organizations/${w.orgId}/provisionerkeys/${name}`)
    }
  ),
  row("provisionerDaemonServe.key", "GET /api/v2/provisionerkeys/:provisionerkey", 200, "ProvisionerKey", async (w) => {
    const made = await w.owner.post(`/organizations/${w.orgId}/provisionerkeys`, {
      name: uniqueName("key"),
      tags: { pool: "a" }
    })
    return w.srv.anonymous.request("GET", `/provisionerkeys/${made.body.key}`, undefined, {
      headers: { "Coder-Provisioner-Daemon-Key": made.body.key }
    })
  }),
  row(
    "provisionerDaemonServe.serve",
    "GET /api/v2/organizations/:organization/provisionerdaemons/serve",
    101,
    "none",
    async (w) => {
      const made = await w.owner.post(`/organizations/${w.orgId}/provisionerkeys`, { name: uniqueName("key") })
      const ws = await connect(
        `${w.srv.wsUrl}/api/v2/organizations/${w.orgId}/provisionerdaemons/serve?provisioner=script`,
        {
          "Coder-Provisioner-Daemon-Key": made.body.key
        }
      )
      await eventually(() => ws.messages.length > 0)
      ws.socket.close()
      const welcome = JSON.parse(ws.messages[0]!)
      expect(welcome).toMatchObject({
        type: "welcome",
        protocol: "1.3",
        organization_id: w.orgId,
        provisioners: ["script"]
      })
      return { status: 101, body: undefined, headers: new Headers() }
    }
  )
]
